package main

import (
	"context"
	"flag"
	"fmt"
	"net/http"
	"os"
	"strconv"
	"time"

	"github.com/atmkit/atmkit/conformance"
	"github.com/atmkit/atmkit/internal/cli"
	"github.com/onsi/ginkgo/v2/types"
)

const conformExamples = `  atmkit conform --target http://127.0.0.1:8080 --key secret
  atmkit conform --target https://atm.example.org --key "$KEY" --junit-report conform.xml --timeout 10s
  atmkit conform --target http://127.0.0.1:8080 --key k --label-filter 'documented && !wsdl'
  atmkit conform --target https://atm.example.org --key "$KEY" --label-filter '!get && !post'
  atmkit conform --target http://127.0.0.1:8080 --key k --city-id 3 --city-id 17 --radius-unit mi
  atmkit conform --target https://atm.example.org --key "$KEY" --latitude 44.6488 --longitude -63.5752 --radius 10 --institution-id 3
  ATMKIT_TARGET=http://127.0.0.1:8080 ATMKIT_KEY=k atmkit conform --json-report conform.json
  atmkit conform --target https://atm.internal --key "$KEY" --ca-cert corp-ca.pem --client-cert me.pem --client-key me-key.pem
  atmkit conform --target https://gateway.example.org/atm --key "$KEY" --header "Ocp-Apim-Subscription-Key: $SUB"

Labels: soap11 soap12 get post json (bindings), documented (what the interface
document states), asmx (ASMX conventions beyond it), semantics (search
results), wsdl (skipped when the target serves no WSDL), faults, keys,
equivalence. Curl lines in failures read the key from $ATMKIT_KEY; the key
appears in no output or report (elsewhere it is masked as ****).

Before the specs, a preflight calls ReturnProvinces once per binding (a
coordinate search for JSON). A target that cannot be checked stops the run
with one paragraph: connection refused, no answer within --timeout, TLS
failure, 404 at the service path, or a refused key. HTTP GET and POST
disabled in web.config is a non-conformance: their specs fail as one group
that says how to enable them; --label-filter '!get && !post' leaves them out.
Failures are summarized grouped by cause, each spec with its section of the
documentation.

HTTPS: the system's authorities are trusted, and those of --ca-cert; a
certificate problem (an unknown authority, another host name, an expired
certificate, a client certificate required or refused) stops the preflight
with one line naming it and the flag that fixes it. HTTPS_PROXY/HTTP_PROXY
are used unless NO_PROXY names the target. --header values are sent with
every request and appear in no output, report or curl line.

Exit codes: 0: the target conforms (every spec run passed); 1: it does not
conform; 2: could not check (a wrong command line, an unreachable target,
no answer within --timeout, a TLS failure, a refused key).

Query values (search point, address, institution, radius, maximum, city ids)
are found in the target's own answers unless given by the flags; the last
line of the output says which were given and where the others came from.
The anchor is a location of ReturnAllAtms that the JSON binding finds at its
own coordinates or, with --latitude and --longitude, the location nearest to
that point: then ReturnAllAtms is not read to find values, so a target whose
list is empty or huge can be checked. Address parts not given are the
anchor's: give all four to search around another address.`

// valueUsage is the help text of each flag of conformance.ValueFlags.
var valueUsage = map[string]string{
	"latitude":       "dblLatitude of the search point in `degrees`, with --longitude (default: the anchor's)",
	"longitude":      "dblLongitude of the search point in `degrees`, with --latitude",
	"address":        "strAddress of the address searches: a `street` address (default: the anchor's)",
	"city":           "strCity of the address searches: a city `name` (default: the anchor's)",
	"province":       "strProvince of the address searches: a province `name` or code (default: the anchor's)",
	"postal-code":    "strPostalCode of the address and coordinate searches: a postal `code` (default: the anchor's)",
	"institution-id": "intInstitutionID `id` of ReturnAtmSearchByInstitution (default: the anchor's)",
	"radius":         "bytRadius `n` of the searches, 0 to 255 (default: the smallest of 5, 10, 25, 50, 100 finding five locations)",
	"maximum":        "intMaximumAtms `n` of ReturnAtmSearchByAddressWithMaximum (default: 3)",
}

// givenFlag is a flag that gives a query value; it records whether it was
// set at all, so an empty value can be given too.
type givenFlag struct {
	value string
	set   bool
}

func (g *givenFlag) String() string { return g.value }

// Set records the value as given.
func (g *givenFlag) Set(v string) error { g.value, g.set = v, true; return nil }

// conformFlags are the flags of atmkit conform.
type conformFlags struct {
	target      string
	key         string
	namespace   string
	junitReport string
	jsonReport  string
	labelFilter string
	cityIDs     cli.List
	radiusUnit  string
	values      map[string]*givenFlag // by name, conformance.ValueFlags
	timeout     time.Duration
	verbose     bool
	noColor     bool
	reach       cli.Reach // --ca-cert, --client-cert, --header, …: how --target is reached (reach.go)
	shape       string    // --shape: results must have this shape (label shape)
}

