package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"os/exec"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/atmkit/atmkit/asmx"
	"github.com/atmkit/atmkit/cmd/atmkit/internal/cli"
	"github.com/atmkit/atmkit/fixtures"
	"github.com/atmkit/atmkit/internal/mocktest"
	"github.com/atmkit/atmkit/internal/refdeploy"
	"github.com/atmkit/atmkit/shape"
)

// The proof that a learned shape makes the mock a drop-in for a typed
// deployment: record the reference ASMX deployment (Mono, XmlSerializer
// results) with atmkit record, learn its shape with atmkit shape learn,
// serve generated data in that shape with atmkit serve --shape, and have a
// .NET client whose proxy Mono's wsdl tool generated from the reference
// deployment's WSDL read the mock's answers, over SOAP 1.1 and 1.2. What it
// reads must be the mock's data in full.

// callService sends one call in binding b to the service at base (a
// deployment or a proxy in front of one) and returns status and body.
func callService(t *testing.T, base, ns string, b asmx.Binding, op, key string, params [][2]string) (int, []byte) {
	t.Helper()
	return mocktest.Call(t, base, ns, b.String(), op, append([][2]string{{asmx.ParamKey, key}}, params...))
}

// startCommand runs an atmkit command that listens ("... listening on
// URL") in process until the returned stop is called, which waits for it
// to end.
func startCommand(t *testing.T, args ...string) (base string, stop func() string) {
	t.Helper()
	stdout, stderr := newLockedBuffer(), newLockedBuffer()
	m := &Main{cli.Env{Stdout: stdout, Stderr: stderr, Getenv: func(string) string { return "" }}}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- m.Run(ctx, args) }()
	stopped := false
	stop = func() string {
		if stopped {
			return stdout.String()
		}
		stopped = true
		cancel()
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("atmkit %s: %v\nstderr: %s", args[0], err, stderr)
			}
		case <-time.After(30 * time.Second):
			t.Errorf("atmkit %s did not stop within 30s", args[0])
		}
		return stdout.String()
	}
	t.Cleanup(func() { stop() })
	select {
	case base = <-stdout.url:
		return base, stop
	case err := <-done:
		t.Fatalf("atmkit %s ended before listening: %v\nstderr: %s", args[0], err, stderr)
	case <-time.After(30 * time.Second):
		t.Fatalf("atmkit %s printed no startup line within 30s", args[0])
	}
	return "", nil
}

// runClient runs the .NET client against a service over a SOAP version
// and returns what it read per call, in order.
func runClient(t *testing.T, exe, serviceURL, soap string, calls []string) []map[string]any {
	t.Helper()
	cmd := exec.Command("mono", exe, serviceURL, soap)
	cmd.Stdin = strings.NewReader(strings.Join(calls, "\n") + "\n")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("the .NET client: %v\n%s", err, stderr.String())
	}
	var got []map[string]any
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for sc.Scan() {
		var line map[string]any
		dec := json.NewDecoder(strings.NewReader(sc.Text()))
		dec.UseNumber()
		if err := dec.Decode(&line); err != nil {
			t.Fatalf("the .NET client printed %q: %v", sc.Text(), err)
		}
		got = append(got, line)
	}
	if len(got) != len(calls) {
		t.Fatalf("the .NET client answered %d of %d calls:\n%s\n%s", len(got), len(calls), out, stderr.String())
	}
	return got
}

// readInBothSOAPs runs the .NET client at exe against the service at base
// over SOAP 1.1 and 1.2 (runClient) and hands check each call's result
// with the call's name (the SOAP version and the call), its index and its
// operation; a call the client failed fails the test instead.
func readInBothSOAPs(t *testing.T, exe, base string, calls []string, check func(call string, i int, op string, result any)) {
	t.Helper()
	for _, soap := range []string{"soap11", "soap12"} {
		got := runClient(t, exe, base+asmx.ServicePath, soap, calls)
		for i := range calls {
			call := soap + ", " + calls[i]
			if e, ok := got[i]["error"]; ok {
				t.Errorf("%s: the client failed: %v", call, e)
				continue
			}
			check(call, i, got[i]["op"].(string), got[i]["result"])
		}
	}
}

