package main

import (
	"bytes"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/atmkit/atmkit/asmx"
	"github.com/atmkit/atmkit/cassettes"
	"github.com/atmkit/atmkit/deviate"
	"github.com/atmkit/atmkit/internal/mocktest"
	"github.com/atmkit/atmkit/internal/refdeploy"
)

// recordCassette records calls of the deployment at base through the
// recording proxy: each call in every binding it has, the WSDL, the help
// page, and the first call with a wrong key, marked as a key rejection.
func recordCassette(t *testing.T, base, ns, key string, calls []refdeploy.Call) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "atm.yaml")
	rec, err := cassettes.New(path, cassettes.WithMode(cassettes.ModeRecordAll))
	if err != nil {
		t.Fatal(err)
	}
	up, _ := url.Parse(base)
	proxy := httptest.NewServer(cassettes.NewProxy(up, rec, nil))
	refdeploy.Collect(t, proxy.URL, ns, key, calls)
	refdeploy.WSDL(t, proxy.URL)
	resp, err := http.Get(proxy.URL + asmx.ServicePath) // the help page
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if status, _ := callService(t, proxy.URL, ns, asmx.SOAP12, calls[0].Op, "Made-Up-Key-1", calls[0].Params); status != 500 {
		t.Fatalf("a wrong key: status %d, want 500", status)
	}
	proxy.Close()
	if err := rec.Stop(); err != nil {
		t.Fatal(err)
	}
	// Mark the rejection as the recorder marks it.
	list, err := cassettes.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, i := range list {
		if i.Response.Code == 500 && !cassettes.KeyRejected(i) {
			i.Request.Body = strings.Replace(i.Request.Body, ">"+cassettes.Placeholder+"<", ">"+cassettes.RejectedPlaceholder+"<", 1)
		}
	}
	if err := cassettes.WriteFile(path, list); err != nil {
		t.Fatal(err)
	}
	return path
}

// verifyCalls are the calls recorded from the mock.
var verifyCalls = []refdeploy.Call{
	{Op: asmx.OpReturnProvinces},
	{Op: asmx.OpReturnAtmSearchByCity, Params: [][2]string{{"intCityID", "1"}}},
	{Op: asmx.OpReturnAtmSearchByCoordinates, Params: [][2]string{{"strPostalCode", ""}, {"dblLatitude", "44.6488"}, {"dblLongitude", "-63.5752"}, {"bytRadius", "2"}}},
	{Op: asmx.OpReturnAtmSearchByAddress, Params: [][2]string{{"strAddress", ""}, {"strCity", "Halifax"}, {"strProvince", "NS"}, {"strPostalCode", ""}, {"bytRadius", "1"}}},
}

// editing puts a proxy that edits answers in front of h: a drifted
// deployment of the test's own making.
func editing(edit func(r *http.Request, contentType string, body []byte) []byte) func(http.Handler) http.Handler {
	return func(h http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			rr := httptest.NewRecorder()
			h.ServeHTTP(rr, r)
			body := edit(r, rr.Header().Get("Content-Type"), rr.Body.Bytes())
			for k, vs := range rr.Header() {
				w.Header()[k] = vs
			}
			w.Header().Set("Content-Length", strconv.Itoa(len(body)))
			w.WriteHeader(rr.Code)
			_, _ = w.Write(body)
		})
	}
}

func deviating(names ...string) func(http.Handler) http.Handler {
	return func(h http.Handler) http.Handler {
		d, err := deviate.Wrap(h, names...)
		if err != nil {
			panic(err)
		}
		return d
	}
}

