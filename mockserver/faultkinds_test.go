package mockserver

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math"
	"net"
	"net/http"
	"net/http/httptest"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/atmkit/atmkit/asmx"
	"github.com/atmkit/atmkit/internal/mocktest"
)

// Over real sockets, only what cannot flake on a busy machine: what a
// client receives, and lower bounds of time.

// provincesURL is a GET of ReturnProvinces on ts.
func provincesURL(ts *TestServer) string {
	return ts.URL + "/service/service.asmx/ReturnProvinces?strAtmServiceKey=k"
}

// lastEntry is the journal's latest entry.
func lastEntry(t *testing.T, ts *TestServer) JournalEntry {
	t.Helper()
	es := ts.Journal(RequestFilter{})
	if len(es) == 0 {
		t.Fatal("the journal is empty")
	}
	return es[len(es)-1]
}

// TestFaultDribble: a dribbled answer arrives intact (the same bytes as
// the normal answer), not before the dribble's duration, in the normal
// answer, a status page and a SOAP fault alike; the journal names the
// fault and holds the call once the client has the whole body.
func TestFaultDribble(t *testing.T) {
	t.Parallel()
	const dur = 300 * time.Millisecond
	for _, tt := range []struct {
		name   string
		fault  Fault
		status int
		kind   string
	}{
		{"normal answer", Fault{}, 200, kindDribble},
		{"status page", Fault{Status: 503}, 503, kindStatus},
		{"soap fault", Fault{SOAPFault: &SOAPFault{Text: "slow and wrong"}}, 500, kindSOAPFault},
		{"one chunk", Fault{}, 200, kindDribble},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			ts := NewTestServer(t, WithDataset(smallDataset()))
			want := call(t, ts.URL, asmx.SOAP12, asmx.OpReturnProvinces, paramsFor(asmx.OpReturnProvinces, "k"))
			ts.ResetJournal()
			f := tt.fault
			f.Dribble = &Dribble{Chunks: 5, Duration: dur}
			if tt.name == "one chunk" {
				f.Dribble.Chunks = 1
			}
			if _, err := ts.AddFault(f); err != nil {
				t.Fatal(err)
			}
			start := time.Now()
			got := call(t, ts.URL, asmx.SOAP12, asmx.OpReturnProvinces, paramsFor(asmx.OpReturnProvinces, "k"))
			elapsed := time.Since(start)
			if tt.status == 200 && got != want {
				t.Errorf("dribbled answer: got %d %q %.200q, want the normal answer %d %q %.200q", got.status, got.ctype, got.body, want.status, want.ctype, want.body)
			}
			if got.status != tt.status {
				t.Errorf("status: got %d, want %d", got.status, tt.status)
			}
			if elapsed < dur {
				t.Errorf("the whole answer arrived after %s, want at least the dribble's %s", elapsed, dur)
			}
			e := lastEntry(t, ts)
			if e.Fault != "f1" || e.FaultKind != tt.kind || e.Status != tt.status {
				t.Errorf("journal: got fault %q kind %q status %d, want f1, %s, %d", e.Fault, e.FaultKind, e.Status, tt.kind, tt.status)
			}
			// Journaled before the last chunk went, the entry still holds
			// the whole answer the client got, last chunk included.
			if r := e.Response; r.Body != got.body || r.Size != int64(len(got.body)) || r.Cut {
				t.Errorf("journal: got an answer of %d bytes (size %d, cut %v), want the %d bytes the client got:\n%.300q\nwant\n%.300q",
					len(r.Body), r.Size, r.Cut, len(got.body), r.Body, got.body)
			}
		})
	}
}

