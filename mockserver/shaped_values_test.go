package mockserver_test

import (
	"bytes"
	"encoding/xml"
	"io"
	"net/http/httptest"
	"os"
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

// attrValues returns the values of every attribute called local in body,
// as an XML parser reads them.
func attrValues(t *testing.T, body []byte, local string) []string {
	t.Helper()
	var out []string
	dec := xml.NewDecoder(bytes.NewReader(body))
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			return out
		}
		if err != nil {
			t.Fatalf("the answer is no XML: %v\n%.2000s", err, body)
		}
		if se, ok := tok.(xml.StartElement); ok {
			for _, a := range se.Attr {
				if a.Name.Local == local {
					out = append(out, a.Value)
				}
			}
		}
	}
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

// A line feed in an attribute's value is written &#xA;, as XmlTextWriter
// writes it (typed results and DataSet attribute columns alike): a raw one
// is read back as a space.
func TestAttributeValueLineFeed(t *testing.T) {
	const name = "New\nBrunswick"
	edit := func(ds *fixtures.Dataset) { ds.Provinces[0].Name = name }
	// The reference DataSet site's shape, its province names in an
	// attribute column.
	learned, err := os.ReadFile(filepath.Join("..", "shape", "learn", "testdata", "dataset-learned.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	const column = "{column: RegionName, type: string, value: name}"
	if !bytes.Contains(learned, []byte(column)) {
		t.Fatalf("dataset-learned.yaml has no %s", column)
	}
	dataSet := strings.Replace(string(learned), column, "{column: RegionName, mapping: attribute, type: string, value: name}", 1)
	for _, c := range []struct{ name, path, src, attr string }{
		{"typed", "attrs-learned.yaml", "", "label"},
		{"dataset", "", dataSet, "RegionName"},
	} {
		t.Run(c.name, func(t *testing.T) {
			base := valuesServer(t, c.path, c.src, edit)
			for _, b := range []string{"soap11", "get"} {
				status, body := mocktest.Call(t, base, asmx.DefaultNamespace, b, asmx.OpReturnProvinces, [][2]string{{asmx.ParamKey, "k"}})
				if status != 200 {
					t.Fatalf("over %s: %d %.300s", b, status, body)
				}
				if !bytes.Contains(body, []byte(c.attr+`="New&#xA;Brunswick"`)) {
					t.Errorf("over %s: want %s=\"New&#xA;Brunswick\" in\n%.1500s", b, c.attr, body)
				}
				if vs := attrValues(t, body, c.attr); len(vs) == 0 || vs[0] != name {
					t.Errorf("over %s: a client reads %s %q, want %q", b, c.attr, vs, name)
				}
			}
		})
	}
}
