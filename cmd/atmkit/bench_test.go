package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net/http/httptest"
	"os"
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
	params, err := benchParams(op, ds, "k<&>", []string{"strPostalCode=B1P 1A1"})
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range []asmx.Binding{asmx.SOAP11, asmx.SOAP12} {
		req := benchRequest(b, asmx.DefaultNamespace, op.Name, params)
		c, e := asmx.DecodeSOAP(b, asmx.DefaultNamespace, strings.Join(req.Header["SOAPAction"], ""), b == asmx.SOAP11, req.Body)
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
