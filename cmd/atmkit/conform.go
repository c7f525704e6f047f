package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"strconv"

	"github.com/atmkit/atmkit/conformance"
	"github.com/onsi/ginkgo/v2/types"
)

const conformExamples = `  atmkit conform --target http://127.0.0.1:8080 --key secret
  atmkit conform --target https://atm.example.org --key "$KEY" --junit-report conform.xml
  atmkit conform --target http://127.0.0.1:8080 --key k --label-filter 'documented && !wsdl'
  atmkit conform --target http://127.0.0.1:8080 --key k --city-id 3 --city-id 17 --radius-unit mi
  ATMKIT_TARGET=http://127.0.0.1:8080 ATMKIT_KEY=k atmkit conform --json-report conform.json

Labels: soap11 soap12 get post json (bindings), documented (what the interface
document states), asmx (ASMX conventions beyond it), semantics (search
results), wsdl (skipped when the target serves no WSDL), faults, keys,
equivalence. Curl lines in failures read the key from $ATMKIT_KEY.`

// conformFlags are the flags of atmkit conform.
type conformFlags struct {
	target      string
	key         string
	namespace   string
	junitReport string
	jsonReport  string
	labelFilter string
	cityIDs     listFlag
	radiusUnit  string
	verbose     bool
	noColor     bool
}

func (f *conformFlags) register(m *Main) *flag.FlagSet {
	fs := newFlagSet("conform", "conform --target URL --key K [flags]", conformExamples, m.Stderr)
	fs.StringVar(&f.target, "target", "", "base URL of the deployment to check, e.g. http://127.0.0.1:8080 (required)")
	fs.StringVar(&f.key, "key", "", "a service key the target accepts (required)")
	fs.StringVar(&f.namespace, "namespace", "", "service namespace (default: from the target's WSDL, help page or SOAP answers)")
	fs.StringVar(&f.junitReport, "junit-report", "", "write a JUnit XML report, one test case per spec, to this file")
	fs.StringVar(&f.jsonReport, "json-report", "", "write Ginkgo's JSON report to this file")
	fs.StringVar(&f.labelFilter, "label-filter", "", "run only the specs whose labels match this Ginkgo label expression")
	fs.Var(&f.cityIDs, "city-id", "intCityID to check (repeatable; default: the first of 1..200 with locations)")
	fs.StringVar(&f.radiusUnit, "radius-unit", "km", "unit the target reads bytRadius in: km, mi, or unknown (report distances, never fail on them)")
	fs.BoolVar(&f.verbose, "verbose", false, "print every spec, not only failures")
	fs.BoolVar(&f.noColor, "no-color", false, "no colours in the output (default when stdout is not a terminal)")
	return fs
}

// conformFailed is the error of a run in which some spec failed; it maps to
// exit code 1. Ginkgo has already printed the failures.
type conformFailed struct{}

func (conformFailed) Error() string {
	return "conform: the target does not conform (see the failures above)"
}

// ExitCode is 1: the command ran and the target failed.
func (conformFailed) ExitCode() int { return exitFailure }

// config turns the flags into a conformance configuration.
func (f *conformFlags) config() (conformance.Config, error) {
	if f.target == "" {
		return conformance.Config{}, usagef("conform: --target is required")
	}
	if f.key == "" {
		return conformance.Config{}, usagef("conform: --key is required")
	}
	unit, err := conformance.ParseRadiusUnit(f.radiusUnit)
	if err != nil {
		return conformance.Config{}, usagef("conform: --radius-unit: %v", err)
	}
	cfg := conformance.Config{Target: f.target, Key: f.key, Namespace: f.namespace, RadiusUnit: unit}
	for _, s := range f.cityIDs {
		id, err := strconv.Atoi(s)
		if err != nil {
			return conformance.Config{}, usagef("conform: --city-id %q is not an integer", s)
		}
		cfg.CityIDs = append(cfg.CityIDs, id)
	}
	if _, err := types.ParseLabelFilter(f.labelFilter); err != nil {
		return conformance.Config{}, usagef("conform: --label-filter: %v", err)
	}
	return cfg, nil
}

// runConform runs the conformance suite in process against --target. Ginkgo
// handles SIGINT itself during the run (it stops and reports), so ctx is not
// consulted; the suite can run once per process.
func (m *Main) runConform(_ context.Context, args []string) error {
	var f conformFlags
	fs := f.register(m)
	if err := m.parseFlags(fs, args, nil); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usagef("conform: unexpected argument %q", fs.Arg(0))
	}
	cfg, err := f.config()
	if err != nil {
		return err
	}
	rc := types.ReporterConfig{
		JUnitReport: f.junitReport,
		JSONReport:  f.jsonReport,
		Verbose:     f.verbose,
		NoColor:     f.noColor || !isTerminal(m.Stdout),
	}
	passed, err := conformance.Run(cfg, conformance.RunOptions{LabelFilter: f.labelFilter, Reporter: rc, Out: m.Stdout})
	if err != nil {
		return fmt.Errorf("conform: %w", err)
	}
	if !passed {
		return conformFailed{}
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
