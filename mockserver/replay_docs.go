package mockserver

import (
	"html"
	"net/http"
	"net/url"
	"strings"

	"github.com/atmkit/atmkit/asmx"
)

// The deployment's own documentation pages under replay (DocReplayer): a
// recorded help page or discovery document is served with its status,
// content type and body as recorded, but for the addresses of the recorded
// deployment, which become the server's own. In a discovery document, the
// location attributes (ref, docRef, address) naming either .asmx file; in a
// help page, the recorded deployment's addresses as text: see discoAt and
// helpAt.

// docFiles are the two .asmx files of the interface document.
var docFiles = [...]string{asmx.ServicePath, asmx.JSONPath}

// replayDoc answers a GET of an .asmx file asking for a help page, the
// discovery document, a schema or a service description the WSDL imports
// (?wsdl=wsdl1) with the deployment's own page, recorded, when the
// replayer holds one; it reports whether it did.
func (s *Server) replayDoc(w http.ResponseWriter, r *http.Request, ex *exchange, json bool) bool {
	dr, ok := s.replayer.(DocReplayer)
	if !ok {
		return false
	}
	kind, op, hasOp := asmx.ParseDocsQuery(r.URL.RawQuery)
	if kind != asmx.DocsHelp && kind != asmx.DocsDisco && kind != asmx.DocsSchema && (kind != asmx.DocsWSDLNotFound || json) {
		return false // the JSON file's WSDLs are not served, ?WSDL as ?wsdl=ID
	}
	q := DocRequest{Kind: kind, JSON: json, Op: op, HasOp: hasOp, Query: r.URL.RawQuery, Namespace: s.cfg.namespace}
	doc, ok := dr.RecordedDoc(q)
	if !ok {
		return false
	}
	origin := originOf(r)
	var body []byte
	switch q.Kind {
	case asmx.DocsDisco:
		body = discoAt(doc.Body, origin)
	case asmx.DocsSchema:
		body = doc.Body // an XML schema names no address of the deployment
	case asmx.DocsWSDLNotFound:
		body = withAddress(doc.Body, origin+asmx.ServicePath) // a WSDL: its addresses moved as the main one's
	default:
		body = helpAt(doc.Body, doc.Address, origin, hostOf(r))
	}
	ex.source = doc.Source
	if q.Kind == asmx.DocsDisco || q.Kind == asmx.DocsWSDLNotFound {
		ex.describes = true // for the journal's filter, as ?disco and ?WSDL of service.asmx
	}
	writeReplayed(w, ex, ReplayAnswer{Status: doc.Status, ContentType: doc.ContentType, Body: body})
	return true
}

// serveJSONDocs answers a GET of /service-v2.asmx itself: the deployment's
// own help page or discovery document when one was recorded, else 404 (the
// server writes no documentation of that file).
func (s *Server) serveJSONDocs(w http.ResponseWriter, r *http.Request, ex *exchange) {
	if r.Method == http.MethodGet && s.replayer != nil && s.replayDoc(w, r, ex, true) {
		return
	}
	http.NotFound(w, r)
}

// originOf is the scheme and host a request came in on, as serviceURL
// writes them.
func originOf(r *http.Request) string {
	return strings.TrimSuffix(serviceURL(r), asmx.ServicePath)
}

// discoAt returns a recorded discovery document with every location that
// names one of the two .asmx files (…/service/service.asmx or
// …/service-v2.asmx, whatever scheme, host and base path it was recorded
// at) moved to that file at origin; what follows the file (?wsdl) and the
// rest of the document, comments and CDATA sections included, are as
// recorded.
func discoAt(doc []byte, origin string) []byte {
	out := make([]byte, 0, len(doc)+256)
	last := 0
	unmarked := unmarkedSpans(doc)
	for from := 0; ; {
		m, ok := discoLocation(doc, from)
		if !ok {
			break
		}
		from = m.end
		for len(unmarked) > 0 && unmarked[0][1] <= m.start {
			unmarked = unmarked[1:] // spans are in order, and so are matches
		}
		if len(unmarked) > 0 && unmarked[0][0] < m.end {
			continue // a comment or CDATA section: no location
		}
		file, end := namedFile(doc[m.v0:m.v1])
		if file == "" {
			continue
		}
		out = append(out, doc[last:m.v0]...)
		out = append(out, html.EscapeString(origin+file)...)
		last = m.v0 + end
	}
	return append(out, doc[last:]...)
}

