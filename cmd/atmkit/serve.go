package main

import (
	"context"
	"flag"
	"fmt"
	"log/slog"
	"net"
	"net/url"
	"strings"
	"time"

	"github.com/atmkit/atmkit/asmx"
	"github.com/atmkit/atmkit/mockserver"
	"github.com/atmkit/atmkit/shape"
)

const serveExamples = `  atmkit serve
  atmkit serve --addr 127.0.0.1:9090 --key secret --key other
  ATMKIT_KEYS=k1,k2 atmkit serve --fixtures ./my-data
  atmkit serve --namespace http://example.org/atmService
  atmkit serve --fault 'op=ReturnProvinces,binding=soap12,delay=300ms' --fault 'op=ReturnInstitutions,status=503,times=1'
  atmkit serve --config atmkit.yaml --admin-token "$ATMKIT_ADMIN_TOKEN"
  atmkit serve --shape shape.yaml          # results as a deployment writes them (atmkit shape learn)`

// serveFlags are the flags of atmkit serve.
type serveFlags struct {
	addr      string
	namespace string
	fixtures  string
	keys      listFlag
	maxBody   int64
	logFormat string
	grace     time.Duration

	config      string // --config: YAML file of settings (config.go)
	adminToken  string
	journalSize int
	faults      faultFlag

	replay   listFlag // --replay: cassette files or directories (cassette.go)
	onMiss   string
	upstream string

	deviate listFlag // --deviate: break the interface on purpose (deviate.go)

	shape string // --shape: the result shape file (shape.go)
}

// serveEnvAliases are the extra ATMKIT_* names of serve's flags.
var serveEnvAliases = map[string]string{"key": "ATMKIT_KEYS"}

func (f *serveFlags) register(m *Main) *flag.FlagSet {
	fs := newFlagSet("serve", "serve [flags]", serveExamples, m.Stderr)
	fs.StringVar(&f.addr, "addr", "127.0.0.1:8080", "address to listen on (host:port; port 0 picks a free one)")
	fs.StringVar(&f.namespace, "namespace", asmx.DefaultNamespace, "service namespace of the operations")
	fs.StringVar(&f.fixtures, "fixtures", "", "data set directory (default: the embedded data set)")
	fs.Var(&f.keys, "key", "accepted service key (repeatable; also ATMKIT_KEYS=k1,k2); none: any non-empty key")
	fs.Int64Var(&f.maxBody, "max-body", mockserver.DefaultMaxBodyBytes, "largest request body in bytes; larger ones get 413")
	fs.StringVar(&f.logFormat, "log-format", "text", "log format on stderr: text or json")
	fs.DurationVar(&f.grace, "grace", 10*time.Second, "how long in-flight requests may finish after SIGINT/SIGTERM")
	fs.StringVar(&f.config, "config", "", "YAML file of settings keyed by flag name; flags and ATMKIT_* variables override it")
	fs.StringVar(&f.adminToken, "admin-token", "", "bearer token the admin API (/__admin/*, but health) requires; empty: none")
	fs.IntVar(&f.journalSize, "journal-size", mockserver.DefaultJournalSize, "requests the journal keeps for GET /__admin/requests (0: none)")
	fs.Var(&f.faults, "fault", "fault to inject (repeatable), e.g. 'op=ReturnProvinces,binding=soap12,delay=300ms'")
	fs.Var(&f.replay, "replay", "serve answers from this cassette file or directory (repeatable)")
	fs.StringVar(&f.onMiss, "on-miss", "fault", "with --replay, a call with no recording gets: fault, fixtures (the data set answers) or upstream (forwarded and recorded)")
	fs.StringVar(&f.upstream, "upstream", "", "with --on-miss upstream, the deployment to forward misses to")
	fs.Var(&f.deviate, "deviate", deviateUsage)
	fs.StringVar(&f.shape, "shape", "", "result shape file: how results are written (atmkit shape learn makes one; default: the built-in shape)")
	return fs
}

