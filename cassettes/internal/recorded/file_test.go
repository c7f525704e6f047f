package recorded

import (
	"bytes"
	"errors"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gopkg.in/dnaeon/go-vcr.v3/cassette"
	"gopkg.in/yaml.v3"
)

// TestMarshalByItems: a cassette joined from interactions encoded one at a
// time is byte for byte what yaml.v3 writes for the whole list, for bodies
// that make the encoder fold, quote, or choose block styles.
func TestMarshalByItems(t *testing.T) {
	t.Parallel()
	golden, err := ReadFile("../../testdata/golden.yaml")
	if err != nil {
		t.Fatal(err)
	}
	bodies := []string{
		"",
		"plain",
		strings.Repeat("a long line of words that the encoder may fold ", 12),
		"<?xml version=\"1.0\"?>\n<a>\n  <b>x</b>\n</a>\n",
		"  leading spaces\nand lines\n\n\nwith blank lines between",
		"trailing spaces   \nsecond line\t\n",
		"ünïcödé — “quotes” & <angles> 'single' \"double\" # hash: colon",
		"- looks like a list\n? looks like a key\n: value",
		"\x01 control \x7f characters",
		strings.Repeat("x", 300),
	}
	list := append([]*cassette.Interaction(nil), golden...)
	for j, b := range bodies {
		list = append(list, &cassette.Interaction{
			ID:       len(list),
			Request:  cassette.Request{Method: "POST", URL: "http://upstream.example/service/service.asmx", Body: b, Headers: http.Header{"X-Body": {b}}},
			Response: cassette.Response{Code: 200 + j, Body: b, Headers: http.Header{"Content-Type": {"text/xml; charset=utf-8"}}},
		})
	}
	whole, err := yaml.Marshal(file{Version: cassette.CassetteFormatV2, Interactions: list})
	if err != nil {
		t.Fatal(err)
	}
	want := append([]byte("---\n"), whole...)
	got, err := marshal(list)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("joined items differ from the whole list's encoding:\n%s\n----\n%s", got, want)
	}
	items := make([][]byte, len(list))
	for j, i := range list {
		if items[j], err = MarshalItem(i); err != nil {
			t.Fatal(err)
		}
	}
	path := filepath.Join(t.TempDir(), "streamed.yaml")
	if err := WriteItems(path, items); err != nil {
		t.Fatal(err)
	}
	if data, err := os.ReadFile(path); err != nil || !bytes.Equal(data, want) {
		t.Errorf("WriteItems wrote otherwise than the whole list's encoding (err %v):\n%s", err, data)
	}
	empty, err := yaml.Marshal(file{Version: cassette.CassetteFormatV2, Interactions: []*cassette.Interaction{}})
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := marshal(nil); string(got) != "---\n"+string(empty) {
		t.Errorf("empty cassette: got %q, want %q", got, "---\n"+string(empty))
	}
}

// TestItemRoundTrip: an item read back (UnmarshalItem) encodes to the same
// bytes, as a recorder re-marking an interaction it keeps only encoded needs.
// (Multi-line values with leading spaces inside a sequence, such as a
// header's, are left out: yaml.v3 writes them in a form it cannot read back,
// in a whole file too.)
func TestItemRoundTrip(t *testing.T) {
	t.Parallel()
	list, err := ReadFile("../../testdata/golden.yaml")
	if err != nil {
		t.Fatal(err)
	}
	for j, b := range []string{"", "plain", strings.Repeat("a long line of words that the encoder may fold ", 12),
		"  leading spaces\nand lines\n\n\nwith blank lines between", "- looks like a list\n? looks like a key\n: value", "\x01 control \x7f characters"} {
		list = append(list, &cassette.Interaction{
			ID:       len(list),
			Request:  cassette.Request{Method: "POST", URL: "http://upstream.example/service/service.asmx", Body: b, Form: map[string][]string{"a": {strings.TrimSpace(b)}}},
			Response: cassette.Response{Code: 200 + j, Body: b, Headers: http.Header{"Content-Type": {"text/xml; charset=utf-8"}}},
		})
	}
	for j, i := range list {
		item, err := MarshalItem(i)
		if err != nil {
			t.Fatal(err)
		}
		back, err := UnmarshalItem(item)
		if err != nil {
			t.Fatalf("item %d: %v\n%s", j, err, item)
		}
		again, err := MarshalItem(back)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(again, item) {
			t.Errorf("item %d read back encodes otherwise:\n%s\n----\n%s", j, again, item)
		}
	}
	if _, err := UnmarshalItem([]byte("    - id: 0\n    - id: 1\n")); err == nil {
		t.Error("two items read as one")
	}
}

// TestReadFileNotACassette: a YAML file that is no cassette (a settings
// file in a cassette directory) is named as such.
func TestReadFileNotACassette(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "settings.yaml")
	if err := os.WriteFile(path, []byte("addr: 127.0.0.1:8080\nkey: [a, b]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := ReadFile(path)
	if !errors.Is(err, ErrInvalidCassette) || !strings.Contains(err.Error(), "no go-vcr cassette") {
		t.Errorf("got %v, want ErrInvalidCassette saying it is no cassette", err)
	}
}

// TestFilesMissing: a path that names nothing is ErrCassetteNotFound naming
// what was looked for: the path given and, for one without .yaml, the
// cassette file it may stand for (a directory may have been meant); a path
// ending in a separator names a directory, and only that.
func TestFilesMissing(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for _, c := range []struct{ path, want string }{
		{filepath.Join(dir, "cassettes"), filepath.Join(dir, "cassettes.yaml") + " (no file or directory " + filepath.Join(dir, "cassettes") + " either)"},
		{filepath.Join(dir, "search.yaml"), filepath.Join(dir, "search.yaml")},
		{filepath.Join(dir, "cassettes") + string(filepath.Separator), "no directory " + filepath.Join(dir, "cassettes") + string(filepath.Separator)},
	} {
		_, err := Files(c.path)
		if !errors.Is(err, ErrCassetteNotFound) || err.Error() != "cassette not found: "+c.want {
			t.Errorf("Files(%s): got %v, want ErrCassetteNotFound: %s", c.path, err, c.want)
		}
	}
}
