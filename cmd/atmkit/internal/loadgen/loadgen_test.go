package loadgen

import (
	"bytes"
	"context"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/atmkit/atmkit/internal/mocktest"
	"github.com/atmkit/atmkit/internal/serve"
)

func startServer(t *testing.T, h http.Handler) *serve.Server {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s := serve.Start(ln, h, serve.Options{Grace: 5 * time.Second})
	t.Cleanup(func() {
		if err := s.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
	})
	return s
}

var short = Options{Connections: 2, Duration: mocktest.LoadWindow(100 * time.Millisecond)}

// runSome runs req with opts until it got some answers: a test wants
// requests or errors counted, and on a busy machine a short window may pass
// before the first answer comes. Each try has a window four times as long
// as the last, up to five tries.
func runSome(t *testing.T, req Request, opts Options) Result {
	t.Helper()
	for try := 1; ; try++ {
		res, err := Run(context.Background(), req, opts)
		if err != nil {
			t.Fatalf("Run: %v", err)
		}
		if res.Requests+res.Errors > 0 || try == 5 {
			return res
		}
		opts.Duration *= 4
	}
}

func TestRunCountsRequests(t *testing.T) {
	t.Parallel()
	body := bytes.Repeat([]byte("<x>atm</x>"), 1000)
	s := startServer(t, NewCeiling(&Response{Status: 200, Header: http.Header{"Content-Type": {"text/xml; charset=utf-8"}}, Body: body}))
	opts := short
	opts.Warmup = 50 * time.Millisecond
	opts.ExpectLength = int64(len(body))
	res := runSome(t, Request{Method: "POST", URL: s.URL + "/service/service.asmx", Body: []byte("<a/>")}, opts)
	if res.Requests == 0 {
		t.Fatalf("got 0 requests, want some")
	}
	if res.Errors != 0 {
		t.Errorf("got %d errors (%s), want 0", res.Errors, res.FirstError)
	}
	if want := res.Requests * int64(len(body)); res.Bytes != want {
		t.Errorf("got %d bytes, want %d", res.Bytes, want)
	}
	if got := res.Latency.Count(); got != uint64(res.Requests) {
		t.Errorf("got %d latencies, want %d", got, res.Requests)
	}
	if res.P50() <= 0 || res.P99() < res.P50() || res.Latency.Max() < res.P99() {
		t.Errorf("got p50 %v, p99 %v, max %v: want 0 < p50 <= p99 <= max", res.P50(), res.P99(), res.Latency.Max())
	}
	if res.RPS() <= 0 {
		t.Errorf("got %v req/s, want > 0", res.RPS())
	}
}

func TestRunResponseShapes(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		h    http.HandlerFunc
	}{
		{"chunked", func(w http.ResponseWriter, r *http.Request) {
			_, _ = w.Write([]byte("part one "))
			w.(http.Flusher).Flush()
			_, _ = w.Write([]byte("part two"))
		}},
		{"connection close", func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Connection", "close")
			_, _ = w.Write([]byte("bye"))
		}},
		{"no content", func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusNoContent) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			s := startServer(t, tc.h)
			opts := short
			if tc.name == "no content" {
				opts.ExpectStatus = http.StatusNoContent
			}
			res := runSome(t, Request{URL: s.URL + "/"}, opts)
			if res.Requests == 0 || res.Errors != 0 {
				t.Errorf("got %d requests and %d errors (%s), want some and 0", res.Requests, res.Errors, res.FirstError)
			}
		})
	}
}

func TestRunCountsWrongStatusAsErrors(t *testing.T) {
	t.Parallel()
	s := startServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "no", http.StatusInternalServerError)
	}))
	res := runSome(t, Request{URL: s.URL + "/"}, short)
	if res.Requests != 0 || res.Errors == 0 {
		t.Errorf("got %d requests and %d errors, want 0 and some", res.Requests, res.Errors)
	}
	if !strings.Contains(res.FirstError, "status 500") {
		t.Errorf("got first error %q, want it to name status 500", res.FirstError)
	}
}