// TestFaultDribbleManyChunks: a dribble of more chunks than the body has
// bytes, up to the largest int the fault accepts, sends each byte as a
// chunk of its own and the body arrives intact; the chunk arithmetic
// overflowed and the body never came (the handler spun on).
func TestFaultDribbleManyChunks(t *testing.T) {
	t.Parallel()
	for _, chunks := range []int{5000, 1 << 40, math.MaxInt} {
		t.Run(strconv.Itoa(chunks), func(t *testing.T) {
			t.Parallel()
			ts := NewTestServer(t, WithDataset(smallDataset()))
			want := call(t, ts.URL, asmx.HTTPGet, asmx.OpReturnProvinces, paramsFor(asmx.OpReturnProvinces, "k"))
			if _, err := ts.AddFault(Fault{Dribble: &Dribble{Chunks: chunks, Duration: 50 * time.Millisecond}}); err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithTimeout(t.Context(), time.Minute) // a hang guard, not a measure
			defer cancel()
			got := do(t, callRequest(t, ts.URL, asmx.HTTPGet, asmx.OpReturnProvinces, paramsFor(asmx.OpReturnProvinces, "k")).WithContext(ctx))
			if got != want {
				t.Errorf("dribbled answer: got %d %.200q, want the normal answer %d %.200q", got.status, got.body, want.status, want.body)
			}
		})
	}
}

// TestFaultDribbleStreams: a dribbled answer is not held back by the
// test server: its header arrives while the body is still on its way
// (a minute of dribble), and the journal holds the call only once the
// last chunk is about to go, or, here, once the client went away.
func TestFaultDribbleStreams(t *testing.T) {
	t.Parallel()
	ts := NewTestServer(t, WithDataset(smallDataset()), WithFault(Fault{Dribble: &Dribble{Chunks: 2, Duration: time.Minute}}))
	client := &http.Client{Timeout: 50 * time.Second} // held back, the answer would come after a minute
	resp, err := client.Get(provincesURL(ts))
	if err != nil {
		t.Fatalf("%v, want the header before the dribbled body", err)
	}
	if resp.StatusCode != 200 {
		t.Errorf("status %d, want 200", resp.StatusCode)
	}
	if es := ts.Journal(RequestFilter{}); len(es) != 0 {
		t.Errorf("journal %+v before the last chunk, want none", es)
	}
	resp.Body.Close()
	ts.Close() // ends the dribble at once
	if e := lastEntry(t, ts); e.Status != 200 || e.Error != noteCanceled || e.FaultKind != kindDribble {
		t.Errorf("journal %+v, want status 200, error Canceled, kind dribble", e)
	}
}

// TestFaultReset: the client gets the status line, the header and
// afterBytes bytes of the body, then a connection reset; the journal
// shows the status begun and the error Reset.
func TestFaultReset(t *testing.T) {
	t.Parallel()
	for _, after := range []int{0, 10, 1 << 20} {
		ts := NewTestServer(t, WithDataset(smallDataset()))
		whole := call(t, ts.URL, asmx.HTTPGet, asmx.OpReturnProvinces, paramsFor(asmx.OpReturnProvinces, "k")).body
		if _, err := ts.AddFault(Fault{Reset: &Reset{AfterBytes: after}}); err != nil {
			t.Fatal(err)
		}
		resp, err := http.Get(provincesURL(ts))
		if err != nil {
			t.Fatalf("afterBytes %d: %v, want a 200 then a reset", after, err)
		}
		body, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		wantBytes := min(after, len(whole)-1)
		if resp.StatusCode != 200 || resp.ContentLength != int64(len(whole)) {
			t.Errorf("afterBytes %d: status %d, length %d; want 200 and the whole answer's length %d", after, resp.StatusCode, resp.ContentLength, len(whole))
		}
		if !errors.Is(err, syscall.ECONNRESET) {
			t.Errorf("afterBytes %d: reading the body: %v, want connection reset by peer", after, err)
		}
		if string(body) != whole[:wantBytes] {
			t.Errorf("afterBytes %d: got %d bytes of body, want the first %d", after, len(body), wantBytes)
		}
		e := lastEntry(t, ts)
		if e.Status != 200 || e.Error != noteReset || e.Fault != "f1" || e.FaultKind != kindReset {
			t.Errorf("afterBytes %d: journal %+v, want status 200, error Reset, fault f1 of kind reset", after, e)
		}
		// The journal shows what the client got: the header and the
		// bytes before the reset.
		r := e.Response
		if r.Body != string(body) || r.Size != int64(len(body)) || r.Cut || r.Header.Get("Content-Length") != strconv.Itoa(len(whole)) ||
			r.Header.Get("Content-Type") != resp.Header.Get("Content-Type") {
			t.Errorf("afterBytes %d: journal answer %q (size %d, cut %v), header %v; want the %d bytes sent, Content-Length %d and Type %q",
				after, r.Body, r.Size, r.Cut, r.Header, len(body), len(whole), resp.Header.Get("Content-Type"))
		}
	}
}

