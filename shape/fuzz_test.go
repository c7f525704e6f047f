package shape

import (
	"os"
	"testing"
)

// FuzzParse: any file is either a valid shape, which marshals and parses
// back to the same file, or an error; never a panic.
func FuzzParse(f *testing.F) {
	for _, p := range []string{"testdata/typed.yaml"} {
		data, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Add(Marshal(Default(), ""))
	f.Add([]byte("version: 1\nresults: {}\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := Parse(data)
		if err != nil {
			if s != nil {
				t.Fatalf("Parse returned a shape and the error %v", err)
			}
			return
		}
		out := Marshal(s, "")
		again, err := Parse(out)
		if err != nil {
			t.Fatalf("a parsed shape does not parse back: %v\n%s", err, out)
		}
		if string(Marshal(again, "")) != string(out) {
			t.Fatalf("Marshal is not stable:\n%s\nthen\n%s", out, Marshal(again, ""))
		}
	})
}