func TestRunCountsWrongLengthAsErrors(t *testing.T) {
	t.Parallel()
	s := startServer(t, NewCeiling(&Response{Body: []byte("short")}))
	opts := short
	opts.ExpectLength = 6
	res := runSome(t, Request{URL: s.URL + "/"}, opts)
	if res.Requests != 0 || res.Errors == 0 {
		t.Errorf("got %d requests and %d errors, want 0 and some", res.Requests, res.Errors)
	}
}

// TestRunChecksTheFirstAnswer: with ExpectBody, the run's first response,
// read before its clock starts, must hold those bytes: an answer of the
// length expected but other bytes is one error, saying where it differs
// (the requests measured after it are checked for length alone, as
// before); the answer expected is none.
func TestRunChecksTheFirstAnswer(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		body, want string
		errors     int64
		firstError string
	}{
		{"ok", "ok", 0, ""},
		{"ko", "ok", 1, "the first answer's body differs from the one expected at byte 0 (of 2)"},
		{"oh", "ok", 1, "the first answer's body differs from the one expected at byte 1 (of 2)"},
	} {
		s := startServer(t, NewCeiling(&Response{Body: []byte(tc.body)}))
		opts := short
		opts.ExpectLength, opts.ExpectBody = int64(len(tc.want)), []byte(tc.want)
		res := runSome(t, Request{URL: s.URL + "/"}, opts)
		if res.Requests == 0 || res.Errors != tc.errors || res.FirstError != tc.firstError {
			t.Errorf("%q for %q: got %d requests and %d errors (%q), want some and %d (%q)", tc.body, tc.want, res.Requests, res.Errors, res.FirstError, tc.errors, tc.firstError)
		}
	}
}

func TestRunUnreachable(t *testing.T) {
	t.Parallel()
	url := mocktest.ClosedPort(t)
	if _, err := Run(context.Background(), Request{URL: url + "/"}, short); err == nil {
		t.Errorf("got no error for a closed port, want one")
	}
	for _, u := range []string{"https://example.org/", "://", "http:///x"} {
		if _, err := Run(context.Background(), Request{URL: u}, short); err == nil {
			t.Errorf("URL %q: got no error, want one", u)
		}
	}
}

func TestRunStopsWhenCancelled(t *testing.T) {
	t.Parallel()
	release := make(chan struct{})
	s := startServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-release:
		case <-r.Context().Done():
		}
	}))
	defer close(release)
	ctx, cancel := context.WithCancel(context.Background())
	go func() { time.Sleep(100 * time.Millisecond); cancel() }()
	opts := short
	opts.Duration = time.Hour
	res, err := Run(ctx, Request{URL: s.URL + "/"}, opts)
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	if res.Requests != 0 || res.Errors != 0 {
		t.Errorf("got %d requests and %d errors, want none: interrupted requests are not counted", res.Requests, res.Errors)
	}
}

func TestCeilingServesCapturedBytes(t *testing.T) {
	t.Parallel()
	mock := startServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("SOAPAction") != `"urn:x/Op"` {
			http.Error(w, "no action", http.StatusBadRequest)
			return
		}
		w.Header().Set("Content-Type", "text/xml; charset=utf-8")
		w.Header().Set("X-Extra", "1")
		_, _ = w.Write([]byte(`<?xml version="1.0"?><r/>`))
	}))
	req := Request{Method: "POST", URL: mock.URL + "/service/service.asmx",
		Header: http.Header{"SOAPAction": {`"urn:x/Op"`}, "Content-Type": {"text/xml; charset=utf-8"}}, Body: []byte("<e/>")}
	want, err := Fetch(context.Background(), req)
	if err != nil {
		t.Fatalf("Fetch: %v", err)
	}
	if want.Status != 200 {
		t.Fatalf("got status %d from the mock, want 200", want.Status)
	}
	for name, h := range map[string]http.Handler{"ceiling": NewCeiling(want),
		"copying ceiling, 1 piece": NewCopyingCeiling(want, 1), "copying ceiling, 7 pieces": NewCopyingCeiling(want, 7),
		"copying ceiling, a piece a byte": NewCopyingCeiling(want, 1000)} {
		ceiling := startServer(t, h)
		req.URL = ceiling.URL + "/service/service.asmx"
		for range 2 { // the second from a recycled buffer
			got, err := Fetch(context.Background(), req)
			if err != nil {
				t.Fatalf("%s: Fetch: %v", name, err)
			}
			if got.Status != want.Status {
				t.Errorf("%s: got status %d, want %d", name, got.Status, want.Status)
			}
			if !bytes.Equal(got.Body, want.Body) {
				t.Errorf("%s: got body %q, want %q", name, got.Body, want.Body)
			}
			for _, k := range []string{"Content-Type", "Content-Length", "X-Extra"} {
				if g, w := got.Header.Get(k), want.Header.Get(k); g != w {
					t.Errorf("%s: header %s: got %q, want %q", name, k, g, w)
				}
			}
		}
	}
}

