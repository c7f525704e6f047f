package cli

import (
	"errors"
	"strings"

	"github.com/atmkit/atmkit/conformance"
)

// ConformOutcome is the end of atmkit conform, from what conformance.Run
// returned: nil when the target conforms; exit 1 when it does not (the
// failures are printed above, grouped by cause); exit 2 when it could not
// be checked (unreachable, no answer within --timeout, TLS, a refused key,
// a report not written) or the run was interrupted (Ctrl-C, SIGTERM) in the
// preflight or among the specs.
func ConformOutcome(passed bool, err error) error {
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
