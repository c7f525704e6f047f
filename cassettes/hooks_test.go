package cassettes_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/atmkit/atmkit/asmx"
	"github.com/atmkit/atmkit/cassettes"
	"gopkg.in/dnaeon/go-vcr.v3/cassette"
)

// TestBeforeSaveHookCannotWriteAKey: what a BeforeSave hook writes into an
// interaction is scrubbed as the capture was, so no hook can put a key back
// into the file; without such a hook the interaction is scrubbed once.
func TestBeforeSaveHookCannotWriteAKey(t *testing.T) {
	t.Parallel()
	up, _ := standIn(t)
	const leaked = "hook-written-key-7731"
	for name, hook := range map[string]func(*cassette.Interaction) error{
		"key in the URL": func(i *cassette.Interaction) error {
			i.Request.URL += "&strAtmServiceKey=" + leaked
			return nil
		},
		"key in the body": func(i *cassette.Interaction) error {
			i.Request.Body = "<strAtmServiceKey>" + leaked + "</strAtmServiceKey>"
			return nil
		},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			path := filepath.Join(t.TempDir(), "hooked.yaml")
			rec, err := cassettes.New(path, cassettes.WithMode(cassettes.ModeRecordAll), cassettes.WithHook(cassettes.BeforeSave, hook))
			if err != nil {
				t.Fatal(err)
			}
			if status, body := do(t, rec.Client(), request(t, up.URL, asmx.HTTPGet, query{Op: asmx.OpReturnProvinces}, testKey, false)); status != 200 {
				t.Fatalf("status %d: %.200s", status, body)
			}
			if err := rec.Stop(); err != nil {
				t.Fatal(err)
			}
			b, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if strings.Contains(string(b), leaked) || strings.Contains(string(b), testKey) {
				t.Errorf("the cassette holds a key:\n%s", b)
			}
			if !strings.Contains(string(b), cassettes.Placeholder) {
				t.Errorf("the cassette holds no %s:\n%s", cassettes.Placeholder, b)
			}
		})
	}
}