func TestRequestWire(t *testing.T) {
	t.Parallel()
	tg, err := Request{Method: "POST", URL: "http://127.0.0.1:9/a?b=c",
		Header: http.Header{"Content-Type": {"text/xml"}, "Content-Length": {"99"}}, Body: []byte("xyz")}.prepare()
	if err != nil {
		t.Fatal(err)
	}
	want := "POST /a?b=c HTTP/1.1\r\nHost: 127.0.0.1:9\r\nContent-Type: text/xml\r\nContent-Length: 3\r\n\r\nxyz"
	if string(tg.wire) != want || tg.addr != "127.0.0.1:9" {
		t.Errorf("got %q to %s, want %q to 127.0.0.1:9", tg.wire, tg.addr, want)
	}
}

func TestHistogram(t *testing.T) {
	t.Parallel()
	var h, a, b Histogram
	for i := 1; i <= 10000; i++ {
		d := time.Duration(i) * time.Microsecond
		h.Record(d)
		if i%2 == 0 {
			a.Record(d)
		} else {
			b.Record(d)
		}
	}
	a.Merge(&b)
	for _, q := range []float64{0.5, 0.9, 0.99} {
		exact := time.Duration(q*10000) * time.Microsecond
		for _, hh := range []*Histogram{&h, &a} {
			got := hh.Quantile(q)
			if diff := float64(got-exact) / float64(exact); diff > 0.02 || diff < -0.02 {
				t.Errorf("q%v: got %v, want %v within 2%%", q, got, exact)
			}
		}
	}
	if h.Max() != 10*time.Millisecond || a.Max() != h.Max() {
		t.Errorf("got max %v and %v, want 10ms", h.Max(), a.Max())
	}
	if h.Count() != 10000 || a.Count() != 10000 {
		t.Errorf("got counts %d and %d, want 10000", h.Count(), a.Count())
	}
	var empty Histogram
	if empty.Quantile(0.5) != 0 || empty.Mean() != 0 {
		t.Errorf("empty histogram: got non-zero quantile or mean")
	}
	for v := uint64(0); v < 1<<20; v += 997 {
		if mid := bucketValue(bucketOf(v)); float64(mid) < float64(v)*0.98 || float64(mid) > float64(v)*1.02+1 {
			t.Fatalf("value %d: bucket middle %d is off by more than 2%%", v, mid)
		}
	}
}

// TestHistogramQuantileNearestRank checks the percentiles of known
// samples, each below 128 ns, where every bucket holds one value exactly:
// the q quantile of n samples is the smallest sample with at least q*n of
// them at or below it (the nearest rank, ceil(q*n)), never one with fewer.
func TestHistogramQuantileNearestRank(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name    string
		samples []time.Duration
		q       float64
		want    time.Duration
	}{
		{"p50 of 1..5", seq(1, 5), 0.5, 3},
		{"p50 of 1..4", seq(1, 4), 0.5, 2},
		{"p50 of 1..100", seq(1, 100), 0.5, 50},
		{"p99 of 1..100", seq(1, 100), 0.99, 99},
		{"p99 of 1..70", seq(1, 70), 0.99, 70},    // 0.99*70 = 69.3: 69 samples are only 98.6%
		{"p99 of 1..120", seq(1, 120), 0.99, 119}, // 0.99*120 = 118.8
		{"p99 of 168 at 10 ns, 2 at 50 ns", append(repeat(10, 168), repeat(50, 2)...), 0.99, 50},
		{"p99 of 1 sample", []time.Duration{7}, 0.99, 7},
		{"p100 of 1..10", seq(1, 10), 1, 10},
		{"p0 of 1..10", seq(1, 10), 0, 1},
	} {
		var h Histogram
		for _, d := range tc.samples {
			h.Record(d)
		}
		if got := h.Quantile(tc.q); got != tc.want {
			t.Errorf("%s: got %v, want %v", tc.name, got, tc.want)
		}
	}
}

