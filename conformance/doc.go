// Package conformance is a Ginkgo suite that checks whether a deployment of
// the ATM Location Lookup Service (or atmkit's mock) speaks the service's
// interface document: envelopes and namespaces, SOAPAction, content types,
// parameter order, faults, the equivalence of the bindings, the shape of the
// JSON result and the search semantics.
//
// The suite knows nothing about the target beyond the interface document. It
// builds requests and reads answers itself, with etree and net/http, and it
// finds valid query values (coordinates, postal codes, institution and city
// ids) in the target's own answers, unless [Config] gives them. The XML
// element names of results are not in the document, so the suite never
// assumes them: it finds location nodes by structure (the largest group of
// repeated sibling elements in ReturnAllAtms or, when a search point is
// given, the element of a coordinate search that occurs once per JSON
// location) and matches them with the JSON binding by values.
//
// Every layout ASMX writes a result in conforms: a node inside <OpResult>
// (the node itself the HTTP GET/POST root), typed content inside <OpResult>
// (fields or items; the GET/POST root named by the type, in the service
// namespace), or a DataSet (an inline schema and a diffgram). The specs
// compare the bindings' results in the layout they show, and check ASMX's
// behaviour (SOAP version and routing, fault forms) as Microsoft's .NET
// reference source has it.
//
// Every check is a plain function ([Check]) that returns an error, so it can
// be run without Ginkgo (see [RunChecks]); the Ginkgo specs are thin wrappers
// around them, labelled by binding (soap11, soap12, get, post, json) and by
// kind (documented, asmx, semantics, wsdl; finer: faults, keys, validation,
// routing, equivalence, namespaces). [Run] runs the specs in process,
// as `atmkit conform` does.
package conformance
