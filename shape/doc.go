// Package shape describes how a deployment of the ATM Location Lookup Service
// writes its XML results: the data a user supplies (or atmkit learns, see
// package shape/learn) where the interface document is silent.
//
// The document fixes <OpResponse> and <OpResult> and the JSON binding, but
// not the XML inside <OpResult>. A deployment returns an XML node (layout
// node: one element inside <OpResult>, the document's root in HTTP GET and
// POST), a typed XmlSerializer object (layout typed: <OpResult> is the
// object, its attributes and children are the object's fields; in HTTP GET
// and POST the root is named after the type, e.g. ArrayOfProvince, in the
// service namespace), or a System.Data.DataSet (layout dataset: its inline
// schema and its diffgram in <OpResult>, under a DataSet root in HTTP GET
// and POST; DataSet describes its tables). A Shape says, for each of the
// eight operations, which layout it uses, the element and attribute names
// of every level, which namespace each level is in, how flags and numbers
// are written, the list item names, and where each field of atmkit's data
// model goes (Value) or that a field of the deployment has no counterpart
// in it (Generated).
//
// Shapes are YAML files (Parse, Load, Marshal). Default is the shape atmkit
// has always served. The package holds the description only: the mock
// server compiles its encoder from a Shape, and the conformance suite reads
// answers against one.
package shape
