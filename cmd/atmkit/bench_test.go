package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/atmkit/atmkit/asmx"
	"github.com/atmkit/atmkit/fixtures"
	"github.com/atmkit/atmkit/mockserver"
)

// runBenchCmd runs atmkit bench in process with short settings.
func runBenchCmd(t *testing.T, args ...string) (stdout, stderr string, err error) {
	t.Helper()
	var out, errb bytes.Buffer
	// Only the WireMock jar's location comes from the environment.
	getenv := func(k string) string {
		if k == "ATMKIT_WIREMOCK_JAR" {
			return os.Getenv(k)
		}
		return ""
	}
	m := &Main{Stdout: &out, Stderr: &errb, Getenv: getenv}
	args = append([]string{"bench", "-d", "300ms", "-c", "2", "--rounds", "1", "--warmup", "0"}, args...)
	err = m.Run(context.Background(), args)
	return out.String(), errb.String(), err
}

func TestBenchJSON(t *testing.T) {
	stdout, stderr, err := runBenchCmd(t, "--json")
	if err != nil {
		t.Fatalf("bench: %v\n%s", err, stderr)
	}
	var r benchReport
	if err := json.Unmarshal([]byte(stdout), &r); err != nil {
		t.Fatalf("output is not JSON: %v\n%s", err, stdout)
	}
	if r.Operation != asmx.OpReturnAtmSearchByCoordinates || r.Binding != "soap11" {
		t.Errorf("got %s %s, want soap11 %s", r.Binding, r.Operation, asmx.OpReturnAtmSearchByCoordinates)
	}
	if r.Locations < 10 || r.ResponseBytes == 0 {
		t.Errorf("got %d locations in %d bytes, want tens", r.Locations, r.ResponseBytes)
	}
	if len(r.Results) != 2 || r.Results[0].Server != "mock" || r.Results[1].Server != "ceiling" {
		t.Fatalf("got results %+v, want mock and ceiling", r.Results)
	}
	for _, res := range r.Results {
		if res.Requests == 0 || res.Errors != 0 || res.RPS <= 0 {
			t.Errorf("%s: got %d requests, %d errors (%s), want some and none", res.Server, res.Requests, res.Errors, res.FirstError)
		}
	}
	if _, ok := r.Ratios["mock/ceiling"]; !ok {
		t.Errorf("got ratios %v, want mock/ceiling", r.Ratios)
	}
	if r.Targets["mock/ceiling"] != 0.7 {
		t.Errorf("got target %v, want 0.7", r.Targets["mock/ceiling"])
	}
}

func TestBenchEveryBindingAndFixedAnswers(t *testing.T) {
	for _, args := range [][]string{
		{"--binding", "soap12"},
		{"--binding", "get"},
		{"--binding", "post"},
		{"--binding", "json"},
		{"--op", "ReturnProvinces", "--binding", "get"},
		{"--op", "ReturnAtmSearchByAddressWithMaximum", "--param", "intMaximumAtms=5"},
		{"--atms", "500", "--op", "ReturnAtmSearchByCity"},
	} {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			stdout, stderr, err := runBenchCmd(t, args...)
			if err != nil {
				t.Fatalf("bench: %v\n%s", err, stderr)
			}
			for _, want := range []string{"mock ", "ceiling ", "mock/ceiling:"} {
				if !strings.Contains(stdout, want) {
					t.Errorf("output lacks %q:\n%s", want, stdout)
				}
			}
		})
	}
}

func TestBenchTarget(t *testing.T) {
	h, err := mockserver.New()
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	defer srv.Close()
	stdout, stderr, err := runBenchCmd(t, "--target", srv.URL+"/", "--binding", "json", "--json")
	if err != nil {
		t.Fatalf("bench: %v\n%s", err, stderr)
	}
	var r benchReport
	if err := json.Unmarshal([]byte(stdout), &r); err != nil {
		t.Fatal(err)
	}
	if r.Results[0].Server != "target" || r.Results[0].URL != srv.URL || r.Results[0].Requests == 0 {
		t.Errorf("got %+v, want the target measured", r.Results[0])
	}
	if _, ok := r.Ratios["target/ceiling"]; !ok {
		t.Errorf("got ratios %v, want target/ceiling", r.Ratios)
	}
}

