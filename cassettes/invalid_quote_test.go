package cassettes_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/atmkit/atmkit/cassettes"
)

// TestInvalidCassetteQuotesNoValue: a file refused as no cassette because
// a value has the wrong type (a key's file named as one, a foreign
// cassette's form written as a mapping of texts) is refused naming the
// line and the types, none of the value: yaml.v3's error quoted its first
// seven characters, and a cassette made elsewhere may hold raw keys.
func TestInvalidCassetteQuotesNoValue(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for name, content := range map[string]string{
		"keyfile.yaml": testKey + "\n",
		"list.yaml":    "interactions: " + testKey + "\n",
		"form.yaml":    "version: 2\ninteractions:\n  - request:\n      form: {strAtmServiceKey: " + testKey + "}\n",
		"header.yaml":  "version: 2\ninteractions:\n  - response:\n      headers: {X-Api-Key: " + testKey + "}\n      body: ok\n",
	} {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := cassettes.ReadFile(path)
		if !errors.Is(err, cassettes.ErrInvalidCassette) || !strings.Contains(err.Error(), "line ") {
			t.Errorf("%s: got %v, want ErrInvalidCassette naming the line", name, err)
			continue
		}
		if strings.Contains(err.Error(), testKey[:4]) {
			t.Errorf("%s: the error quotes the value: %v", name, err)
		}
	}
}
