package main

import (
	"context"
	"flag"
	"net/http"
	"strconv"
	"time"

	"github.com/atmkit/atmkit/cmd/atmkit/internal/cli"
	"github.com/atmkit/atmkit/conformance"
	"github.com/atmkit/atmkit/internal/redact"
	"github.com/atmkit/atmkit/internal/tty"
	"github.com/onsi/ginkgo/v2/types"
)

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
	timeout     time.Duration
	verbose     bool
	noColor     bool
	reach       cli.Reach // --ca-cert, --client-cert, --header, …: how --target is reached (reach.go)
	shape       string    // --shape: results must have this shape (label shape)
}

func (f *conformFlags) register(m *Main) *flag.FlagSet {
	fs := cli.NewFlagSet("conform", "conform --target URL --key K [flags]", helpText("conform"), m.Stderr)
	fs.StringVar(&f.target, "target", "", "base URL of the deployment to check, e.g. http://127.0.0.1:8080 (required)")
	fs.StringVar(&f.key, "key", "", "a service key the target accepts (required)")
	fs.StringVar(&f.namespace, "namespace", "", "service namespace (default: from the target's WSDL, help page or SOAP answers)")
	fs.StringVar(&f.junitReport, "junit-report", "", "write a JUnit XML report, one test case per spec, to this file; one already there is replaced only when empty or a JUnit XML report")
	fs.StringVar(&f.jsonReport, "json-report", "", "write Ginkgo's JSON report to this file; one already there is replaced only when empty or a JSON report of Ginkgo's")
	fs.StringVar(&f.labelFilter, "label-filter", "", "run only the specs whose labels match this Ginkgo label expression")
	fs.Var(&f.cityIDs, "city-id", "intCityID to check (repeatable; default: the first of 1..200 with locations)")
	fs.DurationVar(&f.timeout, "timeout", conformance.DefaultTimeout, "per-request `duration` the preflight and every spec may take, e.g. 10s or 2m")
	fs.StringVar(&f.radiusUnit, "radius-unit", "km", "unit the target reads bytRadius in: km, mi, or unknown (report distances, never fail on them)")
	for _, name := range conformance.ValueFlags {
		fs.String(name, "", valueUsage[name]) // read in config, when given
	}
	fs.BoolVar(&f.verbose, "verbose", false, "print every spec, not only failures")
	fs.BoolVar(&f.noColor, "no-color", false, "no colours in the output (default when stdout is not a terminal)")
	f.reach.Register(fs, "the target", false)
	fs.StringVar(&f.shape, "shape", "", "also fail when a result differs from this shape file (-: standard input; specs labelled shape; see atmkit shape learn)")
	return fs
}

// config turns the flags of fs into a conformance configuration.
func (f *conformFlags) config(m *Main, fs *flag.FlagSet) (conformance.Config, error) {
	if f.target == "" {
		return conformance.Config{}, cli.Usagef("conform", "--target is required")
	}
	if f.key == "" {
		return conformance.Config{}, cli.Usagef("conform", "--key is required")
	}
	if cli.HasQueryOrFragment(f.target) {
		return conformance.Config{}, cli.Usagef("conform", "--target %s: want the service's base URL, without a query or fragment", redact.URL(f.target))
	}
	unit, err := conformance.ParseRadiusUnit(f.radiusUnit)
	if err != nil {
		return conformance.Config{}, m.BadSetting(fs, "radius-unit", "want km, mi or unknown")
	}
	if f.timeout <= 0 {
		return conformance.Config{}, cli.Usagef("conform", "--timeout (or ATMKIT_TIMEOUT) must be positive, e.g. 30s")
	}
	m.WarnKeySpaces(f.key)
	cfg := conformance.Config{Target: f.target, Key: f.key, Namespace: f.namespace, RadiusUnit: unit, Timeout: f.timeout, Shell: conformance.Shell(m.Shell().String())}
	sh, err := m.LoadShape(fs, f.shape)
	if err != nil {
		return conformance.Config{}, err
	}
	cfg.Shape = sh
	if sh != nil {
		cfg.ShapeFile = f.shape
	}
	for _, s := range f.cityIDs {
		id, err := strconv.Atoi(s)
		if err != nil {
			return conformance.Config{}, m.BadSetting(fs, "city-id", strconv.Quote(s)+" is not an integer")
		}
		cfg.CityIDs = append(cfg.CityIDs, id)
	}
	for _, name := range conformance.ValueFlags {
		if m.Given(fs, name) {
			if err := cfg.SetValue(name, fs.Lookup(name).Value.String()); err != nil {
				return conformance.Config{}, cli.Usagef("conform", "--%s (or %s): %v", name, cli.EnvName(name), err)
			}
		}
	}
	if (cfg.Latitude == nil) != (cfg.Longitude == nil) {
		return conformance.Config{}, cli.Usagef("conform", "--latitude and --longitude must be given together")
	}
	if err := m.FirstBad(fs, cli.Bad("junit-report", cli.CheckJUnitReport(f.junitReport)), cli.Bad("json-report", cli.CheckJSONReport(f.jsonReport)),
		cli.Bad("json-report", cli.When(cli.SameFile(f.jsonReport, f.junitReport), "the file of --junit-report; give each report a file of its own"))); err != nil {
		return conformance.Config{}, err
	}
	if _, err := types.ParseLabelFilter(f.labelFilter); err != nil {
		return conformance.Config{}, cli.Usagef("conform", "--label-filter %q: %s", f.labelFilter, cli.OneLine(err.Error()))
	}
	return cfg, nil
}

// runConform runs the conformance suite in process against --target. ctx
// ends the preflight; Ginkgo handles SIGINT itself during the specs (it
// stops and reports). The suite can run once per process.
func (m *Main) runConform(ctx context.Context, args []string) error {
	var f conformFlags
	fs := f.register(m)
	if err := m.ParseNoArgs(fs, args); err != nil {
		return err
	}
	cfg, err := f.config(m, fs)
	if err != nil {
		return err
	}
	m.HideKeys(f.reach.Secrets()...)
	cfg.Secrets = f.reach.Secrets() // and the reports, which conformance writes
	rt, err := m.Transport(fs, &f.reach, "target")
	if err != nil {
		return err
	}
	cfg.Client = &http.Client{Transport: rt}
	rc := types.ReporterConfig{
		JUnitReport: f.junitReport,
		JSONReport:  f.jsonReport,
		Verbose:     f.verbose,
		NoColor:     f.noColor || !tty.Colors(m.Stdout),
	}
	passed, err := conformance.Run(cfg, conformance.RunOptions{LabelFilter: f.labelFilter, Reporter: rc, Out: m.Stdout, Context: ctx})
	return cli.ConformOutcome(passed, err, cfg.Target)
}
