package learn

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/atmkit/atmkit/shape"
)

// FuzzLearnWSDL reads any bytes as a deployment's WSDL (fetched from its
// URL or recorded in a cassette), alone and with a recorded answer: the
// learner returns a valid shape or an error, never a panic. FuzzLearn
// covers the answers without a WSDL.
func FuzzLearnWSDL(f *testing.F) {
	paths, err := filepath.Glob("testdata/*/*wsdl.xml")
	if err != nil || len(paths) == 0 {
		f.Fatalf("no WSDLs in testdata: %v", err)
	}
	answer, err := os.ReadFile("testdata/reference/coords1-soap11.xml")
	if err != nil {
		f.Fatal(err)
	}
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data, answer)
		f.Add(data, []byte{})
	}
	f.Fuzz(func(t *testing.T, wsdl, answer []byte) {
		in := Input{WSDL: wsdl}
		if len(answer) > 0 {
			in.Samples = []Sample{{Binding: SOAP11, Op: shape.OpReturnAtmSearchByCoordinates, Query: "q", Status: 200, Body: answer, Where: "xml"}}
		}
		s, _, err := Learn(in)
		if err != nil {
			return
		}
		if s == nil {
			t.Fatal("Learn returned neither a shape nor an error")
		}
		if verr := s.Validate(); verr != nil {
			t.Fatalf("Learn returned an invalid shape: %v", verr)
		}
	})
}
