package mockserver

import (
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/atmkit/atmkit/asmx"
)

// Benchmarks of the service-description pages: what a client generator or
// a SOAP client fetches at start-up (?WSDL, ?disco, the help pages), as
// the mock writes them and, under replay, as it moves a recorded page to
// its own address (withAddress, discoAt, helpAt).
//
//	go test -run '^$' -bench 'Docs|WSDL' -benchmem ./mockserver

// benchDocs are the mock's own pages served at a deployment's address:
// the recorded pages a replaying mock moves (the WSDL is 37 kB).
func benchDocs(b *testing.B) (wsdl, disco, help []byte) {
	b.Helper()
	h, err := New(WithDataset(smallDataset()))
	if err != nil {
		b.Fatal(err)
	}
	get := func(target string) []byte {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "http://ATM.example.org:8080"+target, nil))
		if rec.Code != http.StatusOK {
			b.Fatalf("GET %s: status %d", target, rec.Code)
		}
		return rec.Body.Bytes()
	}
	return get("/service/service.asmx?WSDL"), get("/service/service.asmx?disco"), get("/service/service.asmx?op=ReturnAtmSearchByAddress")
}

func BenchmarkDocsMoved(b *testing.B) {
	wsdl, disco, help := benchDocs(b)
	const origin = "http://127.0.0.1:4711"
	b.Run("withAddress", func(b *testing.B) {
		b.SetBytes(int64(len(wsdl)))
		for b.Loop() {
			withAddress(wsdl, origin+asmx.ServicePath)
		}
	})
	b.Run("discoAt", func(b *testing.B) {
		b.SetBytes(int64(len(disco)))
		for b.Loop() {
			discoAt(disco, origin)
		}
	})
	b.Run("helpAt", func(b *testing.B) {
		b.SetBytes(int64(len(help)))
		for b.Loop() {
			helpAt(help, "http://ATM.example.org:8080/service/service.asmx", origin, "127.0.0.1:4711")
		}
	})
}

// BenchmarkDocsServed: each page through the handler, of a server made
// once; "WSDL of a new server" makes a server per request, as a test
// suite or FuzzReplay does, and asks for its WSDL.
func BenchmarkDocsServed(b *testing.B) {
	ds := smallDataset()
	h, err := New(WithDataset(ds))
	if err != nil {
		b.Fatal(err)
	}
	for _, target := range []string{"?WSDL", "?disco", "", "?op=ReturnAtmSearchByAddress"} {
		req := httptest.NewRequest(http.MethodGet, "http://127.0.0.1:4711/service/service.asmx"+target, nil)
		b.Run(target, func(b *testing.B) {
			for b.Loop() {
				w := &docDiscardWriter{h: http.Header{}}
				h.ServeHTTP(w, req)
				if w.status != http.StatusOK {
					b.Fatalf("status %d", w.status)
				}
			}
		})
	}
	b.Run("WSDL of a new server", func(b *testing.B) {
		req := httptest.NewRequest(http.MethodGet, "http://127.0.0.1:4711/service/service.asmx?WSDL", nil)
		for b.Loop() {
			h, err := New(WithDataset(ds))
			if err != nil {
				b.Fatal(err)
			}
			w := &docDiscardWriter{h: http.Header{}}
			h.ServeHTTP(w, req)
			if w.status != http.StatusOK {
				b.Fatalf("status %d", w.status)
			}
		}
	})
}