// TestFaultResetHTTP10: a reset fault answers an HTTP/1.0 request with
// an HTTP/1.0 status line, as net/http answers it without the fault: it
// wrote HTTP/1.1 to every client, a version the client had not spoken.
func TestFaultResetHTTP10(t *testing.T) {
	t.Parallel()
	ts := NewTestServer(t, WithDataset(smallDataset()))
	statusLine := func() string {
		t.Helper()
		conn, err := net.Dial("tcp", strings.TrimPrefix(ts.URL, "http://"))
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close()
		_ = conn.SetDeadline(time.Now().Add(10 * time.Second))
		if _, err := io.WriteString(conn, "GET /service/service.asmx/ReturnProvinces?strAtmServiceKey=k HTTP/1.0\r\nHost: mock\r\n\r\n"); err != nil {
			t.Fatal(err)
		}
		line, err := bufio.NewReader(conn).ReadString('\n')
		if err != nil {
			t.Fatalf("reading the status line: %v", err)
		}
		return strings.TrimSpace(line)
	}
	if got := statusLine(); got != "HTTP/1.0 200 OK" {
		t.Fatalf("without a fault: got %q, want HTTP/1.0 200 OK", got)
	}
	if _, err := ts.AddFault(Fault{Reset: &Reset{AfterBytes: 10}}); err != nil {
		t.Fatal(err)
	}
	if got := statusLine(); got != "HTTP/1.0 200 OK" {
		t.Errorf("with a reset fault: got %q, want HTTP/1.0 200 OK", got)
	}
}

// TestFaultResetRefusedKey: a reset fault on a call whose service key is
// refused begins the key's refusal (HTTP 500, the SOAP fault's first
// bytes), then resets: the client never gets the InvalidServiceKey fault
// whole, so the journal says what it got, error Reset with the status
// begun, fault and kind, as for any reset call, and the request log line
// says the same (error=Reset, not the key's refusal). Both said
// InvalidServiceKey, the answer the reset cut.
func TestFaultResetRefusedKey(t *testing.T) {
	t.Parallel()
	var logs mocktest.SyncBuffer
	ts := NewTestServer(t, WithDataset(smallDataset()), WithKeys("good-key-1"), WithFault(Fault{Reset: &Reset{AfterBytes: 20}}),
		WithLogger(slog.New(slog.NewTextHandler(&logs, nil))))
	resp, err := http.Get(ts.URL + "/service/service.asmx/ReturnProvinces?strAtmServiceKey=bad-key-2")
	if err != nil {
		t.Fatalf("%v, want a 500 then a reset", err)
	}
	body, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 500 || len(body) != 20 || !errors.Is(err, syscall.ECONNRESET) {
		t.Fatalf("got %d, %d bytes, %v; want 500, 20 bytes, connection reset by peer", resp.StatusCode, len(body), err)
	}
	e := lastEntry(t, ts)
	if e.Status != 500 || e.Error != noteReset || e.Fault != "f1" || e.FaultKind != kindReset || e.Response.Body != string(body) {
		t.Errorf("journal: status %d, error %q, fault %q of kind %q, body %q; want 500, Reset, f1 of kind reset, %q",
			e.Status, e.Error, e.Fault, e.FaultKind, e.Response.Body, body)
	}
	line := logs.String()
	for _, want := range []string{"status=500", "error=Reset", "fault=f1", "faultKind=reset"} {
		if !strings.Contains(line, want) {
			t.Errorf("request log %q: want %s", line, want)
		}
	}
}

