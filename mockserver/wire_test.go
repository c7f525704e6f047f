package mockserver

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"

	"github.com/atmkit/atmkit/asmx"
	"github.com/atmkit/atmkit/shape"
)

// wireSamples are the answers the documentation shows, kept in
// testdata/wire as golden files: the status line, the Content-Type and the
// body exactly as the mock sends them over the embedded data set. The
// documentation embeds or links these files, and a test of cmd/atmkit checks
// that every block it embeds equals its file, so the samples in the docs
// cannot drift from what the mock serves. Rewrite them with
// go test ./mockserver -run TestWireSamples -update, and read the diff.
var wireSamples = []struct {
	file    string
	binding asmx.Binding
	op      string
	params  [][2]string
	// shape is a shape file to serve with, and namespace the service
	// namespace; empty: the built-in shape in the default namespace.
	shape, namespace string
}{
	// A coordinate search with radius 0 at an ATM finds that ATM alone.
	{file: "search-soap11.http", binding: asmx.SOAP11, op: asmx.OpReturnAtmSearchByCoordinates, params: [][2]string{
		{asmx.ParamKey, "demo-key"}, {asmx.ParamPostalCode, ""}, {asmx.ParamLatitude, "44.648834"}, {asmx.ParamLongitude, "-63.575815"}, {asmx.ParamRadius, "0"}}},
	{file: "search-json.http", binding: asmx.JSON, op: asmx.OpReturnAtmSearchByCoordinates, params: [][2]string{
		{asmx.ParamKey, "demo-key"}, {asmx.ParamPostalCode, ""}, {asmx.ParamLatitude, "44.648834"}, {asmx.ParamLongitude, "-63.575815"}, {asmx.ParamRadius, "0"}}},
	{file: "institutions-get.http", binding: asmx.HTTPGet, op: asmx.OpReturnInstitutions, params: [][2]string{{asmx.ParamKey, "demo-key"}}},
	{file: "provinces-get.http", binding: asmx.HTTPGet, op: asmx.OpReturnProvinces, params: [][2]string{{asmx.ParamKey, "demo-key"}}},
	// The reference deployment's learned shape, as the docs on result shapes show it.
	{file: "provinces-get-learned-shape.http", binding: asmx.HTTPGet, op: asmx.OpReturnProvinces, params: [][2]string{{asmx.ParamKey, "demo-key"}},
		shape: filepath.Join("..", "shape", "learn", "testdata", "reference-learned.yaml"), namespace: "http://atmref.example.org/atmService"},
	// The dataset and attrs sites' learned shapes: a DataSet, root attributes.
	{file: "provinces-get-dataset-shape.http", binding: asmx.HTTPGet, op: asmx.OpReturnProvinces, params: [][2]string{{asmx.ParamKey, "demo-key"}},
		shape: filepath.Join("..", "shape", "learn", "testdata", "dataset-learned.yaml"), namespace: "http://dataset.atmref.example.org/atmService"},
	{file: "institutions-get-attrs-shape.http", binding: asmx.HTTPGet, op: asmx.OpReturnInstitutions, params: [][2]string{{asmx.ParamKey, "demo-key"}},
		shape: filepath.Join("..", "shape", "learn", "testdata", "attrs-learned.yaml"), namespace: "http://attrs.atmref.example.org/atmService"},
	// Errors, each in its binding's form.
	{file: "key-refused-soap11.http", binding: asmx.SOAP11, op: asmx.OpReturnProvinces, params: [][2]string{{asmx.ParamKey, "wrong-key"}}},
	{file: "key-refused-soap12.http", binding: asmx.SOAP12, op: asmx.OpReturnProvinces, params: [][2]string{{asmx.ParamKey, "wrong-key"}}},
	{file: "missing-parameter-get.http", binding: asmx.HTTPGet, op: asmx.OpReturnAtmSearchByCity, params: [][2]string{{asmx.ParamKey, "demo-key"}}},
	{file: "radius-256-post.http", binding: asmx.HTTPPost, op: asmx.OpReturnAtmSearchByCoordinates, params: [][2]string{
		{asmx.ParamKey, "demo-key"}, {asmx.ParamPostalCode, ""}, {asmx.ParamLatitude, "44.648834"}, {asmx.ParamLongitude, "-63.575815"}, {asmx.ParamRadius, "256"}}},
}

// TestWireSamples serves each sample's call over real HTTP (the mock accepts
// the key demo-key only) and compares the answer with its golden file.
func TestWireSamples(t *testing.T) {
	t.Parallel()
	servers := map[string]*httptest.Server{}
	server := func(shapeFile, ns string) *httptest.Server {
		if srv := servers[shapeFile]; srv != nil {
			return srv
		}
		if ns == "" {
			ns = testNS
		}
		opts := []Option{WithKeys("demo-key"), WithNamespace(ns)}
		if shapeFile != "" {
			sh, err := shape.Load(shapeFile)
			if err != nil {
				t.Fatal(err)
			}
			opts = append(opts, WithShape(sh))
		}
		h, err := New(opts...)
		if err != nil {
			t.Fatal(err)
		}
		srv := httptest.NewServer(h)
		t.Cleanup(srv.Close)
		servers[shapeFile] = srv
		return srv
	}
	for _, s := range wireSamples {
		t.Run(s.file, func(t *testing.T) {
			srv := server(s.shape, s.namespace)
			req := callRequest(t, srv.URL, s.binding, s.op, s.params)
			if s.binding == asmx.SOAP11 && s.namespace != "" {
				req.Header.Set("SOAPAction", `"`+s.namespace+"/"+s.op+`"`)
			}
			got := do(t, req)
			text := fmt.Sprintf("HTTP/1.1 %d %s\nContent-Type: %s\n\n%s", got.status, http.StatusText(got.status), got.ctype, got.body)
			path := filepath.Join("testdata", "wire", s.file)
			if *update {
				if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run go test ./mockserver -run TestWireSamples -update)", err)
			}
			if text != string(want) {
				t.Errorf("%s: got\n%s\nwant (%s)\n%s", s.file, text, path, want)
			}
		})
	}
}
