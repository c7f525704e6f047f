package cassettes_test

import (
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/atmkit/atmkit/cassettes"
)

// idLine is the id of an interaction as a cassette holds it.
var idLine = regexp.MustCompile(`(?m)^    - id: \d+$`)

// withIDs is a cassette's text with its interactions' ids replaced, in
// order, by ids.
func withIDs(t *testing.T, text string, ids ...int) string {
	t.Helper()
	n := 0
	out := idLine.ReplaceAllStringFunc(text, func(string) string {
		n++
		return "    - id: " + strconv.Itoa(ids[n-1])
	})
	if n != len(ids) {
		t.Fatalf("%d interactions, want %d", n, len(ids))
	}
	return out
}

// TestIDsKept: interaction ids a user edited (out of order, with gaps, one
// twice) are ids go-vcr v3 replays by, as it never reads them: every
// interaction of such a cassette replays. ScrubCassette keeps them, so the
// cassette's diff shows the scrubbed values alone (it renumbered them from
// 0).
func TestIDsKept(t *testing.T) {
	t.Parallel()
	golden, err := os.ReadFile(filepath.Join("testdata", "golden.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	edited := withIDs(t, string(golden), 7, 3, 3)
	path := filepath.Join(t.TempDir(), "atm.yaml")
	if err := os.WriteFile(path, []byte(strings.ReplaceAll(edited, cassettes.Placeholder, "Raw-Key-5678")), 0o644); err != nil {
		t.Fatal(err)
	}
	if r, err := cassettes.ScrubCassette(path, false); err != nil || r.Replaced == 0 {
		t.Fatalf("scrub: %+v, %v", r, err)
	}
	if got, err := os.ReadFile(path); err != nil || string(got) != edited {
		t.Errorf("the scrubbed cassette differs from the one edited but for its keys (%v):\n%s", err, got)
	}

	list, err := cassettes.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	rec, err := cassettes.New(path, cassettes.WithMode(cassettes.ModeReplayOnly))
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = rec.Stop() }()
	for _, i := range list {
		req, err := http.NewRequest(i.Request.Method, i.Request.URL, strings.NewReader(i.Request.Body))
		if err != nil {
			t.Fatal(err)
		}
		req.Header = i.Request.Headers.Clone()
		resp, err := rec.Client().Do(req)
		if err != nil {
			t.Errorf("interaction %d: %v", i.ID, err)
			continue
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != i.Response.Code || string(body) != i.Response.Body {
			t.Errorf("interaction %d replayed %d %.80q, want %d %.80q", i.ID, resp.StatusCode, body, i.Response.Code, i.Response.Body)
		}
	}
}
