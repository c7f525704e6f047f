package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"log"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/atmkit/atmkit/asmx"
	"github.com/atmkit/atmkit/cmd/atmkit/internal/bench"
	"github.com/atmkit/atmkit/cmd/atmkit/internal/cli"
	"github.com/atmkit/atmkit/internal/mocktest"
	"github.com/atmkit/atmkit/mockserver"
)

// benchD is a -d of ms milliseconds (longer under the race detector).
func benchD(ms int) string {
	return mocktest.LoadWindow(time.Duration(ms) * time.Millisecond).String()
}

// runBenchCmd runs atmkit bench in process with short settings (--warmup 0:
// no warm-up before the rounds nor in them): the tests check the reports'
// shape, not their figures, so rounds of 100 ms do. A run in which a server
// got no answer at all (a loaded machine may let 100 ms pass before the
// first: bench.ErrUnanswered) is run again with rounds four times as long,
// up to twice.
func runBenchCmd(t *testing.T, args ...string) (stdout, stderr string, err error) {
	t.Helper()
	// Only the WireMock jar's location comes from the environment.
	getenv := func(k string) string {
		if k == "ATMKIT_WIREMOCK_JAR" {
			return os.Getenv(k)
		}
		return ""
	}
	for try, ms := 0, 100; ; try, ms = try+1, ms*4 {
		var out, errb bytes.Buffer
		m := &Main{cli.Env{Stdout: &out, Stderr: &errb, Getenv: getenv}}
		err = m.Run(context.Background(), append([]string{"bench", "-d", benchD(ms), "-c", "2", "--rounds", "1", "--warmup", "0"}, args...))
		stdout, stderr = out.String(), errb.String()
		if try == 2 || !errors.Is(err, bench.ErrUnanswered) {
			return stdout, stderr, err
		}
		t.Logf("a server got no answer in %d ms; again with longer rounds", ms)
	}
}

func TestBenchJSON(t *testing.T) {
	t.Parallel()
	stdout, stderr, err := runBenchCmd(t, "--json")
	if err != nil {
		t.Fatalf("bench: %v\n%s", err, stderr)
	}
	var r bench.Report
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
	if r.Targets["mock/ceiling"] != 0.9 {
		t.Errorf("got target %v, want 0.9", r.Targets["mock/ceiling"])
	}
}

// TestBenchJSONProgress: with --json, the progress lines go to stderr as
// without it (fixtures generate's progress is there whatever stdout is),
// and stdout holds the JSON report alone: a run of --atms 1000000 --json
// was silent for ten seconds and more, as if it hung.
func TestBenchJSONProgress(t *testing.T) {
	t.Parallel()
	stdout, stderr, err := runBenchCmd(t, "--json", "--atms", "20000")
	if err != nil {
		t.Fatalf("bench: %v\n%s", err, stderr)
	}
	var r bench.Report
	dec := json.NewDecoder(strings.NewReader(stdout))
	if err := dec.Decode(&r); err != nil || dec.More() || !strings.HasPrefix(stdout, "{") {
		t.Fatalf("stdout is not one JSON report (%v):\n%s", err, stdout)
	}
	for _, want := range []string{"atmkit bench: generating 20000 ATMs (seed 1)\n", "atmkit bench: soap11 ReturnAtmSearchByCoordinates, "} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr %q: want the progress line %q", stderr, want)
		}
	}
}

// TestBenchLargeDataSetProgress: bench --atms of 100,000 ATMs and more
// reports its generating at each tenth, as fixtures generate does, how
// long it took, and that the mock is indexing them: at --atms 1000000 it
// said "generating 1000000 ATMs" and then nothing for 30 s on a loaded
// machine (8 s of generating, the rest starting the mock) before the
// measuring began.
func TestBenchLargeDataSetProgress(t *testing.T) {
	t.Parallel()
	stdout, stderr, err := runBenchCmd(t, "--json", "--atms", "100000", "--op", "ReturnProvinces")
	if err != nil {
		t.Fatalf("bench: %v\n%s", err, stderr)
	}
	if !json.Valid([]byte(stdout)) {
		t.Fatalf("stdout is not JSON:\n%s", stdout)
	}
	line := regexp.MustCompile(`(?m)^atmkit bench: generated \d+ of 100000 ATMs \(\d0%, \d+ a second, (about \d+(\.\d+)?[a-z]+|under a second) left\)$`)
	if n := len(line.FindAllString(stderr, -1)); n != 9 {
		t.Errorf("got %d progress lines of the generating, want 9 (10%% to 90%%): %q", n, stderr)
	}
	for _, want := range []*regexp.Regexp{
		regexp.MustCompile(`(?m)^atmkit bench: generated 100000 ATMs in \d`),
		regexp.MustCompile(`(?m)^atmkit bench: starting the mock on 100000 ATMs \(indexing them\)$`),
		regexp.MustCompile(`(?m)^atmkit bench: the mock is ready after \d`),
	} {
		if !want.MatchString(stderr) {
			t.Errorf("stderr %q: want a line matching %s", stderr, want)
		}
	}
}