// TestFaultMalformedRefusedKey: a malformed fault on a call whose service
// key is refused answers 200 with the first half of the key's refusal:
// the client never gets the InvalidServiceKey answer, so the journal and
// the request log line say what it got, status 200, no error kind (as
// for any call a malformed fault answered), the fault and its kind, and
// the half sent. Both said InvalidServiceKey, the answer the fault cut.
func TestFaultMalformedRefusedKey(t *testing.T) {
	t.Parallel()
	var logs mocktest.SyncBuffer
	ts := NewTestServer(t, WithDataset(smallDataset()), WithKeys("good-key-1"), WithFault(Fault{Malformed: true}),
		WithLogger(slog.New(slog.NewTextHandler(&logs, nil))))
	resp, err := http.Get(ts.URL + "/service/service.asmx/ReturnProvinces?strAtmServiceKey=bad-key-2")
	if err != nil {
		t.Fatal(err)
	}
	body, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil || resp.StatusCode != 200 || !strings.HasPrefix(string(body), "The service key") {
		t.Fatalf("got %d %q, %v; want 200 and the refusal's first half", resp.StatusCode, body, err)
	}
	e := lastEntry(t, ts)
	if e.Status != 200 || e.Error != "" || e.Fault != "f1" || e.FaultKind != kindMalformed || e.Response.Body != string(body) {
		t.Errorf("journal: status %d, error %q, fault %q of kind %q, body %q; want 200, no error, f1 of kind malformed, %q",
			e.Status, e.Error, e.Fault, e.FaultKind, e.Response.Body, body)
	}
	line := logs.String()
	for _, want := range []string{"status=200", "fault=f1", "faultKind=malformed"} {
		if !strings.Contains(line, want) {
			t.Errorf("request log %q: want %s", line, want)
		}
	}
	if strings.Contains(line, "error=") {
		t.Errorf("request log %q: want no error", line)
	}
}

// TestFaultResetTLS: over HTTPS the reset cuts the TLS stream: the
// client sees the reset, not a clean end.
func TestFaultResetTLS(t *testing.T) {
	t.Parallel()
	ts := NewTestServer(t, WithDataset(smallDataset()), WithTLS(), WithFault(Fault{Reset: &Reset{AfterBytes: 5}}))
	resp, err := ts.Client().Get(provincesURL(ts))
	if err != nil {
		t.Fatalf("%v, want a 200 then a reset", err)
	}
	body, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || len(body) != 5 || !errors.Is(err, syscall.ECONNRESET) {
		t.Errorf("got %d, %d bytes, %v; want 200, 5 bytes, connection reset by peer", resp.StatusCode, len(body), err)
	}
}

// TestFaultGarbage: a client gets bytes that are no HTTP answer, the
// same bytes from a restarted mock, then the connection closes.
func TestFaultGarbage(t *testing.T) {
	t.Parallel()
	raw := func() []byte {
		ts := NewTestServer(t, WithDataset(smallDataset()), WithFault(Fault{Garbage: true, Seed: 77}))
		conn, err := net.Dial("tcp", strings.TrimPrefix(ts.URL, "http://"))
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close()
		if _, err := io.WriteString(conn, "GET /service/service.asmx/ReturnProvinces?strAtmServiceKey=k HTTP/1.1\r\nHost: x\r\n\r\n"); err != nil {
			t.Fatal(err)
		}
		b, err := io.ReadAll(conn)
		if err != nil {
			t.Fatal(err)
		}
		e := lastEntry(t, ts)
		if e.Status != 0 || e.FaultKind != kindGarbage || e.Fault != "f1" {
			t.Errorf("journal %+v, want status 0 and fault f1 of kind garbage", e)
		}
		return b
	}
	a, b := raw(), raw()
	if len(a) != garbageLength || string(a) != string(b) {
		t.Errorf("got %d and %d bytes, equal %v; want the same %d bytes from each mock", len(a), len(b), string(a) == string(b), garbageLength)
	}
	if _, err := http.ReadResponse(bufio.NewReader(strings.NewReader(string(a))), nil); err == nil {
		t.Error("the garbage reads as an HTTP response")
	}
	ts := NewTestServer(t, WithDataset(smallDataset()), WithFault(Fault{Garbage: true}))
	resp, err := http.Get(provincesURL(ts))
	if err == nil {
		resp.Body.Close()
		t.Fatalf("got status %d, want a protocol error", resp.StatusCode)
	}
	if !strings.Contains(err.Error(), "malformed HTTP") {
		t.Errorf("got %v, want a malformed HTTP response", err)
	}
}

