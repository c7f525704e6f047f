package cassettes_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/atmkit/atmkit/cassettes"
)

// TestScrubKeepsLayout: scrub rewrites a cassette in the layout it had, so
// that the diff a reviewer reads holds the scrubbed values alone (and the
// lengths of the bodies they shortened). testdata/govcr-v4.yaml was
// recorded by go-vcr v4.0.7's recorder in front of atmkit serve, with a
// fake key: v4 leaves empty fields out (transfer_encoding, trailer,
// remote_addr, request_uri, form, uncompressed, ...), which a rewrite in
// go-vcr v3's layout wrote back as noise. golden.yaml with its key put back
// is v3's layout, every field written. Run with -update to rewrite
// testdata/govcr-v4-scrubbed.yaml.
func TestScrubKeepsLayout(t *testing.T) {
	t.Parallel()
	const v4Key = "fake-key-0001" // the key govcr-v4.yaml was recorded with
	golden, err := os.ReadFile(filepath.Join("testdata", "golden.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	v4, err := os.ReadFile(filepath.Join("testdata", "govcr-v4.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name   string
		in     []byte
		golden string // the file the scrubbed cassette must equal; "" for want
		want   []byte
	}{
		{"go-vcr v4", v4, filepath.Join("testdata", "govcr-v4-scrubbed.yaml"), nil},
		{"go-vcr v3", bytes.ReplaceAll(golden, []byte(cassettes.Placeholder), []byte(testKey)), "", golden},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "atm.yaml")
			if err := os.WriteFile(path, tc.in, 0o644); err != nil {
				t.Fatal(err)
			}
			if n, _, err := cassettes.ScrubFile(path); err != nil || n == 0 {
				t.Fatalf("scrub: %d values replaced, %v", n, err)
			}
			got, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			want := tc.want
			if tc.golden != "" {
				if *update {
					if err := os.WriteFile(tc.golden, got, 0o644); err != nil {
						t.Fatal(err)
					}
				}
				if want, err = os.ReadFile(tc.golden); err != nil {
					t.Fatal(err)
				}
			}
			if !bytes.Equal(got, want) {
				t.Errorf("the scrubbed cassette differs from the golden one (run go test -run TestScrubKeepsLayout -update to accept):\n%s", got)
			}
			// The diff: line for line, the changed lines are the
			// scrubbed values' and the shortened bodies' lengths.
			before, after := strings.Split(string(tc.in), "\n"), strings.Split(string(got), "\n")
			if len(before) != len(after) {
				t.Fatalf("scrub changed the number of lines from %d to %d: fields added or removed", len(before), len(after))
			}
			for j := range before {
				if before[j] != after[j] && !strings.Contains(after[j], cassettes.Placeholder) && !strings.HasPrefix(strings.TrimSpace(after[j]), "content_length:") {
					t.Errorf("line %d changed and is no scrubbed value: %q, was %q", j+1, after[j], before[j])
				}
			}
			for _, key := range []string{v4Key, testKey} {
				if bytes.Contains(got, []byte(key)) {
					t.Errorf("the scrubbed cassette holds the key %q", key)
				}
			}
		})
	}
}