// TestCassetteVerify: against the deployment recorded, verify exits 0;
// against one that drifted (a proxy of the test that edits answers, or a
// deviation of the mock) it exits 1 naming the operation, the binding and
// the difference; --values ignore passes changes of data. The key is in no
// output or report.
func TestCassetteVerify(t *testing.T) {
	t.Parallel()
	path := recordCassette(t, startMock(t, leakKey, nil), asmx.DefaultNamespace, leakKey, verifyCalls)
	for _, tc := range []struct {
		name string
		wrap func(http.Handler) http.Handler
		args []string
		code int
		want []string
	}{
		{"unchanged", nil, nil, exitOK, []string{
			"  #1 soap12 ReturnProvinces(): same\n",
			"GET /service/service.asmx?WSDL: same\n",
			"[key rejection]: same\n",
			" 0 values drifted, 0 structure drifted"}},
		{"SOAP 1.2 drops a location", editing(mocktest.SOAP12DropsLastLocation), nil, exitFailure, []string{
			"soap12 ReturnAtmSearchByCoordinates(strPostalCode=\"\", dblLatitude=44.6488, dblLongitude=-63.5752, bytRadius=2): values drifted: ",
			"/Envelope/Body/ReturnAtmSearchByCoordinatesResponse/ReturnAtmSearchByCoordinatesResult/atmLocations/locations/location: ",
			" recorded, ",
			"interactions drifted (see above)"}},
		{"SOAP 1.2 drops a location, values ignored", editing(mocktest.SOAP12DropsLastLocation), []string{"--values", "ignore"}, exitOK, []string{"0 values drifted, 0 structure drifted"}},
		{"JSON value shifted", editing(mocktest.JSONShiftsFirstLocation("longitude", 0.01)), nil, exitFailure, []string{
			"json ReturnAtmSearchByCoordinates(",
			"$.locations[0].coordinates.longitude: recorded -63.",
			"0 structure drifted"}},
		{"result element renamed", deviating("renamed-result"), []string{"--values", "ignore", "--quiet"}, exitFailure, []string{
			"soap11 ReturnProvinces(): structure drifted: 1 change\n      /Envelope/Body/ReturnProvincesResponse: ReturnProvincesResult renamed to ReturnProvincesReturn\n",
			"soap12 ReturnAtmSearchByCity(intCityID=1): structure drifted"}},
		{"SOAP 1.2 envelope namespace", deviating("soap12-envelope-ns"), nil, exitFailure, []string{
			`/Envelope: namespace changed from "http://www.w3.org/2003/05/soap-envelope" to "http://schemas.xmlsoap.org/soap/envelope/"`}},
		{"content type", deviating("soap12-content-type"), nil, exitFailure, []string{
			`content type: recorded "application/soap+xml; charset=utf-8", live "text/xml; charset=utf-8"`}},
		{"WSDL parameters reordered", deviating("wsdl-parameters-out-of-order"), nil, exitFailure, []string{
			"GET /service/service.asmx?WSDL: structure drifted",
			"moved (another order of elements)"}},
		{"any key accepted", deviating("any-key-accepted"), nil, exitFailure, []string{
			"soap12 ReturnProvinces() [key rejection]: structure drifted: 1 change\n      status: recorded 500, live 200 <Envelope>\n"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			junit := filepath.Join(t.TempDir(), "verify.xml")
			args := append([]string{"cassette", "verify", "--upstream", startMock(t, leakKey, tc.wrap), "--junit-report", junit}, tc.args...)
			code, stdout, stderr := runAtmkit(map[string]string{"ATMKIT_KEY": leakKey}, append(args, path)...)
			out := stdout + stderr
			if code != tc.code {
				t.Fatalf("got exit code %d, want %d:\n%s", code, tc.code, out)
			}
			for _, want := range tc.want {
				if !strings.Contains(out, want) {
					t.Errorf("output lacks %q:\n%s", want, out)
				}
			}
			j := readJUnit(t, junit)
			if j.Tests != 16+2+3 || (j.Failures > 0) != (tc.code == exitFailure) {
				t.Errorf("JUnit: got %d tests, %d failures; want 21 tests, failures only on drift", j.Tests, j.Failures)
			}
			checkNoKey(t, leakKey, out, junit)
		})
	}
}

// TestCassetteVerifyHeaderNeverShown: a gateway header reaches the
// upstream; an upstream that echoes it shows it masked, in the output and
// the JUnit report.
func TestCassetteVerifyHeaderNeverShown(t *testing.T) {
	t.Parallel()
	path := recordCassette(t, startMock(t, leakKey, nil), asmx.DefaultNamespace, leakKey, verifyCalls[:1])
	const gatewayKey = "Gateway-Secret-31337"
	echo := startMock(t, leakKey, editing(func(r *http.Request, _ string, body []byte) []byte {
		return bytes.ReplaceAll(body, []byte("Nova Scotia"), []byte("Nova Scotia "+r.Header.Get("X-Api-Key")))
	}))
	junit := filepath.Join(t.TempDir(), "verify.xml")
	code, stdout, stderr := runAtmkit(nil, "cassette", "verify", "--upstream", echo, "--key", leakKey,
		"--header", "X-Api-Key: "+gatewayKey, "--junit-report", junit, path)
	if code != exitFailure || !strings.Contains(stdout, `recorded "Nova Scotia", live "Nova Scotia REDACTED"`) {
		t.Fatalf("got exit %d, want 1 and the echoed header masked:\n%s%s", code, stdout, stderr)
	}
	checkNoKey(t, gatewayKey, stdout+stderr, junit)
	checkNoKey(t, leakKey, stdout+stderr, junit)
}

