package mockserver

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/atmkit/atmkit/asmx"
)

// oversizedAdmin is an admin call with a body over maxAdminBody: a fault
// whose text is too long.
var oversizedAdmin = oversized{
	name: "admin", path: "/__admin/faults", header: "Content-Type: application/json\r\n",
	prefix: `{"soapFault":{"text":"`, suffix: `"}}`,
	want: hasAdminError(http.StatusRequestEntityTooLarge, adminTooLarge),
}

// TestAdminOversizedBody: a body over the admin API's 64 KB cap is
// answered 413 in the admin API's error form (not 400: the body may be a
// valid fault, only too long), with a Content-Length (refused before
// reading) or chunked (refused at the cap), and every client reads the
// answer: the rest of the body is read and discarded before the
// connection closes, as for the service's own cap (linger.go), over HTTP
// and HTTPS, behind Serve and a test server. Before, it was 400, and a
// client that wrote its whole body before reading often got a reset
// connection instead of the answer.
func TestAdminOversizedBody(t *testing.T) {
	t.Parallel()
	oversizedRounds(t, 8, func(i int) (oversized, bool) { return oversizedAdmin, i%2 == 0 }, bodyContains("65536 bytes"))
}

// TestAdminOversizedBodyExpectContinue: a client that waits for 100
// Continue before sending a body whose Content-Length is over the admin
// API's cap gets the 413 at once and sends nothing, whatever the endpoint
// (one that reads no body as well: the cap is the admin API's).
func TestAdminOversizedBodyExpectContinue(t *testing.T) {
	t.Parallel()
	ts := NewTestServer(t, WithDataset(smallDataset()))
	for _, path := range []string{"/__admin/faults", "/__admin/reset"} {
		t.Run(path, func(t *testing.T) {
			conn, err := net.Dial("tcp", strings.TrimPrefix(ts.URL, "http://"))
			if err != nil {
				t.Fatal(err)
			}
			defer conn.Close()
			_ = conn.SetDeadline(time.Now().Add(30 * time.Second))
			fmt.Fprintf(conn, "POST %s HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nExpect: 100-continue\r\nContent-Length: %d\r\n\r\n", path, maxAdminBody+1)
			resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
			if err != nil {
				t.Fatalf("reading the answer: %v", err)
			}
			defer resp.Body.Close()
			b, _ := io.ReadAll(resp.Body)
			adminChecks(t, adminResult{response{resp.StatusCode, resp.Header.Get("Content-Type"), string(b)}, resp.Header},
				hasAdminError(http.StatusRequestEntityTooLarge, adminTooLarge), isJSON(), bodyContains("65536 bytes"))
		})
	}
	if f := ts.Faults(); len(f) != 0 {
		t.Errorf("an oversized body added faults: %+v", f)
	}
}

// TestAdminOversizedBodyChangesNothing: a body over the cap is refused
// with 413 at an endpoint that reads no body too, chunked as well as with
// a Content-Length, and the request does nothing: POST /__admin/reset
// with an 8 MB chunked body emptied the journal and removed every fault,
// answered 204, where the same body with a Content-Length got 413.
func TestAdminOversizedBodyChangesNothing(t *testing.T) {
	t.Parallel()
	ts := NewTestServer(t, WithDataset(smallDataset()))
	if _, err := ts.AddFault(Fault{Operation: "ReturnProvinces", Status: 503}); err != nil {
		t.Fatal(err)
	}
	runChecks(t, call(t, ts.URL, asmx.HTTPGet, asmx.OpReturnProvinces, paramsFor(asmx.OpReturnProvinces, "k")), hasStatus(503))
	body := strings.Repeat("a", lingerBody)
	for _, tt := range []struct{ method, path string }{
		{"POST", "/__admin/reset"}, {"DELETE", "/__admin/requests"}, {"DELETE", "/__admin/faults"}, {"GET", "/__admin/requests"},
	} {
		for _, chunked := range []bool{false, true} {
			var rd io.Reader = strings.NewReader(body)
			if chunked {
				rd = io.MultiReader(rd) // no length known: sent chunked
			}
			req, err := http.NewRequest(tt.method, ts.URL+tt.path, rd)
			if err != nil {
				t.Fatal(err)
			}
			r := doAdmin(t, req)
			if err := hasAdminError(http.StatusRequestEntityTooLarge, adminTooLarge)(r.response); err != nil {
				t.Errorf("%s %s, chunked %v: %v", tt.method, tt.path, chunked, err)
			}
		}
	}
	if f := ts.Faults(); len(f) != 1 {
		t.Errorf("got faults %+v, want the one added", f)
	}
	if j := ts.Journal(RequestFilter{}); len(j) != 1 {
		t.Errorf("got %d calls in the journal, want the one made", len(j))
	}
}