func TestBenchUsageErrors(t *testing.T) {
	for _, args := range [][]string{
		{"--op", "Nope"},
		{"--binding", "carrier-pigeon"},
		{"--op", "ReturnAllAtms", "--binding", "json"},
		{"-c", "0"},
		{"--rounds", "-1"},
		{"--target", "http://127.0.0.1:1", "--atms", "10"},
		{"--fixtures", "x", "--atms", "10"},
		{"--param", "novalue"},
		{"--param", "intCityID=1"},
		{"extra"},
		{"--replay-scale", "--target", "http://127.0.0.1:1"},
		{"--replay-scale", "--wiremock"},
		{"--replay-scale", "--replay", "x.yaml"},
		{"--replay-sizes", "10"},
		{"--replay-sizes", "10,10"},
		{"--replay-sizes", "0,10"},
		{"--replay-sizes", "10,ten"},
		{"--replay-sizes", "10,2000000"},
		{"--replay", "x.yaml", "--target", "http://127.0.0.1:1"},
		{"--atms-scale", "--target", "http://127.0.0.1:1"},
		{"--atms-scale", "--replay-scale"},
		{"--atms-scale", "--atms", "10"},
		{"--atms-scale", "--cpuprofile", "x.prof"},
		{"--atms-sizes", "10"},
		{"--atms-sizes", "10,0"},
		{"--atms-sizes", "10,20000000"},
		{"--atms-sizes", "10,100", "--op", "Nope"},
		{"--atms-sizes", "10,100", "-d", "0s"},
	} {
		_, _, err := runBenchCmd(t, args...)
		var ue *usageError
		if !errors.As(err, &ue) {
			t.Errorf("%v: got %v, want a usage error", args, err)
		}
	}
}

func TestBenchRequestsDecode(t *testing.T) {
	ds, err := fixtures.Default()
	if err != nil {
		t.Fatal(err)
	}
	op, _ := asmx.LookupOperation(asmx.OpReturnAtmSearchByCoordinates)
	params, err := benchParams(op, benchDefaults(ds, benchCity, benchProvince, "k<&>"), []string{"strPostalCode=B1P 1A1"})
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range []asmx.Binding{asmx.SOAP11, asmx.SOAP12} {
		req := benchRequest(b, asmx.DefaultNamespace, op.Name, params)
		c, e := asmx.DecodeSOAPRequest(asmx.SOAPRequest{Namespace: asmx.DefaultNamespace, ContentType: req.Header["Content-Type"][0],
			Action: strings.Join(req.Header["SOAPAction"], ""), HasAction: b == asmx.SOAP11, Body: req.Body})
		if e != nil {
			t.Fatalf("%s: %s", b, e.Fault)
		}
		if c.Key != "k<&>" || c.Postal != "B1P 1A1" || c.Radius != 25 || c.Latitude != 46.1368 {
			t.Errorf("%s: got %+v, want the bench parameters", b, c)
		}
	}
}

func TestXPathLiteral(t *testing.T) {
	for in, want := range map[string]string{
		`plain`:     `'plain'`,
		`it's`:      `"it's"`,
		`it's "so"`: `concat('it', "'", 's "so"')`,
	} {
		if got := xpathLiteral(in); got != want {
			t.Errorf("xpathLiteral(%q): got %s, want %s", in, got, want)
		}
	}
}

// TestBenchWireMock runs WireMock; it needs Java and the npm package
// wiremock (found from the working directory, or ATMKIT_WIREMOCK_JAR), and
// takes a while, so it runs only with ATMKIT_TEST_WIREMOCK=1.
func TestBenchWireMock(t *testing.T) {
	if os.Getenv("ATMKIT_TEST_WIREMOCK") == "" {
		t.Skip("set ATMKIT_TEST_WIREMOCK=1 to run WireMock")
	}
	for _, b := range []string{"soap11", "get"} {
		stdout, stderr, err := runBenchCmd(t, "--wiremock", "--binding", b, "--json")
		if err != nil {
			t.Fatalf("bench: %v\n%s", err, stderr)
		}
		var r benchReport
		if err := json.Unmarshal([]byte(stdout), &r); err != nil {
			t.Fatal(err)
		}
		if len(r.Results) != 3 || r.Results[2].Requests == 0 || r.Results[2].Errors != 0 {
			t.Errorf("%s: got %+v, want WireMock measured without errors", b, r.Results)
		}
	}
}