// TestBenchCPUProfileInNewDirectory writes --cpuprofile into a directory
// that does not exist yet, as the check of the flag lets through: it is
// made, not a failure after the measurement.
func TestBenchCPUProfileInNewDirectory(t *testing.T) {
	t.Parallel()
	prof := filepath.Join(t.TempDir(), "profiles", "cpu.out")
	_, stderr, err := runBenchCmd(t, "--cpuprofile", prof)
	if err != nil {
		t.Fatalf("bench: %v\n%s", err, stderr)
	}
	if st, err := os.Stat(prof); err != nil || st.Size() == 0 {
		t.Errorf("got %v, %v; want a CPU profile at %s", st, err, prof)
	}
}

// TestBenchOneATM: a data set of one ATM is named in the singular.
func TestBenchOneATM(t *testing.T) {
	t.Parallel()
	stdout, stderr, err := runBenchCmd(t, "--atms", "1", "--json")
	if err != nil {
		t.Fatalf("bench: %v\n%s", err, stderr)
	}
	var r bench.Report
	if err := json.Unmarshal([]byte(stdout), &r); err != nil || r.DataSet != "generated, seed 1 (1 ATM)" {
		t.Errorf("got data set %q (%v), want %q", r.DataSet, err, "generated, seed 1 (1 ATM)")
	}
}

func TestBenchRatiosByRound(t *testing.T) {
	t.Parallel()
	// Rounds of 200 ms: a round of a few ms may pass on a loaded machine
	// with no answer, and a round without one has no ratio; a run with
	// such a round is run again with rounds four times as long, twice at
	// most (the test checks the report, not the machine).
	var rs []float64
	for try, ms := 0, 600; try < 3; try, ms = try+1, ms*4 {
		stdout, stderr, err := runBenchCmd(t, "--json", "--rounds", "3", "-d", benchD(ms))
		if err != nil {
			t.Fatalf("bench: %v\n%s", err, stderr)
		}
		var r bench.Report
		if err := json.Unmarshal([]byte(stdout), &r); err != nil {
			t.Fatalf("output is not JSON: %v\n%s", err, stdout)
		}
		if rs = r.RoundRatios["mock/ceiling"]; len(rs) == 3 {
			break
		}
		t.Logf("%d of 3 rounds had answers from both servers in %d ms; again with longer rounds", len(rs), ms)
	}
	if len(rs) != 3 {
		t.Fatalf("got round ratios %v, want 3", rs)
	}
	for _, v := range rs {
		if v <= 0 {
			t.Errorf("got round ratios %v, want every one positive", rs)
		}
	}
	for try, ms := 0, 600; ; try, ms = try+1, ms*4 {
		text, stderr, err := runBenchCmd(t, "--rounds", "3", "-d", benchD(ms))
		if err != nil {
			t.Fatalf("bench: %v\n%s", err, stderr)
		}
		if strings.Contains(text, "by round: ") && strings.Contains(text, "of 3") {
			break
		}
		if try == 2 || !strings.Contains(text, "by round: ") {
			t.Fatalf("the report shows no ratios by round of 3:\n%s", text)
		}
		t.Logf("not every round had answers from both servers in %d ms; again with longer rounds", ms)
	}
}

