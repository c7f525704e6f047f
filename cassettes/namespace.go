package cassettes

import (
	"html"
	"strings"

	"github.com/atmkit/atmkit/mockserver"
)

// A replaying server in another service namespace than the deployment an
// answer was recorded from serves the answer in its own: ASMX writes
// <OpResponse>, <OpResult>, a typed result's content and its GET/POST root
// in the service namespace, so the same service deployed in the server's
// namespace answers with the same document, that namespace declared where
// the recorded one was. A client of the server's namespace (its WSDL's)
// would otherwise read nothing from the answer: XmlSerializer skips
// elements of another namespace without an error.

// renamespace returns body with every namespace declaration (xmlns,
// xmlns:p) of from declaring to instead, byte for byte otherwise; body
// unchanged when it is no XML document or declares no from.
func renamespace(body []byte, from, to string) []byte {
	if from == "" || from == to || !strings.Contains(string(body), "xmlns") {
		return body
	}
	doc, err := parseXML(body)
	if err != nil {
		return body
	}
	var out []byte
	at := 0
	var walk func(n *xnode)
	walk = func(n *xnode) {
		if n.kind != xElem && n.kind != xDoc {
			return
		}
		for _, a := range n.attrs {
			if _, decl := declPrefix(a.name); !decl || html.UnescapeString(a.value) != from {
				continue
			}
			end := a.end - 1 // the closing quote
			start := end - len(a.value)
			v := escapeAttr(to)
			if body[end] == '\'' {
				v = strings.ReplaceAll(v, "'", "&apos;")
			}
			out = append(out, body[at:start]...)
			out = append(out, v...)
			at = end
		}
		for _, k := range n.kids {
			walk(k)
		}
	}
	walk(doc)
	if out == nil {
		return body
	}
	return append(out, body[at:]...)
}

// inNamespace returns ans, an answer recorded as r, in v's service
// namespace (renamespace), converted once per view.
func (v *view) inNamespace(r *rendition, ans mockserver.ReplayAnswer) mockserver.ReplayAnswer {
	if v.ns == "" || r.ns == "" || r.ns == v.ns {
		return ans
	}
	if body, ok := v.moved.Load(r); ok {
		ans.Body = body.([]byte)
		return ans
	}
	ans.Body = renamespace(ans.Body, r.ns, v.ns)
	v.moved.Store(r, ans.Body)
	return ans
}
