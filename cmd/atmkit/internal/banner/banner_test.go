package banner

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/atmkit/atmkit/asmx"
	"github.com/atmkit/atmkit/cassettes"
	"github.com/atmkit/atmkit/cassettes/verify"
	"github.com/atmkit/atmkit/cmd/atmkit/internal/cli"
	"github.com/atmkit/atmkit/cmd/atmkit/internal/memlimit"
	"github.com/atmkit/atmkit/internal/mocktest"
	"github.com/atmkit/atmkit/mockserver"
	"gopkg.in/dnaeon/go-vcr.v3/cassette"
)

// printMock prints the banner of a mock with keys (none: any key) that
// replays r, and returns it.
func printMock(t *testing.T, r *Replay, keys ...string) string {
	t.Helper()
	var opts []mockserver.Option
	if len(keys) > 0 {
		opts = append(opts, mockserver.WithKeys(keys...))
	}
	srv, err := mockserver.New(opts...)
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	Mock{Server: srv, Replay: r}.Print(&cli.Env{Stdout: &out}, &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 8080}, &cli.Serving{})
	return out.String()
}

// TestMockReplayLines: the replay lines read right in the singular and
// the plural, say what is replayed, and what becomes of recorded key
// rejections on a mock that accepts every key (suggesting --key) or only
// some.
func TestMockReplayLines(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		stats   cassettes.IndexStats
		paths   []string
		keys    []string
		want    []string
		notWant []string
	}{
		{"one of each", cassettes.IndexStats{Files: 1, Interactions: 1, Calls: 1, Answers: 1}, []string{"atm.yaml"}, nil,
			[]string{"  replay:     1 answer to 1 recorded call, matched by operation and parameters (1 cassette file, 1 interaction: atm.yaml)\n"},
			[]string{"rejections:"}},
		{"several, key rejections, any key accepted", cassettes.IndexStats{Files: 2, Interactions: 7, Calls: 6, Answers: 3, KeyRejections: 2}, []string{"a.yaml", "more/"}, nil,
			[]string{
				"  replay:     3 answers to 4 recorded calls, matched by operation and parameters (2 cassette files, 7 interactions: a.yaml, more/)\n",
				"  rejections: 2 recorded key rejections, never served: this mock accepts every key; pass --key with the keys to accept, and calls with other keys get them\n",
			}, nil},
		{"one key rejection, any key accepted", cassettes.IndexStats{Files: 1, Interactions: 2, Calls: 2, Answers: 1, KeyRejections: 1}, []string{"atm.yaml"}, nil,
			[]string{
				"  replay:     1 answer to 1 recorded call, matched by operation and parameters (1 cassette file, 2 interactions: atm.yaml)\n",
				"  rejections: 1 recorded key rejection, never served: this mock accepts every key; pass --key with the keys to accept, and calls with other keys get it\n",
			}, nil},
		{"error answers and pages", cassettes.IndexStats{Files: 1, Interactions: 5, Calls: 1, Answers: 1, Requests: 2, Pages: 2}, []string{"atm.yaml"}, nil,
			[]string{"  replay:     1 answer to 1 recorded call, matched by operation and parameters, and 2 error answers to requests read as no call, matched as sent, and 2 documentation pages (help pages, ?disco, ?schema=) served as recorded (1 cassette file, 5 interactions: atm.yaml)\n"},
			nil},
		{"one page", cassettes.IndexStats{Files: 1, Interactions: 2, Calls: 1, Answers: 1, Pages: 1}, []string{"atm.yaml"}, nil,
			[]string{"parameters, and 1 documentation page (help pages, ?disco, ?schema=) served as recorded (1 cassette file"},
			[]string{"error answer"}},
		{"one key rejection, --key", cassettes.IndexStats{Files: 1, Interactions: 2, Calls: 2, Answers: 1, KeyRejections: 1}, []string{"atm.yaml"}, []string{"the-only-key"},
			[]string{"  rejections: 1 recorded key rejection, served to calls whose key this mock rejects (not one of --key)\n"},
			[]string{"never served"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			out := printMock(t, &Replay{Paths: tt.paths, Stats: tt.stats}, tt.keys...)
			for _, w := range tt.want {
				if !strings.Contains(out, w) {
					t.Errorf("banner lacks %q:\n%s", w, out)
				}
			}
			for _, w := range tt.notWant {
				if strings.Contains(out, w) {
					t.Errorf("banner holds %q:\n%s", w, out)
				}
			}
		})
	}
}