// TestBenchCopyCeiling: --copy-ceiling measures a third server, the
// ceiling copying the answer from as many pieces as it has locations, and
// reports the mock against it and it against the ceiling, with no target.
func TestBenchCopyCeiling(t *testing.T) {
	t.Parallel()
	stdout, stderr, err := runBenchCmd(t, "--json", "--copy-ceiling")
	if err != nil {
		t.Fatalf("bench: %v\n%s", err, stderr)
	}
	var r bench.Report
	if err := json.Unmarshal([]byte(stdout), &r); err != nil {
		t.Fatalf("output is not JSON: %v\n%s", err, stdout)
	}
	var servers []string
	for _, res := range r.Results {
		servers = append(servers, res.Server)
		if res.Requests == 0 || res.Errors != 0 {
			t.Errorf("%s: got %d requests, %d errors (%s), want some and none", res.Server, res.Requests, res.Errors, res.FirstError)
		}
	}
	if want := []string{"mock", "ceiling", "copy-ceiling"}; !slices.Equal(servers, want) {
		t.Errorf("got servers %v, want %v", servers, want)
	}
	for _, k := range []string{"mock/copy-ceiling", "copy-ceiling/ceiling"} {
		if v, ok := r.Ratios[k]; !ok || v <= 0 {
			t.Errorf("got ratios %v, want %s", r.Ratios, k)
		}
		if tg, ok := r.Targets[k]; ok {
			t.Errorf("%s has target %v, want none", k, tg)
		}
	}
	if r.Targets["mock/ceiling"] != 0.9 {
		t.Errorf("got target %v for mock/ceiling, want 0.9 still", r.Targets["mock/ceiling"])
	}
}

func TestBenchEveryBindingAndFixedAnswers(t *testing.T) {
	t.Parallel()
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
			t.Parallel()
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

// TestBenchTargetGoneMidRun: a target that stops listening after the
// first round (its process killed, say) could not be measured: exit 2,
// saying so. It exited 1, as for a server that answered with errors.
func TestBenchTargetGoneMidRun(t *testing.T) {
	t.Setenv(testMainVar, "1") // the ceiling's process is this test binary
	t.Setenv("TMPDIR", t.TempDir())
	h, err := mockserver.New()
	if err != nil {
		t.Fatal(err)
	}
	var srv *httptest.Server
	var served atomic.Int64
	srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h.ServeHTTP(w, r)
		if served.Add(1) == 2 { // bench's first call, then the first of the first round
			go srv.Close()
		}
	}))
	defer srv.Close()
	stdout, _, err := runBenchCmd(t, "--target", srv.URL, "--rounds", "2")
	var stderr bytes.Buffer
	if code := (&cli.Env{Stderr: &stderr}).Exit(err); code != cli.ExitUsage || !strings.Contains(stderr.String(), "connection refused; it stopped answering in round 2 of 2") {
		t.Errorf("got exit %d and %q (stdout %q), want %d: the target could not be measured", code, stderr.String(), stdout, cli.ExitUsage)
	}
}

// TestBenchTarget measures a running mock; its ceiling runs in a process of
// its own (this test binary, which runs atmkit's main with testMainVar set,
// see TestMain), as the target does.
func TestBenchTarget(t *testing.T) {
	t.Setenv(testMainVar, "1")
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
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
	var r bench.Report
	if err := json.Unmarshal([]byte(stdout), &r); err != nil {
		t.Fatal(err)
	}
	if r.Results[0].Server != "target" || r.Results[0].URL != srv.URL || r.Results[0].Requests == 0 {
		t.Errorf("got %+v, want the target measured", r.Results[0])
	}
	if _, ok := r.Ratios["target/ceiling"]; !ok {
		t.Errorf("got ratios %v, want target/ceiling", r.Ratios)
	}
	if c := r.Results[1]; !r.CeilingProcess || c.Server != "ceiling" || c.Requests == 0 || c.Errors != 0 {
		t.Errorf("got ceilingProcess %v and %+v, want the ceiling measured in a process of its own", r.CeilingProcess, c)
	}
	if _, err := http.Get(r.Results[1].URL); err == nil {
		t.Errorf("the ceiling process at %s still answers after the run", r.Results[1].URL)
	}
	if left, _ := os.ReadDir(tmp); len(left) > 0 {
		t.Errorf("the ceiling left files in %s: %v", tmp, left)
	}
}

