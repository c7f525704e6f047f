package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/atmkit/atmkit/cassettes"
	"github.com/atmkit/atmkit/cmd/atmkit/internal/banner"
	"github.com/atmkit/atmkit/cmd/atmkit/internal/cli"
)

// recordFlags are the flags of atmkit record.
type recordFlags struct {
	upstream     string
	cassette     string
	addr         string
	saveInterval time.Duration
	progress     int
	scrub        cli.List // --scrub-header: more headers to redact

	srv   cli.ServerFlags // --tls-* (the proxy serves HTTPS), --grace, --log-format
	reach cli.Reach       // --ca-cert, --header, --timeout, …: how --upstream is reached (reach.go)
}

func (f *recordFlags) register(m *Main) *flag.FlagSet {
	fs := cli.NewFlagSet("record", "record --upstream URL --cassette PATH [flags]", helpText("record"), m.Stderr)
	fs.StringVar(&f.upstream, "upstream", "", "base URL of the deployment to record, e.g. https://atm.example.org (required)")
	fs.StringVar(&f.cassette, "cassette", "", "cassette file to write; .yaml is appended when missing, and a missing directory is made, and removed again when nothing is recorded (required)")
	fs.StringVar(&f.addr, "addr", "127.0.0.1:8080", "address the recording proxy listens on (port 0 picks a free one)")
	fs.DurationVar(&f.saveInterval, "save-interval", cassettes.DefaultSaveInterval, "gather new interactions at least this long before rewriting the cassette; a large one waits 4 times its last write (0: after each one)")
	fs.Var(&f.scrub, "scrub-header", "also write this header's values as REDACTED in the cassette (repeatable; names with key, token, secret, password, credential, signature, session or auth always are)")
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
		cli.Bad("upstream", cli.CheckHTTPURL(f.upstream)), cli.Bad("upstream", cli.CheckNotService(f.upstream)),
		cli.Bad("cassette", cli.When(cli.NamesDir(f.cassette), "names a directory; give the cassette file in it, e.g. "+filepath.Join(f.cassette, "atm"))),
		cli.Bad("cassette", cli.CheckNotDash(f.cassette, "file")), cli.Bad("cassette", cli.CheckMakeDir(filepath.Dir(f.cassette))),
		cli.Bad("cassette", cli.CheckReplace(cassettes.FilePath(f.cassette))),
		cli.Bad("addr", cli.CheckAddr(f.addr)), cli.Bad("scrub-header", m.CheckHeaderNames(f.scrub)),
		cli.Bad("save-interval", cli.When(f.saveInterval < 0, "must not be negative")),
		cli.Bad("progress", cli.When(f.progress < 0, "must not be negative (0: never)")),
		cli.Bad("grace", cli.When(f.srv.Grace < 0, "must not be negative")),
		cli.Bad("log-format", cli.CheckLogFormat(f.srv.LogFormat)),
		cli.Bad("log-level", cli.CheckLogLevel(f.srv.LogLevel)),
	); err != nil {
		return err
	}
	up, err := url.Parse(f.upstream)
	if err != nil {
		return cli.Usagef("record", "--upstream: %v", err)
	}
	m.HideKeys(f.reach.Secrets(f.scrub...)...)
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
	p := &banner.Progress{W: m.Stderr, First: f.progress}
	if f.srv.LogFormat == "json" {
		p.Log = logger
	}
	rec, err := cassettes.NewContext(ctx, f.cassette,
		cassettes.WithMode(cassettes.ModeRecordAll),
		cassettes.WithSaveInterval(f.saveInterval),
		cassettes.WithLogger(logger),
		cassettes.WithTransport(rt),
		cassettes.WithHook(cassettes.BeforeSave, p.Recorded),
		cassettes.WithScrubHeaders(f.scrub...), cassettes.WithSecrets(f.reach.Secrets(f.scrub...)...)) // a gateway's echo of a --header value too
	if errors.Is(err, cassettes.ErrCassetteBusy) {
		_ = ln.Close()
		held := strings.TrimPrefix(err.Error(), "cassette "+cassettes.FilePath(f.cassette)+": ")
		return m.BadSetting(fs, "cassette", held+", another atmkit record or a test; stop it, or record into another cassette")
	}
	var mkdir *os.PathError // the cassette's directory is made, and removed again when nothing is recorded
	if errors.As(err, &mkdir) && mkdir.Op == "mkdir" {
		_ = ln.Close()
		return m.BadSetting(fs, "cassette", "cannot make its directory: "+mkdir.Error())
	}
	if err != nil {
		_ = ln.Close()
		return m.StoppedStarting(ctx, fmt.Errorf("record: %w", err), "reading the cassette "+cassettes.FilePath(f.cassette)) // left as it was
	}
	before := rec.Len()
	banner.Proxy{Upstream: f.upstream, Cassette: rec.Path(), Already: before}.Print(&m.Env, ln.Addr(), tl)

	serveErr := f.srv.Serve(ctx, ln, cassettes.NewProxy(up, rec, logger), tl, logger) // past --grace: what came back in time is recorded
	stopErr := rec.Stop()
	p.Flush() // the count of the last calls, before what was saved
	if errors.Is(stopErr, cassettes.ErrNothingRecorded) {
		// No request came through: no empty cassette, which would make
		// every replay miss. Exit 1, so a script notices.
		stopErr = fmt.Errorf("nothing recorded (no request came through the proxy, or none got an answer from the upstream), so no cassette was written to %s", rec.Path())
	} else if stopErr == nil { // a failed last save is told below, not as saved
		fmt.Fprintf(m.Stdout, "atmkit: saved %s: %s (%d new)\n", rec.Path(), banner.Plural(rec.Len(), "interaction"), rec.Len()-before)
	}
	if serveErr != nil {
		return fmt.Errorf("record: %w", serveErr)
	}
	if stopErr != nil {
		return fmt.Errorf("record: %w", stopErr)
	}
	return nil
}
