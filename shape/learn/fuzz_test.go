package learn

import (
	"os"
	"testing"

	"github.com/atmkit/atmkit/shape"
)

// FuzzLearn: whatever the answers hold (typed, node, DataSet or
// attribute-valued results among the seeds), the learner returns a valid
// shape or an error; never a panic.
func FuzzLearn(f *testing.F) {
	for _, p := range []string{"testdata/reference/coords1-soap11.xml", "testdata/reference/provinces-get.xml", "testdata/reference/coords1-json.json",
		"testdata/dataset/coords1-soap11.xml", "testdata/dataset/provinces-get.xml", "testdata/attrs/coords1-soap11.xml"} {
		data, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data, data)
	}
	// A DataSet answer with the JSON answer of its query.
	xmlBody, err := os.ReadFile("testdata/dataset/coords2-soap11.xml")
	if err != nil {
		f.Fatal(err)
	}
	jsonBody, err := os.ReadFile("testdata/dataset/coords2-json.json")
	if err != nil {
		f.Fatal(err)
	}
	f.Add(xmlBody, jsonBody)
	// A node answer whose empty landmarks end with end tags of their own
	// (<n:landmark></n:landmark>), read again byte by byte (emptyEnds).
	if xmlBody, err = os.ReadFile("testdata/nodes/coords1-soap11.xml"); err != nil {
		f.Fatal(err)
	}
	if jsonBody, err = os.ReadFile("testdata/nodes/coords1-json.json"); err != nil {
		f.Fatal(err)
	}
	f.Add(xmlBody, jsonBody)
	// A typed answer of locations grouped by institution (ArrayOfBank).
	if xmlBody, err = os.ReadFile("testdata/grouped/coords1-get.xml"); err != nil {
		f.Fatal(err)
	}
	if jsonBody, err = os.ReadFile("testdata/grouped/coords1-json.json"); err != nil {
		f.Fatal(err)
	}
	f.Add(xmlBody, jsonBody)
	f.Fuzz(func(t *testing.T, xmlBody, jsonBody []byte) {
		in := Input{Samples: []Sample{
			{Binding: SOAP11, Op: shape.OpReturnAtmSearchByCoordinates, Query: "q", Status: 200, Body: xmlBody, Where: "xml"},
			{Binding: HTTPGet, Op: shape.OpReturnProvinces, Status: 200, Body: xmlBody, Where: "get"},
			{Binding: JSON, Op: shape.OpReturnAtmSearchByCoordinates, Query: "q", Status: 200, Body: jsonBody, Where: "json"},
		}}
		s, _, err := Learn(in)
		if err == nil {
			if verr := s.Validate(); verr != nil {
				t.Fatalf("Learn returned an invalid shape: %v", verr)
			}
		}
	})
}
