package cassettes

import (
	"fmt"
	"net/http"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/atmkit/atmkit/asmx"
	"gopkg.in/dnaeon/go-vcr.v3/cassette"
)

// lineEndCassette writes a cassette of n ReturnAtmSearchByCity calls
// (intCityID 0..n-1) recorded over SOAP 1.1, and, when get is not "", one
// more over HTTP GET whose answer breaks its lines with get.
func lineEndCassette(tb testing.TB, dir string, n int, get string) string {
	tb.Helper()
	op := asmx.OpReturnAtmSearchByCity
	node := func(id int) string {
		return fmt.Sprintf("<atmLocations><count>1</count><locations><location><id>%d</id></location></locations></atmLocations>", id)
	}
	var list []*cassette.Interaction
	for id := range n {
		body := fmt.Sprintf(`<?xml version="1.0" encoding="utf-8"?><s:Envelope xmlns:s=%q><s:Body><%s xmlns=%q><strAtmServiceKey>%s</strAtmServiceKey><intCityID>%d</intCityID></%s></s:Body></s:Envelope>`,
			asmx.NamespaceSOAP11, op, asmx.DefaultNamespace, Placeholder, id, op)
		list = append(list, &cassette.Interaction{
			Request: cassette.Request{Method: http.MethodPost, URL: "http://upstream" + asmx.ServicePath, Body: body,
				Headers: http.Header{"Content-Type": {asmx.ContentTypeSOAP11}, "Soapaction": {`"` + asmx.SOAPAction(asmx.DefaultNamespace, op) + `"`}}},
			Response: cassette.Response{Code: 200, Status: "200 OK", Headers: http.Header{"Content-Type": {asmx.ContentType(asmx.SOAP11)}},
				Body: string(asmx.AppendSOAPResponse(nil, asmx.SOAP11, asmx.DefaultNamespace, op, []byte(node(id))))},
		})
	}
	if get != "" {
		list = append(list, &cassette.Interaction{
			Request: cassette.Request{Method: http.MethodGet, URL: "http://upstream" + asmx.ServicePath + "/" + op + "?strAtmServiceKey=" + Placeholder + "&intCityID=" + strconv.Itoa(n)},
			Response: cassette.Response{Code: 200, Status: "200 OK", Headers: http.Header{"Content-Type": {asmx.ContentType(asmx.HTTPGet)}},
				Body: `<?xml version="1.0" encoding="utf-8"?>` + get + node(n)},
		})
	}
	path := filepath.Join(dir, fmt.Sprintf("soap-%d.yaml", n))
	if err := WriteFile(path, list); err != nil {
		tb.Fatal(err)
	}
	return path
}

// anAnswer returns an answer ix holds from the file path.
func anAnswer(tb testing.TB, ix *Index, path string) *rendition {
	tb.Helper()
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	for _, e := range ix.entries {
		if r := e.by[asmx.SOAP11]; len(r) > 0 && cassetteFile(r[0].where) == path {
			return r[0]
		}
	}
	tb.Fatalf("no answer from %s", path)
	return nil
}

// TestLineEndReadsNoEntries: the line end a cassette's re-wrapped GET and
// POST answers are written with is its first GET/POST answer's, CR LF
// when it has none, and finding it reads none of the index's entries:
// the first re-wrap of each answer read them all, as many as the
// cassettes hold (quadratic over a server's life on cassettes recorded
// over SOAP only and served over GET).
func TestLineEndReadsNoEntries(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	lf, soapOnly := lineEndCassette(t, dir, 3, "\n"), lineEndCassette(t, dir, 4, "")
	ix, err := LoadIndex([]string{lf, soapOnly})
	if err != nil {
		t.Fatal(err)
	}
	a, b := anAnswer(t, ix, lf), anAnswer(t, ix, soapOnly)
	ix.mu.Lock()
	ix.entries = map[string]*entry{} // what lineEnd must not need
	ix.mu.Unlock()
	for _, tc := range []struct {
		src  *rendition
		want string
	}{{a, "\n"}, {b, "\r\n"}} {
		if got := ix.lineEnd(tc.src); got != tc.want {
			t.Errorf("lineEnd of %s: got %q, want %q", tc.src.where, got, tc.want)
		}
	}
}

// BenchmarkLineEnd finds the line end of an answer of a cassette of
// 1,000 and 10,000 answers recorded over SOAP only, as each first
// re-wrap of one of them for GET or POST does.
func BenchmarkLineEnd(b *testing.B) {
	for _, n := range []int{1_000, 10_000} {
		b.Run(strconv.Itoa(n), func(b *testing.B) {
			path := lineEndCassette(b, b.TempDir(), n, "")
			ix, err := LoadIndex([]string{path})
			if err != nil {
				b.Fatal(err)
			}
			src := anAnswer(b, ix, path)
			b.ReportAllocs()
			for b.Loop() {
				if ix.lineEnd(src) != "\r\n" {
					b.Fatal("not CR LF")
				}
			}
		})
	}
}