// TestBenchReplayScale records cassettes of 10 and 200 interactions, replays
// each from a mock and measures both against the ceiling. Only the shape of
// the report is checked, not its figures.
func TestBenchReplayScale(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp) // where the cassettes go, and must be gone from
	stdout, stderr, err := runBenchCmd(t, "--replay-scale", "--replay-sizes", "200,10", "-d", "1s", "--rounds", "2", "--json")
	if err != nil {
		t.Fatalf("bench: %v\n%s", err, stderr)
	}
	var r benchReport
	if err := json.Unmarshal([]byte(stdout), &r); err != nil {
		t.Fatalf("output is not JSON: %v\n%s", err, stdout)
	}
	if r.Locations < 10 {
		t.Errorf("got %d locations, want the search's tens", r.Locations)
	}
	var servers []string
	for _, res := range r.Results {
		servers = append(servers, res.Server)
		if res.Requests == 0 || res.Errors != 0 || res.RPS <= 0 {
			t.Errorf("%s: got %d requests, %d errors (%s), want some and none", res.Server, res.Requests, res.Errors, res.FirstError)
		}
	}
	if got := strings.Join(servers, " "); got != "replay-10 replay-200 ceiling" {
		t.Fatalf("got servers %s, want replay-10 replay-200 ceiling", got)
	}
	if v, ok := r.Ratios["replay-200/replay-10"]; !ok || v <= 0 {
		t.Errorf("got ratios %v, want replay-200/replay-10", r.Ratios)
	}
	if r.Targets["replay-200/replay-10"] != 0.8 {
		t.Errorf("got targets %v, want replay-200/replay-10 at 0.8", r.Targets)
	}
	for _, k := range []string{"replay-10/ceiling", "replay-200/ceiling"} {
		if _, ok := r.Ratios[k]; !ok {
			t.Errorf("got ratios %v, want %s", r.Ratios, k)
		}
	}
	if len(r.Cassettes) != 2 || r.Cassettes[0].Interactions != 10 || r.Cassettes[1].Calls != 200 || r.Cassettes[1].Bytes == 0 {
		t.Errorf("got cassettes %+v, want 10 and 200 interactions", r.Cassettes)
	}
	if left, _ := os.ReadDir(tmp); len(left) > 0 {
		t.Errorf("the temporary cassettes are left in %s: %v", tmp, left)
	}
}

func TestBenchReplayScaleText(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir())
	stdout, stderr, err := runBenchCmd(t, "--replay-sizes", "1,30", "--op", "ReturnProvinces", "--binding", "get")
	if err != nil {
		t.Fatalf("bench: %v\n%s", err, stderr)
	}
	for _, want := range []string{"cassette of replay-30: 30 interactions", "replay-1 ", "replay-30 ", "ceiling ",
		"replay-30/replay-1:", "(target >= 0.8:", "replay-1/ceiling:", "(no target)"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("output lacks %q:\n%s", want, stdout)
		}
	}
}

// TestBenchReplay measures a mock replaying a cassette given with --replay,
// and reports a call the cassette lacks by the nearest recording.
func TestBenchReplay(t *testing.T) {
	ds, err := fixtures.Default()
	if err != nil {
		t.Fatal(err)
	}
	live, err := startBenchMock(mockserver.WithDataset(ds))
	if err != nil {
		t.Fatal(err)
	}
	defer live.Close()
	op, _ := asmx.LookupOperation(asmx.OpReturnProvinces)
	path := filepath.Join(t.TempDir(), "mine.yaml")
	req := benchRequest(asmx.SOAP12, asmx.DefaultNamespace, op.Name, [][2]string{{asmx.ParamKey, "k"}})
	if err := recordReplayCassette(context.Background(), path, live.URL, 20, req, op.Name, asmx.DefaultNamespace, os.Stderr); err != nil {
		t.Fatal(err)
	}

	// Recorded in SOAP 1.2, replayed in GET.
	stdout, stderr, err := runBenchCmd(t, "--replay", path, "--op", op.Name, "--binding", "get", "--json")
	if err != nil {
		t.Fatalf("bench: %v\n%s", err, stderr)
	}
	var r benchReport
	if err := json.Unmarshal([]byte(stdout), &r); err != nil {
		t.Fatal(err)
	}
	if len(r.Results) != 2 || r.Results[0].Server != "replay" || r.Results[0].Requests == 0 || r.Results[0].Errors != 0 {
		t.Errorf("got %+v, want the replaying mock measured without errors", r.Results)
	}
	if _, ok := r.Ratios["replay/ceiling"]; !ok {
		t.Errorf("got ratios %v, want replay/ceiling", r.Ratios)
	}
	if len(r.Cassettes) != 1 || r.Cassettes[0].Interactions != 20 {
		t.Errorf("got cassettes %+v, want the one of 20 interactions", r.Cassettes)
	}

	_, _, err = runBenchCmd(t, "--replay", path, "--op", asmx.OpReturnInstitutions)
	if err == nil || !strings.Contains(err.Error(), "must be recorded") || !strings.Contains(err.Error(), "No recorded interaction") {
		t.Errorf("got %v, want the miss explained", err)
	}
}

