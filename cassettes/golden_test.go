package cassettes_test

import (
	"bytes"
	"flag"
	"net/url"
	"os"
	"path/filepath"
	"testing"

	"github.com/atmkit/atmkit/asmx"
	"github.com/atmkit/atmkit/cassettes"
	"gopkg.in/dnaeon/go-vcr.v3/cassette"
)

var update = flag.Bool("update", false, "rewrite testdata/golden.yaml (TestGolden), testdata/reference-*.yaml (TestReferenceRecordReplay) and testdata/variant-*.yaml (TestVariantRecordReplay)")

// normalize removes what changes between runs (ports, durations, dates),
// so that a recording can be compared byte for byte with the golden file.
func normalize(i *cassette.Interaction) error {
	if u, err := url.Parse(i.Request.URL); err == nil {
		u.Host = "upstream.example"
		i.Request.URL = u.String()
	}
	i.Request.Host = ""
	i.Response.Duration = 0
	i.Response.Headers.Del("Date")
	return nil
}

// TestGolden records three calls from the stand-in and compares the
// cassette with the committed golden file: the format a reviewer reads in a
// pull request stays stable. Run with -update to rewrite it.
func TestGolden(t *testing.T) {
	t.Parallel()
	up, _ := standIn(t)
	path := filepath.Join(t.TempDir(), "golden.yaml")
	rec, err := cassettes.New(path, cassettes.WithMode(cassettes.ModeRecordAll), cassettes.WithHook(cassettes.BeforeSave, normalize))
	if err != nil {
		t.Fatal(err)
	}
	calls := []struct {
		b asmx.Binding
		q query
	}{
		{asmx.SOAP12, query{Op: asmx.OpReturnAtmSearchByCity, Params: [][2]string{{"intCityID", "202"}}}},
		{asmx.JSON, query{Op: asmx.OpReturnAtmSearchByCoordinates, Params: [][2]string{{"strPostalCode", ""}, {"dblLatitude", "44.709777"}, {"dblLongitude", "-63.571423"}, {"bytRadius", "1"}}}},
		{asmx.HTTPGet, query{Op: asmx.OpReturnProvinces}},
	}
	for _, c := range calls {
		if status, body := do(t, rec.Client(), request(t, up.URL, c.b, c.q, testKey, false)); status != 200 {
			t.Fatalf("%s %s: status %d: %s", c.b, c.q, status, body)
		}
	}
	if err := rec.Stop(); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	golden := filepath.Join("testdata", "golden.yaml")
	if *update {
		if err := os.WriteFile(golden, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("the recording differs from %s (run go test -run TestGolden -update to accept):\n%s", golden, got)
	}
	assertNoKey(t, golden)
}
