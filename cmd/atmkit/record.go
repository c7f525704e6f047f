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
	"path/filepath"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/atmkit/atmkit/cassettes"
	"github.com/atmkit/atmkit/internal/redact"
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
		return cmdUsagef("record", "unexpected argument %q", fs.Arg(0))
	case f.upstream == "":
		return cmdUsagef("record", "--upstream URL is required")
	case f.cassette == "":
		return cmdUsagef("record", "--cassette PATH is required")
	}
	if err := m.firstBad(fs,
		check{"upstream", checkHTTPURL(f.upstream)},
		check{"cassette", when(checkDir(filepath.Dir(f.cassette)) != "", "its directory "+filepath.Dir(f.cassette)+" does not exist")},
		check{"addr", checkAddr(f.addr)},
		check{"save-interval", when(f.saveInterval < 0, "must not be negative")},
		check{"progress", when(f.progress < 0, "must not be negative (0: never)")},
		check{"grace", when(f.grace < 0, "must not be negative")},
		check{"log-format", checkLogFormat(f.logFormat)},
	); err != nil {
		return err
	}
	up, err := url.Parse(f.upstream)
	if err != nil {
		return cmdUsagef("record", "--upstream: %v", err)
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
	base, _ := reachableURL(ln.Addr())
	fmt.Fprintf(m.Stdout, "atmkit: recording proxy listening on %s\n", base)
	m.printReachable(ln.Addr())
	fmt.Fprintf(m.Stdout, "  upstream:   %s\n", redact.URL(f.upstream))
	fmt.Fprintf(m.Stdout, "  cassette:   %s (%d interactions already)\n", rec.Path(), before)
	fmt.Fprintf(m.Stdout, "  health:     %s%s\n", base, cassettes.HealthPath)
	fmt.Fprintln(m.Stdout, "  point your app at the proxy; Ctrl-C saves and stops")

	srv := mockserver.NewHTTPServer(cassettes.NewProxy(up, rec, logger))
	serveErr := serveUntilSignal(ctx, srv, ln, f.grace)
	stopErr := rec.Stop()
	if errors.Is(stopErr, cassettes.ErrNothingRecorded) {
		// No request came through: no empty cassette, which would make
		// every replay miss. Exit 1, so a script notices.
		stopErr = fmt.Errorf("nothing recorded (no request came through the proxy), so no cassette was written to %s", rec.Path())
	} else {
		fmt.Fprintf(m.Stdout, "atmkit: saved %s: %d interactions (%d new)\n", rec.Path(), rec.Len(), rec.Len()-before)
	}
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
