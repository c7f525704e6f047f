package mockserver

import (
	"net/http"
	"strconv"

	"github.com/atmkit/atmkit/asmx"
	"github.com/atmkit/atmkit/shape"
	"github.com/atmkit/atmkit/shape/dsxml"
)

// schemaNotFound is the body ASMX answers ?schema=ID with when the WSDL
// imports no schema of that id (the reference deployment's words, with
// HTTP 500 and text/plain).
const schemaNotFound = "Schema not found.\r\n"

// wsdlNotFound is ASMX's answer to ?wsdl=ID (DiscoveryServerProtocol): the
// ids name the descriptions of bindings in other namespaces, which the
// service does not have.
const wsdlNotFound = "XML Web service description was not found.\r\n"

// serveSchema answers ?schema=ID: the schema of the typed DataSet called
// ID, which the WSDL imports from that address, as XmlSchema.Write writes
// it (xmlSchemaForm); any other id is ASMX's error. An untyped DataSet's
// schema is in its answers only.
func (s *Server) serveSchema(w http.ResponseWriter, id string) {
	if d := typedDataSet(s.enc.shape, id); d != nil {
		n, err := dsxml.Schema(d, s.cfg.namespace)
		if err == nil {
			writeDoc(w, asmx.ContentTypeXML, dsxml.Append([]byte(`<?xml version="1.0" encoding="utf-8"?>`), xmlSchemaForm(n), 0, true))
			return
		}
		s.log.Error("schema", "id", id, "error", err)
	}
	writeDocsError(w, schemaNotFound)
}

// writeDocsError writes an error of ASMX's discovery protocol: HTTP 500,
// text/plain, the message (DiscoveryServerProtocol.WriteException).
func writeDocsError(w http.ResponseWriter, text string) {
	h := w.Header()
	h.Set("Content-Type", asmx.ContentTypeText)
	h.Set("Content-Length", strconv.Itoa(len(text)))
	w.WriteHeader(http.StatusInternalServerError)
	_, _ = w.Write([]byte(text))
}

// typedDataSet is the typed DataSet of sh whose schema has the id name (its
// DataSet's name), or nil.
func typedDataSet(sh *shape.Shape, name string) *shape.DataSet {
	if sh == nil {
		return nil
	}
	for _, op := range shape.Operations() {
		if r := sh.Result(op); r != nil && r.Layout == shape.Dataset && r.DataSet != nil &&
			r.DataSet.WSDL == shape.WSDLTyped && r.DataSet.Name == name {
			return r.DataSet
		}
	}
	return nil
}