// TestMockGapLines: what one JSON recording cannot serve in the four XML
// bindings is one line; gaps that differ in more than their binding stay
// apart, each with its own plural.
func TestMockGapLines(t *testing.T) {
	t.Parallel()
	ix, err := cassettes.LoadIndex([]string{filepath.Join("..", "..", "..", "..", "cassettes", "testdata", "golden.yaml")})
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	gaps := ix.Gaps(nil, asmx.DefaultNamespace)
	if len(gaps) != 4 {
		t.Fatalf("golden.yaml: got %d gaps, want its JSON recording's 4: %v", len(gaps), gaps)
	}
	typed := func(b asmx.Binding, calls int) cassettes.Gap {
		return cassettes.Gap{Operation: asmx.OpReturnProvinces, Binding: b, Calls: calls,
			Reason: "recorded over soap11 as a typed result; pass --shape to serve it over " + b.String() + " (atmkit shape learn --cassette makes one)"}
	}
	gaps = append(gaps, typed(asmx.HTTPGet, 2), typed(asmx.HTTPPost, 2), cassettes.Gap{Operation: asmx.OpReturnAllAtms, Binding: asmx.HTTPGet, Calls: 1,
		Reason: "the answer recorded over soap11 (atm.yaml#3) cannot be re-wrapped: the result is empty"})
	out := printMock(t, &Replay{Paths: []string{"atm.yaml"}, Stats: ix.Stats(), Gaps: gaps})
	want := "" +
		"  not served: ReturnAtmSearchByCoordinates over soap11, soap12, get and post (1 recorded call): recorded over json only, and XML answers come only from XML recordings; record it over soap11, soap12, get or post\n" +
		"              ReturnProvinces over get and post (2 recorded calls): recorded over soap11 as a typed result; pass --shape to serve it over get or post (atmkit shape learn --cassette makes one)\n" +
		"              ReturnAllAtms over get (1 recorded call): the answer recorded over soap11 (atm.yaml#3) cannot be re-wrapped: the result is empty\n"
	if !strings.Contains(out, want) {
		t.Errorf("banner lacks\n%s\nin\n%s", want, out)
	}
	if n := strings.Count(out, "not served:"); n != 1 {
		t.Errorf("got %d lines labelled not served, want 1:\n%s", n, out)
	}
}

// TestMockGapLinesForwarded: with --on-miss upstream, what the cassettes
// cannot serve in some binding is forwarded (and recorded) as a miss is,
// and the banner lists it as forwarded, not as not served.
func TestMockGapLinesForwarded(t *testing.T) {
	t.Parallel()
	ix, err := cassettes.LoadIndex([]string{filepath.Join("..", "..", "..", "..", "cassettes", "testdata", "golden.yaml")})
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	out := printMock(t, &Replay{Paths: []string{"atm.yaml"}, Stats: ix.Stats(), Gaps: ix.Gaps(nil, asmx.DefaultNamespace),
		OnMiss: "upstream", Upstream: "https://atm.example.org", Record: "atm.yaml"})
	want := "  forwarded:  ReturnAtmSearchByCoordinates over soap11, soap12, get and post (1 recorded call): recorded over json only"
	if !strings.Contains(out, want) || strings.Contains(out, "not served:") {
		t.Errorf("banner lacks %q, or says not served:\n%s", want, out)
	}
}

// TestProxyServiceLine: the recording proxy's banner names the URL an
// app's client points at, the service path on the proxy without the
// upstream's base path, and where it is forwarded; a password in the
// upstream's URL is masked.
func TestProxyServiceLine(t *testing.T) {
	t.Parallel()
	for upstream, want := range map[string]string{
		"https://atm.example.org":             "  service:    http://127.0.0.1:8080/service/service.asmx (forwarded to https://atm.example.org/service/service.asmx)\n",
		"https://host.example/atm/":           "  service:    http://127.0.0.1:8080/service/service.asmx (forwarded to https://host.example/atm/service/service.asmx)\n",
		"https://u:pa55w0rd@host.example/atm": "  service:    http://127.0.0.1:8080/service/service.asmx (forwarded to https://u:xxxxx@host.example/atm/service/service.asmx)\n",
	} {
		var out bytes.Buffer
		Proxy{Upstream: upstream, Cassette: "atm.yaml"}.Print(&cli.Env{Stdout: &out}, &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 8080}, &cli.Serving{})
		if !strings.Contains(out.String(), want) {
			t.Errorf("--upstream %s: banner lacks %q:\n%s", upstream, want, out.String())
		}
		if strings.Contains(out.String(), "pa55w0rd") {
			t.Errorf("--upstream %s: banner shows the password:\n%s", upstream, out.String())
		}
	}
}

