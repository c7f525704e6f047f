package cassettes_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"

	"github.com/atmkit/atmkit/cassettes"
)

// TestRecordAnyExtension: a recording (atmkit record's mode) writes the
// cassette its path names, .yml or .YAML too, and reads it back; it
// refused any name but NAME.yaml ("go-vcr cassettes end in .yaml"), which
// only go-vcr's replay needs. A mode that replays through go-vcr still
// says so.
func TestRecordAnyExtension(t *testing.T) {
	t.Parallel()
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.WriteString(w, "<provinces />")
	}))
	defer up.Close()
	dir := t.TempDir()
	for _, name := range []string{"atm.yml", "atm.YAML", "other.Yml"} {
		path := filepath.Join(dir, name)
		rec, err := cassettes.New(path, cassettes.WithMode(cassettes.ModeRecordAll))
		if err != nil {
			t.Errorf("New(%s): %v", name, err)
			continue
		}
		resp, err := rec.Client().Get(up.URL + "/service/service.asmx/ReturnProvinces?strAtmServiceKey=k")
		if err == nil {
			resp.Body.Close()
		}
		if err := rec.Stop(); err != nil {
			t.Errorf("%s: %v", name, err)
		}
		if list, err := cassettes.ReadFile(path); err != nil || len(list) != 1 {
			t.Errorf("%s: %d interactions (%v), want 1", name, len(list), err)
		}
		if _, err := os.Stat(path + ".yaml"); err == nil {
			t.Errorf("%s: recorded to %s.yaml", name, name)
		}
	}
	if _, err := cassettes.New(filepath.Join(dir, "atm.yml"), cassettes.WithMode(cassettes.ModeReplayOnly)); err == nil {
		t.Error("replay of atm.yml through go-vcr: no error, want one saying go-vcr cassettes end in .yaml")
	}
}