func (f *conformFlags) register(m *Main) *flag.FlagSet {
	fs := cli.NewFlagSet("conform", "conform --target URL --key K [flags]", conformExamples, m.Stderr)
	fs.StringVar(&f.target, "target", "", "base URL of the deployment to check, e.g. http://127.0.0.1:8080 (required)")
	fs.StringVar(&f.key, "key", "", "a service key the target accepts (required)")
	fs.StringVar(&f.namespace, "namespace", "", "service namespace (default: from the target's WSDL, help page or SOAP answers)")
	fs.StringVar(&f.junitReport, "junit-report", "", "write a JUnit XML report, one test case per spec, to this file")
	fs.StringVar(&f.jsonReport, "json-report", "", "write Ginkgo's JSON report to this file")
	fs.StringVar(&f.labelFilter, "label-filter", "", "run only the specs whose labels match this Ginkgo label expression")
	fs.Var(&f.cityIDs, "city-id", "intCityID to check (repeatable; default: the first of 1..200 with locations)")
	fs.DurationVar(&f.timeout, "timeout", conformance.DefaultTimeout, "per-request `timeout` of the preflight and every spec, e.g. 10s or 2m")
	fs.StringVar(&f.radiusUnit, "radius-unit", "km", "unit the target reads bytRadius in: km, mi, or unknown (report distances, never fail on them)")
	f.values = map[string]*givenFlag{}
	for _, name := range conformance.ValueFlags {
		f.values[name] = &givenFlag{}
		fs.Var(f.values[name], name, valueUsage[name])
	}
	fs.BoolVar(&f.verbose, "verbose", false, "print every spec, not only failures")
	fs.BoolVar(&f.noColor, "no-color", false, "no colours in the output (default when stdout is not a terminal)")
	f.reach.Register(fs, "the target", false)
	fs.StringVar(&f.shape, "shape", "", "also fail when a result differs from this shape file (specs labelled shape; see atmkit shape learn)")
	return fs
}

// config turns the flags into a conformance configuration.
func (f *conformFlags) config() (conformance.Config, error) {
	if f.target == "" {
		return conformance.Config{}, cli.Usagef("conform", "--target is required")
	}
	if f.key == "" {
		return conformance.Config{}, cli.Usagef("conform", "--key is required")
	}
	unit, err := conformance.ParseRadiusUnit(f.radiusUnit)
	if err != nil {
		return conformance.Config{}, cli.Usagef("conform", "--radius-unit: %v", err)
	}
	if f.timeout <= 0 {
		return conformance.Config{}, cli.Usagef("conform", "--timeout (or ATMKIT_TIMEOUT) must be positive, e.g. 30s")
	}
	cfg := conformance.Config{Target: f.target, Key: f.key, Namespace: f.namespace, RadiusUnit: unit, Timeout: f.timeout}
	sh, err := loadShape("conform", f.shape)
	if err != nil {
		return conformance.Config{}, err
	}
	cfg.Shape = sh
	for _, s := range f.cityIDs {
		id, err := strconv.Atoi(s)
		if err != nil {
			return conformance.Config{}, cli.Usagef("conform", "--city-id %q is not an integer", s)
		}
		cfg.CityIDs = append(cfg.CityIDs, id)
	}
	for _, name := range conformance.ValueFlags {
		if v := f.values[name]; v.set {
			if err := cfg.SetValue(name, v.value); err != nil {
				return conformance.Config{}, cli.Usagef("conform", "--%s (or %s): %v", name, cli.EnvName(name), err)
			}
		}
	}
	if (cfg.Latitude == nil) != (cfg.Longitude == nil) {
		return conformance.Config{}, cli.Usagef("conform", "--latitude and --longitude must be given together")
	}
	if _, err := types.ParseLabelFilter(f.labelFilter); err != nil {
		return conformance.Config{}, cli.Usagef("conform", "--label-filter: %v", err)
	}
	return cfg, nil
}

// runConform runs the conformance suite in process against --target. Ginkgo
// handles SIGINT itself during the run (it stops and reports), so ctx is not
// consulted; the suite can run once per process.
func (m *Main) runConform(_ context.Context, args []string) error {
	var f conformFlags
	fs := f.register(m)
	if err := m.Parse(fs, args, nil); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return cli.Usagef("conform", "unexpected argument %q", fs.Arg(0))
	}
	cfg, err := f.config()
	if err != nil {
		return err
	}
	m.HideKeys(f.reach.Secrets()...)
	rt, err := m.Transport(fs, &f.reach, "target")
	if err != nil {
		return err
	}
	cfg.Client = &http.Client{Transport: rt}
	rc := types.ReporterConfig{
		JUnitReport: f.junitReport,
		JSONReport:  f.jsonReport,
		Verbose:     f.verbose,
		NoColor:     f.noColor || !isTerminal(m.Stdout),
	}
	passed, err := conformance.Run(cfg, conformance.RunOptions{LabelFilter: f.labelFilter, Reporter: rc, Out: m.Stdout})
	if err != nil { // unreachable, no answer within --timeout, TLS, a refused key, a report not written
		return &cli.ExitError{Code: exitUsage, Err: fmt.Errorf("conform: %w", err)}
	}
	if !passed { // the failures are printed above, grouped by cause
		return cli.Exitf(exitFailure, "conform: the target does not conform (see the failures above)")
	}
	return nil
}

// isTerminal reports whether w is a character device (a terminal).
func isTerminal(w any) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}