// TestProxyCassetteLine: the recording proxy's banner says whether the
// cassette holds anything yet, in the singular and the plural.
func TestProxyCassetteLine(t *testing.T) {
	t.Parallel()
	for already, want := range map[int]string{
		0: "  cassette:   atm.yaml (nothing recorded yet)\n",
		1: "  cassette:   atm.yaml (1 interaction already, appended to)\n",
		5: "  cassette:   atm.yaml (5 interactions already, appended to)\n",
	} {
		var out bytes.Buffer
		Proxy{Upstream: "https://atm.example.org", Cassette: "atm.yaml", Already: already}.Print(&cli.Env{Stdout: &out}, &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 8080}, &cli.Serving{})
		if !strings.Contains(out.String(), want) {
			t.Errorf("%d already: banner lacks %q:\n%s", already, want, out.String())
		}
	}
}

// TestProgress: the first interactions are printed one by one (operation
// and binding, or the request of another, and status; not the key), the
// next only as a count; none with First 0.
func TestProgress(t *testing.T) {
	t.Parallel()
	list, err := cassettes.ReadFile(filepath.Join("..", "..", "..", "..", "cassettes", "testdata", "golden.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	wsdl := *list[2]
	wsdl.ID = 3
	wsdl.Request.Method, wsdl.Request.URL = "GET", "http://upstream.example/service/service.asmx?WSDL"
	list = append(list, &wsdl)
	var out bytes.Buffer
	p := &Progress{W: &out, First: 2}
	for _, i := range list {
		if err := p.Recorded(i); err != nil {
			t.Fatal(err)
		}
	}
	want := "atmkit: recorded #0 ReturnAtmSearchByCity over soap12: 200\n" +
		"atmkit: recorded #1 ReturnAtmSearchByCoordinates over json: 200\n"
	p.Flush() // the end of the recording: the count of those not printed
	if want := want + "atmkit: recorded 4 interactions so far (the last: GET /service/service.asmx?WSDL: 200)\n"; out.String() != want {
		t.Errorf("got\n%s\nwant\n%s", out.String(), want)
	}
	p.Flush()
	if strings.Count(out.String(), "so far") != 1 {
		t.Errorf("a second Flush with nothing new printed again:\n%s", out.String())
	}

	out.Reset()
	p = &Progress{W: &out, First: 20}
	for _, i := range list {
		_ = p.Recorded(i)
	}
	if want := want + "atmkit: recorded #2 ReturnProvinces over get: 200\n" + "atmkit: recorded #3 GET /service/service.asmx?WSDL: 200\n"; out.String() != want {
		t.Errorf("got\n%s\nwant\n%s", out.String(), want)
	}

	out.Reset()
	p = &Progress{W: &out}
	for _, i := range list {
		_ = p.Recorded(i)
	}
	if out.Len() != 0 {
		t.Errorf("with First 0: got %q, want nothing", out.String())
	}

	// Appending to a cassette: the ID the recorder gave the interaction,
	// which cassette list shows.
	out.Reset()
	p = &Progress{W: &out, First: 1}
	appended := *list[0]
	appended.ID = 6
	_ = p.Recorded(&appended)
	if !strings.HasPrefix(out.String(), "atmkit: recorded #6 ") {
		t.Errorf("appending: got %q, want #6", out.String())
	}

	// With a logger (--log-format json), each line is one JSON record.
	out.Reset()
	p = &Progress{W: io.Discard, First: 20, Log: slog.New(slog.NewJSONHandler(&out, nil))}
	for _, i := range list {
		_ = p.Recorded(i)
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	for _, l := range lines {
		var rec struct {
			Msg       string `json:"msg"`
			Operation string `json:"operation"`
			Status    int    `json:"status"`
		}
		if err := json.Unmarshal([]byte(l), &rec); err != nil || rec.Msg != "recorded" || rec.Status != 200 || strings.Contains(l, "REDACTED") {
			t.Errorf("JSON progress line %q: %v", l, err)
		}
	}
	if len(lines) != len(list) {
		t.Errorf("JSON progress: %d lines, want %d", len(lines), len(list))
	}
}

// TestProgressMasksKeyInPath: a request with a key in its path
// (.../service.asmx/KEY, a client that built its URL wrong), recorded
// before that key's first call is answered 200, is printed at once, and a
// printed line cannot be taken back when the recorder sweeps the key from
// the cassette later: a path segment after an .asmx file that names no
// operation is masked, in the lines, the count and the JSON records; an
// operation's name (a call missing a parameter) and ASP.NET AJAX's script
// proxy (js) stay.
func TestProgressMasksKeyInPath(t *testing.T) {
	t.Parallel()
	at := func(id int, method, u string) *cassette.Interaction {
		i := &cassette.Interaction{ID: id}
		i.Request.Method, i.Request.URL = method, u
		i.Response.Code = 500
		return i
	}
	list := []*cassette.Interaction{
		at(0, "GET", "http://upstream.example/atm/service/service.asmx/Leak-Key-1"),
		at(1, "POST", "http://upstream.example/SERVICE-V2.ASMX/Leak%2DKey%2D2/extra"),
		at(2, "GET", "http://upstream.example/atm/service/service.asmx/ReturnAtmSearchByCity?strAtmServiceKey=REDACTED"),
		at(3, "GET", "http://upstream.example/service-v2.asmx/js"),
	}
	var out bytes.Buffer
	p := &Progress{W: &out, First: 4}
	for _, i := range list {
		_ = p.Recorded(i)
	}
	want := "atmkit: recorded #0 GET /atm/service/service.asmx/REDACTED: 500\n" +
		"atmkit: recorded #1 POST /SERVICE-V2.ASMX/REDACTED/REDACTED: 500\n" +
		"atmkit: recorded #2 GET /atm/service/service.asmx/ReturnAtmSearchByCity?strAtmServiceKey=REDACTED: 500\n" +
		"atmkit: recorded #3 GET /service-v2.asmx/js: 500\n"
	if out.String() != want {
		t.Errorf("got\n%s\nwant\n%s", out.String(), want)
	}

	out.Reset()
	p = &Progress{W: &out, First: 1}
	for _, i := range list[:2] {
		_ = p.Recorded(i)
	}
	p.Flush()
	if want := "the last: POST /SERVICE-V2.ASMX/REDACTED/REDACTED: 500"; !strings.Contains(out.String(), want) {
		t.Errorf("the count: got\n%s\nwant %q", out.String(), want)
	}

	out.Reset()
	p = &Progress{W: io.Discard, First: 20, Log: slog.New(slog.NewJSONHandler(&out, nil))}
	for _, i := range list {
		_ = p.Recorded(i)
	}
	if strings.Contains(out.String(), "Leak") || strings.Count(out.String(), "REDACTED") != 4 {
		t.Errorf("JSON progress:\n%s", out.String())
	}
}

// TestProgressCountsABurst: interactions recorded within a second of the
// last line are counted a second after it, without waiting for the next
// call or the end of the recording, so the log does not end on a stale
// count.
func TestProgressCountsABurst(t *testing.T) {
	t.Parallel()
	list, err := cassettes.ReadFile(filepath.Join("..", "..", "..", "..", "cassettes", "testdata", "golden.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var out mocktest.SyncBuffer
	p := &Progress{W: &out, First: 1}
	for _, i := range list {
		_ = p.Recorded(i)
	}
	want := fmt.Sprintf("atmkit: recorded %d interactions so far (the last: ReturnProvinces over get: 200)\n", len(list))
	deadline := time.Now().Add(30 * time.Second)
	for !strings.HasSuffix(out.String(), want) && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	// A goroutine stalled for a second between two calls (a loaded
	// machine) prints a count in between: allowed, as long as every line
	// after the first is a count.
	got := out.String()
	lines := strings.Split(strings.TrimSuffix(got, "\n"), "\n")
	if !strings.HasPrefix(got, "atmkit: recorded #0 ") || !strings.HasSuffix(got, want) || len(lines) < 2 {
		t.Errorf("got\n%s\nwant the first line, then\n%s", got, want)
	}
	for _, l := range lines[1:] {
		if !strings.Contains(l, " interactions so far ") {
			t.Errorf("after the first line, %q is no count:\n%s", l, got)
		}
	}
}

// TestMockAdminLines: the banner names the service's endpoints, the WSDL a
// .NET or Java team generates its client from, the admin page and the
// admin API.
func TestMockAdminLines(t *testing.T) {
	t.Parallel()
	out := printMock(t, nil)
	for _, want := range []string{
		"  SOAP:       POST http://127.0.0.1:8080/service/service.asmx (SOAP 1.1 and 1.2)\n",
		"  WSDL:       GET  http://127.0.0.1:8080/service/service.asmx?WSDL (generate a client from it; without ?WSDL: the help pages)\n",
		"  admin page: http://127.0.0.1:8080/__admin/ (calls, faults and data, live in a browser)\n",
		"  admin API:  http://127.0.0.1:8080/__admin/health (and requests, faults, reset, cities, institutions, info)\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("banner lacks %q:\n%s", want, out)
		}
	}
}

// TestMockMemoryLine: the banner says the Go memory limit and where it
// came from, and says nothing of memory when there is none.
func TestMockMemoryLine(t *testing.T) {
	t.Parallel()
	srv, err := mockserver.New()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		mem  memlimit.Limit
		want string // "": no memory line
	}{
		{memlimit.Limit{Bytes: 724775731, Container: 768 << 20}, "  memory:     limit 691 MiB, 90 % of the container's 768 MiB (GOMEMLIMIT overrides)\n"},
		{memlimit.Limit{Bytes: 500 << 20}, "  memory:     limit 500 MiB, from GOMEMLIMIT\n"},
		{memlimit.Limit{}, ""},
	} {
		var out bytes.Buffer
		Mock{Server: srv, Memory: c.mem}.Print(&cli.Env{Stdout: &out}, &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 8080}, &cli.Serving{})
		if c.want == "" && strings.Contains(out.String(), "memory:") {
			t.Errorf("no memory limit: the banner has a memory line:\n%s", out.String())
		}
		if c.want != "" && !strings.Contains(out.String(), c.want) {
			t.Errorf("%+v: the banner lacks %q:\n%s", c.mem, c.want, out.String())
		}
	}
}

// TestWarnOpenAdmin: the warning is printed on every interface without a
// token, not on loopback nor with a token.
func TestWarnOpenAdmin(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		addr  *net.TCPAddr
		token string
		want  string
	}{
		{&net.TCPAddr{IP: net.IPv4zero, Port: 8080}, "", "atmkit: WARNING: listening on every interface (port 8080), reachable from other hosts, with no admin token: anyone who can reach the port can inject faults and read the journal (/__admin). Set --admin-token or ATMKIT_ADMIN_TOKEN, or listen on 127.0.0.1.\n"},
		{&net.TCPAddr{IP: net.IPv4zero, Port: 8080}, "tok", ""},
		{&net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 8080}, "", ""},
	} {
		var out bytes.Buffer
		WarnOpenAdmin(&out, c.addr, c.token)
		if out.String() != c.want {
			t.Errorf("WarnOpenAdmin(%v, %q): got %q, want %q", c.addr, c.token, out.String(), c.want)
		}
	}
}