// TestCassetteVerifyCouldNotCheck: a refused key, a closed port and a
// silent upstream exit 2 with one line, without the key.
func TestCassetteVerifyCouldNotCheck(t *testing.T) {
	t.Parallel()
	target := startMock(t, leakKey, nil)
	path := recordCassette(t, target, asmx.DefaultNamespace, leakKey, verifyCalls[:2])
	silent, _ := silentTarget(t)
	closed := closedPort(t)
	// Only the silent upstream's case waits out --timeout; the others get
	// the default, so that a loaded machine's slow answer is no timeout.
	for _, tc := range []struct {
		name, upstream, key, timeout, want string
	}{
		{"refused key", target, "Other-Key-5678", "30s", "could not check: the deployment refuses the key: soap11 ReturnProvinces() answered 500 \"The service key (strAtmServiceKey) is not valid.\", as it answers a made-up key. Check --key (or ATMKIT_KEY)"},
		{"closed port", closed, leakKey, "30s", "could not check: no answer from the deployment: connection refused at " + closed},
		{"silent upstream", silent, leakKey, "300ms", "could not check: no answer from the deployment: no answer from " + silent + "/service/service.asmx within 300ms (ReturnProvinces() in soap11)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			code, stdout, stderr := runAtmkit(nil, "cassette", "verify", "--upstream", tc.upstream, "--key", tc.key, "--timeout", tc.timeout, "--concurrency", "3", path)
			if code != exitUsage {
				t.Fatalf("got exit code %d, want 2:\n%s%s", code, stdout, stderr)
			}
			if stdout != "" || strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, tc.want) {
				t.Errorf("got stdout %q and stderr %q; want one line holding %q", stdout, stderr, tc.want)
			}
			checkNoKey(t, tc.key, stdout+stderr)
		})
	}
}

// TestCassetteVerifyUpdate: --update shows the differences, rewrites the
// drifted answers and exits 0; the cassette then verifies, holds no key,
// its key rejection stays marked, and the interaction ids a user edited
// stay as they were (go-vcr never reads them).
func TestCassetteVerifyUpdate(t *testing.T) {
	t.Parallel()
	path := recordCassette(t, startMock(t, leakKey, nil), asmx.DefaultNamespace, leakKey, verifyCalls[:2])
	idLine := regexp.MustCompile(`(?m)^    - id: (\d+)$`)
	edited := idLine.ReplaceAllStringFunc(readText(t, path), func(line string) string {
		n, _ := strconv.Atoi(strings.TrimPrefix(line, "    - id: "))
		return "    - id: " + strconv.Itoa(100-3*n) // backwards, with gaps
	})
	if err := os.WriteFile(path, []byte(edited), 0o644); err != nil {
		t.Fatal(err)
	}
	drifted := startMock(t, leakKey, deviating("renamed-result"))
	args := []string{"cassette", "verify", "--upstream", drifted, "--key", leakKey}
	code, stdout, stderr := runAtmkit(nil, append(args, "--update", path)...)
	if code != exitOK || !strings.Contains(stdout, "ReturnProvincesResult renamed to ReturnProvincesReturn") ||
		!strings.Contains(stdout, "atmkit: updated "+path+"\n") || !strings.Contains(stdout, "replaced 4 recorded answers") {
		t.Fatalf("--update: exit %d:\n%s%s", code, stdout, stderr)
	}
	if code, stdout, stderr = runAtmkit(nil, append(args, path)...); code != exitOK {
		t.Errorf("after --update: exit %d, want 0:\n%s%s", code, stdout, stderr)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	checkNoKey(t, leakKey, stdout+stderr, path)
	if !strings.Contains(string(b), cassettes.RejectedPlaceholder) {
		t.Error("the updated cassette lost the mark of its key rejection")
	}
	if got, want := idLine.FindAllString(string(b), -1), idLine.FindAllString(edited, -1); !slices.Equal(got, want) {
		t.Errorf("the updated cassette's ids: %q, want the edited %q", got, want)
	}
}

func TestCassetteVerifyCommandLine(t *testing.T) {
	t.Parallel()
	path := filepath.Join("..", "..", "cassettes", "testdata", "golden.yaml")
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--key", "k", path}, "atmkit cassette verify: --upstream URL is required; see atmkit cassette verify --help"},
		{[]string{"--upstream", "http://127.0.0.1:1", "--key", "k"}, "want at least one cassette file or directory"},
		{[]string{"--upstream", "ftp://x", "--key", "k", path}, "--upstream ftp://x: want an http or https URL"},
		{[]string{"--upstream", "http://127.0.0.1:1", "--key", "k", "--values", "some", path}, "--values some: want compare or ignore"},
		{[]string{"--upstream", "http://127.0.0.1:1", "--key", "k", "--concurrency", "0", path}, "--concurrency 0: must be at least 1"},
		{[]string{"--upstream", "http://127.0.0.1:1", "--key", "k", "--rate", "-2", path}, "--rate -2: must not be negative"},
		{[]string{"--upstream", "http://127.0.0.1:1", "--key", "k", "--timeout", "0s", path}, "--timeout 0s: must be positive"},
		{[]string{"--upstream", "http://127.0.0.1:1", path}, "--key (or ATMKIT_KEY) is required: 3 recorded calls carry a scrubbed key"},
		{[]string{"--upstream", "http://127.0.0.1:1", "--key", "k", "no/such.yaml"}, "cassette not found: no/such.yaml"},
		{[]string{"--upstream", "http://127.0.0.1:1", "--key", "k", t.TempDir()}, "no cassette files (*.yaml, *.yml) in "},
		{[]string{"--upstream", "http://127.0.0.1:1", "--key", "k", "--junit-report", path + "/r.xml", path}, "--junit-report " + path + "/r.xml: " + path + " is not a directory"},
		{[]string{"--upstream", "http://127.0.0.1:1", "--key", "k", "--junit-report", "reports/", path}, "--junit-report reports/: a directory; want a file name"},
		{[]string{"--upstream", "https://127.0.0.1:1", "--key", "k", "--ca-cert", "missing-ca.pem", path}, "--ca-cert missing-ca.pem: "},
	} {
		code, stdout, stderr := runAtmkit(nil, append([]string{"cassette", "verify"}, tc.args...)...)
		wantUsageLine(t, fmt.Sprintf("%q", tc.args), code, stdout, stderr, tc.want)
	}
	code, stdout, stderr := runAtmkit(nil, "cassette", "verify", "--help")
	if code != exitOK || !strings.Contains(stdout+stderr, "Exit codes: 0 nothing drifted") || !strings.Contains(stdout+stderr, "ATMKIT_") {
		t.Errorf("--help: exit %d:\n%s%s", code, stdout, stderr)
	}
}

