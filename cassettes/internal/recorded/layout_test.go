package recorded

import (
	"bytes"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gopkg.in/dnaeon/go-vcr.v3/cassette"
	"gopkg.in/yaml.v3"
)

// TestKeepLayoutWritesWhatIsNoLongerEmpty: a field the file left out
// empty stays out while empty, and is written once it holds something (a
// new answer's headers, a scrubbed form).
func TestKeepLayoutWritesWhatIsNoLongerEmpty(t *testing.T) {
	data := []byte("---\nversion: 2\ninteractions:\n    - id: 7\n      request:\n        url: http://upstream.example/a\n        method: GET\n      response:\n        body: x\n        status: 200 OK\n        code: 200\n        duration: 0s\n")
	held := layoutOf(data)
	if len(held) != 1 {
		t.Fatalf("layout of %d interactions, want 1", len(held))
	}
	i := &cassette.Interaction{ID: 7, Request: cassette.Request{URL: "http://upstream.example/a", Method: "GET"},
		Response: cassette.Response{Body: "x", Status: "200 OK", Code: 200, Headers: http.Header{"X-New": {"1"}}}}
	got, err := marshalKeeping([]*cassette.Interaction{i}, held)
	if err != nil {
		t.Fatal(err)
	}
	want := "---\nversion: 2\ninteractions:\n    - id: 7\n      request:\n        url: http://upstream.example/a\n        method: GET\n      response:\n        body: x\n        headers:\n            X-New:\n                - \"1\"\n        status: 200 OK\n        code: 200\n        duration: 0s\n"
	if string(got) != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

// FuzzRewriteKeepsLayout: whatever a cassette file holds, reading its
// layout does not fail, and the interactions written keeping it read back
// as they are.
func FuzzRewriteKeepsLayout(f *testing.F) {
	// Each file's interactions one by one, and its first two, under its
	// head: a run costs as its input is long (20 ms for the 16 kB of
	// govcr-v4.yaml), and the fuzzer minimizes what it finds, each step a
	// run.
	for _, name := range []string{"govcr-v4.yaml", "golden.yaml"} {
		b, err := os.ReadFile(filepath.Join("..", "..", "testdata", name))
		if err != nil {
			continue
		}
		items := bytes.Split(b, []byte("\n    - id: "))
		for j := 1; j < len(items); j++ {
			f.Add(bytes.Join([][]byte{items[0], items[j]}, []byte("\n    - id: ")))
		}
		if len(items) > 2 {
			f.Add(bytes.Join(items[:3], []byte("\n    - id: ")))
		}
	}
	f.Add([]byte("version: 2\ninteractions:\n    - id: 0\n      request: {form: {}}\n      response: []\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		held := layoutOf(data)
		var c file
		if yaml.Unmarshal(data, &c) != nil || len(c.Interactions) == 0 || bytes.Contains(data, []byte("<<")) {
			return
		}
		for _, i := range c.Interactions {
			if i == nil {
				return
			}
		}
		out, err := marshalKeeping(c.Interactions, held)
		if err != nil {
			if strings.Contains(err.Error(), "cannot write it so that it reads back") {
				return // MarshalItem's own refusal, not the layout's
			}
			t.Fatal(err)
		}
		var back file
		if err := yaml.Unmarshal(out, &back); err != nil {
			t.Fatalf("%v\n%s", err, out)
		}
		if len(back.Interactions) != len(c.Interactions) {
			t.Fatalf("%d interactions read back, want %d", len(back.Interactions), len(c.Interactions))
		}
		for j, i := range c.Interactions {
			item, err := MarshalItem(i)
			if err != nil {
				t.Fatal(err)
			}
			if !readsBack(item, back.Interactions[j]) {
				t.Fatalf("interaction %d reads back otherwise:\n%s", j, out)
			}
		}
	})
}