// countedBody counts the bytes read from a request's body.
type countedBody struct {
	io.ReadCloser
	n *atomic.Int64
}

func (b countedBody) Read(p []byte) (int, error) {
	k, err := b.ReadCloser.Read(p)
	b.n.Add(int64(k))
	return k, err
}

// TestAdminRefusedBodyUnread: a request the admin API refuses for its
// token (missing or wrong) or its origin is answered from its header, and
// none of its body is read: a chunked body that has sent one chunk and
// goes on gets its 401 or 403 at once, and the connection closes (net/http
// would read up to 256 KB of it to keep the connection). Before, the body
// was read up to the 64 KB cap before the token was checked: the answer
// waited for 64 KB or the body's end, and any caller had the mock read
// what it sent. A declared length over the cap gets the 401 too, not the
// 413 of a caller that may use the API; the one with the token is read.
func TestAdminRefusedBodyUnread(t *testing.T) {
	t.Parallel()
	srv, err := New(WithDataset(smallDataset()), WithAdminToken("admin-secret"))
	if err != nil {
		t.Fatal(err)
	}
	var read atomic.Int64
	counted := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		r.Body = countedBody{r.Body, &read}
		srv.ServeHTTP(w, r)
	})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- ServeWith(ctx, ln, counted, ServeOptions{Grace: 5 * time.Second}) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("Serve: %v", err)
		}
	})
	const token = "Authorization: Bearer admin-secret\r\n"
	chunk := `{"operation":"ReturnProvinces","status":503}`
	for _, tt := range []struct {
		name, path, header, framing string
		whole                       bool // the body is sent to its end
		want                        check
	}{
		{"no token", "/__admin/faults", "", "chunked", false, hasAdminError(http.StatusUnauthorized, adminUnauthorized)},
		{"wrong token", "/__admin/faults", "Authorization: Bearer nope\r\n", "chunked", false, hasAdminError(http.StatusUnauthorized, adminUnauthorized)},
		{"no token, over the cap", "/__admin/faults", "", "length", false, hasAdminError(http.StatusUnauthorized, adminUnauthorized)},
		// The page's address, which GET reads without a token, is an
		// endpoint of the API to a POST.
		{"no token, the page's address", "/__admin", "", "chunked", false, hasAdminError(http.StatusUnauthorized, adminUnauthorized)},
		{"another site", "/__admin/faults", token + "Sec-Fetch-Site: cross-site\r\n", "chunked", false, hasAdminError(http.StatusForbidden, adminForbidden)},
		{"the token", "/__admin/faults", token, "chunked", true, hasStatus(http.StatusCreated)},
	} {
		t.Run(tt.name, func(t *testing.T) {
			read.Store(0)
			conn, err := net.Dial("tcp", ln.Addr().String())
			if err != nil {
				t.Fatal(err)
			}
			defer conn.Close()
			_ = conn.SetDeadline(time.Now().Add(30 * time.Second))
			fmt.Fprintf(conn, "POST %s HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n%s", tt.path, tt.header)
			if tt.framing == "chunked" {
				fmt.Fprintf(conn, "Transfer-Encoding: chunked\r\n\r\n%x\r\n%s\r\n", len(chunk), chunk)
			} else {
				fmt.Fprintf(conn, "Content-Length: %d\r\n\r\n%s", maxAdminBody+1, chunk)
			}
			if tt.whole {
				fmt.Fprint(conn, "0\r\n\r\n")
			}
			resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
			if err != nil {
				t.Fatalf("reading the answer (the mock waited for more of the body?): %v", err)
			}
			b, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if err := tt.want(response{resp.StatusCode, resp.Header.Get("Content-Type"), string(b)}); err != nil {
				t.Error(err)
			}
			switch n := read.Load(); {
			case tt.whole && n != int64(len(chunk)):
				t.Errorf("read %d bytes of the body, want all %d", n, len(chunk))
			case !tt.whole && n != 0:
				t.Errorf("read %d bytes of a refused body, want none", n)
			case !tt.whole && !resp.Close:
				t.Error("the answer keeps the connection, whose body net/http would read")
			}
		})
	}
	if f := srv.Faults(); len(f) != 1 {
		t.Errorf("got faults %+v, want the one added with the token", f)
	}
}
