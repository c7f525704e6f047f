package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/atmkit/atmkit/cmd/atmkit/internal/cli"
)

// healthPath is the mock's health endpoint, which needs no admin token.
const healthPath = "/__admin/health"

// defaultHealthURL is where atmkit health looks by default: atmkit serve's
// default port on the loopback interface.
const defaultHealthURL = "http://127.0.0.1:8080"

// healthFlags are the flags of atmkit health.
type healthFlags struct {
	url     string
	timeout time.Duration
	reach   cli.Reach // --ca-cert, --client-cert, …: how an HTTPS mock is reached
}

func (f *healthFlags) register(m *Main) *flag.FlagSet {
	fs := cli.NewFlagSet("health", "health [--url URL] [flags]", helpText("health"), m.Stderr)
	fs.StringVar(&f.url, "url", healthDefaultURL(m.Getenv), "base URL of the mock to check; where ATMKIT_ADDR is set (as in the image), the default is its port on 127.0.0.1")
	fs.DurationVar(&f.timeout, "timeout", 5*time.Second, "how long to wait for the answer")
	f.reach.Register(fs, "the mock", false)
	return fs
}

// healthDefaultURL is the URL atmkit health checks without --url: atmkit
// serve's default, or, where ATMKIT_ADDR sets serve's address (as in the
// container image), that address, on the loopback interface when it names
// every interface.
func healthDefaultURL(getenv func(string) string) string {
	addr := getenv("ATMKIT_ADDR")
	if addr == "" {
		return defaultHealthURL
	}
	host, port, err := net.SplitHostPort(addr)
	if err != nil || port == "" || port == "0" {
		return defaultHealthURL
	}
	switch host {
	case "", "0.0.0.0":
		host = "127.0.0.1"
	case "::":
		host = "::1"
	}
	return "http://" + net.JoinHostPort(host, port)
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
	if err := m.FirstBad(fs,
		cli.Bad("url", cli.CheckHTTPURL(f.url)),
		cli.Bad("timeout", cli.When(f.timeout <= 0, "must be positive, e.g. 5s")),
	); err != nil {
		return err
	}
	f.reach.Timeout = f.timeout
	rt, err := m.Transport(fs, &f.reach, "url")
	if err != nil {
		return err
	}
	target := strings.TrimRight(f.url, "/") + healthPath
	if err := checkHealth(ctx, &http.Client{Transport: rt}, target); err != nil {
		return cli.Exitf(cli.ExitFailure, "health: %s: %w", target, err)
	}
	fmt.Fprintf(m.Stdout, "atmkit health: %s: ok\n", target)
	return nil
}

// checkHealth GETs the health endpoint at target: nil when it answers 200
// with {"status":"ok"}.
func checkHealth(ctx context.Context, c *http.Client, target string) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, target, nil)
	if err != nil {
		return err
	}
	resp, err := c.Do(req)
	var ue *url.Error
	if errors.As(err, &ue) {
		return ue.Err // the URL is in the caller's message already
	}
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, 4096))
	if err != nil {
		return fmt.Errorf("read the answer: %w", err)
	}
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("answered %s, want 200 OK", resp.Status)
	}
	var st struct{ Status string }
	if err := json.Unmarshal(body, &st); err != nil || st.Status != "ok" {
		return fmt.Errorf(`answered %.80q, want {"status":"ok"}: not an atmkit mock`, body)
	}
	return nil
}
