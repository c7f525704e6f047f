package mockserver

import (
	"bufio"
	"context"
	"crypto/tls"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/atmkit/atmkit/asmx"
	"github.com/atmkit/atmkit/internal/tlsconf"
)

// lingerCap is the body cap of the lingering-close tests; their bodies are
// lingerBody, sixteen times as large.
const (
	lingerCap  = 64 << 10
	lingerBody = 8 << 20
)

// oversized is a request with a body over the cap, in one binding.
type oversized struct {
	name   string
	path   string
	header string // Content-Type and SOAPAction lines
	prefix string // the body's start; padding follows
	suffix string
	want   check
}

var oversizedCalls = []oversized{
	{"soap11", "/service/service.asmx", "Content-Type: text/xml; charset=utf-8\r\nSOAPAction: " + coordsAction + "\r\n",
		`<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="` + asmx.NamespaceSOAP11 + `"><soap:Body><ReturnProvinces xmlns="` + testNS + `"><strAtmServiceKey>`,
		"</strAtmServiceKey></ReturnProvinces></soap:Body></soap:Envelope>",
		soapFault("1.1", "Server", "There was an exception running the extensions specified in the config file. ---> Maximum request length exceeded.")},
	{"soap12", "/service/service.asmx", "Content-Type: application/soap+xml; charset=utf-8\r\n",
		`<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="` + asmx.NamespaceSOAP12 + `"><soap:Body><ReturnProvinces xmlns="` + testNS + `"><strAtmServiceKey>`,
		"</strAtmServiceKey></ReturnProvinces></soap:Body></soap:Envelope>",
		soapFault("1.2", "Receiver", "Server was unable to process request. ---> Object reference not set to an instance of an object.")},
	{"post", "/service/service.asmx/ReturnProvinces", "Content-Type: application/x-www-form-urlencoded\r\n",
		"strAtmServiceKey=", "", plainText("Maximum request length exceeded.")},
	{"json", "/service-v2.asmx/ReturnAtmSearchByCoordinates", "Content-Type: application/x-www-form-urlencoded\r\n",
		coordsQuery + "&x=", "", plainText("Maximum request length exceeded.")},
}

// sendOversized sends c with a body of n bytes as a client that writes the
// whole request before it reads the answer (as many HTTP stacks do), with
// a Content-Length or chunked, and returns the answer it reads.
func sendOversized(conn net.Conn, host string, c oversized, n int, chunked bool) (response, error) {
	_ = conn.SetDeadline(time.Now().Add(time.Minute))
	body := c.prefix + strings.Repeat("a", n-len(c.prefix)-len(c.suffix)) + c.suffix
	bw := bufio.NewWriterSize(conn, 64<<10)
	fmt.Fprintf(bw, "POST %s HTTP/1.1\r\nHost: %s\r\n%s", c.path, host, c.header)
	if chunked {
		bw.WriteString("Transfer-Encoding: chunked\r\n\r\n")
		for len(body) > 0 {
			k := min(len(body), 16<<10)
			fmt.Fprintf(bw, "%x\r\n%s\r\n", k, body[:k])
			body = body[k:]
		}
		bw.WriteString("0\r\n\r\n")
	} else {
		fmt.Fprintf(bw, "Content-Length: %d\r\n\r\n%s", len(body), body)
	}
	if err := bw.Flush(); err != nil {
		return response{}, fmt.Errorf("sending the body: %w", err)
	}
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		return response{}, fmt.Errorf("reading the answer: %w", err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		return response{}, fmt.Errorf("reading the answer's body: %w", err)
	}
	return response{resp.StatusCode, resp.Header.Get("Content-Type"), string(b)}, nil
}

// lingerTarget is a server under test and how to connect to it.
type lingerTarget struct {
	name string
	addr string
	tls  *tls.Config // client configuration; nil: plain TCP
	http *http.Client
}

func (lt lingerTarget) dial() (net.Conn, error) {
	if lt.tls != nil {
		return tls.Dial("tcp", lt.addr, lt.tls)
	}
	return net.Dial("tcp", lt.addr)
}

func (lt lingerTarget) base() string {
	if lt.tls != nil {
		return "https://" + lt.addr
	}
	return "http://" + lt.addr
}

