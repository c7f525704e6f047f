package bench

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/atmkit/atmkit/asmx"
	"github.com/atmkit/atmkit/cmd/atmkit/internal/loadgen"
	"github.com/atmkit/atmkit/fixtures"
	"github.com/atmkit/atmkit/internal/mocktest"
	"github.com/atmkit/atmkit/mockserver"
)

// short is a run too short to measure anything: the tests check the
// report's shape, never its figures.
// runAnswered runs a short bench and, when a server got no answer in its
// window (a JVM or a machine too loaded to answer within 100 ms), runs it
// again with a window four times as long, twice at most: a test checks
// that each server answers, not how fast.
func runAnswered(t *testing.T, cfg Config) (*Report, error) {
	t.Helper()
	for try := 0; ; try++ {
		r, err := Run(context.Background(), cfg)
		if try == 2 || !errors.Is(err, ErrUnanswered) {
			return r, err
		}
		cfg.Duration *= 4
		t.Logf("a server got no answer in %v; trying again with %v", cfg.Duration/4, cfg.Duration)
	}
}

func short(cfg Config) Config {
	cfg.Duration, cfg.Connections, cfg.Rounds, cfg.Warmup = mocktest.LoadWindow(100*time.Millisecond), 2, 1, 0
	if cfg.Binding == "" {
		cfg.Binding = "soap11"
	}
	if cfg.Key == "" {
		cfg.Key = "bench-key"
	}
	if cfg.Namespace == "" {
		cfg.Namespace = asmx.DefaultNamespace
	}
	if cfg.Seed == 0 {
		cfg.Seed = 1
	}
	return cfg
}

func TestCallRequestsDecode(t *testing.T) {
	t.Parallel()
	ds, err := fixtures.Default()
	if err != nil {
		t.Fatal(err)
	}
	op, _ := asmx.LookupOperation(asmx.OpReturnAtmSearchByCoordinates)
	params, err := callParams(op, defaultParams(ds, benchCity, benchProvince, "k<&>"), []string{"strPostalCode=B1P 1A1"})
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range []asmx.Binding{asmx.SOAP11, asmx.SOAP12} {
		req := callRequest(b, asmx.DefaultNamespace, op.Name, params)
		//lint:ignore SA1008 callRequest sets the header as the document spells it, not canonicalised
		action := strings.Join(req.Header["SOAPAction"], "")
		c, e := asmx.DecodeSOAPRequest(asmx.SOAPRequest{Namespace: asmx.DefaultNamespace, ContentType: req.Header["Content-Type"][0],
			Action: action, HasAction: b == asmx.SOAP11, Body: req.Body})
		if e != nil {
			t.Fatalf("%s: %s", b, e.Fault)
		}
		if c.Key != "k<&>" || c.Postal != "B1P 1A1" || c.Radius != 25 || c.Latitude != 46.1368 {
			t.Errorf("%s: got %+v, want the bench parameters", b, c)
		}
	}
}

func TestXPathLiteral(t *testing.T) {
	t.Parallel()
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

func TestParseSizes(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		in   string
		want []int
		err  string
	}{
		{"", []int{10, 10000}, ""},
		{"200, 10,200", []int{10, 200}, ""},
		{"10", nil, `--replay-sizes "10": want at least two different sizes`},
		{"10,ten", nil, `--replay-sizes "10,ten": want counts of interactions from 1 to 1000000, comma-separated`},
		{"0,10", nil, "from 1 to"},
	} {
		got, err := parseSizes("--replay-sizes", tc.in, DefaultReplaySizes, "counts of interactions", maxReplaySize)
		var ue *UsageError
		switch {
		case tc.err == "" && (err != nil || !slices.Equal(got, tc.want)):
			t.Errorf("%q: got %v, %v, want %v", tc.in, got, err, tc.want)
		case tc.err != "" && (!errors.As(err, &ue) || !strings.Contains(err.Error(), tc.err)):
			t.Errorf("%q: got %v, want a usage error with %q", tc.in, err, tc.err)
		}
	}
}