// TestCassetteVerifyReferenceDeployment records the reference ASMX
// deployment on Mono in every binding and verifies it: nothing drifted;
// then through a proxy that renames its result elements: drifted.
func TestCassetteVerifyReferenceDeployment(t *testing.T) {
	t.Parallel()
	d := refdeploy.Shared(t)
	path := recordCassette(t, d.URL, refdeploy.Namespace, refdeploy.Key, refdeploy.Calls)
	code, stdout, stderr := runAtmkitWithin(deploymentWithin, map[string]string{"ATMKIT_KEY": refdeploy.Key}, "cassette", "verify", "--upstream", d.URL, "--concurrency", "2", path)
	if code != exitOK || !strings.Contains(stdout, "[key rejection]: same") {
		t.Fatalf("against the deployment recorded: exit %d, want 0:\n%s%s\n%s", code, stdout, stderr, d.Log())
	}
	renamed := httptest.NewServer(editing(func(_ *http.Request, _ string, body []byte) []byte {
		return bytes.ReplaceAll(body, []byte("ReturnAtmSearchByCityResult>"), []byte("ReturnAtmSearchByCityReturn>"))
	})(forwardTo(d.URL)))
	defer renamed.Close()
	code, stdout, stderr = runAtmkitWithin(deploymentWithin, map[string]string{"ATMKIT_KEY": refdeploy.Key}, "cassette", "verify", "--upstream", renamed.URL, "--quiet", path)
	if code != exitFailure || !strings.Contains(stdout, "soap12 ReturnAtmSearchByCity(intCityID=21): structure drifted: 1 change\n      /Envelope/Body/ReturnAtmSearchByCityResponse: ReturnAtmSearchByCityResult renamed to ReturnAtmSearchByCityReturn") {
		t.Errorf("against a renamed result: exit %d, want 1 naming the change:\n%s%s", code, stdout, stderr)
	}
	checkNoKey(t, refdeploy.Key, stdout+stderr, path)
}

