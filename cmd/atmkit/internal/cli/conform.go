package cli

import (
	"errors"
	"net"
	"net/url"
	"strings"

	"github.com/atmkit/atmkit/conformance"
)

// ConformOutcome is the end of atmkit conform, from what conformance.Run
// returned: nil when the target conforms; exit 1 when it does not (the
// failures are printed above, grouped by cause); exit 2 when it could not
// be checked (unreachable, no answer within --timeout, TLS, a refused key,
// a report not written) or the run was interrupted (Ctrl-C, SIGTERM) in the
// preflight or among the specs.
//
// target is --target: a refused connection to its loopback address, where
// atmkit is a container's main process (docker run atmkit/atmkit conform
// --target http://127.0.0.1:8080), gets a word on how a container reaches
// the host's service: 127.0.0.1 is the container's own.
func ConformOutcome(passed bool, err error, target string) error {
	var pe *conformance.PreflightError
	if errors.As(err, &pe) && pe.Cause == conformance.CauseRefused && loopbackURL(target) && ContainerMain() {
		return Exitf(ExitUsage, "conform: %s %s", strings.TrimPrefix(err.Error(), "conformance: "), containerLoopbackHint)
	}
	switch {
	case errors.Is(err, conformance.ErrPreflightInterrupted):
		return Exitf(ExitUsage, "conform: interrupted in the preflight, before any spec ran: the target was not checked")
	case errors.Is(err, conformance.ErrInterrupted): // the reports say what ran
		return Exitf(ExitUsage, "conform: interrupted: the target was not checked whole (the specs that ran are above and in the reports)")
	case err != nil: // Not "conform: conformance: ...": the library names itself.
		return Exitf(ExitUsage, "conform: %s", strings.TrimPrefix(err.Error(), "conformance: "))
	case !passed:
		return Exitf(ExitFailure, "conform: the target does not conform (see the failures above)")
	}
	return nil
}

// containerLoopbackHint is how a container reaches what its 127.0.0.1
// does not.
const containerLoopbackHint = "atmkit runs in a container here, whose 127.0.0.1 is its own: for a service on the Docker host, " +
	"run it with --add-host=host.docker.internal:host-gateway and give --target http://host.docker.internal:PORT, the service listening on more than the host's 127.0.0.1 (or run it with --network host); " +
	"for one in another container, put both on one network (docker network create) and give that container's name."

// loopbackURL reports whether rawURL's host is a loopback address or
// localhost.
func loopbackURL(rawURL string) bool {
	u, err := url.Parse(rawURL)
	if err != nil {
		return false
	}
	host := u.Hostname()
	if ip := net.ParseIP(host); ip != nil {
		return ip.IsLoopback()
	}
	return strings.EqualFold(host, "localhost") || strings.HasSuffix(strings.ToLower(host), ".localhost")
}