// TestBenchTargetUserinfo measures a target behind a gateway that wants
// HTTP Basic authentication, given in --target's URL as the other clients
// take it (http://user:password@host): every measured call sends it, and
// the report (text and JSON) shows the URL without the password.
func TestBenchTargetUserinfo(t *testing.T) {
	t.Setenv(testMainVar, "1")
	t.Setenv("TMPDIR", t.TempDir())
	h, err := mockserver.New()
	if err != nil {
		t.Fatal(err)
	}
	var refused atomic.Int64
	gw := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if u, p, ok := r.BasicAuth(); !ok || u != "alice" || p != "pass-word-987" {
			refused.Add(1)
			w.Header().Set("WWW-Authenticate", `Basic realm="atm"`)
			http.Error(w, "401 Unauthorized", http.StatusUnauthorized)
			return
		}
		h.ServeHTTP(w, r)
	}))
	defer gw.Close()
	target := strings.Replace(gw.URL, "://", "://alice:pass-word-987@", 1)
	for _, asJSON := range []bool{true, false} {
		args := []string{"--target", target, "--binding", "get", "--op", "ReturnProvinces"}
		if asJSON {
			args = append(args, "--json")
		}
		stdout, stderr, err := runBenchCmd(t, args...)
		if err != nil {
			t.Fatalf("bench: %v\n%s%s", err, stdout, stderr)
		}
		if strings.Contains(stdout+stderr, "pass-word-987") {
			t.Errorf("the password is in the output:\n%s%s", stdout, stderr)
		}
		if asJSON {
			var r bench.Report
			if err := json.Unmarshal([]byte(stdout), &r); err != nil {
				t.Fatal(err)
			}

			if res := r.Results[0]; res.Requests == 0 || res.Errors != 0 || res.URL != strings.Replace(gw.URL, "://", "://alice:xxxxx@", 1) {
				t.Errorf("got %+v, want the target measured without errors, its URL's password masked", res)
			}
		}
	}
	if n := refused.Load(); n > 0 {
		t.Errorf("the gateway refused %d calls without the URL's credentials", n)
	}
}

// TestBenchTargetNotChecked runs atmkit bench against targets it cannot
// measure: nothing listening, a server answering 500, garbage, or a web
// page instead of the service. Each is a target that could not be
// checked: exit 2, and no figures.
func TestBenchTargetNotChecked(t *testing.T) {
	t.Parallel()
	failing := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "down for maintenance", http.StatusInternalServerError)
	}))
	t.Cleanup(failing.Close)
	page := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = w.Write([]byte("<html><body>It works!</body></html>"))
	}))
	t.Cleanup(page.Close)
	// A web server's error page, many lines long: the message is still one line.
	errorPage := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.WriteHeader(http.StatusNotFound)
		_, _ = io.WriteString(w, "<!DOCTYPE HTML>\n<html lang=\"en\">\n  <head>\n    <title>Error response</title>\n  </head>\n"+
			"  <body>\n    <h1>Error response</h1>\n    <p>Error code: 404</p>\n  </body>\n</html>\n")
	}))
	t.Cleanup(errorPage.Close)
	// An ASMX fault whose message carries the exception's stack trace.
	fault := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/xml; charset=utf-8")
		w.WriteHeader(http.StatusInternalServerError)
		_, _ = io.WriteString(w, `<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body><soap:Fault>`+
			"<faultcode>soap:Server</faultcode><faultstring>System.Web.Services.Protocols.SoapException: Server was unable to process request. ---&gt; System.Exception: boom\n   at AtmService.Find()\n   --- End of inner exception stack trace ---</faultstring>"+
			`</soap:Fault></soap:Body></soap:Envelope>`)
	}))
	t.Cleanup(fault.Close)
	garbage := rawServer(t, "\x00\x01garbage\r\n\r\n")
	https := httptest.NewUnstartedServer(http.NotFoundHandler())
	https.Config.ErrorLog = log.New(io.Discard, "", 0)
	https.StartTLS()
	t.Cleanup(https.Close)
	for _, tc := range []struct{ name, url, want string }{
		// It said "fetch POST URL: Post \"URL\": dial tcp …: connect: connection refused".
		{"nothing listening", mocktest.ClosedPort(t), "bench: target: connection refused at http://127.0.0.1:"},
		{"nothing listening, the hint", mocktest.ClosedPort(t), "/service/service.asmx: nothing listens at that address and port. Is the service running, and are --target's host and port right?"},
		{"500", failing.URL, "answered 500, not 200: down for maintenance"},
		{"an HTML error page", errorPage.URL, `answered 404, not 200: an HTML page titled "Error response"; is --target the base URL atmkit serve answers at (it calls /service/service.asmx under it)?`},
		{"a fault", fault.URL, "answered 500, not 200: System.Web.Services.Protocols.SoapException: Server was unable to process request. ---> System.Exception: boom at AtmService.Find() --- End of inner exception stack trace ---"},
		{"garbage", garbage, "malformed HTTP response"},
		{"a web page", page.URL, `answered 200 with "text/html; charset=utf-8"`},
		{"http:// to an HTTPS port", strings.Replace(https.URL, "https:", "http:", 1),
			`the server speaks HTTPS at that address, not plain HTTP (it answered with 400 "Client sent an HTTP request to an HTTPS server."); the load generator speaks plain HTTP only`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			stdout, _, err := runBenchCmd(t, "--target", tc.url)
			var stderr bytes.Buffer
			if code := (&cli.Env{Stderr: &stderr}).Exit(err); code != cli.ExitUsage {
				t.Errorf("exit code %d (%v), want %d: a target that could not be checked", code, err, cli.ExitUsage)
			}
			if !strings.Contains(stderr.String(), tc.want) {
				t.Errorf("got %q, want it to say %q", stderr.String(), tc.want)
			}
			if n := strings.Count(stderr.String(), "\n"); n != 1 {
				t.Errorf("got %d lines %q, want one", n, stderr.String())
			}
			if stdout != "" {
				t.Errorf("got a report %q for a target not measured", stdout)
			}
		})
	}
}

