package cassettes_test

import (
	"bufio"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/atmkit/atmkit/cassettes"
	"github.com/atmkit/atmkit/internal/mocktest"
)

// allocations starts counting the process's allocations, after a
// collection; the function it returns gives the bytes allocated since.
func allocations() func() uint64 {
	var before runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	return func() uint64 {
		var after runtime.MemStats
		runtime.ReadMemStats(&after)
		return after.TotalAlloc - before.TotalAlloc
	}
}

// TestRecordBigCallOnce: a call whose answer is megabytes, recorded through
// the proxy, costs about one copy of the answer in allocations, with its
// length known (Content-Length) or not (chunked): the answer was read into
// a growing buffer, copied into a string, copied again to be hashed, and
// encoded by yaml.v3 into a growing buffer and read back, some 17 times
// its size allocated (600 MB of memory for a 50 MB answer). The client and
// the cassette get the answer as it came, the key scrubbed from the
// cassette. Not parallel: the allocations counted are the process's.
func TestRecordBigCallOnce(t *testing.T) {
	var b strings.Builder
	b.WriteString("<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<atmLocations>\n  <locations>\n")
	for j := 0; b.Len() < 8<<20; j++ {
		b.WriteString("    <location>\n      <id>" + strconv.Itoa(j) + "</id>\n      <city>Montréal</city>\n    </location>\n")
	}
	b.WriteString("  </locations>\n</atmLocations>")
	answer := b.String()
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/xml; charset=utf-8")
		if !strings.HasSuffix(r.URL.Path, "/ReturnProvinces") {
			w.Header().Set("Content-Length", strconv.Itoa(len(answer)))
			_, _ = io.WriteString(w, answer)
			return
		}
		for s := answer; len(s) > 0; s = s[min(len(s), 1<<20):] {
			_, _ = io.WriteString(w, s[:min(len(s), 1<<20)])
			w.(http.Flusher).Flush()
		}
	}))
	defer up.Close()
	path := filepath.Join(t.TempDir(), "big.yaml")
	rec, proxy := recordingProxy(t, up.URL, path, cassettes.WithSaveInterval(0))
	for _, q := range []string{"ReturnAllAtms", "ReturnProvinces"} { // the upstream answers the second in chunks
		got := make([]byte, len(answer)+1)
		allocated := allocations()
		resp, err := http.Get(proxy.URL + "/service/service.asmx/" + q + "?strAtmServiceKey=secret-key-1")
		if err != nil {
			t.Fatal(err)
		}
		n, err := io.ReadFull(resp.Body, got)
		resp.Body.Close()
		alloc := allocated()
		if err != io.ErrUnexpectedEOF || resp.StatusCode != 200 || string(got[:n]) != answer {
			t.Fatalf("%q: status %d, %d bytes (%v), want the answer's %d", q, resp.StatusCode, n, err, len(answer))
		}
		t.Logf("%q: recording a %d-byte answer allocated %d bytes", q, len(answer), alloc)
		if mocktest.Race {
			continue // the race detector's allocations are its own
		}
		if alloc > 3*uint64(len(answer)) {
			t.Errorf("%q: recording a %d-byte answer allocated %d bytes, want at most 3 times the answer", q, len(answer), alloc)
		}
	}
	if err := rec.Stop(); err != nil {
		t.Fatal(err)
	}
	list := readCassette(t, path)
	if len(list) != 2 {
		t.Fatalf("%d interactions recorded, want 2", len(list))
	}
	for _, i := range list {
		if i.Response.Body != answer || strings.Contains(i.Request.URL, "secret-key-1") {
			t.Errorf("interaction %d: %d-byte body recorded, want the answer's %d; URL %s", i.ID, len(i.Response.Body), len(answer), i.Request.URL)
		}
	}
}

// TestRecordLyingContentLength: a request whose Content-Length claims far
// more than it sends costs what it sends, not what it claims: the body was
// read into a string grown to the claimed size at once (200 MB allocated
// for 9 bytes sent, as many times as such requests came). The client gets
// a 502 naming the body cut short; nothing is recorded. Not parallel: the
// allocations counted are the process's.
func TestRecordLyingContentLength(t *testing.T) {
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.WriteString(w, "<string>ok</string>")
	}))
	defer up.Close()
	path := filepath.Join(t.TempDir(), "lie.yaml")
	rec, proxy := recordingProxy(t, up.URL, path, cassettes.WithSaveInterval(0))
	allocated := allocations()
	conn, err := net.Dial("tcp", proxy.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	_, err = io.WriteString(conn, "POST /service/service.asmx HTTP/1.1\r\nHost: x\r\nContent-Type: text/xml; charset=utf-8\r\n"+
		"SOAPAction: \"http://tempuri.org/atmService/ReturnProvinces\"\r\nContent-Length: 200000000\r\n\r\n<soap:Env")
	if err != nil {
		t.Fatal(err)
	}
	_ = conn.(*net.TCPConn).CloseWrite()
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	alloc := allocated()
	if resp.StatusCode != http.StatusBadGateway || !strings.Contains(string(body), "unexpected EOF") {
		t.Errorf("got %d %q, want 502 naming the body cut short", resp.StatusCode, body)
	}
	t.Logf("a request claiming 200 MB and sending 9 bytes allocated %d bytes", alloc)
	if !mocktest.Race && alloc > 16<<20 {
		t.Errorf("a request claiming 200 MB and sending 9 bytes allocated %d bytes, want what it sent", alloc)
	}
	if err := rec.Stop(); !errors.Is(err, cassettes.ErrNothingRecorded) {
		t.Errorf("Stop: %v, want nothing recorded", err)
	}
}

// TestRecordUpstreamCutShort: an answer whose Content-Length claims far
// more than the upstream sends before it hangs up costs what was sent, not
// what was claimed (200 MB were allocated at once), and the client gets a
// 502 naming the answer cut short; nothing is recorded. Not parallel: the
// allocations counted are the process's.
func TestRecordUpstreamCutShort(t *testing.T) {
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		conn, buf, err := w.(http.Hijacker).Hijack()
		if err != nil {
			return
		}
		defer conn.Close()
		_, _ = buf.WriteString("HTTP/1.1 200 OK\r\nContent-Type: text/xml; charset=utf-8\r\nContent-Length: 200000000\r\n\r\n<?xml version=\"1.0\"?><ArrayOfProvince>")
		_ = buf.Flush()
	}))
	defer up.Close()
	path := filepath.Join(t.TempDir(), "short.yaml")
	rec, proxy := recordingProxy(t, up.URL, path, cassettes.WithSaveInterval(0))
	allocated := allocations()
	resp, err := http.Get(proxy.URL + "/service/service.asmx/ReturnProvinces?strAtmServiceKey=secret-key-1")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	alloc := allocated()
	if resp.StatusCode != http.StatusBadGateway || !strings.Contains(string(body), "unexpected EOF") || strings.Contains(string(body), "secret-key-1") {
		t.Errorf("got %d %q, want 502 naming the answer cut short, the key masked", resp.StatusCode, body)
	}
	t.Logf("an answer claiming 200 MB cut short allocated %d bytes", alloc)
	if !mocktest.Race && alloc > 16<<20 {
		t.Errorf("an answer claiming 200 MB cut short allocated %d bytes, want what was sent", alloc)
	}
	if err := rec.Stop(); !errors.Is(err, cassettes.ErrNothingRecorded) {
		t.Errorf("Stop: %v, want nothing recorded", err)
	}
}