// clientLine is a call as the .NET client reads it from stdin.
func clientLine(op, key string, params [][2]string) string {
	parts := []string{op, asmx.ParamKey + "=" + key}
	for _, p := range params {
		parts = append(parts, p[0]+"="+p[1])
	}
	return strings.Join(parts, "\t")
}

func TestDotNetClientReadsLearnedShape(t *testing.T) {
	t.Parallel()
	d := refdeploy.Shared(t)
	refdeploy.RequireClient(t)
	dir := t.TempDir()
	ns := refdeploy.Namespace

	// 1. Record every operation in every binding (and the WSDL).
	cassette := filepath.Join(dir, "reference")
	proxy, stopRecording := startCommand(t, "record", "--upstream", d.URL, "--cassette", cassette, "--addr", "127.0.0.1:0", "--progress", "0")
	refdeploy.Collect(t, proxy, ns, refdeploy.Key, refdeploy.Calls)
	refdeploy.WSDL(t, proxy)
	stopRecording()

	// 2. Learn the shape from the WSDL and the recording, and from the
	// recording alone (its recorded WSDL): the same shape.
	learned := filepath.Join(dir, "learned.yaml")
	code, out, errOut := runAtmkitWithin(deploymentWithin, nil, "shape", "learn", "--wsdl", d.ServiceURL(), "--cassette", cassette+".yaml", "--out", learned)
	if code != 0 {
		t.Fatalf("shape learn: exit %d\n%s\n%s", code, out, errOut)
	}
	for _, want := range []string{"Mapped (", "ArrayOfProvince/Province/ProvinceId (int)", "serve it: atmkit serve --shape " + learned + " --namespace " + ns} {
		if !strings.Contains(out, want) {
			t.Errorf("shape learn printed no %q:\n%s", want, out)
		}
	}
	learnsSameFromCassetteAlone(t, learned, cassette+".yaml", filepath.Join(dir, "alone.yaml"))

	// 3. Serve generated data in the learned shape.
	data := filepath.Join(dir, "data")
	if code, out, errOut := runAtmkit(nil, "fixtures", "generate", "--seed", "7", "--atms", "400", "--out", data); code != 0 {
		t.Fatalf("fixtures generate: exit %d\n%s\n%s", code, out, errOut)
	}
	ds, err := fixtures.Load(data)
	if err != nil {
		t.Fatal(err)
	}
	const key = "mock-key"
	mock, _ := startCommand(t, "serve", "--addr", "127.0.0.1:0", "--shape", learned, "--namespace", ns, "--fixtures", data, "--key", key)

	// 4. The .NET client, its proxy generated from the reference
	// deployment's WSDL, reads the mock.
	exe := refdeploy.BuildClient(t, d.ServiceURL()+"?WSDL", "testdata/dotnet/Client.cs")
	calls, want := mockCalls(t, mock, ns, key, ds)
	readInBothSOAPs(t, exe, mock, calls, func(call string, i int, op string, result any) {
		if g := documentForm(op, result); !reflect.DeepEqual(g, want[i]) {
			t.Errorf("%s: the client read\n%v\nwant\n%v", call, g, want[i])
		}
	})
	// The mock saw both SOAP versions.
	status, body := get(t, mock+"/__admin/requests", "")
	if status != 200 || !strings.Contains(body, `"binding":"soap11"`) || !strings.Contains(body, `"binding":"soap12"`) {
		t.Errorf("the mock's journal: got %d %.300s, want SOAP 1.1 and SOAP 1.2 calls", status, body)
	}

	// The mock's WSDL describes the results as the reference deployment's
	// does (the same types section), and a proxy generated from the mock's
	// own WSDL is typed too.
	if got, want := wsdlTypes(t, mock), mocktest.AsDotNetLines(wsdlTypes(t, d.URL)); got != want {
		t.Errorf("the mock's WSDL types:\n%s\nwant the reference deployment's:\n%s", got, want)
	}
	own := refdeploy.BuildClient(t, mock+asmx.ServicePath+"?WSDL", "testdata/dotnet/Client.cs")
	got := runClient(t, own, mock+asmx.ServicePath, "soap12", calls[:1])
	if g := documentForm(got[0]["op"].(string), got[0]["result"]); !reflect.DeepEqual(g, want[0]) {
		t.Errorf("a proxy generated from the mock's WSDL read\n%v\nwant\n%v", g, want[0])
	}

	// 5. The same client reads nothing from the mock in its built-in shape
	// (the bug a shape fixes): no error, just zeros and nulls.
	plain, _ := startCommand(t, "serve", "--addr", "127.0.0.1:0", "--namespace", ns, "--fixtures", data, "--key", key)
	got = runClient(t, exe, plain+asmx.ServicePath, "soap11", calls[:1])
	if r, _ := got[0]["result"].(map[string]any); r == nil || r["Count"] != json.Number("0") || r["Atms"] != nil {
		t.Errorf("the built-in shape: the client read %v, want Count 0 and no ATMs", got[0])
	}
}

