package cassettes_test

import (
	"fmt"
	"io"
	"math"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/atmkit/atmkit/asmx"
	"github.com/atmkit/atmkit/cassettes"
	"gopkg.in/dnaeon/go-vcr.v3/recorder"
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

	list := readCassette(t, path)
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

// TestDuplicateIDsNamed: in a cassette holding one id twice (kept by scrub
// and verify --update), every message names each of those interactions
// apart, by its id and its position in the file ("3@1"); an id the file
// holds once is named by itself: cassette list's entries, a replay miss's
// nearest recording, and the error of an interaction refused.
func TestDuplicateIDsNamed(t *testing.T) {
	t.Parallel()
	golden, err := os.ReadFile(filepath.Join("testdata", "golden.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "atm.yaml")
	edited := withIDs(t, string(golden), 7, 3, 3)
	if err := os.WriteFile(path, []byte(edited), 0o644); err != nil {
		t.Fatal(err)
	}
	entries, err := cassettes.List(path)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name)
	}
	if want := []string{"7", "3@1", "3@2"}; !slices.Equal(names, want) {
		t.Errorf("List names %q, want %q", names, want)
	}
	recs, err := cassettes.Recordings(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 3 || recs[1].Name != "3@1" {
		t.Errorf("Recordings: %+v, want the second named 3@1", recs)
	}

	// The JSON call recorded second (id 3, position 1) is the nearest
	// recording of the same call with another radius.
	srv := replayServer(t, []string{path}, nil)
	q := query{Op: asmx.OpReturnAtmSearchByCoordinates, Params: [][2]string{{"strPostalCode", ""}, {"dblLatitude", "44.709777"}, {"dblLongitude", "-63.571423"}, {"bytRadius", "9"}}}
	if status, body := do(t, srv.Client(), request(t, srv.URL, asmx.JSON, q, testKey, false)); status != http.StatusInternalServerError || !strings.Contains(body, "recorded in atm.yaml#3@1 ") {
		t.Errorf("miss: got %d %.400q, want 500 naming atm.yaml#3@1 as the nearest recording", status, body)
	}

	// An interaction refused names itself the same way.
	bad := strings.Replace(edited, "        code: 200\n", "        code: 0\n", 3)
	bad = strings.Replace(bad, "        code: 0\n", "        code: 200\n", 2)
	if err := os.WriteFile(path, []byte(bad), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := cassettes.LoadIndex([]string{path}); err == nil || !strings.Contains(err.Error(), path+": interaction 3@2: response code 0") {
		t.Errorf("LoadIndex of a cassette whose third answer has code 0: got %v, want it named interaction 3@2", err)
	}
}

// idsOf is the ids of the cassette at path, in the file's order.
func idsOf(t *testing.T, path string) []int {
	t.Helper()
	list := readCassette(t, path)
	var ids []int
	for _, i := range list {
		ids = append(ids, i.ID)
	}
	return ids
}

// TestRecordedIDsFollowTheFile: a recording adding to a cassette gives
// the interactions it adds the ids after the largest the file holds, in
// both modes that add (ModeRecordAll, which records without go-vcr's
// recorder, and ModeRecordNew, through it): with ids edited by hand (0, 1,
// 5), numbering from the count (3, 4, 5) holds 5 twice. A file
// holding the largest int leaves no larger id: those added then take the
// ids from the count the file does not hold. An untouched cassette gets
// the ids go-vcr's own recorder gives in ModeReplayWithNewEpisodes.
func TestRecordedIDsFollowTheFile(t *testing.T) {
	t.Parallel()
	up, _ := standIn(t)
	golden, err := os.ReadFile(filepath.Join("testdata", "golden.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	calls := []query{
		{Op: asmx.OpReturnAtmSearchByCity, Params: [][2]string{{"intCityID", "203"}}},
		{Op: asmx.OpReturnAtmSearchByCity, Params: [][2]string{{"intCityID", "204"}}},
		{Op: asmx.OpReturnAtmSearchByCity, Params: [][2]string{{"intCityID", "205"}}},
	}
	record := func(t *testing.T, path string, mode cassettes.Mode) {
		t.Helper()
		rec, err := cassettes.New(path, cassettes.WithMode(mode))
		if err != nil {
			t.Fatal(err)
		}
		for _, q := range calls {
			if status, body := do(t, rec.Client(), request(t, up.URL, asmx.HTTPGet, q, testKey, false)); status != http.StatusOK {
				t.Fatalf("%s: status %d: %.300s", q, status, body)
			}
		}
		if err := rec.Stop(); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range []struct {
		name      string
		ids, want []int
	}{
		{"untouched", []int{0, 1, 2}, []int{0, 1, 2, 3, 4, 5}},
		{"edited", []int{0, 1, 5}, []int{0, 1, 5, 6, 7, 8}},
		{"reordered", []int{2, 0, 1}, []int{2, 0, 1, 3, 4, 5}},
		{"negative", []int{-7, -3, -5}, []int{-7, -3, -5, -2, -1, 0}},
		{"largest int", []int{4, math.MaxInt, 3}, []int{4, math.MaxInt, 3, 5, 6, 7}},
	} {
		for _, mode := range []cassettes.Mode{cassettes.ModeRecordAll, cassettes.ModeRecordNew} {
			t.Run(fmt.Sprintf("%s/%d", c.name, mode), func(t *testing.T) {
				path := filepath.Join(t.TempDir(), "atm.yaml")
				if err := os.WriteFile(path, []byte(withIDs(t, string(golden), c.ids...)), 0o644); err != nil {
					t.Fatal(err)
				}
				record(t, path, mode)
				if got := idsOf(t, path); !slices.Equal(got, c.want) {
					t.Errorf("ids %v, want %v", got, c.want)
				}
				entries, err := cassettes.List(path)
				if err != nil {
					t.Fatal(err)
				}
				for _, e := range entries {
					if e.Name != strconv.Itoa(e.ID) {
						t.Errorf("interaction %d named %s: its id is held twice", e.ID, e.Name)
					}
				}
			})
		}
	}

	// go-vcr's own recorder adding the same calls to the untouched cassette.
	path := filepath.Join(t.TempDir(), "vcr.yaml")
	if err := os.WriteFile(path, golden, 0o644); err != nil {
		t.Fatal(err)
	}
	vcr, err := recorder.NewWithOptions(&recorder.Options{CassetteName: strings.TrimSuffix(path, ".yaml"), Mode: recorder.ModeReplayWithNewEpisodes})
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range calls {
		if status, body := do(t, vcr.GetDefaultClient(), request(t, up.URL, asmx.HTTPGet, q, testKey, false)); status != http.StatusOK {
			t.Fatalf("go-vcr: %s: status %d: %.300s", q, status, body)
		}
	}
	if err := vcr.Stop(); err != nil {
		t.Fatal(err)
	}
	if got, want := idsOf(t, path), []int{0, 1, 2, 3, 4, 5}; !slices.Equal(got, want) {
		t.Errorf("go-vcr's recorder wrote ids %v; the untouched case above expects %v", got, want)
	}
}