func (m *Main) runServe(ctx context.Context, args []string) error {
	var f serveFlags
	w := f.register(m)
	if err := m.parseFlags(w, args, serveEnvAliases); err != nil {
		return err
	}
	if f.config != "" {
		if err := m.applyConfig(w, f.config, serveEnvAliases); err != nil {
			return err
		}
	}
	if w.NArg() > 0 {
		return usagef("serve: unexpected argument %q", w.Arg(0))
	}
	if m.listDeviations(f.deviate) {
		return nil
	}
	logger, err := m.newLogger(f.logFormat)
	if err != nil {
		return err
	}
	opts := []mockserver.Option{
		mockserver.WithNamespace(f.namespace),
		mockserver.WithKeys(f.keys...),
		mockserver.WithMaxBodyBytes(f.maxBody),
		mockserver.WithLogger(logger),
		mockserver.WithAdminToken(f.adminToken),
		mockserver.WithJournalSize(f.journalSize),
	}
	for _, flt := range f.faults {
		opts = append(opts, mockserver.WithFault(flt))
	}
	if f.fixtures != "" {
		opts = append(opts, mockserver.WithFixturesDir(f.fixtures))
	}
	sh, err := loadShape("serve", f.shape)
	if err != nil {
		return err
	}
	opts = append(opts, mockserver.WithShape(sh))
	replayOpt, closeReplay, err := m.replayOption(f.replay, f.onMiss, f.upstream, f.namespace)
	if err != nil {
		return err
	}
	defer func() { _ = closeReplay() }()
	if replayOpt != nil {
		opts = append(opts, replayOpt)
	}
	srv, err := mockserver.NewServer(opts...)
	if err != nil {
		return err
	}
	h, err := m.deviate(srv, f.deviate)
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", f.addr)
	if err != nil {
		return fmt.Errorf("listen on %s: %w", f.addr, err)
	}
	m.printServeBanner(ln.Addr().String(), srv)
	m.warnDeviations(f.deviate)
	if err := mockserver.Serve(ctx, ln, h, f.grace); err != nil {
		return err
	}
	fmt.Fprintln(m.Stderr, "atmkit: stopped")
	return nil
}

// printServeBanner prints where the mock listens and how to call it.
func (m *Main) printServeBanner(addr string, srv *mockserver.Server) {
	base := "http://" + addr
	ds := srv.Dataset()
	fmt.Fprintf(m.Stdout, "atmkit: ATM Location Lookup Service mock listening on %s\n", base)
	fmt.Fprintf(m.Stdout, "  namespace:  %s\n", srv.Namespace())
	if r := srv.Shape().Result(asmx.OpReturnAllAtms); r.Layout == shape.Typed || r.Root != shape.Default().Result(asmx.OpReturnAllAtms).Root {
		fmt.Fprintf(m.Stdout, "  shape:      %s results (%s)\n", r.Layout, r.Root)
	}
	fmt.Fprintf(m.Stdout, "  data set:   %d ATMs, %d institutions, %d cities, %d provinces\n",
		len(ds.ATMs), len(ds.Institutions), len(ds.Cities), len(ds.Provinces))
	keys := srv.Keys()
	key := "demo-key"
	if len(keys) == 0 {
		fmt.Fprintln(m.Stdout, "  keys:       any non-empty strAtmServiceKey is accepted")
	} else {
		masked := make([]string, len(keys))
		for i, k := range keys {
			masked[i] = maskKey(k)
		}
		fmt.Fprintf(m.Stdout, "  keys:       %d accepted (%s)\n", len(keys), strings.Join(masked, ", "))
		key = "$ATMKIT_KEY"
	}
	fmt.Fprintf(m.Stdout, "  SOAP:       POST %s%s (SOAP 1.1 and 1.2)\n", base, asmx.ServicePath)
	fmt.Fprintf(m.Stdout, "  JSON:       GET  %s%s/ReturnAtmSearchByCoordinates?...\n", base, asmx.JSONPath)
	fmt.Fprintf(m.Stdout, "  admin:      %s/__admin/health (and requests, faults, cities, institutions)\n", base)
	if n := len(srv.Faults()); n > 0 {
		fmt.Fprintf(m.Stdout, "  faults:     %d active (GET %s/__admin/faults)\n", n, base)
	}
	q := url.Values{"strAtmServiceKey": {"KEY"}}
	try := fmt.Sprintf("%s%s/ReturnProvinces?%s", base, asmx.ServicePath, q.Encode())
	try = strings.Replace(try, "KEY", key, 1)
	fmt.Fprintf(m.Stdout, "  try:        curl \"%s\"\n", try)
}

// maskKey shows a key's first two characters only.
func maskKey(k string) string {
	if len(k) <= 2 {
		return strings.Repeat("*", len(k))
	}
	return k[:2] + strings.Repeat("*", len(k)-2)
}

func (m *Main) newLogger(format string) (*slog.Logger, error) {
	switch format {
	case "text", "":
		return slog.New(slog.NewTextHandler(m.Stderr, nil)), nil
	case "json":
		return slog.New(slog.NewJSONHandler(m.Stderr, nil)), nil
	}
	return nil, usagef("--log-format %q: want text or json", format)
}
