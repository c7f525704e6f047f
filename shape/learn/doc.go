// Package learn learns a deployment's result shape (package shape) from
// what it publishes and answers: its WSDL (the schema's types, element
// names, order and namespaces, the GET/POST root elements) and recorded
// answers (XML and JSON answers to the same query, matched by value, as
// the conformance suite matches them). Either is enough for a working
// shape; together they give the surest one. The Report says what was
// mapped and on what evidence, what was guessed and why, and what could
// not be mapped.
//
// The package reads bytes: callers read cassettes and WSDL files (atmkit
// shape learn does) and hand them over as Samples.
package learn
