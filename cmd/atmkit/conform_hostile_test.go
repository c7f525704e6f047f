package main

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/atmkit/atmkit/internal/mocktest"
)

// The tests of this file point atmkit conform at targets that answer what
// no deployment should: garbage, gateways' error pages, redirects, bodies
// that never end or end too soon. Whatever comes, conform must not panic
// nor wait past --timeout, must say what was wrong, exit 1 (does not
// conform) or 2 (could not be checked), and never show or send the key
// elsewhere.

// hostile wraps the mock: the requests match selects get bad's answer,
// the others the mock's.
func hostile(match func(*http.Request) bool, bad http.HandlerFunc) func(http.Handler) http.Handler {
	return func(h http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if match(r) {
				bad(w, r)
				return
			}
			h.ServeHTTP(w, r)
		})
	}
}

func everyCall(*http.Request) bool { return true }

// soapCall matches SOAP calls (POSTs to the service path itself).
func soapCall(r *http.Request) bool {
	return r.Method == http.MethodPost && r.URL.Path == "/service/service.asmx"
}

// jsonCall matches calls of the JSON binding.
func jsonCall(r *http.Request) bool { return strings.HasPrefix(r.URL.Path, "/service-v2.asmx") }

// rawAnswer writes raw bytes on a request's connection and closes it
// (abruptly with reset), for answers net/http would not write.
func rawAnswer(raw string, reset bool) http.HandlerFunc {
	return func(w http.ResponseWriter, _ *http.Request) {
		c, rw, err := http.NewResponseController(w).Hijack()
		if err != nil {
			panic(http.ErrAbortHandler)
		}
		_, _ = rw.WriteString(raw)
		_ = rw.Flush()
		if tc, ok := c.(*net.TCPConn); ok && reset {
			_ = tc.SetLinger(0) // close with RST
		}
		_ = c.Close()
	}
}

// rewriteSOAP answers SOAP calls with the mock's answer, edited.
func rewriteSOAP(edit func([]byte) []byte) func(http.Handler) http.Handler {
	return func(h http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if !soapCall(r) {
				h.ServeHTTP(w, r)
				return
			}
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, r)
			for k, v := range rec.Header() {
				w.Header()[k] = v
			}
			w.Header().Del("Content-Length")
			w.WriteHeader(rec.Code)
			_, _ = w.Write(edit(rec.Body.Bytes()))
		})
	}
}

// serveGarbage answers binary garbage with a terminal's escape
// sequences, declared XML.
func serveGarbage(w http.ResponseWriter, _ *http.Request) {
	w.Header().Set("Content-Type", "text/xml; charset=utf-8")
	_, _ = w.Write([]byte("\x00\x01\x1b[31mRED\xff\xfe garbage <<<"))
}

// endsEarly answers a chunked body that ends within its first chunk.
var endsEarly = rawAnswer("HTTP/1.1 200 OK\r\nContent-Type: text/xml; charset=utf-8\r\nTransfer-Encoding: chunked\r\n\r\n10\r\n<?xml version=\"1\r\n", false)

// gzipBomb is 257 MiB of zeros gzipped: about 256 KB that inflate past
// what atmkit reads of one answer. It is made once per test binary.
var gzipBomb = sync.OnceValue(func() []byte {
	var b bytes.Buffer
	z := gzip.NewWriter(&b)
	zeros := make([]byte, 1<<20)
	for range 257 {
		_, _ = z.Write(zeros) // a bytes.Buffer does not fail
	}
	_ = z.Close()
	return b.Bytes()
})

// serveGzipBomb answers with gzipBomb, declared gzip-encoded XML.
func serveGzipBomb(w http.ResponseWriter, _ *http.Request) {
	w.Header().Set("Content-Type", "text/xml; charset=utf-8")
	w.Header().Set("Content-Encoding", "gzip")
	_, _ = w.Write(gzipBomb())
}

// elsewhere is a server on another port, standing for another host: it
// counts the requests it gets and what they carry.
type elsewhere struct {
	url  string
	hits atomic.Int32
	saw  atomic.Value // string: the last request, line, headers and body
}

// newElsewhere starts an elsewhere, which must get no request: the test
// fails, once it and its subtests have ended, if one came.
func newElsewhere(t *testing.T) *elsewhere {
	t.Helper()
	e := &elsewhere{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		e.hits.Add(1)
		var b bytes.Buffer
		_ = r.Write(&b)
		e.saw.Store(b.String())
		http.Error(w, "not here", http.StatusNotFound)
	}))
	t.Cleanup(srv.Close)
	t.Cleanup(func() {
		if n := e.hits.Load(); n > 0 {
			t.Errorf("another host got %d calls of a redirect, the last:\n%s", n, e.saw.Load())
		}
	})
	e.url = srv.URL
	return e
}

// dribble answers with chunk, flushed every 20 ms, until the client goes:
// an answer that never ends. An empty contentType sets none.
func dribble(contentType, chunk string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if contentType != "" {
			w.Header().Set("Content-Type", contentType)
		}
		for {
			if _, err := w.Write([]byte(chunk)); err != nil {
				return
			}
			_ = http.NewResponseController(w).Flush()
			select {
			case <-r.Context().Done():
				return
			case <-time.After(20 * time.Millisecond):
			}
		}
	}
}

