// Package banner writes what atmkit tells its user beside results: the mock's
// banner (atmkit serve: what it serves, its endpoints, a command to try),
// the recording proxy's (atmkit record) and the lines it prints as it
// records (Progress), and the warning of an admin API open to other hosts.
// The first lines, where a server listens and the certificate it serves,
// are cli.Env's.
package banner

import (
	"bytes"
	"fmt"
	"io"
	"net"
	"net/url"
	"regexp"
	"slices"
	"strings"

	"github.com/atmkit/atmkit/asmx"
	"github.com/atmkit/atmkit/cassettes"
	"github.com/atmkit/atmkit/cmd/atmkit/internal/cli"
	"github.com/atmkit/atmkit/cmd/atmkit/internal/memlimit"
	"github.com/atmkit/atmkit/internal/adminwarn"
	"github.com/atmkit/atmkit/internal/redact"
	"github.com/atmkit/atmkit/mockserver"
	"github.com/atmkit/atmkit/shape"
)

// Mock is what atmkit serve's banner shows of a mock.
type Mock struct {
	Server *mockserver.Server
	// Fixtures is the data set's directory; "" for the embedded data set.
	Fixtures string
	// Replay is what the mock replays; nil when it replays no cassettes.
	Replay *Replay
	// KeyVar names the environment variable that holds an accepted key
	// (ATMKIT_KEY), for the try line to read it from; "" when none does.
	KeyVar string
	// Memory is the Go memory limit atmkit runs with; none is not shown.
	Memory memlimit.Limit
}

// KeyVar is the Mock's KeyVar of a mock accepting keys: ATMKIT_KEY when
// it holds one of them that goes into a URL's query as it is (letters,
// digits, - _ . ~), "" otherwise. A key with any other character (a+b,
// k&x, a space) would reach the mock as another key (a b), or not at all,
// from a try line that pastes it into the URL; the line names the
// placeholder to fill in instead.
func KeyVar(getenv func(string) string, keys []string) string {
	if k := getenv("ATMKIT_KEY"); k != "" && slices.Contains(keys, k) && url.QueryEscape(k) == k {
		return "ATMKIT_KEY"
	}
	return ""
}

// Replay is what a mock replays from cassettes (atmkit serve --replay).
type Replay struct {
	Paths []string             // the cassette files and directories given
	Stats cassettes.IndexStats // what they hold
	Gaps  []cassettes.Gap      // what the mock cannot replay in some binding
	// OnMiss is what a call with no recording gets: fault, fixtures or
	// upstream (forwarded to Upstream and recorded into Record).
	OnMiss           string
	Upstream, Record string
}

// CassetteWarnings writes to w a warning for each cassette file that
// holds no interactions, and for each recorded call answered 200 whose
// request no binding reads as a call (st.Unread): it replays only to the
// same request, as sent.
func CassetteWarnings(w io.Writer, st cassettes.IndexStats) {
	for _, e := range st.Empty {
		fmt.Fprintf(w, "atmkit: WARNING: cassette %s holds no interactions\n", e)
	}
	for _, u := range st.Unread {
		fmt.Fprintf(w, "atmkit: WARNING: --replay: %s was answered 200, but its request is no call of an operation (a Content-Type or SOAPAction removed by hand?): it replays only to the same request, as sent\n", u)
	}
}

// Print prints the banner of the mock listening on addr with the TLS of s:
// where it listens, what it serves and how to call it, in one write.
func (b Mock) Print(e *cli.Env, addr net.Addr, s *cli.Serving) {
	inOneWrite(e, func(e *cli.Env) { b.print(e, addr, s) })
}

// inOneWrite runs printBanner on a copy of e whose Stdout is a buffer, then
// writes the buffer to e.Stdout in one write: the server is listening and
// logging while its banner is printed, and a log line, or a reader waiting
// for the listening line, must never find half a banner.
func inOneWrite(e *cli.Env, printBanner func(*cli.Env)) {
	var buf bytes.Buffer
	inner := *e
	inner.Stdout = &buf
	printBanner(&inner)
	_, _ = e.Stdout.Write(buf.Bytes()) // a closed stdout is not the server's concern
}