// TestFaultWSDL: a WSDL fault fails fetches of the WSDL (any case) and of
// the discovery document while calls and help pages pass; faults of every
// operation leave the WSDL alone.
func TestFaultWSDL(t *testing.T) {
	t.Parallel()
	ts := NewTestServer(t, WithDataset(smallDataset()), WithFault(Fault{Status: 500}), WithFault(Fault{Operation: "wsdl", Status: 503}))
	if fs := ts.Faults(); fs[1].Operation != "WSDL" {
		t.Errorf("operation stored as %q, want WSDL", fs[1].Operation)
	}
	get := func(path string) int {
		t.Helper()
		resp, err := http.Get(ts.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		_, _ = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		return resp.StatusCode
	}
	for _, tt := range []struct {
		path   string
		status int
		fault  string
	}{
		{"/service/service.asmx?WSDL", 503, "f2"},
		{"/service/service.asmx?wsdl", 503, "f2"},
		{"/service/service.asmx?disco", 503, "f2"},
		{"/service/service.asmx?wsdl=wsdl1", 503, "f2"}, // a description the WSDL imports
		{"/service/service.asmx", 200, ""},
		{"/service/service.asmx?wsdl&disco", 200, ""}, // the help page
		{"/service/service.asmx?op=ReturnProvinces", 200, ""},
		{"/service/service.asmx/ReturnProvinces?strAtmServiceKey=k", 500, "f1"},
	} {
		if got := get(tt.path); got != tt.status {
			t.Errorf("GET %s: status %d, want %d", tt.path, got, tt.status)
		}
		if e := lastEntry(t, ts); e.Fault != tt.fault {
			t.Errorf("GET %s: journaled fault %q, want %q", tt.path, e.Fault, tt.fault)
		}
	}
	// The journal's filter takes the same pseudo-operation: the four
	// fetches of the service description, in the Go API and the admin API.
	if got := ts.Journal(RequestFilter{Operation: "wsdl"}); len(got) != 4 || got[0].Operation != "" || got[2].Query != "disco" || got[3].Query != "wsdl=wsdl1" {
		t.Errorf("Journal(RequestFilter{Operation: \"wsdl\"}): got %+v, want the 4 fetches of the WSDL, the discovery document and the imported description", got)
	}
	var listed struct{ Requests []map[string]any }
	r := admin(t, "GET", ts.URL+"/__admin/requests?operation=WSDL&summary=1", "", "")
	if err := json.Unmarshal([]byte(r.body), &listed); err != nil || r.status != 200 || len(listed.Requests) != 4 {
		t.Errorf("GET /__admin/requests?operation=WSDL: %d %.300s, want the 4 fetches", r.status, r.body)
	}
	ts.ClearFaults()
	if _, err := ts.AddFault(Fault{Operation: "WSDL", Dribble: &Dribble{Chunks: 3, Duration: 30 * time.Millisecond}}); err != nil {
		t.Fatal(err)
	}
	resp, err := http.Get(ts.URL + "/service/service.asmx?WSDL")
	if err != nil {
		t.Fatal(err)
	}
	b, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil || resp.StatusCode != 200 || !strings.HasSuffix(strings.TrimSpace(string(b)), "</wsdl:definitions>") {
		t.Errorf("dribbled WSDL: %d, %v, %.80q…; want the whole WSDL", resp.StatusCode, err, b)
	}
	if e := lastEntry(t, ts); e.FaultKind != kindDribble {
		t.Errorf("journaled kind %q, want dribble", e.FaultKind)
	}
}

// TestFaultSkipWindow: skip 2, times 1 fails the third call only.
func TestFaultSkipWindow(t *testing.T) {
	t.Parallel()
	ts := NewTestServer(t, WithDataset(smallDataset()), WithFault(Fault{Operation: asmx.OpReturnProvinces, Status: 503, Skip: 2, Times: 1}))
	var got []int
	for range 5 {
		got = append(got, call(t, ts.URL, asmx.HTTPGet, asmx.OpReturnProvinces, paramsFor(asmx.OpReturnProvinces, "k")).status)
	}
	if want := []int{200, 200, 503, 200, 200}; !slices.Equal(got, want) {
		t.Errorf("statuses: got %v, want %v", got, want)
	}
}

// TestFaultProbabilityReproducible: a mock restarted with the same faults
// fails the same calls; which calls is what the sampler says; a call the
// probability passes over falls through to a younger fault.
func TestFaultProbabilityReproducible(t *testing.T) {
	t.Parallel()
	flaky := Fault{Operation: asmx.OpReturnProvinces, Status: 503, Probability: 0.3, Seed: 42}
	slow := Fault{Operation: asmx.OpReturnProvinces, Status: 504, Probability: 0.5, Seed: 8}
	run := func() []int {
		ts := NewTestServer(t, WithDataset(smallDataset()), WithFault(flaky), WithFault(slow))
		var out []int
		for range 40 {
			out = append(out, call(t, ts.URL, asmx.HTTPGet, asmx.OpReturnProvinces, paramsFor(asmx.OpReturnProvinces, "k")).status)
		}
		return out
	}
	a, b := run(), run()
	if !slices.Equal(a, b) {
		t.Errorf("two runs: %v and %v, want the same", a, b)
	}
	var want []int
	for k := uint64(1); k <= 40; k++ {
		switch {
		case flaky.selects(k):
			want = append(want, 503)
		case slow.selects(k):
			want = append(want, 504)
		default:
			want = append(want, 200)
		}
	}
	if !slices.Equal(a, want) {
		t.Errorf("statuses: got %v, want %v", a, want)
	}
	count := map[int]int{}
	for _, s := range a {
		count[s]++
	}
	if count[503] == 0 || count[504] == 0 || count[200] == 0 {
		t.Errorf("statuses %v: want some of each of 503, 504 and 200", count)
	}
}

// TestFaultDribbleStreamedAnswer: an answer long enough to be written in
// pieces (ReturnAllAtms of thousands of ATMs) is dribbled intact, its
// pieces cut into the dribble's chunks.
func TestFaultDribbleStreamedAnswer(t *testing.T) {
	t.Parallel()
	ts := NewTestServer(t, WithGeneratedDataset(3, 4000))
	want := call(t, ts.URL, asmx.SOAP11, asmx.OpReturnAllAtms, paramsFor(asmx.OpReturnAllAtms, "k"))
	if len(want.body) <= streamChunk {
		t.Fatalf("the answer is %d bytes, want more than %d (written in pieces)", len(want.body), streamChunk)
	}
	if _, err := ts.AddFault(Fault{Dribble: &Dribble{Chunks: 7, Duration: 100 * time.Millisecond}}); err != nil {
		t.Fatal(err)
	}
	if got := call(t, ts.URL, asmx.SOAP11, asmx.OpReturnAllAtms, paramsFor(asmx.OpReturnAllAtms, "k")); got != want {
		t.Errorf("dribbled: %d %d bytes, want the normal answer's %d %d bytes", got.status, len(got.body), want.status, len(want.body))
	}
	// The journal has the answer's whole length, and its first bytes.
	e := lastEntry(t, ts)
	if r := e.Response; r.Size != int64(len(want.body)) || !r.Cut || !strings.HasPrefix(want.body, r.Body) || len(r.Body) == 0 {
		t.Errorf("journal: got size %d, cut %v, %d bytes, want size %d, cut, the answer's first bytes", r.Size, r.Cut, len(r.Body), len(want.body))
	}
}

// TestFaultSOAPFaultIsNoRequestError: a call a soapFault fault answered is
// journaled with the fault and its kind, and no error kind of the request:
// a Client fault's call was not a MalformedRequest, a Server fault's no
// ServerError of the mock.
func TestFaultSOAPFaultIsNoRequestError(t *testing.T) {
	t.Parallel()
	ts := NewTestServer(t, WithDataset(smallDataset()))
	for _, code := range []string{"Client", "Server"} {
		for _, b := range []asmx.Binding{asmx.SOAP11, asmx.HTTPGet} {
			f, err := ts.AddFault(Fault{SOAPFault: &SOAPFault{Code: code}, Times: 1})
			if err != nil {
				t.Fatal(err)
			}
			runChecks(t, call(t, ts.URL, b, asmx.OpReturnProvinces, paramsFor(asmx.OpReturnProvinces, "k")), hasStatus(500))
			if e := lastEntry(t, ts); e.Fault != f.ID || e.FaultKind != kindSOAPFault || e.Error != "" {
				t.Errorf("%s fault over %s: journaled fault %q, kind %q, error %q; want %s, soapFault and no error", code, b, e.Fault, e.FaultKind, e.Error, f.ID)
			}
		}
	}
	// A call with an error of its own still says it.
	runChecks(t, call(t, ts.URL, asmx.HTTPGet, asmx.OpReturnAtmSearchByCity, [][2]string{{"strAtmServiceKey", "k"}}), hasStatus(500))
	if e := lastEntry(t, ts); e.Error != asmx.KindMissingParameter {
		t.Errorf("a call without intCityID: journaled error %q, want %s", e.Error, asmx.KindMissingParameter)
	}
}

// TestFaultDelayLongerThanTheWriteTimeout: a call delayed past the
// server's write timeout still gets its answer after the delay, as
// journaled: the timeout, which runs from the request's arrival, was left
// with no time for the answer, and the client saw the connection close.
// (A server whose write timeout is shorter than the delay stands for the
// mock's two minutes.)
func TestFaultDelayLongerThanTheWriteTimeout(t *testing.T) {
	t.Parallel()
	s, err := New(WithDataset(smallDataset()), WithFault(Fault{Operation: asmx.OpReturnProvinces, Delay: 600 * time.Millisecond}))
	if err != nil {
		t.Fatal(err)
	}
	r := call(t, serveShortWriteTimeout(t, s), asmx.HTTPGet, asmx.OpReturnProvinces, paramsFor(asmx.OpReturnProvinces, "k"))
	runChecks(t, r, hasStatus(200), bodyContains("</provinces>"))
	if e := s.Journal(RequestFilter{}); len(e) != 1 || e[0].Status != 200 || e[0].FaultKind != kindDelay {
		t.Errorf("journal: got %+v, want the delayed call answered 200", e)
	}
}

// serveShortWriteTimeout serves s over loopback with a write timeout of
// 200 ms, standing for the mock's two minutes, and returns its base URL.
func serveShortWriteTimeout(t *testing.T, s *Server) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: s, WriteTimeout: 200 * time.Millisecond}
	go func() { _ = srv.Serve(ln) }()
	t.Cleanup(func() { _ = srv.Close() })
	return "http://" + ln.Addr().String()
}