// lingerTargets are the mock behind Serve (as atmkit serve runs it) and
// behind a test server, each over HTTP and HTTPS.
func lingerTargets(t *testing.T) []lingerTarget {
	t.Helper()
	var out []lingerTarget
	for _, useTLS := range []bool{false, true} {
		opts := []Option{WithDataset(smallDataset()), WithMaxBodyBytes(lingerCap)}
		scheme := "http"
		if useTLS {
			opts, scheme = append(opts, WithTLS()), "https"
		}
		ts := NewTestServer(t, opts...)
		lt := lingerTarget{name: "test server/" + scheme, addr: strings.TrimPrefix(strings.TrimPrefix(ts.URL, "http://"), "https://"), http: ts.Client()}
		if useTLS {
			lt.tls = ts.Client().Transport.(*http.Transport).TLSClientConfig.Clone()
		}
		out = append(out, lt)

		srv, err := New(WithDataset(smallDataset()), WithMaxBodyBytes(lingerCap))
		if err != nil {
			t.Fatal(err)
		}
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		o := ServeOptions{Grace: 5 * time.Second}
		lt = lingerTarget{name: "Serve/" + scheme, addr: ln.Addr().String(), http: tlsconf.TrustingClient(nil)}
		if useTLS {
			sv, err := tlsconf.Server{SelfSigned: true}.Load()
			if err != nil {
				t.Fatal(err)
			}
			o.TLS = sv.Config
			lt.http = tlsconf.TrustingClient(sv.Authority.Pool())
			lt.tls = lt.http.Transport.(*http.Transport).TLSClientConfig.Clone()
		}
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan error, 1)
		go func() { done <- ServeWith(ctx, ln, srv, o) }()
		t.Cleanup(func() {
			cancel()
			if err := <-done; err != nil {
				t.Errorf("Serve: %v", err)
			}
		})
		out = append(out, lt)
	}
	return out
}

// TestOversizedBodyAlwaysAnswered: a client sending a body far over the
// cap, with a Content-Length (refused before reading) or chunked (refused
// at the cap), reads the refusal in its binding's form every time, never a
// reset connection: the server reads and discards the rest of the body
// before it closes (lingering close), over HTTP and HTTPS alike. Both a
// client that writes everything before reading and Go's client, which
// reads while it writes, are checked, many times each.
func TestOversizedBodyAlwaysAnswered(t *testing.T) {
	t.Parallel()
	oversizedRounds(t, 16, func(i int) (oversized, bool) {
		return oversizedCalls[i%len(oversizedCalls)], i/len(oversizedCalls)%2 == 0
	}, hasStatus(http.StatusInternalServerError))
}

// oversizedRounds sends rounds oversized requests, four at a time, to each
// of lingerTargets with a Content-Length and chunked: pick gives the
// request of round i and whether its client writes the whole body before
// reading (else Go's client, which reads while it writes). Each answer
// must pass checks, then its request's want; the subtest fails naming
// the rounds whose client did not read it.
func oversizedRounds(t *testing.T, rounds int, pick func(i int) (c oversized, writeFirst bool), checks ...check) {
	t.Helper()
	for _, lt := range lingerTargets(t) {
		for _, chunked := range []bool{false, true} {
			framing := "content-length"
			if chunked {
				framing = "chunked"
			}
			t.Run(lt.name+"/"+framing, func(t *testing.T) {
				t.Parallel()
				var mu sync.Mutex
				var failures []string
				var wg sync.WaitGroup
				sem := make(chan struct{}, 4)
				for i := range rounds {
					c, writeFirst := pick(i)
					wg.Add(1)
					sem <- struct{}{}
					go func() {
						defer wg.Done()
						defer func() { <-sem }()
						var r response
						var err error
						if writeFirst {
							r, err = lt.writeThenRead(c, chunked)
						} else {
							r, err = lt.goClient(c, chunked)
						}
						for _, chk := range append(checks[:len(checks):len(checks)], c.want) {
							if err == nil {
								err = chk(r)
							}
						}
						if err != nil {
							mu.Lock()
							failures = append(failures, fmt.Sprintf("round %d, %s: %v", i, c.name, err))
							mu.Unlock()
						}
					}()
				}
				wg.Wait()
				if len(failures) > 0 {
					t.Errorf("%d of %d clients did not read the answer:\n%s", len(failures), rounds, strings.Join(failures, "\n"))
				}
			})
		}
	}
}

