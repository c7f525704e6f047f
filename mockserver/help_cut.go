package mockserver

import (
	"bytes"
	"net/http"
	"strconv"
	"sync"

	"github.com/atmkit/atmkit/shape"
)

// The help pages of an operation and the list of operations, rendered
// once per server configuration with marks where a request's own values
// go (the reference to service.asmx itself, the samples' host), and cut
// there: a request splices its values in. Executing html/template for
// every request took 1.2 ms for an operation's page.

// helpMarks stand for the two values of a request (self, host) while a
// page is cut; the second pair checks the cut. Letters: every context of
// the templates writes them as they are.
var helpMarks = [2][2]string{{"zqSelfMarkAqz", "zqHostMarkAqz"}, {"zqSelfMarkBqz", "zqHostMarkBqz"}}

// helpCut is a help page cut where a request's values go: value marks[i]
// follows parts[i]. A cut without parts says the page cannot be cut.
type helpCut struct {
	parts [][]byte
	marks []int
	size  int // length of the parts together
}

// helpCutKey is what a cut page depends on besides the request: the page
// (an operation's, or "" for the list), the namespace, the service's name
// and the shape, nil for the default one (as wsdlKey).
type helpCutKey struct {
	op, ns, service string
	sh              *shape.Shape
}

// maxHelpCuts bounds the cache of cut pages: one per operation and
// server configuration in use; when it is full, one leaves for the next.
const maxHelpCuts = 64

var helpCuts struct {
	mu    sync.Mutex // guards pages
	pages map[helpCutKey]*helpCut
}

// cutHelp renders a page with each pair of marks and cuts the first
// rendering at its marks; it returns a cut without parts when the second
// rendering is not the first spliced with the second marks (a mark in
// the page's own text) or the page does not render.
func cutHelp(render func(self, host string) ([]byte, error)) *helpCut {
	a, err := render(helpMarks[0][0], helpMarks[0][1])
	if err != nil {
		return &helpCut{}
	}
	c := &helpCut{}
	for {
		at, mark := -1, 0
		for m, s := range helpMarks[0] {
			if i := bytes.Index(a, []byte(s)); i >= 0 && (at < 0 || i < at) {
				at, mark = i, m
			}
		}
		if at < 0 {
			break
		}
		c.parts = append(c.parts, a[:at])
		c.marks = append(c.marks, mark)
		a = a[at+len(helpMarks[0][mark]):]
	}
	c.parts = append(c.parts, a)
	for _, p := range c.parts {
		c.size += len(p)
	}
	b, err := render(helpMarks[1][0], helpMarks[1][1])
	if err != nil || !bytes.Equal(b, c.appendTo(nil, helpMarks[1][0], helpMarks[1][1])) {
		return &helpCut{}
	}
	return c
}

// appendTo appends the page with self and host where they go.
func (c *helpCut) appendTo(dst []byte, self, host string) []byte {
	values := [2]string{self, host}
	for i, p := range c.parts {
		dst = append(dst, p...)
		if i < len(c.marks) {
			dst = append(dst, values[c.marks[i]]...)
		}
	}
	return dst
}

// helpCutFor returns the cut page of key, cut once.
func helpCutFor(key helpCutKey, render func(self, host string) ([]byte, error)) *helpCut {
	helpCuts.mu.Lock()
	c, ok := helpCuts.pages[key]
	helpCuts.mu.Unlock()
	if ok {
		return c
	}
	c = cutHelp(render)
	helpCuts.mu.Lock()
	defer helpCuts.mu.Unlock()
	if helpCuts.pages == nil {
		helpCuts.pages = map[helpCutKey]*helpCut{}
	}
	for k := range helpCuts.pages {
		if len(helpCuts.pages) < maxHelpCuts {
			break
		}
		delete(helpCuts.pages, k)
	}
	helpCuts.pages[key] = c
	return c
}

// writeHelpPage writes the help page page of the operation op ("" for the
// list) with the data data gives for a request's self reference and host:
// cut once and spliced when both are plain (plainSelf, plainHost), which
// the templates write as they are, else rendered.
func (s *Server) writeHelpPage(w http.ResponseWriter, page, op, self, host string, data func(self, host string) any) {
	if plainSelf(self) && plainHost(host) {
		c := helpCutFor(helpCutKey{op, s.cfg.namespace, s.cfg.errorForm.Service, s.cfg.shape}, func(self, host string) ([]byte, error) {
			var buf bytes.Buffer
			err := helpTemplates.ExecuteTemplate(&buf, page, data(self, host))
			return buf.Bytes(), err
		})
		if c.parts != nil {
			body := c.appendTo(make([]byte, 0, c.size+len(c.marks)*max(len(self), len(host))), self, host)
			h := w.Header()
			h.Set("Content-Type", "text/html; charset=utf-8")
			h.Set("Content-Length", strconv.Itoa(len(body)))
			w.WriteHeader(http.StatusOK)
			_, _ = w.Write(body)
			return
		}
	}
	s.writeHelp(w, http.StatusOK, page, data(self, host))
}

// plainSelf reports whether self is made of ASCII letters, '.' and '/',
// which html/template writes as they are in a URL attribute.
func plainSelf(self string) bool {
	for _, c := range []byte(self) {
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || c == '.' || c == '/') {
			return false
		}
	}
	return true
}

// plainHost reports whether host is made of ASCII letters, digits and
// ".:[]_-", which html/template writes as they are in text.
func plainHost(host string) bool {
	for _, c := range []byte(host) {
		if !(isWordASCII(c) || c == '.' || c == ':' || c == '[' || c == ']' || c == '-') {
			return false
		}
	}
	return true
}