// wsdlTypes returns the <wsdl:types> section of the WSDL served at base.
func wsdlTypes(t *testing.T, base string) string {
	t.Helper()
	s := string(refdeploy.WSDL(t, base))
	start, end := strings.Index(s, "<wsdl:types>"), strings.Index(s, "</wsdl:types>")
	if start < 0 || end < start {
		t.Fatalf("no <wsdl:types> in the WSDL at %s", base)
	}
	return s[start:end]
}

// mockCalls lists the calls the .NET client makes to the mock and what it
// must read, in the document's JSON form: the mock's JSON answers for the
// searches that have one, the data set for the others.
func mockCalls(t *testing.T, mock, ns, key string, ds *fixtures.Dataset) (calls []string, want []any) {
	t.Helper()
	a := ds.ATMs[len(ds.ATMs)/2]
	coords := [][2]string{{"strPostalCode", ""}, {"dblLatitude", strconv.FormatFloat(a.Coordinates.Latitude, 'f', -1, 64)},
		{"dblLongitude", strconv.FormatFloat(a.Coordinates.Longitude, 'f', -1, 64)}, {"bytRadius", "20"}}
	address := [][2]string{{"strAddress", a.Address.StreetAddress}, {"strCity", a.Address.City}, {"strProvince", a.Address.Province},
		{"strPostalCode", ""}, {"bytRadius", "20"}}
	jsonOf := func(op string, params [][2]string) map[string]any {
		status, body := callService(t, mock, ns, asmx.JSON, op, key, params)
		if status != 200 {
			t.Fatalf("the mock's JSON %s: %d %s", op, status, body)
		}
		var v map[string]any
		dec := json.NewDecoder(bytes.NewReader(body))
		dec.UseNumber()
		if err := dec.Decode(&v); err != nil {
			t.Fatal(err)
		}
		return normalizeJSON(v).(map[string]any)
	}
	add := func(op string, params [][2]string, w any) {
		calls = append(calls, clientLine(op, key, params))
		want = append(want, w)
	}
	byCoords := jsonOf(asmx.OpReturnAtmSearchByCoordinates, coords)
	if n := len(byCoords["locations"].([]any)); n < 3 {
		t.Fatalf("the search finds %d locations: too few to prove much", n)
	}
	add(asmx.OpReturnAtmSearchByCoordinates, coords, byCoords)
	byAddress := jsonOf(asmx.OpReturnAtmSearchByAddress, address)
	add(asmx.OpReturnAtmSearchByAddress, address, byAddress)
	// WithMaximum: the address search's first two.
	found := byAddress["locations"].([]any)
	if len(found) < 3 {
		t.Fatalf("the address search finds %d locations: too few to prove much", len(found))
	}
	capped := map[string]any{"count": "2", "coordinates": byAddress["coordinates"], "locations": found[:2]}
	add(asmx.OpReturnAtmSearchByAddressWithMaximum, append(append([][2]string{}, address...), [2]string{"intMaximumAtms", "2"}), capped)

	institutions := map[int]fixtures.Institution{}
	for _, in := range ds.Institutions {
		institutions[in.ID] = in
	}
	list := func(pick func(fixtures.ATM) bool) map[string]any {
		var locs []any
		for _, x := range ds.ATMs { // ordered by id, as the mock answers
			if pick(x) {
				locs = append(locs, locationJSON(len(locs), x, institutions[x.InstitutionID]))
			}
		}
		return map[string]any{"count": strconv.Itoa(len(locs)), "coordinates": nil, "locations": locs}
	}
	add(asmx.OpReturnAllAtms, nil, list(func(fixtures.ATM) bool { return true }))
	add(asmx.OpReturnAtmSearchByInstitution, [][2]string{{"intInstitutionID", strconv.Itoa(a.InstitutionID)}},
		list(func(x fixtures.ATM) bool { return x.InstitutionID == a.InstitutionID }))
	add(asmx.OpReturnAtmSearchByCity, [][2]string{{"intCityID", strconv.Itoa(a.CityID)}},
		list(func(x fixtures.ATM) bool { return x.CityID == a.CityID }))
	var insts []any
	for _, in := range ds.Institutions {
		insts = append(insts, institutionJSON(in))
	}
	add(asmx.OpReturnInstitutions, nil, insts)
	var provs []any
	for i, p := range ds.Provinces {
		// ProvinceId has no counterpart in atmkit's data: generated, 1 to n.
		provs = append(provs, map[string]any{"provinceId": strconv.Itoa(i + 1), "code": p.Code, "name": p.Name})
	}
	add(asmx.OpReturnProvinces, nil, provs)
	return calls, want
}

