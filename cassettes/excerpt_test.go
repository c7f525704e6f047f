package cassettes_test

import (
	"fmt"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/atmkit/atmkit/cassettes"
	"github.com/atmkit/atmkit/mockserver"
)

// TestRecordHidesValidationExcerpt: ASP.NET's request validation quotes a
// cut excerpt of a dangerous value (10 characters before the markup, 20
// after) in its error, as a page, plain text or an AJAX error object: of
// a long key, a part of it, which no sweep of the key itself finds. The
// cassette holds none of it, whatever the error's form.
func TestRecordHidesValidationExcerpt(t *testing.T) {
	t.Parallel()
	// The excerpt of the first key is its start, of the second its end.
	keys := []string{"<bAlphaBravoCharlieDeltaEcho-Foxtrot", "GolfHotelIndia-JulietKiloLima<b"}
	words := []string{"Alpha", "Bravo", "Charlie", "Delta", "Golf", "Hotel", "India", "Juliet", "Kilo", "Lima"}
	for _, form := range []struct {
		name, path string
		opts       []mockserver.Option
	}{
		{"page", "/service/service.asmx/ReturnProvinces", nil},
		{"detailed plain text", "/service/service.asmx/ReturnProvinces", []mockserver.Option{mockserver.WithDetailedErrors(true)}},
		{"AJAX error object", "/service-v2.asmx/ReturnAtmSearchByCoordinates", []mockserver.Option{mockserver.WithJSONErrors(mockserver.JSONErrorsAjax), mockserver.WithDetailedErrors(true)}},
	} {
		t.Run(form.name, func(t *testing.T) {
			t.Parallel()
			_, _, up := smallStandIn(t, form.opts...)
			for i, key := range keys {
				// A cassette each: the two calls are the same once their
				// keys are replaced.
				path := filepath.Join(t.TempDir(), fmt.Sprintf("excerpt%d.yaml", i))
				rec, err := cassettes.New(path)
				if err != nil {
					t.Fatal(err)
				}
				status, answer := do(t, rec.Client(), mustGet(t, up.URL+form.path+"?strAtmServiceKey="+url.QueryEscape(key)))
				if status != http.StatusInternalServerError || !strings.Contains(answer, "potentially dangerous") {
					t.Fatalf("key %q: got %d %.300q, want request validation's 500", key, status, answer)
				}
				if !strings.Contains(answer, "Bravo") && !strings.Contains(answer, "Lima") {
					t.Fatalf("key %q: the answer %.600q quotes no part of the key: nothing to test", key, answer)
				}
				if err := rec.Stop(); err != nil {
					t.Fatal(err)
				}
				b, err := os.ReadFile(path)
				if err != nil {
					t.Fatal(err)
				}
				if !strings.Contains(string(b), "potentially dangerous") {
					t.Fatalf("the cassette holds no request validation error:\n%s", b)
				}
				for _, w := range words {
					if strings.Contains(string(b), w) {
						t.Errorf("the cassette holds %q of the key %q:\n%s", w, key, b)
					}
				}
			}
		})
	}
}
