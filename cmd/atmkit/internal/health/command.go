package health

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"strings"
	"time"

	"github.com/atmkit/atmkit/cmd/atmkit/internal/cli"
	"github.com/atmkit/atmkit/internal/neterr"
	"github.com/atmkit/atmkit/internal/redact"
	"github.com/atmkit/atmkit/internal/tlsconf"
)

// flags are the flags of atmkit health.
type flags struct {
	url     string
	timeout time.Duration
	reach   cli.Reach // --ca-cert, --client-cert, …: how an HTTPS mock is reached
}

// Run runs atmkit health with args: exit 0 when the mock answers its
// health endpoint, 1 when it does not (unreachable, no answer in time, any
// other answer), 2 on a wrong command line or a TLS failure a setting
// fixes. It is the image's HEALTHCHECK and what exec probes (compose,
// Kubernetes) run. Its flags are read from ATMKIT_HEALTH_<NAME> (--url
// from ATMKIT_URL too), not from the ATMKIT_<NAME> of the serve beside it,
// whose --timeout, --ca-cert, --client-cert and --header are its upstream's.
// examples ends its usage text.
func Run(ctx context.Context, e *cli.Env, examples string, args []string) error {
	var f flags
	fs := cli.NewFlagSet("health", "health [--url URL] [flags]", examples, e.Stderr)
	fs.StringVar(&f.url, "url", DefaultURL(e.Getenv), "base URL of the mock to check, or its health endpoint's (…/__admin/health) (also ATMKIT_URL); where ATMKIT_ADDR is set (as in the image), the default is that address, or its port on 127.0.0.1 where it names every interface (0.0.0.0:8080; for [::]:8080, [::1], then 127.0.0.1 where [::1] cannot be reached), over HTTPS (any certificate accepted) where ATMKIT_TLS_CERT or ATMKIT_TLS_SELF_SIGNED is set")
	fs.DurationVar(&f.timeout, "timeout", 5*time.Second, "how long to wait for the answer")
	f.reach.Register(fs, "the mock", false)
	if err := e.Parse(fs, args, map[string]string{"url": "ATMKIT_URL"}); err != nil {
		return err
	}
	if err := cli.NoArgs(fs); err != nil {
		return err
	}
	e.HideKeys(f.reach.Secrets()...)
	if addr := e.Getenv("ATMKIT_ADDR"); addr != "" && !e.Given(fs, "url") {
		if p := addrProblem(addr); p != "" { // 8080 instead could be another mock's
			return cli.Usagef("health", "ATMKIT_ADDR=%q: %s", addr, p)
		}
	}
	if err := e.BadBaseURL(fs, "url"); err != nil {
		return err
	}
	if err := e.FirstBad(fs,
		cli.Bad("url", cli.CheckHTTPURL(f.url)),
		cli.Bad("url", cli.When(IsServiceURL(f.url), "the service's URL; want the mock's base URL, such as http://127.0.0.1:8080")),
		cli.Bad("url", cli.When(IsAdminURL(f.url), "the admin API's URL; want the mock's base URL, such as http://127.0.0.1:8080 (health asks its "+Path+")")),
		cli.Bad("timeout", cli.When(f.timeout <= 0, "must be positive, e.g. 5s")),
	); err != nil {
		return err
	}
	f.reach.Timeout = f.timeout
	target := Target(f.url)
	shown := redact.URL(target) // no password of the URL's in the output
	// This machine's mock (a container's own) over the HTTPS of ATMKIT_TLS_*: any certificate.
	own := !e.Given(fs, "url") && ServesTLS(e.Getenv)
	f.reach.AnyCertificate = own
	if own && e.Getenv("ATMKIT_TLS_CLIENT_CA") != "" && !e.Given(fs, "client-cert") {
		// Known before any call; a call would only add a handshake error to serve's log.
		return cli.Exitf(cli.ExitUsage, "health: %s: the mock requires client certificates (ATMKIT_TLS_CLIENT_CA is set): "+
			"give the health check one that an authority of ATMKIT_TLS_CLIENT_CA issued, with ATMKIT_HEALTH_CLIENT_CERT=FILE ATMKIT_HEALTH_CLIENT_KEY=FILE "+
			"(ATMKIT_CLIENT_CERT is serve's, for its upstream)", shown)
	}
	rt, err := e.Transport(fs, &f.reach, "url")
	if err != nil {
		return err
	}
	client := &http.Client{Transport: rt}
	err = Check(ctx, client, target)
	if alt := fallbackURL(e.Getenv); err != nil && alt != "" && !e.Given(fs, "url") && dialFailed(err) {
		// [::1] of an ATMKIT_ADDR of [::] reached nothing: a container
		// without IPv6 has no ::1, and serve on [::] takes IPv4 calls too.
		target = alt + Path
		shown = redact.URL(target)
		err = Check(ctx, client, target)
	}
	if err != nil {
		var te *tlsconf.Error
		switch {
		case neterr.Refused(err):
			return cli.Exitf(cli.ExitFailure, "health: %s: connection refused: nothing listens there. Is the mock running, and is --url (or ATMKIT_ADDR's port) right?", shown)
		case errors.As(err, &te): // the mock cannot be checked until a setting changes
			if te.Kind == tlsconf.PlainToTLS && !e.Given(fs, "url") {
				err = flagTLS(te)
			}
			return cli.Exitf(cli.ExitUsage, "health: %s: %w", shown, redact.Error(err))
		}
		return cli.Exitf(cli.ExitFailure, "health: %s: %w", shown, redact.Error(err))
	}
	fmt.Fprintf(e.Stdout, "atmkit health: %s: ok\n", shown)
	return nil
}

// addrProblem says why health cannot take the port of the mock it checks
// by default from addr, ATMKIT_ADDR (serve's --addr, set in the image):
// "" when it can. A value serve refuses is a wrong setting, and port 0
// (serve picks a free one) names no port health can know.
func addrProblem(addr string) string {
	if cli.CheckAddr(addr) != "" {
		return "want host:port, as serve takes it, such as 0.0.0.0:8080 (health checks that port on 127.0.0.1); or give the mock's base URL with --url or ATMKIT_URL"
	}
	if _, port, _ := net.SplitHostPort(addr); strings.TrimLeft(port, "0") == "" {
		return "port 0 has serve pick a free port, which health cannot know; give the mock's base URL with --url or ATMKIT_URL (serve prints the port it picked)"
	}
	return ""
}

// flagTLS is te, a plain HTTP call of the default URL answered by a port
// that speaks HTTPS, with the fix that fits: serve's TLS was set with its
// flags (--tls-self-signed, --tls-cert), which health cannot see, as in
// `docker run … serve --tls-self-signed`, where the image's HEALTHCHECK
// runs atmkit health with no flags. "use https:// in --url" is no fix
// there: the variables of serve's TLS are, which health reads too.
func flagTLS(te *tlsconf.Error) *tlsconf.Error {
	x := *te
	x.Fix = "set serve's TLS with ATMKIT_TLS_SELF_SIGNED=true, or ATMKIT_TLS_CERT and ATMKIT_TLS_KEY, instead of its flags (--tls-self-signed, --tls-cert): " +
		"health reads those variables, not serve's flags, and then asks https:// with any certificate accepted (the image's health check takes no flags); " +
		"or give health the mock's https:// URL with --url or ATMKIT_URL"
	return &x
}

// dialFailed reports whether err, Check's, is a connection that could not
// be made (refused, no such address here), not a failure of the answer.
func dialFailed(err error) bool {
	var op *net.OpError
	return errors.As(err, &op) && op.Op == "dial"
}