// checkHostileOutput fails t unless a command run against a hostile
// target exited with want and its output says each of says, shows no
// panic, and passes on no control character or byte that is not UTF-8.
func checkHostileOutput(t *testing.T, out string, code, want int, says []string) {
	t.Helper()
	if code != want {
		t.Fatalf("exit code %d, want %d; output:\n%s", code, want, out)
	}
	for _, w := range says {
		if !strings.Contains(out, w) {
			t.Errorf("output lacks %q; output:\n%s", w, out)
		}
	}
	if strings.Contains(out, "panic") || strings.Contains(out, "goroutine ") {
		t.Errorf("output shows a panic:\n%s", out)
	}
	if strings.ContainsAny(out, "\x00\x1b") || !bytes.Equal(bytes.ToValidUTF8([]byte(out), nil), []byte(out)) {
		t.Errorf("output passes on control characters or bytes that are not UTF-8 from the target:\n%q", out)
	}
}

func TestConformHostileTarget(t *testing.T) {
	t.Parallel()
	const gatewaySecret = "Gateway-Secret-4242"
	other := newElsewhere(t) // neither the key nor the gateway's header goes there
	for _, tc := range []struct {
		name string
		wrap func(http.Handler) http.Handler
		args []string
		code int
		says []string
		// noRace skips the case under the race detector, which slows it
		// past any sensible timeout.
		noRace bool
	}{
		{
			name: "a redirect of every call to another host",
			wrap: hostile(everyCall, func(w http.ResponseWriter, r *http.Request) {
				http.Redirect(w, r, other.url+r.URL.RequestURI(), http.StatusTemporaryRedirect)
			}),
			args: []string{"--header", "X-Gateway-Key: " + gatewaySecret},
			code: exitUsage,
			says: []string{"answered every call with a redirect (get 307, post 307, json 307), the first to \"http://127.0.0.1:", "strAtmServiceKey=Le****", "atmkit follows no redirect", "Give --target the address the service answers at"},
		},
		{
			name: "a redirect loop",
			wrap: hostile(everyCall, func(w http.ResponseWriter, r *http.Request) {
				http.Redirect(w, r, r.URL.RequestURI(), http.StatusFound)
			}),
			code: exitUsage,
			says: []string{"answered every call with a redirect (get 302, post 302, json 302)"},
		},
		{
			name: "the JSON binding redirected to another host",
			wrap: hostile(jsonCall, func(w http.ResponseWriter, r *http.Request) {
				http.Redirect(w, r, other.url+r.URL.RequestURI(), http.StatusPermanentRedirect)
			}),
			args: []string{"--label-filter", "json"},
			code: exitFailure,
			says: []string{"status: expected 200", "308, a redirect to \"http://127.0.0.1:", "(not followed)"},
		},
		{
			name: "a gateway's HTML error page for every call",
			wrap: hostile(everyCall, func(w http.ResponseWriter, _ *http.Request) {
				w.Header().Set("Content-Type", "text/html")
				w.WriteHeader(http.StatusBadGateway)
				_, _ = w.Write([]byte("<html><head><title>502 Bad Gateway</title></head><body><center><h1>502 Bad Gateway</h1></center><hr><center>nginx</center></body></html>"))
			}),
			code: exitUsage,
			says: []string{"answered HTTP 502 to every call (get 502, post 502, json 502), the first with \"502 Bad Gateway\""},
		},
		{
			// The preflight quotes the title's first 200 bytes: the header's
			// value runs across the cut.
			name: "a gateway's page repeating its header across the quote's cut",
			wrap: hostile(everyCall, func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "text/html")
				w.WriteHeader(http.StatusServiceUnavailable)
				fmt.Fprintf(w, "<html><head><title>%s %s is not a key of ours</title></head></html>", strings.Repeat("y", 185), r.Header.Get("X-Gateway-Key"))
			}),
			args: []string{"--header", "X-Gateway-Key: " + gatewaySecret},
			code: exitUsage,
			says: []string{"answered HTTP 503 to every call"},
		},
		{
			name: "binary garbage with escape sequences",
			wrap: hostile(everyCall, serveGarbage),
			args: []string{"--label-filter", "get"},
			code: exitFailure,
			says: []string{"body: expected an XML document", `\x00\x01\x1b[31mRED\xff\xfe garbage <<<`},
		},
		{
			name: "a body that ends early (chunked)",
			wrap: hostile(everyCall, endsEarly),
			code: exitUsage,
			says: []string{"closed the connection without an answer to ReturnProvinces over get (unexpected EOF)"},
		},
		{
			name: "a connection reset mid-answer",
			wrap: hostile(everyCall, rawAnswer("HTTP/1.1 200 OK\r\nContent-Type: text/xml; charset=utf-8\r\nContent-Length: 1000\r\n\r\n<?xml version=\"1.0\"?><Arr", true)),
			code: exitUsage,
			says: []string{"closed the connection without an answer to ReturnProvinces over get"},
		},
		{
			name: "an endless dribble",
			wrap: hostile(everyCall, dribble("text/xml; charset=utf-8", "<")),
			args: []string{"--timeout", "500ms"},
			code: exitUsage,
			says: []string{"no answer from http://127.0.0.1:", "within 500ms (--timeout): ReturnProvinces over get got no answer"},
		},
		{
			name:   "a gzip bomb",
			wrap:   hostile(everyCall, serveGzipBomb),
			args:   []string{"--timeout", "2m"}, // time to inflate it
			code:   exitUsage,
			says:   []string{"answered ReturnProvinces over get with more than 256 MiB, the most atmkit reads of one answer"},
			noRace: true, // inflating 256 MiB took over 2 min under -race on a loaded machine
		},
		{
			name: "a body that is not gzip, declared gzip",
			wrap: hostile(everyCall, func(w http.ResponseWriter, _ *http.Request) {
				w.Header().Set("Content-Type", "text/xml; charset=utf-8")
				w.Header().Set("Content-Encoding", "gzip")
				_, _ = w.Write([]byte("not gzip at all"))
			}),
			code: exitUsage,
			says: []string{"ReturnProvinces over get got no answer: gzip: invalid header"},
		},
		{
			name: "entities declared in a DOCTYPE (billion laughs)",
			wrap: hostile(everyCall, func(w http.ResponseWriter, _ *http.Request) {
				w.Header().Set("Content-Type", "text/xml; charset=utf-8")
				_, _ = w.Write([]byte(`<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;">]><ArrayOfString xmlns="http://tempuri.org/">&lol2;</ArrayOfString>`))
			}),
			args: []string{"--label-filter", "get"},
			code: exitFailure,
			says: []string{"body: expected an XML document", "invalid character entity &lol2;"},
		},
		{
			name: "a DOCTYPE in SOAP answers",
			wrap: rewriteSOAP(func(b []byte) []byte {
				_, rest, ok := bytes.Cut(b, []byte("?>"))
				if !ok {
					rest = b
				}
				return append([]byte(`<?xml version="1.0" encoding="utf-8"?><!DOCTYPE soap:Envelope SYSTEM "http://dtd.example/soap.dtd">`), rest...)
			}),
			args: []string{"--label-filter", "soap11 && !equivalence"},
			code: exitFailure,
			says: []string{"envelope: expected no document type declaration (SOAP forbids one in a message; ASMX prohibits DTDs)", `got:      <!DOCTYPE soap:Envelope SYSTEM "http://dtd.example/soap.dtd">`},
		},
		{
			name: "text after the SOAP envelope",
			wrap: rewriteSOAP(func(b []byte) []byte { return append(b, "<!-- served by proxy -->trailing junk"...) }),
			args: []string{"--label-filter", "soap11 && !equivalence"},
			code: exitFailure,
			says: []string{"body: expected an XML document", `text outside the root element: "trailing junk"`},
		},
		{
			// SOAP 1.2 calls answered with SOAP 1.1 faults.
			name: "a SOAP fault of the wrong version",
			wrap: func(h http.Handler) http.Handler {
				return rewriteSOAP(func(b []byte) []byte {
					if !bytes.Contains(b, []byte("Fault")) {
						return b
					}
					return []byte(`<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body><soap:Fault><faultcode>soap:Client</faultcode><faultstring>refused</faultstring></soap:Fault></soap:Body></soap:Envelope>`)
				})(h)
			},
			args: []string{"--label-filter", "soap12 && (faults || keys)"},
			code: exitFailure,
			says: []string{"envelope: expected {http://www.w3.org/2003/05/soap-envelope}Envelope", "got:      root element {http://schemas.xmlsoap.org/soap/envelope/}Envelope"},
		},
		{
			name: "HTML where JSON belongs",
			wrap: hostile(jsonCall, func(w http.ResponseWriter, _ *http.Request) {
				w.Header().Set("Content-Type", "text/html; charset=utf-8")
				_, _ = w.Write([]byte("<html><body>Service Unavailable</body></html>"))
			}),
			args: []string{"--label-filter", "json"},
			code: exitFailure,
			says: []string{"body: expected a JSON result object", "decoding JSON: invalid character '<'"},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.noRace && mocktest.Race {
				t.Skip("too slow under the race detector; the run without it checks this")
			}
			t.Parallel()
			target := startMock(t, leakKey, tc.wrap)
			dir := t.TempDir()
			junit, jsonReport := filepath.Join(dir, "conform.xml"), filepath.Join(dir, "conform.json")
			args := append([]string{"--target", target, "--key", leakKey, "--timeout", "5s", "--junit-report", junit, "--json-report", jsonReport}, tc.args...)
			code, out := runConformProcess(t, args...)
			checkHostileOutput(t, out, code, tc.code, tc.says)
			checkNoKey(t, leakKey, out, junit, jsonReport)
			checkNoKey(t, gatewaySecret, out, junit, jsonReport)
			// Nor a part of either, where a quote is cut.
			checkNoKey(t, leakKey[:5], out, junit, jsonReport)
			checkNoKey(t, gatewaySecret[:9], out, junit, jsonReport)
		})
	}
}