// rawServer answers every connection with reply, whatever it was sent,
// and closes it; it returns its base URL.
func rawServer(t *testing.T, reply string) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go func() {
				defer c.Close()
				_, _ = c.Read(make([]byte, 64<<10))
				_, _ = c.Write([]byte(reply))
			}()
		}
	}()
	return "http://" + ln.Addr().String()
}

// TestBenchNoSecretInUsageErrors gives --target URLs holding a password or
// a key: rejected before anything is sent, without either in the message.
func TestBenchNoSecretInUsageErrors(t *testing.T) {
	t.Parallel()
	for _, target := range []string{
		"https://user:pass-word-987@127.0.0.1:1",
		"http://127.0.0.1:1/?strAtmServiceKey=pass-word-987",
		"http://127.0.0.1:1/#pass-word-987",
		"ftp://user:pass-word-987@127.0.0.1:1",
	} {
		_, _, err := runBenchCmd(t, "--target", target)
		var stderr bytes.Buffer
		if code := (&cli.Env{Stderr: &stderr}).Exit(err); code != cli.ExitUsage {
			t.Errorf("--target %s: exit code %d (%v), want %d", target, code, err, cli.ExitUsage)
		}
		if strings.Contains(stderr.String(), "pass-word-987") {
			t.Errorf("--target %s: the secret is in %q", target, stderr.String())
		}
	}
}

func TestBenchUsageErrors(t *testing.T) {
	t.Parallel()
	for _, args := range [][]string{
		{"--op", "Nope"},
		{"--binding", "carrier-pigeon"},
		{"--op", "ReturnAllAtms", "--binding", "json"},
		{"-c", "0"},
		{"-c", "100000000"}, // not millions of goroutines and histograms before any check
		{"--target", "https://127.0.0.1:1"},
		{"--target", "http://127.0.0.1:1/?x=1"},
		{"--target", "http://127.0.0.1:1/service/service.asmx"}, // the service's URL, not its base
		{"--replay", "no-such-cassette.yaml"},
		{"--param", "bytRadius=999"}, // the mock refuses the call: 999 is no unsignedByte
		{"--param", "dblLatitude=north"},
		{"--wiremock", "--wiremock-jar", "no-such-wiremock.jar"},
		{"--rounds", "-1"},
		{"--target", "http://127.0.0.1:1", "--atms", "10"},
		{"--fixtures", "x", "--atms", "10"},
		{"--param", "novalue"},
		{"--param", "intCityID=1"},
		{"extra"},
		{"--replay-scale", "--target", "http://127.0.0.1:1"},
		{"--replay-scale", "--wiremock"},
		{"--replay-scale", "--copy-ceiling"},
		{"--atms-scale", "--copy-ceiling"},
		{"--replay-scale", "--replay", "x.yaml"},
		{"--replay-sizes", "10"},
		{"--replay-sizes", "10,10"},
		{"--replay-sizes", "0,10"},
		{"--replay-sizes", "10,ten"},
		{"--replay-sizes", "10,2000000"},
		{"--replay", "x.yaml", "--target", "http://127.0.0.1:1"},
		{"--copy-ceiling", "--target", "http://127.0.0.1:1"},
		{"--atms-scale", "--target", "http://127.0.0.1:1"},
		{"--atms-scale", "--replay-scale"},
		{"--atms-scale", "--atms", "10"},
		{"--atms-scale", "--cpuprofile", "x.prof"},
		{"--target", "http://127.0.0.1:1", "--cpuprofile", "x.prof"}, // the server and its ceiling are not in this process
		{"--atms-sizes", "10"},
		{"--atms-sizes", "10,0"},
		{"--atms-sizes", "10,20000000"},
		{"--atms-sizes", "10,100", "--op", "Nope"},
		{"--atms-sizes", "10,100", "-d", "0s"},
	} {
		_, _, err := runBenchCmd(t, args...)
		var ue *cli.UsageError
		if !errors.As(err, &ue) {
			t.Errorf("%v: got %v, want a usage error", args, err)
		}
	}
}

