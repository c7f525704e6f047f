package learnfrom

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/atmkit/atmkit/asmx"
	"github.com/atmkit/atmkit/shape/learn"
)

// wsdlStart is the start of a WSDL: what isWSDL looks at.
const wsdlStart = `<?xml version="1.0" encoding="utf-8"?><wsdl:definitions xmlns:wsdl="http://schemas.xmlsoap.org/wsdl/"><!--`

// TestWSDLTooLarge: an answer larger than any WSDL (one that never ends,
// one declaring 20 MiB) and a file as large are refused as too large,
// having read no more than the limit. The answers were cut at the limit
// and learned from, "the WSDL does not parse: unexpected EOF" (exit 1),
// and a file was read whole (--wsdl /dev/zero took the machine's memory).
func TestWSDLTooLarge(t *testing.T) {
	t.Parallel()
	chunk := []byte(strings.Repeat("x", 64<<10))
	endless := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, wsdlStart)
		for {
			if _, err := w.Write(chunk); err != nil {
				return
			}
		}
	}))
	defer endless.Close()
	declared := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Length", fmt.Sprint(20<<20))
		fmt.Fprint(w, wsdlStart)
		for i := 0; i < 20<<20/len(chunk) && r.Context().Err() == nil; i++ {
			if _, err := w.Write(chunk); err != nil {
				return
			}
		}
	}))
	defer declared.Close()
	for _, u := range []string{endless.URL, declared.URL} {
		_, _, err := WSDL(context.Background(), u+"/service/service.asmx", time.Minute, nil)
		if want := "the WSDL at " + u + "/service/service.asmx: an answer over 16 MiB, larger than any WSDL"; err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: got %v, want %q", u, err, want)
		}
	}
	big := filepath.Join(t.TempDir(), "big.wsdl")
	if err := os.WriteFile(big, []byte(wsdlStart), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(big, 17<<20); err != nil { // sparse: 17 MiB to read, none on disk
		t.Fatal(err)
	}
	_, _, err := Read(context.Background(), big, time.Minute, nil)
	if want := "--wsdl big.wsdl: over 16 MiB, larger than any WSDL"; err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("a 17 MiB file: got %v, want %q", err, want)
	}
}

// TestWSDLSlowAnswer: an answer that starts but does not end within the
// timeout (a byte a moment) is told as such; it was told as "no answer".
func TestWSDLSlowAnswer(t *testing.T) {
	t.Parallel()
	trickle := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, wsdlStart)
		for {
			w.(http.Flusher).Flush()
			select {
			case <-r.Context().Done():
				return
			case <-time.After(20 * time.Millisecond):
			}
			if _, err := w.Write([]byte("x")); err != nil {
				return
			}
		}
	}))
	defer trickle.Close()
	_, _, err := WSDL(context.Background(), trickle.URL+"/service/service.asmx", 200*time.Millisecond, nil)
	if want := "read the WSDL at " + trickle.URL + "/service/service.asmx: the answer did not end within --timeout (200ms)"; err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("got %v, want %q", err, want)
	}
}

// TestWSDLSaysWhatTheDeploymentSaid: an answer that is not the WSDL is
// told with what it says, a line of it: a SOAP fault's faultstring (1.1)
// or reason (1.2), an HTML page's title (ASP.NET's error page), a text's
// first line; values of the URL's query the answer echoes (a key) are
// masked. Only the status was told.
func TestWSDLSaysWhatTheDeploymentSaid(t *testing.T) {
	t.Parallel()
	const key = `Se"cret kéy-42`
	answers := map[string]struct {
		status      int
		ctype, body string
	}{
		"/fault11": {500, "text/xml; charset=utf-8", `<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body><soap:Fault><faultcode>soap:Server</faultcode><faultstring>Server was unable to process request. ---&gt; Object reference not set to an instance of an object.</faultstring><detail /></soap:Fault></soap:Body></soap:Envelope>`},
		"/fault12": {200, "application/soap+xml; charset=utf-8", `<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="http://www.w3.org/2003/05/soap-envelope"><soap:Body><soap:Fault><soap:Code><soap:Value>soap:Receiver</soap:Value></soap:Code><soap:Reason><soap:Text xml:lang="en">Server was unable to process request.</soap:Text></soap:Reason></soap:Fault></soap:Body></soap:Envelope>`},
		"/ysod":    {500, "text/html; charset=utf-8", "<!DOCTYPE html>\r\n<html>\r\n    <head>\r\n        <title>Request format is unrecognized.</title>\r\n<style>body {}</style></head><body><h1>Server Error in '/' Application.</h1></body></html>"},
		"/plain":   {500, "text/plain; charset=utf-8", "Request format is unrecognized for URL unexpectedly ending in '/x'.\r\n   at System.Web.Services.Protocols.WebServiceHandlerFactory.CoreGetHandler()"},
		"/echo":    {400, "text/html", ""},
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		a := answers[strings.TrimSuffix(r.URL.Path, "/service.asmx")]
		if a.body == "" {
			a.body = "<html><head><title>A potentially dangerous Request.QueryString value was detected from the client (apikey=&quot;" + r.URL.Query().Get("apikey") + "&quot;).</title></head></html>"
		}
		w.Header().Set("Content-Type", a.ctype)
		w.WriteHeader(a.status)
		fmt.Fprint(w, a.body)
	}))
	defer srv.Close()
	for path, want := range map[string]string{
		"/fault11": "HTTP 500 (a SOAP fault: Server was unable to process request. ---> Object reference not set to an instance of an object.), not the WSDL",
		"/fault12": "HTTP 200 (application/soap+xml; charset=utf-8; a SOAP fault: Server was unable to process request.), not a WSDL",
		"/ysod":    "HTTP 500 (an HTML page: Request format is unrecognized.), not the WSDL",
		"/plain":   "HTTP 500 (text: Request format is unrecognized for URL unexpectedly ending in '/x'.), not the WSDL",
		"/echo":    `HTTP 400 (an HTML page: A potentially dangerous Request.QueryString value was detected from the client (apikey="`,
	} {
		u := srv.URL + path + "/service.asmx?apikey=" + strings.NewReplacer(`"`, "%22", " ", "%20").Replace(key)
		_, _, err := WSDL(context.Background(), u, time.Minute, nil)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: got %v, want %q", path, err, want)
		}
		if err != nil && (strings.Contains(err.Error(), "cret") || strings.Contains(err.Error(), "apikey=Se")) {
			t.Errorf("%s: the error shows the query's key: %v", path, err)
		}
	}
}