// countingWriter counts the writes made to it.
type countingWriter struct {
	bytes.Buffer
	writes int
}

func (w *countingWriter) Write(p []byte) (int, error) {
	w.writes++
	return w.Buffer.Write(p)
}

// TestBannersInOneWrite: each banner reaches stdout in one write, so a
// log line of the server already listening, or a reader that stops at
// the listening line, never finds half of it.
func TestBannersInOneWrite(t *testing.T) {
	t.Parallel()
	srv, err := mockserver.New()
	if err != nil {
		t.Fatal(err)
	}
	addr := &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 8080}
	for name, printBanner := range map[string]func(*cli.Env){
		"mock": func(e *cli.Env) { Mock{Server: srv}.Print(e, addr, &cli.Serving{}) },
		"proxy": func(e *cli.Env) {
			Proxy{Upstream: "http://upstream.example", Cassette: "atm.yaml"}.Print(e, addr, &cli.Serving{})
		},
	} {
		var w countingWriter
		printBanner(&cli.Env{Stdout: &w})
		if w.writes != 1 || !strings.Contains(w.String(), "listening on http://127.0.0.1:8080\n") || !strings.Contains(w.String(), "  ") {
			t.Errorf("%s banner: %d writes, want 1:\n%s", name, w.writes, w.String())
		}
	}
}

