package mockserver

import (
	"net/http"

	"github.com/atmkit/atmkit/asmx"
)

// serveDisco answers GET service.asmx?disco: the DISCO discovery document
// ASMX serves, pointing at the WSDL and at the two SOAP bindings; under
// replay, the deployment's own when it was recorded (replay_docs.go).
func (s *Server) serveDisco(w http.ResponseWriter, r *http.Request, ex *exchange) {
	if s.replayer != nil && s.replayDoc(w, r, ex, false) {
		return
	}
	writeDoc(w, asmx.ContentTypeXML, appendDisco(nil, s.cfg.namespace, s.cfg.errorForm.Service, serviceURL(r)))
}

// appendDisco appends the discovery document of the service named service
// (an NCName) at address in namespace ns, its lines broken with CR LF as
// DiscoveryDocument.Write's indenting XmlTextWriter breaks them on .NET
// Framework (TextWriter.CoreNewLine).
func appendDisco(dst []byte, ns, service, address string) []byte {
	addr := asmx.AppendAttr(nil, address)
	esns := asmx.AppendAttr(nil, ns)
	dst = append(dst, "<?xml version=\"1.0\" encoding=\"utf-8\"?>\r\n"+
		`<discovery xmlns:xsd="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns="http://schemas.xmlsoap.org/disco/">`+
		"\r\n  <contractRef ref=\""...)
	dst = append(dst, addr...)
	dst = append(dst, `?wsdl" docRef="`...)
	dst = append(dst, addr...)
	dst = append(dst, `" xmlns="http://schemas.xmlsoap.org/disco/scl/" />`...)
	for i, b := range []string{service + "Soap", service + "Soap12"} {
		q := "q" + string(rune('1'+i))
		dst = append(dst, "\r\n  <soap address=\""...)
		dst = append(dst, addr...)
		dst = append(dst, `" xmlns:`+q+`="`...)
		dst = append(dst, esns...)
		dst = append(dst, `" binding="`+q+":"+b+`" xmlns="http://schemas.xmlsoap.org/disco/soap/" />`...)
	}
	return append(dst, "\r\n</discovery>"...)
}