func TestBenchFillersDistinct(t *testing.T) {
	op, _ := asmx.LookupOperation(asmx.OpReturnAtmSearchByCoordinates)
	canonical := func(lat, lon string) string {
		c, e := asmx.NewCall(op, asmx.SOAP11, map[string]string{asmx.ParamLatitude: lat, asmx.ParamLongitude: lon, asmx.ParamRadius: "1"})
		if e != nil {
			t.Fatal(e.Fault)
		}
		return c.Canonical()
	}
	// The measured call is the third filler's question, written otherwise.
	g := newBenchFillers(canonical("-30.0", "-1.002"), asmx.DefaultNamespace)
	seen := map[string]bool{}
	for range 3000 {
		req := g.next()
		key := string(req.Body) + req.URL
		if seen[key] {
			t.Fatalf("filler repeated: %s %s", req.URL, req.Body)
		}
		seen[key] = true
		if strings.Contains(key, "-1.002") && strings.Contains(key, "-30.000") {
			t.Fatalf("the measured call came out as a filler: %s %s", req.URL, req.Body)
		}
	}
}

// TestBenchAtmsScale generates data sets of 200 and 2,000 ATMs, serves each
// from an atmkit serve process (this test binary, see TestMain) and
// measures the default question, the 10 nearest to a Halifax postal code,
// on both. Only the shape of the report is checked, not its figures.
func TestBenchAtmsScale(t *testing.T) {
	t.Setenv(testMainVar, "1")
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp) // where the data sets go, and must be gone from
	stdout, stderr, err := runBenchCmd(t, "--atms-sizes", "2000,200", "-d", "600ms", "--rounds", "2", "--json")
	if err != nil {
		t.Fatalf("bench: %v\n%s", err, stderr)
	}
	var r benchReport
	if err := json.Unmarshal([]byte(stdout), &r); err != nil {
		t.Fatalf("output is not JSON: %v\n%s", err, stdout)
	}
	// Sets this small share no postal code: the search is around the city.
	if r.Operation != asmx.OpReturnAtmSearchByAddressWithMaximum || r.Params[asmx.ParamMaximumAtms] != "10" ||
		r.Params[asmx.ParamRadius] != "25" || r.Params[asmx.ParamCity] != "Halifax" {
		t.Errorf("got %s %v, want the 10 nearest within 25 km of Halifax", r.Operation, r.Params)
	}
	if r.Locations != 10 {
		t.Errorf("got %d locations, want 10", r.Locations)
	}
	var servers []string
	for _, res := range r.Results {
		servers = append(servers, res.Server)
		if res.Requests == 0 || res.Errors != 0 || res.RPS <= 0 || res.ResponseBytes == 0 {
			t.Errorf("%s: got %d requests, %d errors (%s), %d-byte answer, want some, none and some",
				res.Server, res.Requests, res.Errors, res.FirstError, res.ResponseBytes)
		}
		if runtime.GOOS == "linux" && (res.PeakRSSMB <= 0 || res.RSSLoadedMB <= 0 || res.PeakRSSMB < res.RSSLoadedMB) {
			t.Errorf("%s: got resident memory %v MB once loaded, peak %v MB, want both, the peak not less", res.Server, res.RSSLoadedMB, res.PeakRSSMB)
		}
	}
	if got := strings.Join(servers, " "); got != "atms-200 atms-2000" {
		t.Fatalf("got servers %s, want atms-200 atms-2000", got)
	}
	if v, ok := r.Ratios["atms-2000/atms-200"]; !ok || v <= 0 || r.Targets["atms-2000/atms-200"] != 0.8 {
		t.Errorf("got ratios %v and targets %v, want atms-2000/atms-200 at 0.8", r.Ratios, r.Targets)
	}
	if runtime.GOOS == "linux" && (r.PeakRSSTargets["atms-2000"] != 1000 || r.PeakRSSTargets["atms-200"] != 1000) {
		t.Errorf("got peak RSS targets %v, want 1000 MB for both", r.PeakRSSTargets)
	}
	if left, _ := os.ReadDir(tmp); len(left) > 0 {
		t.Errorf("the temporary data sets are left in %s: %v", tmp, left)
	}
}