// TestFaultDribbleLongerThanTheWriteTimeout: a dribble with no delay
// before it gets the whole write timeout from the moment its header goes,
// as a delayed answer does: the server's timeout runs from the request's
// arrival, so a dribble that fits the timeout by itself (a dribble of two
// minutes, the mock's write timeout, which the fault's check takes) lost
// its last chunks to it, and the client saw the body cut short, though
// the dribble promises it whole. (A server whose write timeout is shorter
// than the dribble stands for the mock's two minutes.)
func TestFaultDribbleLongerThanTheWriteTimeout(t *testing.T) {
	t.Parallel()
	s, err := New(WithDataset(smallDataset()))
	if err != nil {
		t.Fatal(err)
	}
	base := serveShortWriteTimeout(t, s)
	want := call(t, base, asmx.HTTPGet, asmx.OpReturnProvinces, paramsFor(asmx.OpReturnProvinces, "k"))
	if _, err := s.AddFault(Fault{Operation: asmx.OpReturnProvinces, Dribble: &Dribble{Chunks: 3, Duration: 600 * time.Millisecond}}); err != nil {
		t.Fatal(err)
	}
	resp, err := http.DefaultClient.Do(callRequest(t, base, asmx.HTTPGet, asmx.OpReturnProvinces, paramsFor(asmx.OpReturnProvinces, "k")))
	if err != nil {
		t.Fatal(err)
	}
	body, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil || resp.StatusCode != 200 || string(body) != want.body {
		t.Errorf("dribbled answer: got %d, %d bytes (%v), want 200 and the normal answer whole, %d bytes", resp.StatusCode, len(body), err, len(want.body))
	}
}

