package mockserver

import (
	"bytes"
	"net/http/httptest"
	"path/filepath"
	"testing"

	"github.com/atmkit/atmkit/asmx"
	"github.com/atmkit/atmkit/fixtures"
	"github.com/atmkit/atmkit/internal/mocktest"
	"github.com/atmkit/atmkit/internal/refdeploy"
	"github.com/atmkit/atmkit/shape"
)

// TestDifferentialSOAPBytes compares the mock's SOAP answers with the
// reference deployment's (Mono's ASMX) byte for byte, over SOAP 1.1 and
// 1.2: ReturnProvinces of its typed site, served by the mock in the shape
// learned from it over the site's six provinces, and a refused key's
// fault. Both are one line with no white space between tags, as
// SoapServerProtocol's XmlTextWriter writes SOAP; the mock indented them.
func TestDifferentialSOAPBytes(t *testing.T) {
	t.Parallel()
	ref := refdeploy.Shared(t)
	ds, err := fixtures.Default()
	if err != nil {
		t.Fatal(err)
	}
	six := *ds
	six.Provinces = ds.Provinces[:6] // NB, NS, PE, NL, QC, ON, as the site holds them
	sh, err := shape.Load(filepath.Join("..", "shape", "learn", "testdata", "reference-learned.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	h, err := New(WithShape(sh), WithNamespace(refdeploy.Namespace), WithKeys(refdeploy.Key), WithDataset(&six))
	if err != nil {
		t.Fatal(err)
	}
	mock := httptest.NewServer(h)
	t.Cleanup(mock.Close)
	for _, b := range []string{"soap11", "soap12"} {
		for _, key := range []string{refdeploy.Key, "wrong-key"} {
			params := [][2]string{{asmx.ParamKey, key}}
			refStatus, want := mocktest.Call(t, ref.URL, refdeploy.Namespace, b, asmx.OpReturnProvinces, params)
			status, got := mocktest.Call(t, mock.URL, refdeploy.Namespace, b, asmx.OpReturnProvinces, params)
			if status != refStatus || !bytes.Equal(got, want) {
				t.Errorf("ReturnProvinces over %s, key %s: the mock answered %d\n%s\nthe deployment %d\n%s", b, key, status, got, refStatus, want)
			}
		}
	}
}
