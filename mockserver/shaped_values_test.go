package mockserver_test

import (
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"

	"github.com/atmkit/atmkit/asmx"
	"github.com/atmkit/atmkit/fixtures"
	"github.com/atmkit/atmkit/internal/mocktest"
	"github.com/atmkit/atmkit/mockserver"
	"github.com/atmkit/atmkit/shape"
)

// valuesServer serves the default data set, changed by edit, in the shape
// at path (under shape/learn/testdata) or of the YAML text src.
func valuesServer(t *testing.T, path, src string, edit func(*fixtures.Dataset)) string {
	t.Helper()
	var sh *shape.Shape
	var err error
	if path != "" {
		sh, err = shape.Load(filepath.Join("..", "shape", "learn", "testdata", path))
	} else {
		sh, err = shape.Parse([]byte(src))
	}
	if err != nil {
		t.Fatal(err)
	}
	ds, err := fixtures.Default()
	if err != nil {
		t.Fatal(err)
	}
	edit(ds)
	h, err := mockserver.New(mockserver.WithShape(sh), mockserver.WithDataset(ds))
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return srv.URL
}

// A DataSet writes an element column's value of white space only with
// xml:space="preserve" (DataSet.WriteXml, seen on Mono: <C
// xml:space="preserve">  </C>); a DataSet reading an answer without it
// (the client's proxy) reads an empty string instead.
func TestDataSetWhiteSpaceValue(t *testing.T) {
	const blank = "  \t "
	base := valuesServer(t, "dataset-learned.yaml", "", func(ds *fixtures.Dataset) {
		ds.ATMs[0].Address.Landmark = blank
		ds.ATMs[1].Address.Landmark = " Near the  wharf "
	})
	for _, b := range []string{"soap11", "soap12", "get", "post"} {
		status, body := mocktest.Call(t, base, asmx.DefaultNamespace, b, asmx.OpReturnAllAtms, [][2]string{{asmx.ParamKey, "k"}})
		if status != 200 {
			t.Fatalf("over %s: %d %.300s", b, status, body)
		}
		s := string(body)
		if !strings.Contains(s, `<Landmark xml:space="preserve">`+blank+`</Landmark>`) {
			t.Errorf("over %s: the blank landmark is not written with xml:space=\"preserve\":\n%.3000s", b, s)
		}
		if n := strings.Count(s, "xml:space"); n != 1 {
			t.Errorf("over %s: xml:space written %d times, want once (only the value of white space only)", b, n)
		}
		if !strings.Contains(s, "<Landmark> Near the  wharf </Landmark>") {
			t.Errorf("over %s: a landmark with spaces around words is not written as it is", b)
		}
	}
}