// stampedLines records when each line was written.
type stampedLines struct {
	mu    sync.Mutex
	lines []string
	at    []time.Time
}

func (s *stampedLines) Write(b []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.lines = append(s.lines, string(b))
	s.at = append(s.at, time.Now())
	return len(b), nil
}

// TestProgressCountsAtMostOnceASecond: a count line is printed at most once
// a second, even when a count's timer fires late and a call came between
// (the count printed at once, then the timer's within the second).
func TestProgressCountsAtMostOnceASecond(t *testing.T) {
	t.Parallel()
	out := &stampedLines{}
	p := &Progress{W: out, First: 1}
	i := &cassette.Interaction{Request: cassette.Request{Method: "GET", URL: "http://h/service.asmx/ReturnProvinces?strAtmServiceKey=REDACTED"},
		Response: cassette.Response{Code: 200}}
	_ = p.Recorded(i) // one by one: "#0"
	_ = p.Recorded(i) // within the second: counted later, by a timer
	// The timer late (a busy machine): a call past the second prints the
	// count at once, and one more comes within the next second.
	p.mu.Lock()
	p.last = time.Now().Add(-2 * time.Second)
	p.mu.Unlock()
	_ = p.Recorded(i)
	_ = p.Recorded(i)
	p.countLater()                      // the late timer's call, which waited for the lock
	time.Sleep(1500 * time.Millisecond) // the count of the 4th, by a timer

	out.mu.Lock()
	defer out.mu.Unlock()
	var counts []time.Time
	for k, l := range out.lines {
		if strings.Contains(l, " so far ") {
			counts = append(counts, out.at[k])
		}
	}
	for k := 1; k < len(counts); k++ {
		if gap := counts[k].Sub(counts[k-1]); gap < 900*time.Millisecond {
			t.Errorf("two count lines %s apart:\n%s", gap, strings.Join(out.lines, ""))
		}
	}
	if want := "atmkit: recorded 4 interactions so far "; !strings.HasPrefix(out.lines[len(out.lines)-1], want) {
		t.Errorf("the last line: got %q, want %q first", out.lines[len(out.lines)-1], want)
	}
}

