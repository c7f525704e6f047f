// Package banner writes what atmkit's servers print when they start: the
// mock's banner (atmkit serve: what it serves, its endpoints, a command to
// try), the recording proxy's (atmkit record), and the warning of an
// admin API open to other hosts. The first lines, where a server listens
// and the certificate it serves, are cli.Env's.
package banner

import (
	"fmt"
	"io"
	"net"
	"strings"

	"github.com/atmkit/atmkit/asmx"
	"github.com/atmkit/atmkit/cassettes"
	"github.com/atmkit/atmkit/cmd/atmkit/internal/cli"
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

// Print prints the banner of the mock listening on addr with the TLS of s:
// where it listens, what it serves and how to call it.
func (b Mock) Print(e *cli.Env, addr net.Addr, s *cli.Serving) {
	w, srv := e.Stdout, b.Server
	base := e.PrintListening("ATM Location Lookup Service mock", addr, s)
	fmt.Fprintf(w, "  namespace:  %s\n", srv.Namespace())
	if r := b.Replay; r != nil {
		st := r.Stats
		fmt.Fprintf(w, "  replay:     %d answers to %d calls from %d cassette files (%d interactions): %s\n",
			st.Answers, st.Calls, st.Files, st.Interactions, strings.Join(r.Paths, ", "))
		fmt.Fprintf(w, "  on a miss:  %s\n", r.missText())
		if st.KeyRejections > 0 {
			fmt.Fprintf(w, "  rejections: %d recorded key rejections, served only to keys this mock rejects\n", st.KeyRejections)
		}
		for i, g := range r.Gaps {
			label := "not served: "
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
		fmt.Fprintf(w, "  data set:   %s: %d ATMs, %d institutions, %d cities, %d provinces\n",
			from, len(ds.ATMs), len(ds.Institutions), len(ds.Cities), len(ds.Provinces))
	}
	if r := srv.Shape().Result(asmx.OpReturnAllAtms); r.Layout == shape.Typed || r.Root != shape.Default().Result(asmx.OpReturnAllAtms).Root {
		fmt.Fprintf(w, "  shape:      %s results (%s)\n", r.Layout, r.Root)
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
	fmt.Fprintf(w, "  JSON:       GET  %s%s/ReturnAtmSearchByCoordinates?...\n", base, asmx.JSONPath)
	fmt.Fprintf(w, "  admin:      %s/__admin/health (and requests, faults, cities, institutions)\n", base)
	if n := len(srv.Faults()); n > 0 {
		fmt.Fprintf(w, "  faults:     %d active (GET %s/__admin/faults)\n", n, base)
	}
	try := base + asmx.ServicePath + "/ReturnProvinces?strAtmServiceKey="
	if len(keys) == 0 {
		e.PrintTry(s, try+"demo-key", nil)
		return
	}
	// The hint must work as printed: the key is not printed, so the user
	// puts one of the accepted keys in ATMKIT_KEY (serve's own variable).
	e.PrintTry(s, try+"$ATMKIT_KEY", []string{"ATMKIT_KEY='<one of the accepted keys>'"})
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

// Print prints the banner of the proxy listening on addr with the TLS of s.
func (b Proxy) Print(e *cli.Env, addr net.Addr, s *cli.Serving) {
	base := e.PrintListening("recording proxy", addr, s)
	fmt.Fprintf(e.Stdout, "  upstream:   %s\n", redact.URL(b.Upstream))
	fmt.Fprintf(e.Stdout, "  cassette:   %s (%d interactions already)\n", b.Cassette, b.Already)
	fmt.Fprintf(e.Stdout, "  health:     %s%s\n", base, cassettes.HealthPath)
	fmt.Fprintln(e.Stdout, "  point your app at the proxy; Ctrl-C saves and stops")
}

// WarnOpenAdmin warns on w when the mock's admin API is open to other
// hosts: it listens on addr, not a loopback address, with no admin token.
func WarnOpenAdmin(w io.Writer, addr net.Addr, token string) {
	tcp, ok := addr.(*net.TCPAddr)
	if token != "" || !ok || tcp.IP.IsLoopback() {
		return
	}
	where := addr.String()
	if tcp.IP.IsUnspecified() {
		where = fmt.Sprintf("every interface (port %d)", tcp.Port)
	}
	fmt.Fprintf(w, "atmkit: WARNING: listening on %s, reachable from other hosts, with no admin token: anyone who can reach the port can inject faults and read the journal (/__admin). Set --admin-token or ATMKIT_ADMIN_TOKEN, or listen on 127.0.0.1.\n", where)
}