// TestBenchScale runs the scale benchmarks in parallel, in an environment
// of their own: TMPDIR, where their cassettes and data sets go and must be
// gone from at the end, and the variable that makes atms-scale's atmkit
// serve processes (this test binary) run atmkit's main (see TestMain). Only
// the shape of the reports is checked, not their figures.
func TestBenchScale(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	t.Setenv(testMainVar, "1")
	t.Cleanup(func() { // after the parallel subtests
		if left, _ := os.ReadDir(tmp); len(left) > 0 {
			t.Errorf("the temporary cassettes or data sets are left in %s: %v", tmp, left)
		}
	})
	for _, tc := range []struct {
		name string
		run  func(t *testing.T)
	}{
		{"replay", benchReplayScale},
		{"replay text", benchReplayScaleText},
		{"atms", benchAtmsScale},
		{"atms text", benchAtmsScaleText},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			tc.run(t)
		})
	}
}

// benchReplayScale records cassettes of 10 and 200 interactions, replays
// each from a mock and measures both against the ceiling.
func benchReplayScale(t *testing.T) {
	stdout, stderr, err := runBenchCmd(t, "--replay-scale", "--replay-sizes", "200,10", "-d", benchD(200), "--rounds", "2", "--json")
	if err != nil {
		t.Fatalf("bench: %v\n%s", err, stderr)
	}
	var r bench.Report
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
}

func benchReplayScaleText(t *testing.T) {
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

// benchAtmsScale generates data sets of 200 and 2,000 ATMs, serves each
// from an atmkit serve process and measures the default question, the 10
// nearest to a Halifax postal code, on both.
func benchAtmsScale(t *testing.T) {
	stdout, stderr, err := runBenchCmd(t, "--atms-sizes", "2000,200", "-d", benchD(200), "--rounds", "2", "--json")
	if err != nil {
		t.Fatalf("bench: %v\n%s", err, stderr)
	}
	var r bench.Report
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
}

func benchAtmsScaleText(t *testing.T) {
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

// TestBenchInterrupted cancels a long run (Ctrl-C) once it measures: the
// report of the rounds until then is printed, marked interrupted, and
// the exit code is 2 (the run was not measured whole), not a
// bare "context canceled".
func TestBenchInterrupted(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var out bytes.Buffer
	errb := &mocktest.SyncBuffer{}
	m := &Main{cli.Env{Stdout: &out, Stderr: errb, Getenv: func(string) string { return "" }}}
	done := make(chan error, 1)
	go func() {
		done <- m.Run(ctx, []string{"bench", "-d", "1h", "-c", "2", "--rounds", "2", "--warmup", "0"})
	}()
	for !strings.Contains(errb.String(), "per server in 2 rounds") { // measuring: its first line is out
		select {
		case err := <-done:
			t.Fatalf("bench ended before it was interrupted: %v\n%s", err, errb.String())
		case <-time.After(10 * time.Millisecond):
		}
	}
	time.Sleep(200 * time.Millisecond) // some requests measured
	cancel()
	err := <-done
	var stderr bytes.Buffer
	if code := (&cli.Env{Stderr: &stderr}).Exit(err); code != cli.ExitUsage {
		t.Errorf("exit code %d (%v), want %d", code, err, cli.ExitUsage)
	}
	if !strings.Contains(stderr.String(), "bench: interrupted") {
		t.Errorf("got %q, want it to say the run was interrupted", stderr.String())
	}
	if !strings.Contains(out.String(), "INTERRUPTED: the figures are of the rounds measured until then; no target is judged") ||
		!regexp.MustCompile(`(?m)^mock .*\n^ceiling `).MatchString(out.String()) {
		t.Errorf("got %q, want the report of the mock and the ceiling, marked interrupted", out.String())
	}
}