// TestFaultDribbleLeavesTimeToWrite: a dribble's write deadline leaves
// the whole write timeout after the time its last chunk is due, so the
// chunk, however long, can be written: the deadline was the write timeout
// from before the header, so a dribble of the two minutes the fault's
// check takes had its last chunk due after the deadline, and the client
// got the body without it. (The deadlines the mock sets are read on
// their way to a real connection.)
func TestFaultDribbleLeavesTimeToWrite(t *testing.T) {
	t.Parallel()
	const dur = 300 * time.Millisecond
	s, err := New(WithDataset(smallDataset()), WithFault(Fault{Operation: asmx.OpReturnProvinces, Dribble: &Dribble{Chunks: 2, Duration: dur}}))
	if err != nil {
		t.Fatal(err)
	}
	seen := make(chan *deadlineWriter, 1)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		dw := &deadlineWriter{ResponseWriter: w}
		s.ServeHTTP(dw, r)
		seen <- dw
	}))
	defer srv.Close()
	got := call(t, srv.URL, asmx.HTTPGet, asmx.OpReturnProvinces, paramsFor(asmx.OpReturnProvinces, "k"))
	runChecks(t, got, hasStatus(200), bodyContains("</provinces>"))
	dw := <-seen
	if want := dw.header.Add(dur + WriteTimeout); dw.deadline.Before(want) {
		t.Errorf("write deadline: %s after the header, want at least the dribble's %s and the write timeout %s after it",
			dw.deadline.Sub(dw.header), dur, WriteTimeout)
	}
}