func (b Mock) print(e *cli.Env, addr net.Addr, s *cli.Serving) {
	w, srv := e.Stdout, b.Server
	base := e.PrintListening("ATM Location Lookup Service mock", addr, s)
	fmt.Fprintf(w, "  namespace:  %s\n", srv.Namespace())
	if r := b.Replay; r != nil {
		fmt.Fprintf(w, "  replay:     %s\n", r.replayText())
		fmt.Fprintf(w, "  on a miss:  %s\n", r.missText())
		if n := r.Stats.KeyRejections; n > 0 {
			fmt.Fprintf(w, "  rejections: %s\n", rejectionsText(n, len(srv.Keys()) > 0))
		}
		// With --on-miss upstream, a call the cassettes cannot serve in
		// its binding is forwarded (and recorded) as a miss is: the
		// gaps are listed as forwarded, not as not served.
		first := "not served: "
		if r.OnMiss == "upstream" {
			first = "forwarded:  "
		}
		for i, g := range gapLines(r.Gaps) {
			label := first
			if i > 0 {
				label = "            "
			}
			fmt.Fprintf(w, "  %s%s\n", label, g)
		}
	}
	if b.Replay == nil || b.Replay.OnMiss == "fixtures" {
		ds := srv.Dataset()
		from := "embedded"
		if b.Fixtures != "" {
			from = b.Fixtures
		}
		fmt.Fprintf(w, "  data set:   %s: %s, %d institutions, %d cities, %d provinces\n",
			from, plural(len(ds.ATMs), "ATM"), len(ds.Institutions), len(ds.Cities), len(ds.Provinces))
	}
	if r := srv.Shape().Result(asmx.OpReturnAllAtms); r.Layout == shape.Typed || r.Root != shape.Default().Result(asmx.OpReturnAllAtms).Root {
		fmt.Fprintf(w, "  shape:      %s results (%s)\n", r.Layout, r.Root)
	}
	if enc := srv.RequestEncoding(); enc != asmx.RequestEncodingUTF8.Name() {
		fmt.Fprintf(w, "  encoding:   queries and forms without a charset read as %s (requestEncoding)\n", enc)
	}
	if b.Memory.Bytes > 0 {
		fmt.Fprintf(w, "  memory:     limit %s\n", b.Memory)
	}
	keys := srv.Keys()
	if len(keys) == 0 {
		fmt.Fprintln(w, "  keys:       any non-empty strAtmServiceKey is accepted")
	} else {
		masked := make([]string, len(keys))
		for i, k := range keys {
			masked[i] = mockserver.MaskKey(k)
		}
		fmt.Fprintf(w, "  keys:       %d accepted (%s)\n", len(keys), strings.Join(masked, ", "))
	}
	fmt.Fprintf(w, "  SOAP:       POST %s%s (SOAP 1.1 and 1.2)\n", base, asmx.ServicePath)
	fmt.Fprintf(w, "  WSDL:       GET  %s%s?WSDL (generate a client from it; without ?WSDL: the help pages)\n", base, asmx.ServicePath)
	fmt.Fprintf(w, "  JSON:       GET  %s%s/ReturnAtmSearchByCoordinates?...\n", base, asmx.JSONPath)
	fmt.Fprintf(w, "  admin page: %s/__admin/ (calls, faults and data, live in a browser)\n", base)
	fmt.Fprintf(w, "  admin API:  %s/__admin/health (and requests, faults, reset, cities, institutions, info)\n", base)
	if n := len(srv.Faults()); n > 0 {
		fmt.Fprintf(w, "  faults:     %d active (GET %s/__admin/faults)\n", n, base)
	}
	try := base + asmx.ServicePath + "/ReturnProvinces?strAtmServiceKey="
	if len(keys) == 0 {
		e.PrintTry(s, try+"demo-key", "", nil)
		return
	}
	// The key is never printed. The try line reads it from the variable
	// that holds it; else it names the placeholder to replace, and sent as
	// printed it shows the mock refusing a key. It sets no variable: one
	// atmkit reads (ATMKIT_KEY) left holding a placeholder would be the
	// only key of the next atmkit serve in that shell.
	if b.KeyVar != "" {
		e.PrintTry(s, try, b.KeyVar, nil)
		return
	}
	e.PrintTry(s, try+"YOUR_KEY", "", nil)
}

// replayText says what is replayed: the answers recorded to calls (key
// rejections apart), from how many interactions in how many files.
func (r *Replay) replayText() string {
	st := r.Stats
	errs := ""
	if st.Requests > 0 {
		errs = fmt.Sprintf(", and %s to requests read as no call, matched as sent", plural(st.Requests, "error answer"))
	}
	if st.Pages > 0 {
		errs += fmt.Sprintf(", and %s (help pages, ?disco, ?schema=) served as recorded", plural(st.Pages, "documentation page"))
	}
	return fmt.Sprintf("%s to %s, matched by operation and parameters%s (%s, %s: %s)",
		plural(st.Answers, "answer"), plural(st.Calls-st.KeyRejections, "recorded call"), errs,
		plural(st.Files, "cassette file"), plural(st.Interactions, "interaction"), strings.Join(r.Paths, ", "))
}

// rejectionsText says what becomes of n recorded key rejections on a mock
// that accepts only the keys it was given (keys), or every key.
func rejectionsText(n int, keys bool) string {
	what := plural(n, "recorded key rejection")
	if keys {
		return what + ", served to calls whose key this mock rejects (not one of --key)"
	}
	them := "it"
	if n != 1 {
		them = "them"
	}
	return what + ", never served: this mock accepts every key; pass --key with the keys to accept, and calls with other keys get " + them
}