// forwardTo is a handler that sends every request on to base.
func forwardTo(base string) http.Handler {
	up, _ := url.Parse(base)
	return &httputil.ReverseProxy{Rewrite: func(pr *httputil.ProxyRequest) { pr.SetURL(up) }}
}

// TestCassetteVerifyUpdateBusy: --update on a cassette a recorder holds
// (recording it, here or in another process) rewrites nothing and exits
// 2, the cassette not updated now, not 1, the code of drift.
func TestCassetteVerifyUpdateBusy(t *testing.T) {
	t.Parallel()
	path := recordCassette(t, startMock(t, leakKey, nil), asmx.DefaultNamespace, leakKey, verifyCalls[:1])
	before, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	rec, err := cassettes.New(path, cassettes.WithMode(cassettes.ModeRecordNew))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = rec.Stop() })
	drifted := startMock(t, leakKey, deviating("renamed-result"))
	code, stdout, stderr := runAtmkit(nil, "cassette", "verify", "--upstream", drifted, "--key", leakKey, "--update", path)
	if code != exitUsage || !strings.Contains(stderr, "nothing was rewritten in it: verify it again once the recording has stopped") {
		t.Fatalf("--update on a busy cassette: exit %d, want 2 saying so:\n%s%s", code, stdout, stderr)
	}
	if after, err := os.ReadFile(path); err != nil || !bytes.Equal(after, before) {
		t.Errorf("the busy cassette changed (%v)", err)
	}
}

// TestCassetteVerifyUpdateNotWritten: drift without --update exits 1; with
// --update, a cassette that cannot be rewritten after the run (one changed
// on disk since it was read, one whose write fails: here a name so long
// that the temporary file beside it cannot be made, as a full disk fails a
// write late) exits 2 naming the file and why, and is left as it was, not
// 1, the code of drift, with the temporary file's name.
func TestCassetteVerifyUpdateNotWritten(t *testing.T) {
	t.Parallel()
	recordedPath := recordCassette(t, startMock(t, leakKey, nil), asmx.DefaultNamespace, leakKey, verifyCalls[:1])
	recordedText := readText(t, recordedPath)
	place := func(name string) string {
		path := filepath.Join(t.TempDir(), name)
		if err := os.WriteFile(path, []byte(recordedText), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	drifted := startMock(t, leakKey, deviating("renamed-result"))
	long := place(strings.Repeat("x", 240) + ".yaml") // a name the file system takes, and its lock's, its temporary file's not
	changed := place("atm.yaml")
	var once sync.Once
	changing := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		once.Do(func() { // re-recorded meanwhile: its first interaction gone
			list, err := cassettes.ReadFile(changed)
			if err == nil {
				err = cassettes.WriteFile(changed, list[1:])
			}
			if err != nil {
				t.Error(err)
			}
		})
		forwardTo(drifted).ServeHTTP(w, r)
	}))
	defer changing.Close()
	for _, tc := range []struct {
		upstream, path string
		update         bool
		code           int
		want           string
	}{
		{drifted, long, false, exitFailure, "atmkit: cassette verify: 2 of 7 interactions drifted (see above); --update rewrites the cassettes with the new answers\n"},
		{drifted, long, true, exitUsage, "atmkit: cassette verify: update: " + long + " not rewritten, left as it was: file name too long (the new cassette is written to a temporary file beside it, then renamed over it)\n"},
		{changing.URL, changed, true, exitUsage, "atmkit: cassette verify: update: " + changed + ": the cassette changed since it was verified; nothing was rewritten in it: verify it again\n"},
	} {
		args := []string{"cassette", "verify", "--upstream", tc.upstream, "--key", leakKey, "--quiet", tc.path}
		if tc.update {
			args = append(args, "--update")
		}
		code, stdout, stderr := runAtmkit(nil, args...)
		if code != tc.code || stderr != tc.want || strings.Contains(stdout, "atmkit: updated") {
			t.Errorf("atmkit %s: exit %d, stderr %q; want exit %d and %q, nothing updated\n%s", strings.Join(args[2:], " "), code, stderr, tc.code, tc.want, stdout)
		}
	}
	if got := readText(t, long); got != recordedText {
		t.Errorf("%s changed", long)
	}
	before, err1 := cassettes.ReadFile(recordedPath)
	after, err2 := cassettes.ReadFile(changed)
	if err1 != nil || err2 != nil || len(after) != len(before)-1 {
		t.Errorf("the cassette changed meanwhile: %d interactions, want %d as changed (%v, %v)", len(after), len(before)-1, err1, err2)
	}
}