// namedFile reports which of the two .asmx files an absolute URL names,
// by its path (ignoring case), and where in v the file's path ends: the
// first ".asmx" ending one of them, before any query or fragment (the host
// or a directory may hold ".asmx" before it).
func namedFile(v []byte) (file string, end int) {
	lower := asciiLower(v)
	if !strings.HasPrefix(lower, "http://") && !strings.HasPrefix(lower, "https://") {
		return "", 0
	}
	if q := strings.IndexAny(lower, "?#"); q >= 0 {
		lower = lower[:q]
	}
	for from := 0; ; {
		i := strings.Index(lower[from:], ".asmx")
		if i < 0 {
			return "", 0
		}
		end = from + i + len(".asmx")
		from = end
		if end < len(lower) && isWordByte(lower[end]) {
			continue
		}
		for _, f := range docFiles {
			if strings.HasSuffix(lower[:end], f) {
				return f, end
			}
		}
	}
}

// helpAt returns a recorded help page with the addresses of the deployment
// it was recorded from (recorded: the absolute URL of the .asmx file it was
// recorded at) moved to origin, the server's scheme and host; the rest is
// as recorded:
//
//   - an absolute URL of either .asmx file at the recorded scheme, host and
//     base path (matched ignoring case) is the file at origin: test forms,
//     links;
//   - with a base path (a deployment in a virtual directory, /app), a
//     path-absolute reference to either file below it ("POST
//     /app/service/service.asmx HTTP/1.1" of a sample request, a link to
//     ?disco) is the file's path;
//   - the value of a sample request's Host line that is the recorded host,
//     with its port or without (as .NET writes Request.Url.Host), is
//     host, with or without its port likewise.
func helpAt(page []byte, recorded, origin, host string) []byte {
	u, err := url.Parse(recorded)
	if err != nil || u.Host == "" {
		return page
	}
	recOrigin := strings.ToLower(u.Scheme + "://" + u.Host)
	base := ""
	lowerPath := asciiLower([]byte(u.Path))
	for _, f := range docFiles {
		if strings.HasSuffix(lowerPath, f) {
			base = lowerPath[:len(lowerPath)-len(f)]
		}
	}
	page = moveFiles(page, recOrigin, base, html.EscapeString(origin))
	recHost, ownHost := u.Host, host
	recName, ownName := withoutPort(recHost), withoutPort(ownHost)
	out := make([]byte, 0, len(page)+64)
	last := 0
	for from := 0; ; {
		m, ok := helpHost(page, from)
		if !ok {
			break
		}
		from = m.end
		v := string(page[m.v0:m.v1])
		var repl string
		switch {
		case strings.EqualFold(v, recHost):
			repl = ownHost
		case strings.EqualFold(v, recName):
			repl = ownName
		default:
			continue
		}
		out = append(out, page[last:m.v0]...)
		out = append(out, html.EscapeString(repl)...)
		last = m.v1
	}
	return append(out, page[last:]...)
}

// moveFiles rewrites the references to the two .asmx files in page: those
// at recOrigin+base become origin+file, and with a base, path-absolute
// ones (base+file after a character no URL's authority ends in) become
// file. recOrigin and base are lower case.
func moveFiles(page []byte, recOrigin, base, origin string) []byte {
	lower := asciiLower(page)
	out := make([]byte, 0, len(page)+256)
	last := 0
	for i := 0; i < len(lower); {
		j := strings.Index(lower[i:], ".asmx")
		if j < 0 {
			break
		}
		end := i + j + len(".asmx")
		i = end
		if end < len(lower) && isWordByte(lower[end]) {
			continue
		}
		for _, f := range docFiles {
			start := end - len(base) - len(f)
			if start < last || !strings.HasSuffix(lower[:end], base+f) {
				continue
			}
			switch {
			case start >= len(recOrigin) && lower[start-len(recOrigin):start] == recOrigin && start-len(recOrigin) >= last:
				out = append(out, page[last:start-len(recOrigin)]...)
				out = append(out, origin+f...)
				last = end
			case base != "" && (start == 0 || !isAuthorityByte(lower[start-1])):
				out = append(out, page[last:start]...)
				out = append(out, f...)
				last = end
			}
			break
		}
	}
	return append(out, page[last:]...)
}

// withoutPort is host (as a Host header writes it) without its port.
func withoutPort(host string) string {
	if i := strings.LastIndexByte(host, ':'); i >= 0 && !strings.Contains(host[i:], "]") {
		return host[:i]
	}
	return host
}

// asciiLower lower-cases the ASCII letters of b, leaving every other byte
// where it was (strings.ToLower may change the length of non-ASCII text).
func asciiLower(b []byte) string {
	out := make([]byte, len(b))
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		out[i] = c
	}
	return string(out)
}

// isWordByte reports whether c continues a name: a letter, digit, - or _.
func isWordByte(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '-' || c == '_'
}

// isAuthorityByte reports whether c can end a URL's authority (a host
// name, an address, a port) or continue a path: a reference after it is
// no path-absolute one.
func isAuthorityByte(c byte) bool {
	return isWordByte(c) || c == '.' || c == ':' || c == ']' || c == '/' || c == '%' || c == '~' || c == '@'
}