func seq(from, to int) []time.Duration {
	var out []time.Duration
	for i := from; i <= to; i++ {
		out = append(out, time.Duration(i))
	}
	return out
}

func repeat(d time.Duration, n int) []time.Duration {
	out := make([]time.Duration, n)
	for i := range out {
		out[i] = d
	}
	return out
}

// TestErrorsHideKey: Fetch and Run fail on a closed port and on a dropped
// connection with errors that do not hold the request's key.
func TestErrorsHideKey(t *testing.T) {
	t.Parallel()
	const key = "Leak-Key-1234"
	closed := mocktest.ClosedPort(t)
	dropping := startServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		conn, _, err := http.NewResponseController(w).Hijack()
		if err == nil {
			conn.Close()
		}
	}))
	for name, base := range map[string]string{"closed port": closed, "drop": dropping.URL} {
		req := Request{URL: base + "/service/service.asmx/ReturnProvinces?strAtmServiceKey=" + key}
		_, err := Fetch(context.Background(), req)
		if err == nil || strings.Contains(err.Error(), key) {
			t.Errorf("%s: Fetch: got %v, want an error without the key", name, err)
		}
		if name == "closed port" {
			_, err = Run(context.Background(), req, short)
			if err == nil || strings.Contains(err.Error(), key) {
				t.Errorf("%s: Run: got %v, want an error without the key", name, err)
			}
		}
	}
}

// TestRequestWireUserinfo: a URL's user and password go as HTTP Basic
// authentication, as net/http sends them, never in the Host line; a
// request's own Authorization wins.
func TestRequestWireUserinfo(t *testing.T) {
	t.Parallel()
	tg, err := Request{URL: "http://alice:s%3Acret@127.0.0.1:9/a"}.prepare()
	if err != nil {
		t.Fatal(err)
	}
	want := "GET /a HTTP/1.1\r\nHost: 127.0.0.1:9\r\nAuthorization: Basic YWxpY2U6czpjcmV0\r\n\r\n" // alice:s:cret
	if string(tg.wire) != want {
		t.Errorf("got %q, want %q", tg.wire, want)
	}
	tg, err = Request{URL: "http://alice:secret@127.0.0.1:9/a", Header: http.Header{"Authorization": {"Bearer t"}}}.prepare()
	if err != nil {
		t.Fatal(err)
	}
	if want := "GET /a HTTP/1.1\r\nHost: 127.0.0.1:9\r\nAuthorization: Bearer t\r\n\r\n"; string(tg.wire) != want {
		t.Errorf("got %q, want %q", tg.wire, want)
	}
}

// TestRunCountsNoWarmupDialErrors: connections refused during the warm-up
// are not counted, as no request of the warm-up is: the server here takes
// the first connection, never answers on it, and refuses every other, all
// within the warm-up; the measured window after it is a nanosecond.
func TestRunCountsNoWarmupDialErrors(t *testing.T) {
	t.Parallel()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	held := make(chan net.Conn, 1)
	go func() {
		c, err := ln.Accept()
		ln.Close() // every later connection is refused
		if err == nil {
			held <- c
		}
	}()
	defer func() {
		select {
		case c := <-held:
			c.Close()
		default:
		}
	}()
	res, err := Run(context.Background(), Request{URL: "http://" + ln.Addr().String() + "/"},
		Options{Connections: 3, Warmup: 200 * time.Millisecond, Duration: time.Nanosecond})
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	if res.Requests != 0 || res.Errors != 0 {
		t.Errorf("got %d requests and %d errors (%s), want none: the refusals were in the warm-up", res.Requests, res.Errors, res.FirstError)
	}
}