// TestReadUTF16: a WSDL file in UTF-16 (what PowerShell 5's > writes) is
// told as such, with the way to save it as UTF-8; it was "not a WSDL: no
// XML element in it".
func TestReadUTF16(t *testing.T) {
	t.Parallel()
	file := filepath.Join(t.TempDir(), "service.wsdl")
	data := []byte{0xFF, 0xFE}
	for _, c := range wsdlStart + "--></wsdl:definitions>" {
		data = append(data, byte(c), 0)
	}
	if err := os.WriteFile(file, data, 0o644); err != nil {
		t.Fatal(err)
	}
	_, _, err := Read(context.Background(), file, time.Minute, nil)
	if want := "--wsdl service.wsdl: is UTF-16 (it starts with a UTF-16 byte order mark, as PowerShell 5's > writes); save it as UTF-8"; err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("got %v, want %q", err, want)
	}
}

// TestWSDLRedirectKeepsTheQueryMasked: a gateway that redirects to HTTPS
// keeping the query (?subscription-key=…) is told where it points with the
// query's values masked. The key showed in the error: only a
// strAtmServiceKey's value and a password were masked.
func TestWSDLRedirectKeepsTheQueryMasked(t *testing.T) {
	t.Parallel()
	const key = "Gw-Sub-Key-0042"
	moved := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "https://gateway.example"+r.URL.RequestURI(), http.StatusMovedPermanently)
	}))
	defer moved.Close()
	_, _, err := WSDL(context.Background(), moved.URL+"/service/service.asmx?subscription-key="+key, time.Minute, nil)
	if want := "a redirect to https://gateway.example/service/service.asmx?subscription-key=Gw****&WSDL (not followed)"; err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("got %v, want %q", err, want)
	}
	if err != nil && strings.Contains(err.Error(), key) {
		t.Errorf("the error shows the query's key: %v", err)
	}
}

// TestLearnTellsItStillLearns: LearnTelling tells the time spent while a
// long learning runs (shape learn printed nothing between its first line
// and its report, a minute and more for large recordings), and never once
// it has returned.
func TestLearnTellsItStillLearns(t *testing.T) {
	t.Parallel()
	var in learn.Input
	for i := range 2 { // 2 MB each: a second's learning, a thousand times the interval
		in.Samples = append(in.Samples, mockSample(t, asmx.OpReturnAllAtms, "t#"+strconv.Itoa(i)))
	}
	var mu sync.Mutex
	told, returned := 0, false
	sh, _, err := LearnTelling(context.Background(), in, time.Millisecond, func(d time.Duration) {
		mu.Lock()
		defer mu.Unlock()
		if returned {
			t.Errorf("told %s after LearnTelling returned", d)
		}
		told++
	})
	mu.Lock()
	returned = true
	mu.Unlock()
	if err != nil || sh == nil {
		t.Fatalf("LearnTelling: %v; want a shape", err)
	}
	if told == 0 {
		t.Error("LearnTelling told nothing while it learned")
	}
}

// TestReadACassetteAsTheWSDL: a cassette given as --wsdl (the flags
// swapped) is named as one, with the flag it belongs to; it was "not a
// WSDL: a document whose root is <Envelope>", the first answer recorded in
// it.
func TestReadACassetteAsTheWSDL(t *testing.T) {
	t.Parallel()
	_, _, err := Read(context.Background(), filepath.Join("..", "..", "..", "..", "cassettes", "testdata", "reference-attrs.yaml"), time.Minute, nil)
	if want := "--wsdl reference-attrs.yaml: a cassette, not a WSDL: give it with --cassette"; err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("got %v, want %q", err, want)
	}
}

// TestReadTellsItStillFetches: ReadTelling tells the time spent while a
// deployment is slow to answer the WSDL (shape learn's "still fetching"
// line, with a --timeout of minutes), and never once it has returned.
// The deployment answers only once it has been told about.
func TestReadTellsItStillFetches(t *testing.T) {
	t.Parallel()
	told := make(chan struct{})
	var once sync.Once
	wsdl := []byte(`<?xml version="1.0"?><wsdl:definitions xmlns:wsdl="http://schemas.xmlsoap.org/wsdl/"/>`)
	slow := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-told:
		case <-r.Context().Done():
			return
		}
		_, _ = w.Write(wsdl)
	}))
	defer slow.Close()
	var mu sync.Mutex
	returned := false
	data, _, err := ReadTelling(context.Background(), slow.URL+"/service/service.asmx", time.Minute, nil, time.Millisecond, func(d time.Duration) {
		mu.Lock()
		defer mu.Unlock()
		if returned {
			t.Errorf("told %s after ReadTelling returned", d)
		}
		once.Do(func() { close(told) })
	})
	mu.Lock()
	returned = true
	mu.Unlock()
	if err != nil || len(data) == 0 {
		t.Fatalf("ReadTelling: %v; want the WSDL", err)
	}
}
