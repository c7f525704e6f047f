package conformance

import (
	"flag"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

var (
	targetFlag    = flag.String("target", "", "base URL of the deployment to check (default: ATMKIT_TARGET, else the mock in process)")
	keyFlag       = flag.String("key", "", "service key for -target (default: ATMKIT_KEY)")
	namespaceFlag = flag.String("namespace", "", "service namespace (default: ATMKIT_NAMESPACE, else discovered)")
	cityIDsFlag   = flag.String("city-id", "", "comma-separated intCityID values (default: ATMKIT_CITY_ID, else probed)")
	unitFlag      = flag.String("radius-unit", "", "unit of bytRadius: km, mi or unknown (default: ATMKIT_RADIUS_UNIT, else km)")
	timeoutFlag   = flag.String("timeout", "", "per-request timeout, e.g. 10s (default: ATMKIT_TIMEOUT, else 30s); not go test's -timeout, which goes before -args")
)

// valueFlagUsage says what each flag of ValueFlags gives.
var valueFlagUsage = map[string]string{
	"latitude":       "dblLatitude of the search point, with -longitude; the anchor is the location nearest to it, and ReturnAllAtms is not read to find it",
	"longitude":      "dblLongitude of the search point, with -latitude",
	"address":        "strAddress of the address searches",
	"city":           "strCity of the address searches",
	"province":       "strProvince of the address searches",
	"postal-code":    "strPostalCode of the address and coordinate searches",
	"institution-id": "intInstitutionID of ReturnAtmSearchByInstitution",
	"radius":         "bytRadius (0 to 255) of the searches",
	"maximum":        "intMaximumAtms of ReturnAtmSearchByAddressWithMaximum",
}

func init() {
	for _, name := range ValueFlags {
		flag.String(name, "", valueFlagUsage[name]+" (default: "+envName(name)+", else discovered)")
	}
}

// envName is the ATMKIT_* variable mirroring a flag: postal-code → ATMKIT_POSTAL_CODE.
func envName(name string) string {
	return "ATMKIT_" + strings.ToUpper(strings.ReplaceAll(name, "-", "_"))
}

// givenValues sets in cfg the query values given by the flags of ValueFlags:
// a flag set on the command line (even to ""), else its ATMKIT_* variable
// when not empty.
func givenValues(cfg *Config) error {
	set := map[string]bool{}
	flag.Visit(func(f *flag.Flag) { set[f.Name] = true })
	for _, name := range ValueFlags {
		v, from := flag.Lookup(name).Value.String(), "-"+name
		if !set[name] {
			if v, from = os.Getenv(envName(name)), envName(name); v == "" {
				continue
			}
		}
		if err := cfg.SetValue(name, v); err != nil {
			return fmt.Errorf("%s: %w", from, err)
		}
	}
	if (cfg.Latitude == nil) != (cfg.Longitude == nil) {
		return fmt.Errorf("-latitude and -longitude (or ATMKIT_LATITUDE and ATMKIT_LONGITUDE) must be given together")
	}
	return nil
}

func flagOrEnv(v *string, env string) string {
	if *v != "" {
		return *v
	}
	return os.Getenv(env)
}

func TestConformance(t *testing.T) {
	RegisterFailHandler(Fail)
	cfg := Config{
		Target:    flagOrEnv(targetFlag, "ATMKIT_TARGET"),
		Key:       flagOrEnv(keyFlag, "ATMKIT_KEY"),
		Namespace: flagOrEnv(namespaceFlag, "ATMKIT_NAMESPACE"),
	}
	for _, p := range strings.Split(flagOrEnv(cityIDsFlag, "ATMKIT_CITY_ID"), ",") {
		if p = strings.TrimSpace(p); p != "" {
			id, err := strconv.Atoi(p)
			if err != nil {
				t.Fatalf("city id %q: %v", p, err)
			}
			cfg.CityIDs = append(cfg.CityIDs, id)
		}
	}
	unit, err := ParseRadiusUnit(flagOrEnv(unitFlag, "ATMKIT_RADIUS_UNIT"))
	if err != nil {
		t.Fatal(err)
	}
	cfg.RadiusUnit = unit
	if v := flagOrEnv(timeoutFlag, "ATMKIT_TIMEOUT"); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil || d <= 0 {
			t.Fatalf("-timeout (or ATMKIT_TIMEOUT) %q: want a positive duration such as 30s", v)
		}
		cfg.Timeout = d
	}
	if err := givenValues(&cfg); err != nil {
		t.Fatal(err)
	}
	var s *Session
	defer closeSharedMock()
	if cfg.Target == "" {
		var err error
		if _, s, err = sharedMock(); err != nil {
			t.Fatalf("starting the mock: %v", err)
		}
		t.Logf("no -target: checking the mock in process at %s", s.Config().Target)
		if len(cfg.given()) > 0 {
			// Given values apply to the mock too, in a session of its own
			// (the shared one serves the self-tests).
			cfg.Target, cfg.Key = s.Config().Target, mockKey
			if s, err = NewSession(cfg); err != nil {
				t.Fatal(err)
			}
		}
	} else if s, err = NewSession(cfg); err != nil {
		t.Fatal(err)
	}
	// The preflight stops a run against a target that cannot be checked
	// with one paragraph, before any spec.
	pre, err := s.Preflight()
	if err != nil {
		t.Fatal(err)
	}
	run := newSpecRun(s)
	declareSpecs(func() *specRun { return run })
	RunSpecs(t, "ATM Location Lookup Service conformance")
	if f := s.discovered(); f != nil {
		t.Logf("query values: %s", f.Summary())
	}
	t.Logf("request encoding: %s", pre.Encoding.Summary())
	t.Logf("%s", maskKey(s.mirror(pre).Line(s.Config().Shell), s.Config().Key))
}
