package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/signal"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/atmkit/atmkit/cassettes"
	"github.com/atmkit/atmkit/mockserver"
	"gopkg.in/dnaeon/go-vcr.v3/cassette"
)

const recordExamples = `  atmkit record --upstream https://atm.example.org --cassette testdata/atm
  atmkit record --upstream http://10.0.0.5:8080 --cassette atm.yaml --addr 127.0.0.1:9090
  ATMKIT_UPSTREAM=https://atm.example.org ATMKIT_CASSETTE=atm atmkit record

Point the app at the proxy's address instead of the service. Every request
(SOAP 1.1/1.2, GET, POST, JSON, WSDL and help pages) goes to the upstream and
comes back unchanged; the cassette gets a scrubbed copy (strAtmServiceKey,
Authorization, Cookie and Set-Cookie replaced by REDACTED). The cassette is
rewritten atomically every --save-interval while recording and on Ctrl-C or
SIGTERM; an existing cassette is appended to. Replay it with
  atmkit serve --replay testdata/atm.yaml`

// recordFlags are the flags of atmkit record.
type recordFlags struct {
	upstream     string
	cassette     string
	addr         string
	saveInterval time.Duration
	progress     int
	grace        time.Duration
	logFormat    string
}

func (f *recordFlags) register(m *Main) *flag.FlagSet {
	fs := newFlagSet("record", "record --upstream URL --cassette PATH [flags]", recordExamples, m.Stderr)
	fs.StringVar(&f.upstream, "upstream", "", "base URL of the deployment to record, e.g. https://atm.example.org (required)")
	fs.StringVar(&f.cassette, "cassette", "", "cassette file to write; .yaml is appended when missing (required)")
	fs.StringVar(&f.addr, "addr", "127.0.0.1:8080", "address the recording proxy listens on (port 0 picks a free one)")
	fs.DurationVar(&f.saveInterval, "save-interval", cassettes.DefaultSaveInterval, "gather new interactions this long before rewriting the cassette (0: after each one)")
	fs.IntVar(&f.progress, "progress", 10, "print a progress line every N interactions recorded (0: never)")
	fs.DurationVar(&f.grace, "grace", 10*time.Second, "how long in-flight requests may finish after SIGINT/SIGTERM (a second signal cuts it short)")
	fs.StringVar(&f.logFormat, "log-format", "text", "log format on stderr: text or json")
	return fs
}

func (m *Main) runRecord(ctx context.Context, args []string) error {
	var f recordFlags
	fs := f.register(m)
	if err := m.parseFlags(fs, args, nil); err != nil {
		return err
	}
	switch {
	case fs.NArg() > 0:
		return usagef("record: unexpected argument %q", fs.Arg(0))
	case f.upstream == "":
		return usagef("record: --upstream URL is required")
	case f.cassette == "":
		return usagef("record: --cassette PATH is required")
	case f.saveInterval < 0:
		return usagef("record: --save-interval must not be negative")
	}
	up, err := url.Parse(f.upstream)
	if err != nil || (up.Scheme != "http" && up.Scheme != "https") || up.Host == "" {
		return usagef("record: --upstream %q: want an http or https URL", f.upstream)
	}
	logger, err := m.newLogger(f.logFormat)
	if err != nil {
		return err
	}

	var (
		recorded atomic.Int64
		outMu    sync.Mutex
	)
	progress := func(*cassette.Interaction) error {
		n := recorded.Add(1)
		if f.progress > 0 && n%int64(f.progress) == 0 {
			outMu.Lock()
			fmt.Fprintf(m.Stderr, "atmkit: recorded %d new interactions\n", n)
			outMu.Unlock()
		}
		return nil
	}
	rec, err := cassettes.New(f.cassette,
		cassettes.WithMode(cassettes.ModeRecordAll),
		cassettes.WithSaveInterval(f.saveInterval),
		cassettes.WithLogger(logger),
		cassettes.WithHook(cassettes.BeforeSave, progress))
	if err != nil {
		return fmt.Errorf("record: %w", err)
	}
	before := rec.Len()
	ln, err := net.Listen("tcp", f.addr)
	if err != nil {
		_ = rec.Stop()
		return fmt.Errorf("record: listen on %s: %w", f.addr, err)
	}
	base := "http://" + ln.Addr().String()
	fmt.Fprintf(m.Stdout, "atmkit: recording proxy listening on %s\n", base)
	fmt.Fprintf(m.Stdout, "  upstream:   %s\n", up.Redacted())
	fmt.Fprintf(m.Stdout, "  cassette:   %s (%d interactions already)\n", rec.Path(), before)
	fmt.Fprintf(m.Stdout, "  health:     %s%s\n", base, cassettes.HealthPath)
	fmt.Fprintln(m.Stdout, "  point your app at the proxy; Ctrl-C saves and stops")

	srv := mockserver.NewHTTPServer(cassettes.NewProxy(up, rec, logger))
	serveErr := serveUntilSignal(ctx, srv, ln, f.grace)
	stopErr := rec.Stop()
	fmt.Fprintf(m.Stdout, "atmkit: saved %s: %d interactions (%d new)\n", rec.Path(), rec.Len(), rec.Len()-before)
	if serveErr != nil {
		return fmt.Errorf("record: %w", serveErr)
	}
	if stopErr != nil {
		return fmt.Errorf("record: %w", stopErr)
	}
	return nil
}

// serveUntilSignal serves on ln until ctx is done, then shuts down: in-flight
// requests may finish for up to grace; a second SIGINT/SIGTERM cuts that short.
func serveUntilSignal(ctx context.Context, srv *http.Server, ln net.Listener, grace time.Duration) error {
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		if errors.Is(err, http.ErrServerClosed) {
			return nil
		}
		return fmt.Errorf("serve %s: %w", ln.Addr(), err)
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.Background(), grace)
	defer cancel()
	again := make(chan os.Signal, 1)
	signal.Notify(again, os.Interrupt, syscall.SIGTERM)
	defer signal.Stop(again)
	go func() {
		select {
		case <-again:
			cancel()
		case <-sctx.Done():
		}
	}()
	if err := srv.Shutdown(sctx); err != nil {
		_ = srv.Close()
	}
	if err := <-errc; err != nil && !errors.Is(err, http.ErrServerClosed) {
		return fmt.Errorf("serve %s: %w", ln.Addr(), err)
	}
	return nil
}
