package cassettes

import (
	"encoding/xml"
	"iter"
	"net/http"
	"net/url"
	"strings"

	"github.com/atmkit/atmkit/asmx"
	"github.com/atmkit/atmkit/cassettes/internal/recorded"
	"github.com/atmkit/atmkit/mockserver"
	"gopkg.in/dnaeon/go-vcr.v3/cassette"
)

// The deployment's own documentation pages (help pages, discovery
// documents), recorded, for a replaying server (mockserver.DocReplayer).

// pageKey is a documentation request as ASMX reads its query
// (asmx.ParseDocsQuery), on one of the two .asmx files.
type pageKey struct {
	json  bool
	kind  asmx.DocsKind
	op    string
	hasOp bool
}

// page is one recorded documentation page.
type page struct {
	ns    string // the namespace of the deployment it was recorded from; "" when the cassettes do not tell
	query string // the request's query, the key scrubbed
	doc   mockserver.RecordedDoc
}

// filePages collects the pages of one cassette file and what the file
// tells of its deployment's namespace, until the file is read.
type filePages struct {
	keys   []pageKey
	pages  []*page
	soapNS []string // the namespaces of the file's SOAP calls
	wsdlNS string   // the target namespace of the file's first WSDL
	discNS string   // the namespace of the bindings of the file's first discovery document
}

// pageOf reads a recorded interaction as a documentation page: a GET of
// one of the .asmx files itself (below any base path) asking for a help
// page, the discovery document, a schema (?schema=, a typed DataSet's,
// which the WSDL imports) or a service description the WSDL imports
// (?wsdl=wsdl1), answered with the page (not 304). i is
// scrubbed first, again: a key the request carried never comes out in the
// page, whichever tool wrote the cassette.
func pageOf(i *cassette.Interaction, source string) (pageKey, *page, bool) {
	if i.Request.Method != http.MethodGet || i.Response.Code < 200 || i.Response.Code == http.StatusNotModified {
		return pageKey{}, nil, false
	}
	u, err := url.Parse(i.Request.URL)
	if err != nil || u.Host == "" {
		return pageKey{}, nil, false
	}
	json, ok := recorded.DocFile(u.Path)
	if !ok {
		return pageKey{}, nil, false
	}
	kind, op, hasOp := asmx.ParseDocsQuery(u.RawQuery)
	if kind != asmx.DocsHelp && kind != asmx.DocsDisco && kind != asmx.DocsSchema && kind != asmx.DocsWSDLNotFound {
		return pageKey{}, nil, false
	}
	cp := *i
	recorded.Scrub(&cp, Placeholder)
	k := pageKey{json: json, kind: kind, op: op, hasOp: hasOp}
	p := &page{query: recorded.ScrubQuery(u.RawQuery), doc: mockserver.RecordedDoc{
		Status: cp.Response.Code, ContentType: recorded.HeaderValue(cp.Response.Headers, "Content-Type"),
		Body: []byte(cp.Response.Body), Address: u.Scheme + "://" + u.Host + u.EscapedPath(), Source: source}}
	if kind == asmx.DocsDisco {
		p.ns = discoNamespace(cp.Response.Body)
	}
	return k, p, true
}

// add keeps a page of the file.
func (fp *filePages) add(k pageKey, p *page) {
	if p.ns != "" && fp.discNS == "" {
		fp.discNS = p.ns
	}
	fp.keys = append(fp.keys, k)
	fp.pages = append(fp.pages, p)
}

// namespace is the namespace of the deployment the file was recorded
// from: its SOAP calls' when they name one, else its WSDL's, else its
// discovery document's; "" when the file does not tell.
func (fp *filePages) namespace() string {
	switch {
	case len(fp.soapNS) == 1:
		return fp.soapNS[0]
	case len(fp.soapNS) > 1:
		return ""
	case fp.wsdlNS != "":
		return fp.wsdlNS
	}
	return fp.discNS
}

// addPages indexes the pages of a file read, in the namespace the file
// tells (a discovery document in the one it names); the first recording of
// a request (key, query and namespace) is kept.
func (ix *Index) addPages(fp *filePages) {
	ns := fp.namespace()
	ix.mu.Lock()
	defer ix.mu.Unlock()
	for j, p := range fp.pages {
		if p.ns == "" {
			p.ns = ns
		}
		k := fp.keys[j]
		dup := false
		for _, x := range ix.pages[k] {
			dup = dup || x.ns == p.ns && x.query == p.query
		}
		if !dup {
			ix.pages[k] = append(ix.pages[k], p)
			ix.stats.Pages++
		}
	}
}

// settlePages gives the pages whose file told no namespace the
// cassettes' own, when they name exactly one.
func (ix *Index) settlePages() {
	if len(ix.stats.Namespaces) != 1 {
		return
	}
	ix.mu.Lock()
	defer ix.mu.Unlock()
	for _, list := range ix.pages {
		for _, p := range list {
			if p.ns == "" {
				p.ns = ix.stats.Namespaces[0]
			}
		}
	}
}

// RecordedDoc implements mockserver.DocReplayer: the page recorded to a
// documentation request like q (the same .asmx file, kind and ?op=) from a
// deployment in q.Namespace; of several, the one recorded with q's very
// query (its key scrubbed), else the first recorded. A page is in the
// namespace of the deployment its cassette file was recorded from (its
// SOAP calls', else its WSDL's, else its discovery document's, else the
// cassettes' own when they name one): a mock serving another namespace
// writes its own pages.
func (ix *Index) RecordedDoc(q mockserver.DocRequest) (mockserver.RecordedDoc, bool) {
	k := pageKey{json: q.JSON, kind: q.Kind, op: q.Op, hasOp: q.HasOp}
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	var first *page
	query := ""
	for _, p := range ix.pages[k] {
		if p.ns != q.Namespace || p.ns == "" {
			continue
		}
		if first == nil {
			first, query = p, recorded.ScrubQuery(q.Query)
		}
		if p.query == query {
			return p.doc, true
		}
	}
	if first == nil {
		return mockserver.RecordedDoc{}, false
	}
	return first.doc, true
}

// discoNamespace is the namespace of the bindings a discovery document
// names (<soap binding="q1:…" xmlns:q1="ns">), or "".
func discoNamespace(body string) string {
	for se := range rawStartElements(body) {
		if se.Name.Local != "soap" {
			continue
		}
		prefix := ""
		for _, a := range se.Attr {
			if a.Name.Space == "" && a.Name.Local == "binding" {
				prefix, _, _ = strings.Cut(a.Value, ":")
			}
		}
		for _, a := range se.Attr {
			if prefix != "" && a.Name.Space == "xmlns" && a.Name.Local == prefix {
				return a.Value
			}
		}
	}
	return ""
}

// rootTargetNamespace is the targetNamespace of a document's root
// element (a WSDL's), or "".
func rootTargetNamespace(body string) string {
	for se := range rawStartElements(body) {
		for _, a := range se.Attr {
			if a.Name.Space == "" && a.Name.Local == "targetNamespace" {
				return a.Value
			}
		}
		return ""
	}
	return ""
}

// rawStartElements yields the start elements of body as RawToken reads
// them (prefixes as written, no namespace processing), until the body
// ends or stops being read.
func rawStartElements(body string) iter.Seq[xml.StartElement] {
	return func(yield func(xml.StartElement) bool) {
		dec := xml.NewDecoder(strings.NewReader(body))
		for {
			tok, err := dec.RawToken()
			if err != nil {
				return
			}
			if se, ok := tok.(xml.StartElement); ok && !yield(se) {
				return
			}
		}
	}
}
