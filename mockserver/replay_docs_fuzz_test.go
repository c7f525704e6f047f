package mockserver

import (
	"bytes"
	"encoding/xml"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/atmkit/atmkit/asmx"
)

// The recorded documentation pages a replaying mock rewrites (withAddress,
// discoAt, helpAt) come from cassettes, which come from deployments atmkit
// does not control: these targets read any bytes as such a page.

// docSeeds adds the mock's own WSDL, discovery document and help pages,
// served at a deployment's address, as seeds: documents of the form the
// rewriters meet.
func docSeeds(f *testing.F, add func(doc []byte)) {
	h, err := New(WithDataset(smallDataset()))
	if err != nil {
		f.Fatal(err)
	}
	for _, target := range []string{"/service/service.asmx?WSDL", "/service/service.asmx?disco", "/service/service.asmx",
		"/service/service.asmx?op=ReturnProvinces"} {
		req := httptest.NewRequest(http.MethodGet, "http://ATM.example.org:8080"+target, nil)
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code != http.StatusOK {
			f.Fatalf("GET %s: status %d", target, rec.Code)
		}
		doc := rec.Body.Bytes()
		if strings.HasSuffix(target, "?WSDL") {
			doc = wsdlAddresses(f, doc)
		}
		add(doc)
	}
}

// wsdlAddresses is a WSDL cut to its root element and the service element
// that holds the ports' addresses: 1.3 kB of the mock's 37 kB. A run costs
// as its input is long (withAddress took 4 ms of the whole, and a run calls
// it thrice), and the fuzzer minimizes what it finds, each step a run: with
// the whole WSDL each minimisation took its whole minute.
func wsdlAddresses(f *testing.F, wsdl []byte) []byte {
	f.Helper()
	root := bytes.Index(wsdl, []byte("<wsdl:definitions"))
	rootEnd := bytes.IndexByte(wsdl[max(root, 0):], '>')
	svc := bytes.Index(wsdl, []byte("<wsdl:service"))
	svcEnd := bytes.Index(wsdl, []byte("</wsdl:service>"))
	if root < 0 || rootEnd < 0 || svc < 0 || svcEnd < svc {
		f.Fatalf("the mock's WSDL has no definitions or service element:\n%s", wsdl)
	}
	var out []byte
	out = append(out, wsdl[:root+rootEnd+1]...)
	out = append(out, wsdl[svc:svcEnd+len("</wsdl:service>")]...)
	return append(out, "</wsdl:definitions>"...)
}

// wellFormed reports whether doc reads as XML to its end.
func wellFormed(doc []byte) bool {
	dec := xml.NewDecoder(bytes.NewReader(doc))
	for {
		_, err := dec.RawToken()
		if errors.Is(err, io.EOF) {
			return true
		}
		if err != nil {
			return false
		}
	}
}

// hostLike reports whether s is made of the characters of a host and port
// (a Host header a client sends).
func hostLike(s string) bool {
	if s == "" {
		return false
	}
	for _, c := range []byte(s) {
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '.' || c == '-' || c == ':' || c == '[' || c == ']') {
			return false
		}
	}
	return true
}

// fuzzOrigin is the origin the properties below move addresses to; the
// inputs that hold it already are skipped (they would make its places
// ambiguous).
const fuzzOrigin = "http://mock.invalid:1"

// FuzzWithAddress reads any bytes as a recorded WSDL: withAddress must not
// panic, must keep every byte but the address values it replaced (each a
// quoted location's value, or a schema import's address up to its '?'),
// must be idempotent, and a WSDL that read as XML must still read after it
// moved the addresses to any host.
func FuzzWithAddress(f *testing.F) {
	docSeeds(f, func(doc []byte) { f.Add(doc, "127.0.0.1:9") })
	f.Add([]byte(`<d><s:import schemaLocation="http://h/app/service/Service.asmx?schema=R"/><soap:address location='http://h/x'/></d>`), "xn--bcher-kva.example:8080")
	f.Add([]byte(`<d><!-- <soap:address location="http://old/service/service.asmx" /> --><soap:address location="x"/></d>`), "a--b")
	f.Fuzz(func(t *testing.T, wsdl []byte, host string) {
		if bytes.Contains(wsdl, []byte(fuzzOrigin)) {
			return
		}
		addr := fuzzOrigin + asmx.ServicePath
		out := withAddress(wsdl, addr)
		// Every byte outside the values it replaced is as recorded.
		pieces := bytes.Split(out, []byte(addr))
		if !bytes.HasPrefix(wsdl, pieces[0]) {
			t.Fatalf("%q: the start changed: %q", wsdl, out)
		}
		at := len(pieces[0])
		for _, p := range pieces[1:] {
			if len(p) == 0 || !bytes.ContainsRune([]byte(`"'?`), rune(p[0])) {
				t.Fatalf("%q: a replaced address is followed by %.10q, want a quote or '?': %q", wsdl, p, out)
			}
			n := bytes.IndexByte(wsdl[at:], p[0])
			if n < 0 || bytes.ContainsAny(wsdl[at:at+n], `"'`) || !bytes.HasPrefix(wsdl[at+n:], p) {
				t.Fatalf("%q: the bytes after a replaced address changed (at %d): %q", wsdl, at, out)
			}
			at += n + len(p)
		}
		if at != len(wsdl) {
			t.Fatalf("%q: %d bytes of the input are not in %q", wsdl, len(wsdl)-at, out)
		}
		if again := withAddress(out, addr); !bytes.Equal(again, out) {
			t.Fatalf("%q: not idempotent:\n%q\n%q", wsdl, out, again)
		}
		if !hostLike(host) || !wellFormed(wsdl) {
			return
		}
		if got := withAddress(wsdl, "http://"+host+asmx.ServicePath); !wellFormed(got) {
			t.Fatalf("%q read as XML; at host %q it does not: %q", wsdl, host, got)
		}
	})
}