func institutionJSON(in fixtures.Institution) map[string]any {
	return map[string]any{"id": strconv.Itoa(in.ID), "name": in.Name, "url": in.URL, "isAtlanticCreditUnion": strconv.Itoa(in.IsAtlanticCreditUnion)}
}

func locationJSON(index int, a fixtures.ATM, in fixtures.Institution) map[string]any {
	langs := []any{}
	for _, l := range a.Languages {
		langs = append(langs, l)
	}
	n := strconv.Itoa
	f := func(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }
	return map[string]any{
		"index": n(index), "id": n(a.ID), "atmIdentifier": a.ATMIdentifier,
		"institution": institutionJSON(in),
		"coordinates": map[string]any{"latitude": f(a.Coordinates.Latitude), "longitude": f(a.Coordinates.Longitude)},
		"address": map[string]any{"streetAddress": a.Address.StreetAddress, "city": a.Address.City, "province": a.Address.Province,
			"postalCode": a.Address.PostalCode, "landmark": a.Address.Landmark},
		"features": map[string]any{"deposits": n(a.Features.Deposits), "hours": n(a.Features.Hours), "driveThru": n(a.Features.DriveThru),
			"pinChange": n(a.Features.PinChange), "voiceGuidance": n(a.Features.VoiceGuidance)},
		"creditCards": map[string]any{"visa": n(a.CreditCards.Visa), "plus": n(a.CreditCards.Plus), "mastercard": n(a.CreditCards.Mastercard),
			"cirrus": n(a.CreditCards.Cirrus)},
		"languages": langs,
	}
}

// normalizeJSON turns numbers into their text (floats in their shortest
// form), so values read by different means compare equal.
func normalizeJSON(v any) any {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			x[k] = normalizeJSON(e)
		}
		return x
	case []any:
		for i, e := range x {
			x[i] = normalizeJSON(e)
		}
		return x
	case json.Number:
		f, err := strconv.ParseFloat(string(x), 64)
		if err != nil {
			return string(x)
		}
		return strconv.FormatFloat(f, 'f', -1, 64)
	case bool:
		if x {
			return "1"
		}
		return "0"
	}
	return v
}

