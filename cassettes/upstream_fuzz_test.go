package cassettes_test

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/atmkit/atmkit/asmx"
	"github.com/atmkit/atmkit/cassettes"
	"github.com/atmkit/atmkit/mockserver"
)

// How the fuzzed upstream writes its answer (FuzzUpstream's mode).
const (
	upPlain    = iota // status, headers, body, as net/http writes them
	upGzip            // the body gzipped, Content-Encoding: gzip
	upBadGzip         // Content-Encoding: gzip on a body that is not
	upChunked         // the body in pieces, flushed (chunked)
	upLongLie         // a Content-Length above the body's, then the connection closes
	upHugeLie         // a Content-Length of a terabyte, then the connection closes
	upShortLie        // a Content-Length below the body's
	upNoBody          // the status and headers alone
	upRedirect        // a redirect whose Location holds the key
	upHangUp          // the connection closed with no answer
	upModes
)

// complete reports whether the upstream delivers the whole answer in mode
// m: the app then gets it as it came.
func complete(m int) bool {
	switch m {
	case upPlain, upGzip, upChunked, upNoBody, upRedirect:
		return true
	}
	return false
}

// FuzzUpstream forwards any call the replaying mock has no recording of
// (serve --replay X --on-miss upstream --upstream URL) to a real loopback
// upstream that answers any status, header and body, written any way:
// gzipped, chunked, with lying Content-Lengths, with none, as a redirect,
// or not at all. The app's call is fuzzed too (binding, operation,
// parameter values, the form of its request). No call may panic or hang
// (each is bounded); the app gets the upstream's answer as it came when
// the upstream gave one whole, else an error in its binding's form (a
// status net/http writes, never a panic text); no cassette holds the key
// in any form, even where the upstream echoes it; and what was recorded
// reads back (ReadFile) and loads for replay (LoadIndex).
func FuzzUpstream(f *testing.F) {
	ops := asmx.Operations()
	for b := range asmx.Bindings {
		for o := range ops {
			f.Add(uint8(b), uint8(o), "15", "15", b%2 == 0, 200, "text/xml; charset=utf-8", "X-Powered-By", "ASP.NET",
				`<?xml version="1.0" encoding="utf-8"?><ArrayOfProvince xmlns="http://tempuri.org/"/>`, uint8(upPlain), false)
		}
	}
	soapFault := `<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body><soap:Fault><faultcode>soap:Client</faultcode><faultstring>bad key</faultstring></soap:Fault></soap:Body></soap:Envelope>`
	for m := range upModes {
		f.Add(uint8(m%5), uint8(m%8), "15", "15", m%2 == 0, 200, "text/xml", "Cache-Control", "private", `<string xmlns="http://tempuri.org/">x</string>`, uint8(m), m%3 == 0)
		f.Add(uint8(m), uint8(5), "<&>", "%zz", true, 500, "text/xml; charset=utf-8", "", "", soapFault, uint8(m), true)
	}
	f.Add(uint8(4), uint8(1), "44.6", "-63.5", false, 500, "application/json; charset=utf-8", "jsonerror", "true",
		`{"Message":"Invalid web service call","StackTrace":"","ExceptionType":"System.InvalidOperationException"}`, uint8(upChunked), true)
	f.Add(uint8(2), uint8(3), "1", "", false, 302, "text/html", "Set-Cookie", "ASP.NET_SessionId=abc", "<html>moved</html>", uint8(upRedirect), true)
	f.Add(uint8(3), uint8(2), "", "", false, 204, "", "", "", "", uint8(upNoBody), false)

	var mu sync.Mutex
	var ans struct {
		code               int
		ctype, hname, hval string
		body, location     string
		mode               int
		hits               int
	}
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		mu.Lock()
		a := ans
		ans.hits++
		mu.Unlock()
		if a.mode == upHangUp {
			if c, _, err := w.(http.Hijacker).Hijack(); err == nil {
				c.Close()
			}
			return
		}
		h := w.Header()
		if a.ctype != "" {
			h.Set("Content-Type", a.ctype)
		}
		if a.hname != "" {
			h.Add(a.hname, a.hval)
		}
		body := []byte(a.body)
		switch a.mode {
		case upGzip:
			var zb bytes.Buffer
			zw := gzip.NewWriter(&zb)
			_, _ = zw.Write(body)
			_ = zw.Close()
			body = zb.Bytes()
			h.Set("Content-Encoding", "gzip")
		case upBadGzip:
			h.Set("Content-Encoding", "gzip")
		case upLongLie:
			h.Set("Content-Length", strconv.Itoa(len(body)+1000))
		case upHugeLie:
			h.Set("Content-Length", strconv.FormatInt(1<<40, 10))
		case upShortLie:
			h.Set("Content-Length", strconv.Itoa(len(body)/2))
		case upRedirect:
			h.Set("Location", a.location)
		}
		w.WriteHeader(a.code)
		switch a.mode {
		case upNoBody:
		case upChunked:
			for len(body) > 0 {
				n := min(len(body), 7)
				_, _ = w.Write(body[:n])
				w.(http.Flusher).Flush()
				body = body[n:]
			}
		case upShortLie: // the declared length reaches the app; the rest is refused (ErrContentLength)
			_, _ = w.Write(body[:len(body)/2])
			_, _ = w.Write(body[len(body)/2:])
		case upLongLie, upHugeLie:
			_, _ = w.Write(body)
			w.(http.Flusher).Flush()
			panic(http.ErrAbortHandler) // closes the connection short of the declared length
		default:
			_, _ = w.Write(body)
		}
	}))
	f.Cleanup(up.Close)

	keyForms := []string{testKey, url.QueryEscape(testKey), string(asmx.AppendEscaped(nil, testKey))}
	holdsKey := func(s string) bool {
		for _, k := range keyForms {
			if strings.Contains(s, k) {
				return true
			}
		}
		return false
	}

	// One loopback server in front of the run's mock (each run's own: its
	// index records that run's miss), and the small data set, loaded once:
	// a miss is forwarded, the data set answers nothing. Before, each run
	// started a server and a client connection and checked the embedded
	// data set against the shape.
	ds := smallDataset(f)
	var mock atomic.Pointer[mockserver.Server]
	var serving sync.WaitGroup // the run's calls, which end before the next run (as Close waited for them)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		serving.Add(1)
		defer serving.Done()
		mock.Load().ServeHTTP(w, r)
	}))
	f.Cleanup(srv.Close)

	f.Fuzz(func(t *testing.T, binding, opIndex uint8, v1, v2 string, variant bool, code int, ctype, hname, hval, body string, mode uint8, echo bool) {
		m := int(mode) % upModes
		if m == upRedirect {
			code = []int{301, 302, 303, 307, 308}[(code%5+5)%5]
		}
		if code < 200 || code > 599 {
			return // net/http writes no other final status
		}
		if hname != "" && (!validMethod(hname) || !printableASCII(hval)) { // a token, and a value written as it is
			return
		}
		switch strings.ToLower(hname) {
		case "content-length", "transfer-encoding", "content-encoding", "content-type", "location", "connection", "trailer":
			return // the modes write these (their lies included)
		}
		if !printableASCII(ctype) || holdsKey(v1+"\x00"+v2+"\x00"+body+"\x00"+hval+"\x00"+ctype+"\x00"+hname) {
			return // only the echo below puts the key where the app does not send it
		}
		b := asmx.Bindings[int(binding)%len(asmx.Bindings)]
		op := asmx.Operations()[int(opIndex)%len(asmx.Operations())]
		if b == asmx.JSON && !op.JSON {
			b = asmx.HTTPGet
		}
		q := query{Op: op.Name}
		vals := []string{v1, v2}
		for j, p := range op.Params {
			if p.Name != asmx.ParamKey {
				q.Params = append(q.Params, [2]string{p.Name, vals[j%2]})
			}
		}
		upBody := body
		if echo {
			upBody = "The key " + testKey + " (" + url.QueryEscape(testKey) + ") is not valid. " + body
			if hname != "" {
				hval += " " + testKey // an upstream echoing it in a header too
			}
		}
		mu.Lock()
		ans.code, ans.ctype, ans.hname, ans.hval, ans.body, ans.mode, ans.hits = code, ctype, hname, hval, upBody, m, 0
		ans.location = up.URL + "/moved?strAtmServiceKey=" + url.QueryEscape(testKey)
		mu.Unlock()

		path := filepath.Join(t.TempDir(), "grown.yaml")
		idx, err := cassettes.LoadIndex(nil, cassettes.WithUpstream(cassettes.Upstream{URL: up.URL, Record: path, Timeout: 20 * time.Second}))
		if err != nil {
			t.Fatal(err)
		}
		h, err := mockserver.New(mockserver.WithReplay(idx, mockserver.MissFault), mockserver.WithDataset(ds))
		if err != nil {
			t.Fatal(err)
		}
		mock.Store(h)
		// The mock forwards through http.DefaultTransport: no connection to
		// the upstream is kept from a run before (which Close of a server of
		// each run dropped), or net/http sends a call again when the
		// upstream hangs up on it (upHangUp).
		http.DefaultTransport.(*http.Transport).CloseIdleConnections()
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		req := requestNS(t, srv.URL, asmx.DefaultNamespace, b, q, testKey, variant).WithContext(ctx)
		// A connection of its own, as each run's server gave: net/http sends
		// a GET again when a kept-alive connection closes before its answer.
		tr := &http.Transport{}
		defer tr.CloseIdleConnections()
		resp, err := (&http.Client{Transport: tr}).Do(req)
		if err != nil {
			t.Fatalf("%s %s: no answer: %v", b, op.Name, err)
		}
		got, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err != nil {
			t.Fatalf("%s %s: the answer breaks off: %v", b, op.Name, err)
		}
		if s := string(got); strings.Contains(s, "internal error:") || strings.Contains(s, "goroutine ") || strings.Contains(s, "panic") {
			t.Fatalf("%s %s: a panic answered: %d %q", b, op.Name, resp.StatusCode, s)
		}
		serving.Wait()
		mu.Lock()
		hits := ans.hits
		mu.Unlock()
		if hits > 1 {
			t.Fatalf("%s %s: the upstream got %d requests for one call", b, op.Name, hits)
		}
		if hits == 1 {
			bodiless := code == http.StatusNoContent || code == http.StatusNotModified
			switch {
			// An empty body marked gzip reads, in net/http, as the empty
			// body it is, and an answer of a status that has no body is
			// whole once its header is, whatever its headers say of a
			// body (a gzip, a length): a whole answer.
			case complete(m) || m == upBadGzip && upBody == "" || bodiless && m != upHangUp:
				want := upBody
				if bodiless || m == upNoBody {
					want = ""
				}
				if resp.StatusCode != code || string(got) != want {
					t.Fatalf("%s %s: the upstream answered %d %q (mode %d); the app got %d %q", b, op.Name, code, want, m, resp.StatusCode, got)
				}
			case m == upShortLie:
				if resp.StatusCode != code || string(got) != upBody[:len(upBody)/2] {
					t.Fatalf("%s %s: the upstream answered %d %q cut short; the app got %d %q", b, op.Name, code, upBody, resp.StatusCode, got)
				}
			default: // no whole answer: a Server error in the binding's form
				if resp.StatusCode != http.StatusInternalServerError || !strings.Contains(string(got), "upstream") {
					t.Fatalf("%s %s: the upstream broke off (mode %d); the app got %d %q, want a Server error", b, op.Name, m, resp.StatusCode, got)
				}
				if b.IsSOAP() && !strings.Contains(string(got), "Fault>") {
					t.Fatalf("%s %s: the upstream broke off; the app got no SOAP fault: %q", b, op.Name, got)
				}
				if holdsKey(string(got)) {
					t.Fatalf("%s %s: the error the app got quotes the key: %q", b, op.Name, got)
				}
			}
		}
		if err := idx.Close(); err != nil {
			t.Fatalf("Close: %v", err)
		}
		raw, err := os.ReadFile(cassettes.FilePath(path))
		if errors.Is(err, os.ErrNotExist) {
			if hits == 1 && complete(m) {
				t.Fatalf("%s %s: the upstream answered whole (mode %d), nothing was recorded", b, op.Name, m)
			}
			return
		}
		if err != nil {
			t.Fatal(err)
		}
		if holdsKey(string(raw)) {
			t.Fatalf("%s %s: the cassette holds the key:\n%s", b, op.Name, raw)
		}
		list, err := cassettes.ReadFile(path)
		if err != nil {
			t.Fatalf("the recorded cassette does not read: %v\n%s", err, raw)
		}
		if len(list) != 1 || list[0].Response.Code != code {
			t.Fatalf("%s %s: recorded %d interactions, want 1 answered %d:\n%s", b, op.Name, len(list), code, raw)
		}
		if _, err := cassettes.LoadIndex([]string{path}); err != nil {
			t.Fatalf("the recorded cassette does not load for replay: %v", err)
		}
	})
}