// TestReplay measures a mock replaying a cassette given with Replay, and
// reports a call the cassette lacks by the nearest recording.
func TestReplay(t *testing.T) {
	t.Parallel()
	ds, err := fixtures.Default()
	if err != nil {
		t.Fatal(err)
	}
	live, err := startMock(context.Background(), mockserver.WithDataset(ds))
	if err != nil {
		t.Fatal(err)
	}
	defer live.Close()
	op, _ := asmx.LookupOperation(asmx.OpReturnProvinces)
	path := filepath.Join(t.TempDir(), "mine.yaml")
	req := callRequest(asmx.SOAP12, asmx.DefaultNamespace, op.Name, [][2]string{{asmx.ParamKey, "k"}})
	if err := recordReplayCassette(context.Background(), path, live.URL, 20, req, op.Name, asmx.DefaultNamespace, io.Discard); err != nil {
		t.Fatal(err)
	}

	// Recorded in SOAP 1.2, replayed in GET.
	r, err := runAnswered(t, short(Config{Replay: []string{path}, Op: op.Name, Binding: "get"}))
	if err != nil {
		t.Fatalf("bench: %v", err)
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

	_, err = Run(context.Background(), short(Config{Replay: []string{path}, Op: asmx.OpReturnInstitutions}))
	if err == nil || !strings.Contains(err.Error(), "must be recorded") || !strings.Contains(err.Error(), "No recorded interaction") {
		t.Errorf("got %v, want the miss explained", err)
	}
}

func TestFillersDistinct(t *testing.T) {
	t.Parallel()
	op, _ := asmx.LookupOperation(asmx.OpReturnAtmSearchByCoordinates)
	canonical := func(lat, lon string) string {
		c, e := asmx.NewCall(op, asmx.SOAP11, map[string]string{asmx.ParamLatitude: lat, asmx.ParamLongitude: lon, asmx.ParamRadius: "1"})
		if e != nil {
			t.Fatal(e.Fault)
		}
		return c.Canonical()
	}
	// The measured call is the third filler's question, written otherwise.
	g := newFillers(canonical("-30.0", "-1.002"), asmx.DefaultNamespace)
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

// TestScaleSetsPostalCode checks the postal code --atms-scale searches
// around: in Halifax, and known in every data set.
func TestScaleSetsPostalCode(t *testing.T) {
	t.Parallel()
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

func TestProcMemory(t *testing.T) {
	t.Parallel()
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

// TestWireMock measures WireMock beside the mock, in each kind of stub, and
// checks that WireMock leaves nothing in the working directory (it runs in
// a temporary one). It needs Java and the npm package wiremock (found in
// testdata/wiremock, where .ci/install-wiremock.sh puts it, from the working
// directory, the global npm root or ATMKIT_WIREMOCK_JAR); it skips without
// them, except under CI=true.
func TestWireMock(t *testing.T) {
	t.Parallel()
	jar := os.Getenv("ATMKIT_WIREMOCK_JAR")
	if jar == "" {
		// .ci/install-wiremock.sh installs it here, from the lock file.
		if m, _ := filepath.Glob("testdata/wiremock/node_modules/wiremock/build/wiremock-standalone-*.jar"); len(m) > 0 {
			jar, _ = filepath.Abs(m[len(m)-1])
		}
	}
	if jar == "" {
		jar, _ = findWireMockJar()
	}
	_, javaErr := exec.LookPath("java")
	if jar == "" || javaErr != nil {
		msg := "WireMock needs Java and the npm package wiremock (npm install wiremock, or ATMKIT_WIREMOCK_JAR)"
		if os.Getenv("CI") == "true" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	before := dirNames(t, wd)
	for _, b := range []string{"soap11", "get"} {
		t.Run(b, func(t *testing.T) {
			t.Parallel()
			r, err := runAnswered(t, short(Config{WireMock: true, WireMockJar: jar, Binding: b}))
			if err != nil {
				t.Fatalf("bench: %v", err)
			}
			if len(r.Results) != 3 || r.Results[2].Requests == 0 || r.Results[2].Errors != 0 {
				t.Errorf("%s: got %+v, want WireMock measured without errors", b, r.Results)
			}
		})
	}
	t.Cleanup(func() {
		if after := dirNames(t, wd); !slices.Equal(after, before) {
			t.Errorf("the working directory changed: got %v, want %v", after, before)
		}
	})
}

func dirNames(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	return names
}

// TestTargetThatNeverAnswers: a target that takes connections and never
// answers (a stopped process) is not waited for past firstAnswerTimeout,
// and is said to be that, not with Go's "context deadline exceeded
// (Client.Timeout exceeded while awaiting headers)". Not
// parallel: it shortens firstAnswerTimeout.
func TestTargetThatNeverAnswers(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			defer c.Close() // held open, never answered
		}
	}()
	defer func(d time.Duration) { firstAnswerTimeout = d }(firstAnswerTimeout)
	firstAnswerTimeout = 300 * time.Millisecond
	_, err = Run(context.Background(), short(Config{Target: "http://" + ln.Addr().String()}))
	var te *TargetError
	if want := "the target took the connection but sent no answer, or not all of it, to the first call within 300ms; is it stopped or stuck?"; !errors.As(err, &te) || err.Error() != "bench: "+want {
		t.Errorf("got %v, want a TargetError saying %q", err, want)
	}
}

// TestOneRoundSaidSo: a run of one round and one connection says "1
// round" and "1 connection" in its progress line and its report, not "1
// rounds"; more say "rounds".
func TestOneRoundSaidSo(t *testing.T) {
	t.Parallel()
	var log mocktest.SyncBuffer
	cfg := short(Config{})
	cfg.Connections, cfg.Log = 1, &log
	r, err := runAnswered(t, cfg)
	if err != nil {
		t.Fatalf("bench: %v", err)
	}
	if want := "; 1 connection, " + cfg.Duration.String() + " per server in 1 round\n"; !strings.Contains(log.String(), want) {
		t.Errorf("progress: got %q, want it to contain %q", log.String(), want)
	}
	var out strings.Builder
	r.Print(&out)
	if want := "load: 1 connection, "; !strings.Contains(out.String(), want) || !strings.Contains(out.String(), " per server in 1 round, ") {
		t.Errorf("report: got\n%s\nwant %q and %q", out.String(), want, " per server in 1 round, ")
	}
	r.Connections, r.Rounds = 2, 3
	out.Reset()
	r.Print(&out)
	if want := "load: 2 connections, "; !strings.Contains(out.String(), want) || !strings.Contains(out.String(), " per server in 3 rounds, ") {
		t.Errorf("report: got\n%s\nwant %q and %q", out.String(), want, " per server in 3 rounds, ")
	}
}

// TestRatiosAndVerdicts: with fixed samples of three rounds (no timing), a
// ratio is reported as the report's JSON holds it, its rounds' lowest,
// median and highest as the text says them, and its verdict is that of
// the ratio measured: 8,995 requests against 10,000 are below 0.9, not
// rounded up to meet it.
func TestRatiosAndVerdicts(t *testing.T) {
	t.Parallel()
	runs := fixedRuns
	for _, tc := range []struct {
		name          string
		mock, ceiling []loadgen.Result
		text          []string
		ratio         float64
		rounds        []float64
	}{
		{"below by half a thousandth", runs(2995, 3000, 3000), runs(3334, 3333, 3333), []string{
			"mock/ceiling:      0.899   (target >= 0.9: BELOW)\n",
			"by round: 0.898 to 0.900, median 0.900 of 3\n"}, 0.899, []float64{0.898, 0.9, 0.9}},
		{"meets exactly", runs(900, 850, 950), runs(1000, 1000, 1000), []string{
			"mock/ceiling:      0.900   (target >= 0.9: meets)\n",
			"by round: 0.850 to 0.950, median 0.900 of 3\n"}, 0.9, []float64{0.9, 0.85, 0.95}},
	} {
		r := ceilingReport(&target{name: "mock", runs: tc.mock}, &target{name: "ceiling", runs: tc.ceiling})
		var text strings.Builder
		r.Print(&text)
		for _, want := range tc.text {
			if !strings.Contains(text.String(), want) {
				t.Errorf("%s: text lacks %q:\n%s", tc.name, want, text.String())
			}
		}
		var js strings.Builder
		if err := r.WriteJSON(&js); err != nil {
			t.Fatal(err)
		}
		var back Report
		if err := json.Unmarshal([]byte(js.String()), &back); err != nil {
			t.Fatal(err)
		}
		if back.Ratios["mock/ceiling"] != tc.ratio || !slices.Equal(back.RoundRatios["mock/ceiling"], tc.rounds) {
			t.Errorf("%s: JSON ratio %v by round %v, want %v by round %v", tc.name, back.Ratios["mock/ceiling"], back.RoundRatios["mock/ceiling"], tc.ratio, tc.rounds)
		}
	}
}

// fixedRuns are rounds of a second each, of the given requests: samples
// with no timing.
func fixedRuns(requests ...int64) []loadgen.Result {
	var rs []loadgen.Result
	for _, n := range requests {
		rs = append(rs, loadgen.Result{Requests: n, Elapsed: time.Second, Latency: &loadgen.Histogram{}})
	}
	return rs
}

// ceilingReport is the report of mock against ceiling as Run makes it of
// their rounds: their results, and the ratio with its target and its
// rounds' ratios.
func ceilingReport(mock, ceiling *target) *Report {
	r := &Report{Ratios: map[string]float64{}, Targets: map[string]float64{}}
	rm, rc := loadgen.Combine(mock.runs...), loadgen.Combine(ceiling.runs...)
	r.Results = []Result{resultOf(mock, rm), resultOf(ceiling, rc)}
	r.Ratios["mock/ceiling"] = ratio(rm.RPS(), rc.RPS())
	r.Targets["mock/ceiling"] = ceilingTarget("")
	r.addRoundRatios([]*target{mock, ceiling})
	return r
}