// deadlineWriter notes when its header was written and the last write
// deadline set through it, and passes both on.
type deadlineWriter struct {
	http.ResponseWriter
	header, deadline time.Time
}

func (w *deadlineWriter) WriteHeader(code int) {
	if w.header.IsZero() {
		w.header = time.Now()
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *deadlineWriter) SetWriteDeadline(t time.Time) error {
	w.deadline = t
	return http.NewResponseController(w.ResponseWriter).SetWriteDeadline(t)
}

func (w *deadlineWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// TestFaultMalformedStreamsHalf: a malformed fault on a long answer
// (ReturnAllAtms of thousands of ATMs, written in pieces) sends the first
// half of the normal answer without holding it: the call allocates a small
// part of the answer's length (not parallel: it measures allocations; the
// client compares the body as it reads it). The fault held the whole answer
// before cutting it (over twice its length allocated, as the buffer grew):
// at a million ATMs, over a gigabyte.
func TestFaultMalformedStreamsHalf(t *testing.T) {
	s, err := New(WithGeneratedDataset(3, 8000))
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(s)
	defer srv.Close()
	op := asmx.OpReturnAllAtms
	for _, b := range []asmx.Binding{asmx.SOAP11, asmx.HTTPGet} {
		want := call(t, srv.URL, b, op, paramsFor(op, "k"))
		if len(want.body) <= 8*streamChunk {
			t.Fatalf("%v: the answer is %d bytes, want more than %d (written in pieces)", b, len(want.body), 8*streamChunk)
		}
		f, err := s.AddFault(Fault{Operation: op, Malformed: true})
		if err != nil {
			t.Fatal(err)
		}
		half := want.body[:len(want.body)/2]
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		resp, err := srv.Client().Do(callRequest(t, srv.URL, b, op, paramsFor(op, "k")))
		if err != nil {
			t.Fatal(err)
		}
		same := &prefixOf{want: half}
		_, err = io.Copy(same, resp.Body)
		resp.Body.Close()
		runtime.ReadMemStats(&after)
		s.RemoveFault(f.ID)
		if err != nil || same.n != len(half) || resp.StatusCode != 200 || resp.Header.Get("Content-Type") != want.ctype {
			t.Errorf("%v: got %d %q, %d bytes (%v), want 200 %q and the first half of the normal answer, %d bytes",
				b, resp.StatusCode, resp.Header.Get("Content-Type"), same.n, err, want.ctype, len(half))
		}
		if grew := after.TotalAlloc - before.TotalAlloc; grew > uint64(len(want.body)/8) {
			t.Errorf("%v: the malformed call allocated %d bytes, want under an eighth of the answer's %d", b, grew, len(want.body))
		}
	}
}

// prefixOf is a writer that checks that what is written to it is the
// start of want, without keeping it.
type prefixOf struct {
	want string
	n    int
}

func (p *prefixOf) Write(b []byte) (int, error) {
	if len(b) > len(p.want)-p.n || p.want[p.n:p.n+len(b)] != string(b) {
		return 0, fmt.Errorf("the body differs from the normal answer's first half after %d bytes", p.n)
	}
	p.n += len(b)
	return len(b), nil
}
