package conformance

import (
	"flag"
	"os"
	"strconv"
	"strings"
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

var (
	targetFlag    = flag.String("target", "", "base URL of the deployment to check (default: ATMKIT_TARGET, else the mock in process)")
	keyFlag       = flag.String("key", "", "service key for -target (default: ATMKIT_KEY)")
	namespaceFlag = flag.String("namespace", "", "service namespace (default: ATMKIT_NAMESPACE, else discovered)")
	cityIDsFlag   = flag.String("city-id", "", "comma-separated intCityID values (default: ATMKIT_CITY_ID, else probed)")
	unitFlag      = flag.String("radius-unit", "", "unit of bytRadius: km, mi or unknown (default: ATMKIT_RADIUS_UNIT, else km)")
)

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
	var s *Session
	defer closeSharedMock()
	if cfg.Target == "" {
		var err error
		if _, s, err = sharedMock(); err != nil {
			t.Fatalf("starting the mock: %v", err)
		}
		t.Logf("no -target: checking the mock in process at %s", s.Config().Target)
	} else if s, err = NewSession(cfg); err != nil {
		t.Fatal(err)
	}
	declareSpecs(func() *Session { return s })
	RunSpecs(t, "ATM Location Lookup Service conformance")
}