// FuzzDiscoAt reads any bytes as a recorded discovery document: discoAt
// must not panic, must keep every byte but the part of a location up to
// the .asmx file it names, which becomes the file at the origin, and a
// document that read as XML must still read after it moved the locations
// to any host.
func FuzzDiscoAt(f *testing.F) {
	docSeeds(f, func(doc []byte) { f.Add(doc, "127.0.0.1:9") })
	f.Add([]byte(`<d><c ref="HTTPS://h:1/app/Service-V2.asmx?wsdl" docRef='http://h/service/service.asmx'/><!-- <soap address="http://h/service-v2.asmx"/> --></d>`), "a--b")
	f.Fuzz(func(t *testing.T, doc []byte, host string) {
		if bytes.Contains(doc, []byte(fuzzOrigin)) {
			return
		}
		out := discoAt(doc, fuzzOrigin)
		pieces := bytes.Split(out, []byte(fuzzOrigin))
		if !bytes.HasPrefix(doc, pieces[0]) {
			t.Fatalf("%q: the start changed: %q", doc, out)
		}
		at := len(pieces[0])
		for _, p := range pieces[1:] {
			var file string
			for _, f := range docFiles {
				if bytes.HasPrefix(p, []byte(f)) {
					file = f
				}
			}
			if file == "" {
				t.Fatalf("%q: a moved location names no .asmx file: %.30q", doc, p)
			}
			// The input's location up to its first .asmx, which names file.
			n := strings.Index(asciiLower(doc[at:]), ".asmx")
			if n < 0 {
				t.Fatalf("%q: no location with an .asmx file at %d: %q", doc, at, out)
			}
			end := at + n + len(".asmx")
			if end < len(file) || !strings.EqualFold(string(doc[end-len(file):end]), file) || !bytes.HasPrefix(doc[end:], p[len(file):]) {
				t.Fatalf("%q: the location at %d is not %s followed by the rest: %q", doc, at, file, out)
			}
			at = end + len(p) - len(file)
		}
		if at != len(doc) {
			t.Fatalf("%q: %d bytes of the input are not in %q", doc, len(doc)-at, out)
		}
		if again := discoAt(out, fuzzOrigin); !bytes.Equal(again, out) {
			t.Fatalf("%q: not idempotent:\n%q\n%q", doc, out, again)
		}
		if !hostLike(host) || !wellFormed(doc) {
			return
		}
		if got := discoAt(doc, "http://"+host); !wellFormed(got) {
			t.Fatalf("%q read as XML; at host %q it does not: %q", doc, host, got)
		}
	})
}

// FuzzHelpAt reads any bytes as a recorded help page and any text as the
// address it was recorded at: helpAt must not panic; a page recorded at
// the server's own lower-case address, with no base path, is served
// unchanged; and a page it moved keeps its length but for the addresses
// (each moved address is replaced, never duplicated).
func FuzzHelpAt(f *testing.F) {
	docSeeds(f, func(doc []byte) { f.Add(doc, "http://ATM.example.org:8080/service/service.asmx") })
	f.Add([]byte("<pre>POST /App/service/service.asmx HTTP/1.1\nHost: atm.example.org\n</pre><a href=\"http://atm.example.org:8080/App/Service-V2.asmx?disco\">"), "http://ATM.example.org:8080/App/service/service.asmx")
	f.Add([]byte("Host:&nbsp;h:1 /service-v2.asmx"), "http://h:1/service-v2.asmx")
	f.Fuzz(func(t *testing.T, page []byte, recorded string) {
		const origin, host = "http://m.invalid:1", "m.invalid:1"
		out := helpAt(page, recorded, origin, host)
		// Same address: nothing to move, when nothing differs in case.
		if self := helpAt(page, origin+asmx.ServicePath, origin, host); !bytes.Equal(self, page) && asciiLower(page) == string(page) {
			t.Fatalf("%q: moved to its own address it changed: %q", page, self)
		}
		limit := len(page) + len(origin)*strings.Count(asciiLower(page), ".asmx") + len(host)*len(helpHostRE.FindAllIndex(out, -1))
		if len(out) > limit {
			t.Fatalf("%q at %q: grew more than its addresses allow: %q", page, recorded, out)
		}
	})
}
