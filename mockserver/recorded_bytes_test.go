package mockserver

import (
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"

	"github.com/atmkit/atmkit/asmx"
	"github.com/atmkit/atmkit/fixtures"
	"github.com/atmkit/atmkit/internal/mocktest"
	"github.com/atmkit/atmkit/shape"
)

// TestProvincesAsTheReferenceSitesWroteThem serves the shapes learned
// from the reference deployment's sites (Mono's ASMX, answers recorded in
// shape/learn/testdata/SITE) over a data set holding the sites' six
// provinces, and compares ReturnProvinces with the recorded answers byte
// for byte: SOAP 1.1 on one line with no white space between tags (as
// SoapServerProtocol's XmlTextWriter, which does not indent, writes it),
// and GET indented by two spaces (XmlSerializer.Serialize(TextWriter)), for
// a typed result, a DataSet, a typed result with attributes and a node
// result with prefixes. The mock indented its SOAP answers.
func TestProvincesAsTheReferenceSitesWroteThem(t *testing.T) {
	t.Parallel()
	ds, err := fixtures.Default()
	if err != nil {
		t.Fatal(err)
	}
	six := *ds
	six.Provinces = ds.Provinces[:6] // NB, NS, PE, NL, QC, ON, as the sites hold them
	for _, site := range []struct{ name, ns string }{
		{"reference", "http://atmref.example.org/atmService"},
		{"dataset", "http://dataset.atmref.example.org/atmService"},
		{"attrs", "http://attrs.atmref.example.org/atmService"},
		{"nodes", "http://nodes.atmref.example.org/atmService"},
	} {
		dir := filepath.Join("..", "shape", "learn", "testdata")
		sh, err := shape.Load(filepath.Join(dir, site.name+"-learned.yaml"))
		if err != nil {
			t.Fatal(err)
		}
		h, err := New(WithShape(sh), WithNamespace(site.ns), WithKeys("k"), WithDataset(&six))
		if err != nil {
			t.Fatal(err)
		}
		srv := httptest.NewServer(h)
		t.Cleanup(srv.Close)
		for _, b := range []asmx.Binding{asmx.SOAP11, asmx.HTTPGet} {
			want, err := os.ReadFile(filepath.Join(dir, site.name, "provinces-"+b.String()+".xml"))
			if err != nil {
				t.Fatal(err)
			}
			req, err := mocktest.NewRequest(srv.URL, site.ns, b.String(), asmx.OpReturnProvinces, [][2]string{{asmx.ParamKey, "k"}})
			if err != nil {
				t.Fatal(err)
			}
			if b == asmx.HTTPGet {
				want = mocktest.AsDotNetLinesBytes(want)
			}
			if got := do(t, req); got.status != 200 || got.body != string(want) {
				t.Errorf("%s over %s: got %d\n%s\nwant what the site answered\n%s", site.name, b, got.status, got.body, want)
			}
		}
	}
}