// TestScaleSetsPostalCode checks the postal code --atms-scale searches
// around: in Halifax, and known in every data set.
func TestScaleSetsPostalCode(t *testing.T) {
	dir := t.TempDir()
	sizes := []int{1000, 20_000}
	sets, err := generateScaleSets(context.Background(), dir, sizes, 1, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if len(sets.place.ATMs) != 1 {
		t.Fatalf("got %d ATMs to search around, want 1", len(sets.place.ATMs))
	}
	a := sets.place.ATMs[0]
	if a.Address.City != "Halifax" || a.Address.PostalCode == "" {
		t.Fatalf("got %+v, want an ATM in Halifax with a postal code", a.Address)
	}
	for _, n := range sizes {
		ds, err := fixtures.Load(filepath.Join(dir, fmt.Sprintf("atms-%d", n)))
		if err != nil {
			t.Fatal(err)
		}
		if len(ds.ATMs) != n {
			t.Errorf("got %d ATMs, want %d", len(ds.ATMs), n)
		}
		if !slices.ContainsFunc(ds.ATMs, func(b fixtures.ATM) bool { return b.Address.PostalCode == a.Address.PostalCode }) {
			t.Errorf("the set of %d ATMs does not know %s", n, a.Address.PostalCode)
		}
	}
	d := scaleDefaults(sets.place, "k")
	if d[asmx.ParamPostalCode] != a.Address.PostalCode || d[asmx.ParamCity] != "" || d[asmx.ParamMaximumAtms] != "10" {
		t.Errorf("got defaults %v, want the postal code alone and at most 10", d)
	}
}

func TestBenchAtmsScaleText(t *testing.T) {
	t.Setenv(testMainVar, "1")
	t.Setenv("TMPDIR", t.TempDir())
	stdout, stderr, err := runBenchCmd(t, "--atms-sizes", "50,500", "--op", "ReturnAtmSearchByCoordinates", "--binding", "get")
	if err != nil {
		t.Fatalf("bench: %v\n%s", err, stderr)
	}
	want := []string{"get ReturnAtmSearchByCoordinates", "seed 1 (50, 500 ATMs)", "atms-50 ", "atms-500 ",
		"atms-500/atms-50:", "(target >= 0.8:"}
	if runtime.GOOS == "linux" {
		want = append(want, "peak RSS MB", "peak RSS atms-500:", "(target < 1000 MB:")
	}
	for _, w := range want {
		if !strings.Contains(stdout, w) {
			t.Errorf("output lacks %q:\n%s", w, stdout)
		}
	}
	if strings.Contains(stdout, "ceiling") {
		t.Errorf("output has a ceiling; the data sets' answers differ:\n%s", stdout)
	}
}

func TestProcMemory(t *testing.T) {
	if runtime.GOOS != "linux" {
		if _, _, err := procMemory(os.Getpid()); !errors.Is(err, errNoProc) {
			t.Fatalf("got %v, want errNoProc", err)
		}
		return
	}
	rss, peak, err := procMemory(os.Getpid())
	if err != nil {
		t.Fatal(err)
	}
	if rss <= 0 || peak < rss {
		t.Errorf("got RSS %d, peak %d, want a positive RSS and a peak no less", rss, peak)
	}
	if _, _, err := procMemory(-1); err == nil {
		t.Error("process -1: got no error, want one")
	}
}
