package main

import (
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/atmkit/atmkit/mockserver"
	"github.com/atmkit/atmkit/shape"
)

const typedShapeFile = "../../shape/testdata/typed.yaml"

func TestShapeShow(t *testing.T) {
	t.Parallel()
	code, out, errOut := runAtmkit(nil, "shape", "show")
	if code != 0 {
		t.Fatalf("shape show: exit %d: %s", code, errOut)
	}
	s, err := shape.Parse([]byte(out))
	if err != nil {
		t.Fatalf("shape show prints no valid shape: %v\n%s", err, out)
	}
	if got, want := string(shape.Marshal(s, "")), string(shape.Marshal(shape.Default(), "")); got != want {
		t.Errorf("shape show: got\n%s\nwant the built-in shape\n%s", got, want)
	}
	code, out, _ = runAtmkit(nil, "shape", "show", "--shape", typedShapeFile)
	if code != 0 || !strings.Contains(out, "#   ArrayOfProvince: ArrayOfProvince/Province/ProvinceId (int)") {
		t.Errorf("shape show --shape: got exit %d, want 0 listing the generated ProvinceId:\n%s", code, out)
	}

	bad := filepath.Join(t.TempDir(), "bad.yaml")
	data, err := os.ReadFile(typedShapeFile)
	if err != nil {
		t.Fatal(err)
	}
	broken := strings.Replace(string(data), "value: institution.name}", "value: institution.title}", 1)
	if err := os.WriteFile(bad, []byte(broken), 0o644); err != nil {
		t.Fatal(err)
	}
	// A shape whose type cannot hold the data set's values: refused at start.
	narrow := filepath.Join(t.TempDir(), "narrow.yaml")
	if data, err = os.ReadFile("../../shape/learn/testdata/reference-learned.yaml"); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(narrow, []byte(strings.Replace(string(data), "{element: Count, type: int", "{element: Count, type: unsignedByte", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	rows := []struct {
		args []string
		says []string
	}{
		{[]string{"serve", "--addr", "127.0.0.1:0", "--shape", narrow}, []string{"atmkit serve: --shape " + narrow + ": the shape cannot hold the data set's values: line 14: results.AtmResult/Count: type unsignedByte holds 0 to 255, but an answer listing the data set's 2000 ATMs has count 2000", "OverflowException"}},
		{[]string{"bench", "--shape", narrow, "-d", "100ms"}, []string{"atmkit bench: --shape " + narrow + " cannot hold the data set's values: line 14: results.AtmResult/Count: type unsignedByte"}},
		{[]string{"shape", "show", "--shape", bad}, []string{"line 29", "Bank/Name.value", "institution.title"}},
		{[]string{"shape", "show", "--shape", "missing.yaml"}, []string{"missing.yaml"}},
		{[]string{"shape"}, []string{"no subcommand"}},
		{[]string{"shape", "learn", "--out", "x.yaml"}, []string{"give --wsdl, --cassette or both"}},
		{[]string{"shape", "learn", "--wsdl", "x.wsdl"}, []string{"--out FILE is required"}},
		{[]string{"shape", "learn", "--wsdl", "http://127.0.0.1:1/service/service.asmx", "--out", filepath.Join(t.TempDir(), "x.yaml")},
			[]string{"atmkit: shape learn: could not read the deployment's WSDL: fetch the WSDL at http://127.0.0.1:1/service/service.asmx: ", "nothing listens at that address and port"}},
		{[]string{"serve", "--shape", bad}, []string{"line 29"}},
		{[]string{"bench", "--shape", typedShapeFile, "--target", "http://127.0.0.1:1"}, []string{"--shape is for the in-process mock"}},
	}
	for _, r := range rows {
		code, _, errOut := runAtmkit(nil, r.args...)
		if code != 2 {
			t.Errorf("%v: got exit %d, want 2 (%s)", r.args, code, errOut)
		}
		for _, s := range r.says {
			if !strings.Contains(errOut, s) {
				t.Errorf("%v: got %q, want it to mention %q", r.args, errOut, s)
			}
		}
	}
}

// TestShapeLearnFromWSDL learns from a served WSDL (a URL) and a file, and
// the file written serves the same results as the shape it was learned
// from.
func TestShapeLearnFromWSDL(t *testing.T) {
	t.Parallel()
	sh, err := shape.Load(typedShapeFile)
	if err != nil {
		t.Fatal(err)
	}
	h, err := mockserver.New(mockserver.WithShape(sh), mockserver.WithNamespace("http://learn.example.org/atmService"))
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	defer srv.Close()
	out := filepath.Join(t.TempDir(), "learned.yaml")
	code, stdout, errOut := runAtmkit(nil, "shape", "learn", "--wsdl", srv.URL+"/service/service.asmx", "--out", out)
	if code != 0 {
		t.Fatalf("shape learn: exit %d\n%s\n%s", code, stdout, errOut)
	}
	for _, want := range []string{"Guessed (check these)", "ArrayOfProvince/Province/ProvinceId (int)", "--namespace http://learn.example.org/atmService"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("shape learn printed no %q:\n%s", want, stdout)
		}
	}
	learned, err := shape.Load(out)
	if err != nil {
		t.Fatal(err)
	}
	if !sameMapping(learned, sh) {
		t.Errorf("learned\n%s\nwant the served shape's mapping\n%s", shape.Marshal(learned, ""), shape.Marshal(sh, ""))
	}
	base, _, _ := startServe(t, nil, "--shape", out, "--namespace", "http://learn.example.org/atmService")
	resp, err := http.Get(base + "/service/service.asmx/ReturnProvinces?strAtmServiceKey=k")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body := make([]byte, 400)
	n, _ := resp.Body.Read(body)
	if !strings.Contains(string(body[:n]), "<ArrayOfProvince ") || !strings.Contains(string(body[:n]), "<ProvinceId>1</ProvinceId>") {
		t.Errorf("serve --shape: got %q, want an ArrayOfProvince with generated ProvinceIds", body[:n])
	}
}

// TestShapeLearnMakesOutDirectory: --out in a directory still to be made
// (shapes/learned.yaml in a fresh clone) is made, as conform --junit-report
// and record --cassette make theirs; it was checked as one that can be made,
// then the write failed after the learning.
func TestShapeLearnMakesOutDirectory(t *testing.T) {
	t.Parallel()
	base := startMock(t, "k", nil) // shape learn reads the WSDL, which needs no key
	out := filepath.Join(t.TempDir(), "shapes", "learned", "shape.yaml")
	code, stdout, errOut := runAtmkit(nil, "shape", "learn", "--wsdl", base+"/service/service.asmx", "--out", out)
	if code != exitOK {
		t.Fatalf("shape learn --out in a directory to make: exit %d\n%s\n%s", code, stdout, errOut)
	}
	if _, err := shape.Load(out); err != nil {
		t.Errorf("the shape written: %v", err)
	}
}

// sameMapping compares where each value goes in two shapes, type names aside.
func sameMapping(a, b *shape.Shape) bool {
	flat := func(s *shape.Shape) string {
		var lines []string
		for _, op := range shape.Operations() {
			r := s.Result(op)
			var walk func(fs []*shape.Field, at string)
			walk = func(fs []*shape.Field, at string) {
				for _, f := range fs {
					p := at + "/" + f.Name()
					switch {
					case f.List != "":
						lines = append(lines, p+" "+f.List+" "+f.Item.Element)
						walk(f.Item.Fields, p+"/"+f.Item.Element)
					case len(f.Fields) > 0:
						walk(f.Fields, p)
					default:
						lines = append(lines, p+" "+f.Value+" "+f.Type)
					}
				}
			}
			walk(r.Fields, op+" "+string(r.Layout)+" "+r.Root)
		}
		return strings.Join(lines, "\n")
	}
	return flat(a) == flat(b)
}

// TestShapeLearnFromAPageNotTheWSDL: --wsdl answered 200 with something
// other than a WSDL (a gateway's sign-in page, the service's help page for
// a URL with a query of its own, an HTML error page) stopped shape learn
// with exit 1 and "the WSDL does not parse: etree: invalid XML format", as
// if the WSDL were broken. It is a target that could not be read: exit 2,
// naming what was answered and what to check, and no file written.
func TestShapeLearnFromAPageNotTheWSDL(t *testing.T) {
	t.Parallel()
	page := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = w.Write([]byte("<!DOCTYPE html>\n<html><head><title>Sign in</title></head><body><form></form></body></html>"))
	}))
	defer page.Close()
	dir := t.TempDir()
	wsdlFile := filepath.Join(dir, "service.html")
	if err := os.WriteFile(wsdlFile, []byte("<html><body>Service</body></html>"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, src := range []string{page.URL + "/service/service.asmx", wsdlFile} {
		out := filepath.Join(dir, "learned.yaml")
		code, stdout, errOut := runAtmkit(nil, "shape", "learn", "--wsdl", src, "--out", out)
		if code != 2 {
			t.Errorf("%s: exit %d, want 2\n%s\n%s", src, code, stdout, errOut)
		}
		if !strings.Contains(errOut, "not a WSDL") || !strings.Contains(errOut, "<html>") {
			t.Errorf("%s: stderr %q, want it to say it read an <html> document, not a WSDL", src, errOut)
		}
		if _, err := os.Stat(out); err == nil {
			t.Errorf("%s: %s was written", src, out)
		}
	}
}

// TestShapeFileNotReadable: a --shape naming a directory (a path cut short
// by hand) exited 1 with "read shape: read DIR: is a directory", as if a
// check had failed. A shape file that cannot be read is a wrong setting:
// exit 2, naming --shape and the path, for shape show and serve alike.
func TestShapeFileNotReadable(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for _, args := range [][]string{
		{"shape", "show", "--shape", dir},
		{"serve", "--addr", "127.0.0.1:0", "--shape", dir},
	} {
		code, stdout, errOut := runAtmkit(nil, args...)
		if code != 2 || !strings.Contains(errOut, "--shape") || !strings.Contains(errOut, dir) {
			t.Errorf("atmkit %s: exit %d, stderr %q, want exit 2 naming --shape and %s\n%s", strings.Join(args, " "), code, errOut, dir, stdout)
		}
	}
}

// TestShapeLearnServeLineNamesTheService: shape learn's "serve it:" line
// left out the service's name, so the mock it started called itself
// AtmService in its WSDL, help pages and disco document, where the
// deployment learned from had another name (clients generated from the
// mock's WSDL got other class names). It adds --service-name when the WSDL
// learned from names another service: one recorded in a cassette from a
// Mono site whose class is AttrService, or one fetched from a deployment;
// the default name adds nothing. The shape file's header named
// --shape alone.
func TestShapeLearnServeLineNamesTheService(t *testing.T) {
	t.Parallel()
	serveWSDL := func(opts ...mockserver.Option) string {
		h, err := mockserver.New(opts...)
		if err != nil {
			t.Fatal(err)
		}
		srv := httptest.NewServer(h)
		t.Cleanup(srv.Close)
		return srv.URL + "/service/service.asmx"
	}
	dir := filepath.Join(t.TempDir(), "my shapes")
	for _, tc := range []struct {
		name string
		from []string
		want []string // after atmkit serve --shape FILE
	}{
		{"recorded WSDL", []string{"--cassette", "../../cassettes/testdata/reference-attrs.yaml"},
			[]string{"--namespace", "http://attrs.atmref.example.org/atmService", "--service-name", "AttrService"}},
		{"fetched WSDL", []string{"--wsdl", serveWSDL(mockserver.WithServiceName("AtmLocator.v2"))}, []string{"--service-name", "AtmLocator.v2"}},
		{"the default name", []string{"--wsdl", serveWSDL()}, nil},
	} {
		out := filepath.Join(dir, strings.ReplaceAll(tc.name, " ", "-")+".yaml")
		code, stdout, errOut := runAtmkit(nil, append(append([]string{"shape", "learn"}, tc.from...), "--out", out)...)
		if code != exitOK {
			t.Fatalf("%s: shape learn: exit %d\n%s\n%s", tc.name, code, stdout, errOut)
		}
		m := regexp.MustCompile(`(?m)^  serve it: (.*)$`).FindStringSubmatch(stdout)
		if m == nil {
			t.Fatalf("%s: no serve it: line in\n%s", tc.name, stdout)
		}
		want := append([]string{"atmkit", "serve", "--shape", out}, tc.want...)
		if got := shWords(t, m[1]); !slices.Equal(got, want) {
			t.Errorf("%s: serve it: %s reads as %q, want %q", tc.name, m[1], got, want)
		}
		// The file's own header names the same command (its base name).
		data, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		if line := strings.Join(append([]string{"Serve it with: atmkit serve --shape", filepath.Base(out)}, tc.want...), " ") + "\n"; !strings.Contains(string(data), line) {
			t.Errorf("%s: the shape file's header lacks %q:\n%.600s", tc.name, line, data)
		}
	}
}
