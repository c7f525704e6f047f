package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"sync"
	"syscall"
	"time"

	"github.com/atmkit/atmkit/cassettes"
	"github.com/atmkit/atmkit/cmd/atmkit/internal/banner"
	"github.com/atmkit/atmkit/cmd/atmkit/internal/cli"
	"github.com/atmkit/atmkit/internal/serve"
	"gopkg.in/dnaeon/go-vcr.v3/cassette"
)

// recordFlags are the flags of atmkit record.
type recordFlags struct {
	upstream     string
	cassette     string
	addr         string
	saveInterval time.Duration
	progress     int

	srv   cli.ServerFlags // --tls-* (the proxy serves HTTPS), --grace, --log-format
	reach cli.Reach       // --ca-cert, --header, --timeout, …: how --upstream is reached (reach.go)
}

func (f *recordFlags) register(m *Main) *flag.FlagSet {
	fs := cli.NewFlagSet("record", "record --upstream URL --cassette PATH [flags]", helpText("record"), m.Stderr)
	fs.StringVar(&f.upstream, "upstream", "", "base URL of the deployment to record, e.g. https://atm.example.org (required)")
	fs.StringVar(&f.cassette, "cassette", "", "cassette file to write; .yaml is appended when missing, and a missing directory is made (required)")
	fs.StringVar(&f.addr, "addr", "127.0.0.1:8080", "address the recording proxy listens on (port 0 picks a free one)")
	fs.DurationVar(&f.saveInterval, "save-interval", cassettes.DefaultSaveInterval, "gather new interactions this long before rewriting the cassette (0: after each one)")
	fs.IntVar(&f.progress, "progress", 20, "print each of the first N interactions recorded as it is recorded (operation, binding, status), then a count at most once a second (0: neither)")
	f.srv.Register(fs)
	f.reach.Register(fs, "the upstream", true)
	return fs
}

func (m *Main) runRecord(ctx context.Context, args []string) error {
	var f recordFlags
	fs := f.register(m)
	if err := m.ParseNoArgs(fs, args); err != nil {
		return err
	}
	switch {
	case f.upstream == "":
		return cli.Usagef("record", "--upstream URL is required")
	case f.cassette == "":
		return cli.Usagef("record", "--cassette PATH is required")
	}
	if err := m.FirstBad(fs,
		cli.Bad("upstream", cli.CheckHTTPURL(f.upstream)),
		cli.Bad("cassette", checkCassetteDir(f.cassette)),
		cli.Bad("addr", cli.CheckAddr(f.addr)),
		cli.Bad("save-interval", cli.When(f.saveInterval < 0, "must not be negative")),
		cli.Bad("progress", cli.When(f.progress < 0, "must not be negative (0: never)")),
		cli.Bad("grace", cli.When(f.srv.Grace < 0, "must not be negative")),
		cli.Bad("log-format", cli.CheckLogFormat(f.srv.LogFormat)),
	); err != nil {
		return err
	}
	up, err := url.Parse(f.upstream)
	if err != nil {
		return cli.Usagef("record", "--upstream: %v", err)
	}
	m.HideKeys(f.reach.Secrets()...)
	rt, err := m.Transport(fs, &f.reach, "upstream")
	if err != nil {
		return err
	}
	tl, logger, err := m.ServerSetup(fs, &f.srv, f.addr)
	if err != nil {
		return err
	}
	defer tl.Close()

	ln, err := m.Listen(fs, f.addr)
	if err != nil {
		return err
	}
	// The cassette's directory is made, as fixtures generate makes --out.
	if err := os.MkdirAll(filepath.Dir(f.cassette), 0o755); err != nil {
		_ = ln.Close()
		return m.BadSetting(fs, "cassette", "cannot make its directory: "+pathProblem(err))
	}
	p := &recordProgress{w: m.Stderr, first: f.progress}
	rec, err := cassettes.New(f.cassette,
		cassettes.WithMode(cassettes.ModeRecordAll),
		cassettes.WithSaveInterval(f.saveInterval),
		cassettes.WithLogger(logger),
		cassettes.WithTransport(rt),
		cassettes.WithHook(cassettes.BeforeSave, p.recorded))
	if err != nil {
		_ = ln.Close()
		return fmt.Errorf("record: %w", err)
	}
	before := rec.Len()
	banner.Proxy{Upstream: f.upstream, Cassette: rec.Path(), Already: before}.Print(&m.Env, ln.Addr(), tl)

	serveErr := f.srv.Serve(ctx, ln, cassettes.NewProxy(up, rec, logger), tl, logger)
	if errors.Is(serveErr, serve.ErrGraceExpired) {
		serveErr = nil // what came back in time is recorded; the rest is not
	}
	stopErr := rec.Stop()
	if errors.Is(stopErr, cassettes.ErrNothingRecorded) {
		// No request came through: no empty cassette, which would make
		// every replay miss. Exit 1, so a script notices.
		stopErr = fmt.Errorf("nothing recorded (no request came through the proxy), so no cassette was written to %s", rec.Path())
	} else {
		fmt.Fprintf(m.Stdout, "atmkit: saved %s: %s (%d new)\n", rec.Path(), plural(rec.Len(), "interaction"), rec.Len()-before)
	}
	if serveErr != nil {
		return fmt.Errorf("record: %w", serveErr)
	}
	if stopErr != nil {
		return fmt.Errorf("record: %w", stopErr)
	}
	return nil
}

// checkCassetteDir checks that the directory of the cassette at path is a
// directory, or can be made: the nearest part of it that exists is one.
func checkCassetteDir(path string) string {
	for dir := filepath.Dir(path); ; dir = filepath.Dir(dir) {
		st, err := os.Stat(dir)
		switch {
		case err == nil && st.IsDir():
			return ""
		case err == nil:
			return dir + " is not a directory"
		case !errors.Is(err, os.ErrNotExist) && !errors.Is(err, syscall.ENOTDIR):
			return pathProblem(err)
		}
		if parent := filepath.Dir(dir); parent == dir {
			return ""
		}
	}
}

// pathProblem is the text of a file system error without its operation.
func pathProblem(err error) string {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Path + ": " + pe.Err.Error()
	}
	return err.Error()
}

// recordProgress prints what atmkit record records, on stderr: each of the
// first interactions as it is recorded (operation, binding and status;
// never the key: the interaction is scrubbed), then how many so far, at
// most once a second.
type recordProgress struct {
	w     io.Writer
	first int // interactions printed one by one; 0: nothing is printed

	mu   sync.Mutex // guards n and last, and orders the lines
	n    int        // interactions recorded
	last time.Time  // when the last count was printed
}

// recorded is a BeforeSave hook: i is scrubbed, and about to be kept.
func (p *recordProgress) recorded(i *cassette.Interaction) error {
	if p.first <= 0 {
		return nil
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.n++
	e := cassettes.EntryOf(i)
	what := e.Operation
	if e.Binding != "" {
		what += " over " + e.Binding
	}
	switch {
	case p.n <= p.first:
		fmt.Fprintf(p.w, "atmkit: recorded #%d %s: %d\n", p.n, what, e.Status)
		p.last = time.Now()
	case time.Since(p.last) >= time.Second:
		fmt.Fprintf(p.w, "atmkit: recorded %d interactions so far (the last: %s: %d)\n", p.n, what, e.Status)
		p.last = time.Now()
	}
	return nil
}