// documentForm converts what the .NET client read through the reference
// deployment's proxy types (AtmResult, Atm, Institution, Province; see
// internal/refdeploy/testdata/typed/App_Code/Model.cs) into the document's
// JSON form, flags as 0/1.
func documentForm(op string, result any) any {
	r := normalizeJSON(result)
	switch op {
	case asmx.OpReturnInstitutions:
		var out []any
		for _, x := range r.([]any) {
			out = append(out, institutionForm(x.(map[string]any)))
		}
		return out
	case asmx.OpReturnProvinces:
		var out []any
		for _, x := range r.([]any) {
			p := x.(map[string]any)
			out = append(out, map[string]any{"provinceId": p["ProvinceId"], "code": p["Code"], "name": p["Name"]})
		}
		return out
	}
	m := r.(map[string]any)
	var point any
	if sp, ok := m["SearchPoint"].(map[string]any); ok {
		point = map[string]any{"latitude": sp["Latitude"], "longitude": sp["Longitude"]}
	}
	var locs []any
	atms, _ := m["Atms"].([]any)
	for _, x := range atms {
		a := x.(map[string]any)
		loc, addr, feat, cards := a["Location"].(map[string]any), a["Address"].(map[string]any), a["Features"].(map[string]any), a["Cards"].(map[string]any)
		langs, _ := a["Languages"].([]any)
		if langs == nil {
			langs = []any{}
		}
		locs = append(locs, map[string]any{
			"index": a["Index"], "id": a["AtmId"], "atmIdentifier": a["Identifier"],
			"institution": institutionForm(a["Bank"].(map[string]any)),
			"coordinates": map[string]any{"latitude": loc["Latitude"], "longitude": loc["Longitude"]},
			"address": map[string]any{"streetAddress": addr["Street"], "city": addr["City"], "province": addr["Province"],
				"postalCode": addr["PostalCode"], "landmark": addr["Landmark"]},
			"features": map[string]any{"deposits": feat["Deposits"], "hours": feat["Hours"], "driveThru": feat["DriveThru"],
				"pinChange": feat["PinChange"], "voiceGuidance": feat["VoiceGuidance"]},
			"creditCards": map[string]any{"visa": cards["Visa"], "plus": cards["Plus"], "mastercard": cards["MasterCard"], "cirrus": cards["Cirrus"]},
			"languages":   langs,
		})
	}
	return map[string]any{"count": m["Count"], "coordinates": point, "locations": locs}
}

func institutionForm(b map[string]any) map[string]any {
	return map[string]any{"id": b["InstitutionId"], "name": b["Name"], "url": b["Url"], "isAtlanticCreditUnion": b["IsAtlanticCreditUnion"]}
}

// learnsSameFromCassetteAlone: atmkit shape learn --cassette cassetteFile
// alone (the WSDL recorded in it) writes to out the shape learned, in
// learned, from the deployment's WSDL and the cassette. It returns the
// shape in learned.
func learnsSameFromCassetteAlone(t *testing.T, learned, cassetteFile, out string) *shape.Shape {
	t.Helper()
	// Learning a DataSet site's answers again (ReturnAllAtms's diffgram
	// among them) took over runAtmkit's 20 s in a CI run at load 18, with
	// the same commands against the deployment given 3 minutes.
	if code, stdout, stderr := runAtmkitWithin(deploymentWithin, nil, "shape", "learn", "--cassette", cassetteFile, "--out", out); code != 0 {
		t.Fatalf("shape learn --cassette: exit %d\n%s\n%s", code, stdout, stderr)
	}
	both, errA := shape.Load(learned)
	alone, errB := shape.Load(out)
	if errA != nil || errB != nil {
		t.Fatalf("the learned shapes do not load: %v, %v", errA, errB)
	}
	if !bytes.Equal(shape.Marshal(both, ""), shape.Marshal(alone, "")) {
		t.Errorf("learned from the cassette alone:\n%s\nwant what the WSDL and the cassette gave:\n%s", shape.Marshal(alone, ""), shape.Marshal(both, ""))
	}
	return both
}
