package main

import (
	"context"
	"flag"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/atmkit/atmkit/cmd/atmkit/internal/cli"
	"github.com/atmkit/atmkit/cmd/atmkit/internal/health"
	"github.com/atmkit/atmkit/internal/neterr"
	"github.com/atmkit/atmkit/internal/redact"
)

// healthFlags are the flags of atmkit health.
type healthFlags struct {
	url     string
	timeout time.Duration
	reach   cli.Reach // --ca-cert, --client-cert, …: how an HTTPS mock is reached
}

func (f *healthFlags) register(m *Main) *flag.FlagSet {
	fs := cli.NewFlagSet("health", "health [--url URL] [flags]", helpText("health"), m.Stderr)
	fs.StringVar(&f.url, "url", health.DefaultURL(m.Getenv), "base URL of the mock to check; where ATMKIT_ADDR is set (as in the image), the default is its port on 127.0.0.1, over HTTPS (any certificate accepted) where ATMKIT_TLS_CERT or ATMKIT_TLS_SELF_SIGNED is set")
	fs.DurationVar(&f.timeout, "timeout", 5*time.Second, "how long to wait for the answer")
	f.reach.Register(fs, "the mock", false)
	return fs
}

// runHealth checks that a mock answers its health endpoint: exit 0 when
// it does, 1 when it does not (unreachable, no answer in time, any other
// answer), 2 on a wrong command line. It is the image's HEALTHCHECK and
// what exec probes (compose, Kubernetes) run.
func (m *Main) runHealth(ctx context.Context, args []string) error {
	var f healthFlags
	fs := f.register(m)
	if err := m.ParseNoArgs(fs, args); err != nil {
		return err
	}
	m.HideKeys(f.reach.Secrets()...)
	if err := cli.BadBaseURL("health", "url", f.url); err != nil {
		return err
	}
	if err := m.FirstBad(fs,
		cli.Bad("url", cli.CheckHTTPURL(f.url)),
		cli.Bad("url", cli.When(health.IsServiceURL(f.url), "the service's URL; want the mock's base URL, such as http://127.0.0.1:8080")),
		cli.Bad("timeout", cli.When(f.timeout <= 0, "must be positive, e.g. 5s")),
	); err != nil {
		return err
	}
	f.reach.Timeout = f.timeout
	// This machine's mock (a container's own) over the HTTPS of ATMKIT_TLS_*: any certificate.
	f.reach.AnyCertificate = !m.Given(fs, "url") && health.ServesTLS(m.Getenv)
	rt, err := m.Transport(fs, &f.reach, "url")
	if err != nil {
		return err
	}
	target := strings.TrimRight(f.url, "/") + health.Path
	shown := redact.URL(target) // no password of the URL's in the output
	if err := health.Check(ctx, &http.Client{Transport: rt}, target); err != nil {
		if neterr.Refused(err) {
			return cli.Exitf(cli.ExitFailure, "health: %s: connection refused: nothing listens there. Is the mock running, and is --url (or ATMKIT_ADDR's port) right?", shown)
		}
		return cli.Exitf(cli.ExitFailure, "health: %s: %w", shown, redact.Error(err))
	}
	fmt.Fprintf(m.Stdout, "atmkit health: %s: ok\n", shown)
	return nil
}