func (lt lingerTarget) writeThenRead(c oversized, chunked bool) (response, error) {
	conn, err := lt.dial()
	if err != nil {
		return response{}, err
	}
	defer conn.Close()
	return sendOversized(conn, lt.addr, c, lingerBody, chunked)
}

func (lt lingerTarget) goClient(c oversized, chunked bool) (response, error) {
	body := c.prefix + strings.Repeat("a", lingerBody-len(c.prefix)-len(c.suffix)) + c.suffix
	var rd io.Reader = strings.NewReader(body)
	if chunked {
		rd = io.MultiReader(rd) // no length known: sent chunked
	}
	req, err := http.NewRequest(http.MethodPost, lt.base()+c.path, rd)
	if err != nil {
		return response{}, err
	}
	for line := range strings.Lines(c.header) {
		k, v, _ := strings.Cut(strings.TrimSpace(line), ": ")
		req.Header.Set(k, v)
	}
	req.Close = true
	resp, err := lt.http.Do(req)
	if err != nil {
		return response{}, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		return response{}, err
	}
	if got := resp.Header.Get("Connection"); !resp.Close && got != "close" {
		return response{}, fmt.Errorf("Connection: got %q, want close", got)
	}
	if resp.ContentLength >= 0 && strconv.Itoa(len(b)) != strconv.FormatInt(resp.ContentLength, 10) {
		return response{}, fmt.Errorf("body: got %d bytes, want %d", len(b), resp.ContentLength)
	}
	return response{resp.StatusCode, resp.Header.Get("Content-Type"), string(b)}, nil
}

// TestOversizedBodyExpectContinue: a client that waits for 100 Continue
// before sending a body whose Content-Length is over the cap gets the refusal
// at once and sends nothing.
func TestOversizedBodyExpectContinue(t *testing.T) {
	t.Parallel()
	ts := NewTestServer(t, WithDataset(smallDataset()), WithMaxBodyBytes(lingerCap))
	conn, err := net.Dial("tcp", strings.TrimPrefix(ts.URL, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	_ = conn.SetDeadline(time.Now().Add(30 * time.Second))
	c := oversizedCalls[2]
	fmt.Fprintf(conn, "POST %s HTTP/1.1\r\nHost: x\r\n%sExpect: 100-continue\r\nContent-Length: %d\r\n\r\n", c.path, c.header, lingerBody)
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatalf("reading the answer: %v", err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	r := response{resp.StatusCode, resp.Header.Get("Content-Type"), string(b)}
	for _, chk := range []check{hasStatus(http.StatusInternalServerError), c.want} {
		if err := chk(r); err != nil {
			t.Error(err)
		}
	}
}

// A Content-Length within the cap is no reason to hold that much memory
// before the bytes come: a client that declares 4 MB and sends a few bytes
// costs a few bytes, not 4 MB.
func TestReadBodyMakesRoomAsBytesCome(t *testing.T) {
	s, err := New(WithNamespace(testNS))
	if err != nil {
		t.Fatal(err)
	}
	r := httptest.NewRequest("POST", asmx.ServicePath, strings.NewReader("<a/>"))
	r.ContentLength = 4_000_000 // declared, never sent
	// The bytes allocated, not the buffer's capacity: the buffer comes
	// from a pool that keeps buffers up to 1 MiB that earlier tests grew,
	// so room made for the declared 4 MB always shows as allocated bytes.
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	buf, e := s.readBody(httptest.NewRecorder(), r)
	runtime.ReadMemStats(&after)
	if e != nil {
		t.Fatalf("got error %s", e.Message)
	}
	defer putBuffer(buf)
	if buf.String() != "<a/>" {
		t.Errorf("got body %q, want <a/>", buf.String())
	}
	if grew := after.TotalAlloc - before.TotalAlloc; grew > 1<<20 {
		t.Errorf("allocated %d bytes reading a 4-byte body declared as 4,000,000", grew)
	}
}