// TestNotUTF8 words the note on calls read with U+FFFD: it names the first
// call printed and counts the rest, saying how many of them cassette
// verify --quiet did not print; with none printed it names none.
func TestNotUTF8(t *testing.T) {
	t.Parallel()
	const rest = " that are not UTF-8, read as U+FFFD (utf-8 is the default --request-encoding); " +
		"--request-encoding iso-8859-1, or the requestEncoding of the deployment's web.config, reads them as that deployment did\n"
	for _, tc := range []struct {
		calls      []string
		notPrinted int
		want       string // "" for no line
	}{
		{nil, 0, ""},
		{[]string{"a.yaml#3"}, 0, "a.yaml#3 holds bytes in its query or form"},
		{[]string{"a.yaml#3", "b.yaml#1"}, 0, "a.yaml#3 and 1 more call hold bytes in their queries or forms"},
		{nil, 1, "1 call not printed (--quiet) holds bytes in its query or form"},
		{nil, 3, "3 calls not printed (--quiet) hold bytes in their queries or forms"},
		{[]string{"a.yaml#3"}, 2, "a.yaml#3 and 2 more calls (not printed: --quiet) hold bytes in their queries or forms"},
		{[]string{"a.yaml#3", "a.yaml#5"}, 2, "a.yaml#3 and 3 more calls (2 of them not printed: --quiet) hold bytes in their queries or forms"},
	} {
		var b strings.Builder
		NotUTF8(&b, "cassette verify", tc.calls, tc.notPrinted)
		want := ""
		if tc.want != "" {
			want = "atmkit: cassette verify: " + tc.want + rest
		}
		if b.String() != want {
			t.Errorf("%q, %d not printed: got %q, want %q", tc.calls, tc.notPrinted, b.String(), want)
		}
	}
}

// TestVerifyHeadingMasksSecrets: cassette verify's heading shows the
// upstream with the key and the secrets (gateway headers' values) masked
// wherever the URL holds them (a gateway's token in its path or query),
// as the report and its JUnit form do; it masked the password and a
// strAtmServiceKey value only.
func TestVerifyHeadingMasksSecrets(t *testing.T) {
	t.Parallel()
	for _, upstream := range []string{"https://gw.example/gw-secret-0815/atm", "https://gw.example/atm?code=gw-secret-0815", "https://gw.example/Leak-Key-4711/atm"} {
		got := VerifyHeading(verify.Options{Upstream: upstream, Key: "Leak-Key-4711", Secrets: []string{"gw-secret-0815"}}, 1)
		for _, s := range []string{"gw-secret-0815", "Leak-Key-4711"} {
			if strings.Contains(got, s) {
				t.Errorf("--upstream %s: the heading holds %q: %s", upstream, s, got)
			}
		}
	}
}