// bindingWord matches a binding's name as a word, in a gap's reason.
func bindingWord(b string) *regexp.Regexp {
	return regexp.MustCompile(`\b` + regexp.QuoteMeta(b) + `\b`)
}

// gapLines describes gaps one line each, as cassettes.Gap.String does,
// but gaps of one operation that differ only in their binding (one JSON
// recording is not served in any of the four XML bindings) share a line:
// "Op over soap11, soap12, get and post (1 recorded call): ...; record it
// over soap11, soap12, get or post".
func gapLines(gaps []cassettes.Gap) []string {
	type group struct {
		op, reason string // the reason with \x00 for the binding
		calls      int
		bindings   []string
	}
	var groups []*group
next:
	for _, g := range gaps {
		b := g.Binding.String()
		reason := bindingWord(b).ReplaceAllLiteralString(g.Reason, "\x00")
		for _, gr := range groups {
			if gr.op == g.Operation && gr.calls == g.Calls && gr.reason == reason {
				gr.bindings = append(gr.bindings, b)
				continue next
			}
		}
		groups = append(groups, &group{op: g.Operation, reason: reason, calls: g.Calls, bindings: []string{b}})
	}
	lines := make([]string, len(groups))
	for i, gr := range groups {
		lines[i] = fmt.Sprintf("%s over %s (%s): %s", gr.op, list(gr.bindings, "and"), plural(gr.calls, "recorded call"),
			strings.ReplaceAll(gr.reason, "\x00", list(gr.bindings, "or")))
	}
	return lines
}

// list joins words as a sentence does: "a", "a and b", "a, b and c".
func list(words []string, conj string) string {
	if len(words) < 2 {
		return strings.Join(words, "")
	}
	return strings.Join(words[:len(words)-1], ", ") + " " + conj + " " + words[len(words)-1]
}

// plural writes n and what, with an s for any n but 1: "1 call", "2 calls".
func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}

// missText says what a call with no recording gets.
func (r *Replay) missText() string {
	switch r.OnMiss {
	case "fixtures":
		return "answered from the data set"
	case "upstream":
		return "forwarded to " + redact.URL(r.Upstream) + " and recorded into " + r.Record
	}
	return "a fault naming the nearest recording"
}

// Proxy is what atmkit record's banner shows of its recording proxy.
type Proxy struct {
	Upstream string // the deployment recorded; its password and key are masked
	Cassette string // the cassette file written
	Already  int    // the interactions it held before
}

// Print prints the banner of the proxy listening on addr with the TLS of
// s, in one write.
func (b Proxy) Print(e *cli.Env, addr net.Addr, s *cli.Serving) {
	inOneWrite(e, func(e *cli.Env) { b.print(e, addr, s) })
}

func (b Proxy) print(e *cli.Env, addr net.Addr, s *cli.Serving) {
	base := e.PrintListening("recording proxy", addr, s)
	fmt.Fprintf(e.Stdout, "  upstream:   %s\n", redact.URL(b.Upstream))
	if b.Already == 0 {
		fmt.Fprintf(e.Stdout, "  cassette:   %s (nothing recorded yet)\n", b.Cassette)
	} else {
		fmt.Fprintf(e.Stdout, "  cassette:   %s (%s already, appended to)\n", b.Cassette, plural(b.Already, "interaction"))
	}
	fmt.Fprintf(e.Stdout, "  health:     %s%s\n", base, cassettes.HealthPath)
	fmt.Fprintf(e.Stdout, "  service:    %s%s (forwarded to %s)\n", base, asmx.ServicePath, upstreamService(b.Upstream))
	fmt.Fprintln(e.Stdout, "  point your app's client at the service URL above; Ctrl-C saves and stops")
}

// upstreamService is the service's URL at the upstream a recording proxy
// forwards to: the proxy's paths follow the upstream's base path, so an
// app's client points at the proxy without it (a base path given twice
// is a path the deployment does not have). Its password and key are
// masked; a query it holds is left out.
func upstreamService(upstream string) string {
	u, err := url.Parse(upstream)
	if err != nil {
		return redact.URL(upstream)
	}
	u.Path = strings.TrimSuffix(u.Path, "/") + asmx.ServicePath
	u.RawPath, u.RawQuery, u.Fragment = "", "", ""
	return redact.URL(u.String())
}

// WarnOpenAdmin warns on w when the mock's admin API is open to other
// hosts: it listens on addr, not a loopback address, with no admin token.
// The admin page shows the same warning; as a container's main process
// (the image's), the warning leaves out the advice to listen on
// 127.0.0.1, the container's own.
func WarnOpenAdmin(w io.Writer, addr net.Addr, token string) {
	warn := adminwarn.Text
	if cli.ContainerMain() {
		warn = adminwarn.ContainerText
	}
	if text := warn(addr, token); text != "" {
		fmt.Fprintf(w, "atmkit: WARNING: %s\n", text)
	}
}
