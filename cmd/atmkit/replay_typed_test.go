package main

import (
	"bytes"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/atmkit/atmkit/asmx"
	"github.com/atmkit/atmkit/cassettes"
	"github.com/atmkit/atmkit/fixtures"
	"github.com/atmkit/atmkit/internal/mocktest"
	"github.com/atmkit/atmkit/internal/refdeploy"
	"github.com/beevik/etree"
	"gopkg.in/dnaeon/go-vcr.v3/cassette"
)

// TestReplayTypedDeployment: what atmkit record recorded from the typed
// reference deployment (every operation in every binding, the WSDL, a
// wrong key) atmkit serve --replay serves in each recorded binding byte
// for byte; from a cassette of SOAP 1.1 calls alone, in SOAP 1.2 without
// flags, and over GET and POST with the shape atmkit shape learn made from
// the whole cassette; without it, the banner and the miss fault name
// --shape. With --on-miss fixtures and the shape, a call never recorded is
// answered in the deployment's shape, like the recorded ones.
func TestReplayTypedDeployment(t *testing.T) {
	t.Parallel()
	d := refdeploy.Shared(t)
	dir := t.TempDir()
	ns := refdeploy.Namespace

	cassettePath := filepath.Join(dir, "reference")
	proxy, stopRecording := startCommand(t, "record", "--upstream", d.URL, "--cassette", cassettePath, "--addr", "127.0.0.1:0", "--progress", "0")
	if status, body := callService(t, proxy, ns, asmx.HTTPGet, asmx.OpReturnProvinces, "a-wrong-key", nil); status != 500 {
		t.Fatalf("a wrong key: status %d, want 500: %s", status, body)
	}
	recorded := refdeploy.Collect(t, proxy, ns, refdeploy.Key, refdeploy.Calls)
	direct := map[string]refdeploy.Answer{}
	name := func(c refdeploy.Call, b string) string { return fmt.Sprint(c, b) }
	for _, a := range recorded {
		direct[name(a.Call, a.Binding)] = a
	}
	refdeploy.WSDL(t, proxy)
	stopRecording()
	whole := cassettePath + ".yaml"

	learned := filepath.Join(dir, "learned.yaml")
	if code, out, errOut := runAtmkitWithin(deploymentWithin, nil, "shape", "learn", "--cassette", whole, "--out", learned); code != 0 {
		t.Fatalf("shape learn: exit %d\n%s\n%s", code, out, errOut)
	}
	soap11 := filepath.Join(dir, "soap11.yaml")
	writeBinding(t, whole, soap11, asmx.SOAP11)

	// A call never recorded, of an operation recorded: a city of the
	// embedded data set with ATMs.
	ds, err := fixtures.Default()
	if err != nil {
		t.Fatal(err)
	}
	unrecorded := refdeploy.Call{Op: asmx.OpReturnAtmSearchByCity, Params: [][2]string{{"intCityID", fmt.Sprint(ds.ATMs[0].CityID)}}}
	recordedCity := refdeploy.Call{Op: asmx.OpReturnAtmSearchByCity, Params: [][2]string{{"intCityID", "21"}}}

	const key = "replay-key"
	noJSON := func(b asmx.Binding) string {
		if b == asmx.JSON {
			return "JSON answers come only from JSON recordings"
		}
		return ""
	}
	for _, sc := range []struct {
		name string
		args []string
		// gap is what a recorded call over b gets instead of the recorded
		// answer: a fault saying it ("" for the answer).
		gap    func(b asmx.Binding) string
		banner []string
	}{
		{"the whole cassette", []string{"--replay", whole}, func(asmx.Binding) string { return "" },
			[]string{"rejections: 1 recorded key rejection, served to calls whose key this mock rejects (not one of --key)\n"}},
		{"SOAP 1.1 alone", []string{"--replay", soap11}, func(b asmx.Binding) string {
			if b.IsSOAP() || b == asmx.JSON {
				return noJSON(b)
			}
			return "recorded over soap11 as a typed result; pass --shape to serve it over " + b.String()
		}, []string{"not served: ReturnAllAtms over get and post (1 recorded call): recorded over soap11 as a typed result; pass --shape to serve it over get or post",
			"ReturnProvinces over get and post (1 recorded call)"}},
		{"SOAP 1.1 alone, the learned shape", []string{"--replay", soap11, "--shape", learned}, noJSON,
			[]string{"shape:      typed results (AtmResult)"}},
		{"SOAP 1.1 alone, the learned shape, fixtures on a miss", []string{"--replay", soap11, "--shape", learned, "--on-miss", "fixtures"}, noJSON, nil},
	} {
		t.Run(sc.name, func(t *testing.T) {
			base, stop := startCommand(t, append([]string{"serve", "--addr", "127.0.0.1:0", "--namespace", ns, "--key", key}, sc.args...)...)
			for _, want := range recorded {
				c := want.Call
				b, err := asmx.ParseBinding(want.Binding)
				if err != nil {
					t.Fatal(err)
				}
				status, body := callService(t, base, ns, b, c.Op, key, c.Params)
				wantBody := want.Body
				if strings.HasPrefix(sc.name, "SOAP 1.1 alone") && (b == asmx.HTTPGet || b == asmx.HTTPPost) {
					// Re-wrapped from a cassette that shows no line end of
					// the deployment's: CR LF, as .NET Framework writes.
					wantBody = mocktest.AsDotNetLinesBytes(want.Body)
				}
				switch gap := sc.gap(b); {
				case gap == "" && (status != want.Status || !bytes.Equal(body, wantBody)):
					t.Errorf("%s over %s: got %d\n%s\nwant the recorded %d\n%s", c, b, status, body, want.Status, wantBody)
				case gap != "" && (status != 500 || !bytes.Contains(body, []byte(gap))):
					t.Errorf("%s over %s: got %d %.300s, want a fault saying %q", c, b, status, body, gap)
				}
			}
			if slices.Contains(sc.args, "fixtures") {
				// Generated data in the deployment's shape: the recorded
				// answer's elements, over GET and SOAP.
				for _, b := range []asmx.Binding{asmx.HTTPGet, asmx.SOAP11} {
					status, body := callService(t, base, ns, b, unrecorded.Op, key, unrecorded.Params)
					got, want := elementPaths(t, body), elementPaths(t, direct[name(recordedCity, b.String())].Body)
					if status != 200 || len(want) < 10 || !slices.Equal(got, want) {
						t.Errorf("an unrecorded call over %s: got %d with elements\n%q\nwant those of the recorded answer\n%q", b, status, got, want)
					}
				}
			}
			banner := stop()
			for _, w := range sc.banner {
				if !strings.Contains(banner, w) {
					t.Errorf("the banner lacks %q:\n%s", w, banner)
				}
			}
			if sc.gap(asmx.HTTPGet) == "" && sc.gap(asmx.JSON) == "" && strings.Contains(banner, "not served:") {
				t.Errorf("the banner lists calls not served:\n%s", banner)
			}
		})
	}
}

