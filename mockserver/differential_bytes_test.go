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

// TestDifferentialSearchPointDoubles compares the search point the mock
// writes back with the reference deployment's, byte for byte, over SOAP 1.1
// and GET: a search where neither holds an ATM (a 1 km radius in the
// Indian Ocean), at coordinates whose doubles XmlConvert writes in
// exponent form (1E-05, 1.5E+20) or with 17 digits where Go's shortest
// form has 16 (46.136800000000008), and at negative zero (-0 in SOAP, as
// XmlConvert.ToDouble reads it and XmlConvert.ToString writes it; 0 in GET).
func TestDifferentialSearchPointDoubles(t *testing.T) {
	t.Parallel()
	ref := refdeploy.Shared(t)
	sh, err := shape.Load(filepath.Join("..", "shape", "learn", "testdata", "reference-learned.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	h, err := New(WithShape(sh), WithNamespace(refdeploy.Namespace), WithKeys(refdeploy.Key))
	if err != nil {
		t.Fatal(err)
	}
	mock := httptest.NewServer(h)
	t.Cleanup(mock.Close)
	for _, point := range [][2]string{
		{"0.00001", "75.5"},
		{"-1.5e-7", "80.000000000000014"},
		{"46.13680000000001", "75.1"},
		{"1.5e20", "1e15"},
		{"0.0001", "123456789012345"},
		{"-0", "-0.0"},
	} {
		for _, b := range []string{"soap11", "get"} {
			params := [][2]string{{asmx.ParamKey, refdeploy.Key}, {asmx.ParamPostalCode, ""}, {asmx.ParamLatitude, point[0]}, {asmx.ParamLongitude, point[1]}, {asmx.ParamRadius, "1"}}
			refStatus, want := mocktest.Call(t, ref.URL, refdeploy.Namespace, b, asmx.OpReturnAtmSearchByCoordinates, params)
			status, got := mocktest.Call(t, mock.URL, refdeploy.Namespace, b, asmx.OpReturnAtmSearchByCoordinates, params)
			if b == "get" {
				want = mocktest.AsDotNetLinesBytes(want) // Mono writes LF
			}
			if status != refStatus || !bytes.Equal(got, want) {
				t.Errorf("search at %s, %s over %s: the mock answered %d\n%s\nthe deployment %d\n%s", point[0], point[1], b, status, got, refStatus, want)
			}
		}
	}
}