// writeBinding writes the calls over b of the cassette at from into a new
// cassette at to.
func writeBinding(t *testing.T, from, to string, b asmx.Binding) {
	t.Helper()
	list, err := cassettes.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	entries, err := cassettes.List(from)
	if err != nil {
		t.Fatal(err)
	}
	var kept []*cassette.Interaction
	for k, i := range list {
		if entries[k].Binding == b.String() {
			kept = append(kept, i)
		}
	}
	if err := cassettes.WriteFile(to, kept); err != nil {
		t.Fatal(err)
	}
}

// elementPaths lists the distinct element paths of an XML answer's result
// (below <OpResult> in SOAP, the document in GET/POST).
func elementPaths(t *testing.T, body []byte) []string {
	t.Helper()
	doc := etree.NewDocument()
	if err := doc.ReadFromBytes(body); err != nil {
		t.Fatalf("the answer does not parse: %v\n%s", err, body)
	}
	root := doc.Root()
	var start []*etree.Element
	if root.Tag == "Envelope" {
		if res := doc.FindElement("//Body/*/*"); res != nil {
			start = res.ChildElements()
		}
	} else {
		start = root.ChildElements()
	}
	seen := map[string]bool{}
	var walk func(e *etree.Element, at string)
	walk = func(e *etree.Element, at string) {
		at += "/" + e.Tag
		seen[at] = true
		for _, k := range e.ChildElements() {
			walk(k, at)
		}
	}
	for _, e := range start {
		walk(e, "")
	}
	out := make([]string, 0, len(seen))
	for p := range seen {
		out = append(out, p)
	}
	slices.Sort(out)
	return out
}
