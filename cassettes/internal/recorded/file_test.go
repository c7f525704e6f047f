package recorded

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"maps"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"gopkg.in/dnaeon/go-vcr.v3/cassette"
	"gopkg.in/yaml.v3"
)

// TestMarshalByItems: a cassette joined from interactions encoded one at a
// time is byte for byte what yaml.v3 writes for the whole list, for bodies
// that make the encoder fold, quote, or choose block styles (header values
// trimmed: yaml.v3 cannot write a list item with leading spaces that it
// reads back, TestMarshalItemReadsBack).
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
			Request:  cassette.Request{Method: "POST", URL: "http://upstream.example/service/service.asmx", Body: b, Headers: http.Header{"X-Body": {strings.TrimSpace(b)}}},
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
	if err := WriteItems(path, len(items), bytes.NewReader(bytes.Join(items, nil)), Style{}); err != nil {
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
// bytes, as a recorder re-marking an interaction it keeps only encoded needs,
// also one with strings MarshalItem writes double-quoted.
func TestItemRoundTrip(t *testing.T) {
	t.Parallel()
	list, err := ReadFile("../../testdata/golden.yaml")
	if err != nil {
		t.Fatal(err)
	}
	for j, b := range []string{"", "plain", strings.Repeat("a long line of words that the encoder may fold ", 12),
		"  leading spaces\nand lines\n\n\nwith blank lines between", "- looks like a list\n? looks like a key\n: value", "\x01 control \x7f characters",
		"\n  indented", "\t\ntab"} {
		list = append(list, &cassette.Interaction{
			ID:       len(list),
			Request:  cassette.Request{Method: "POST", URL: "http://upstream.example/service/service.asmx", Body: b, Form: map[string][]string{"a": {b}}},
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

// TestReadFileEmptyInteraction: an empty item of the interactions list is
// named by its position, counted from 0 and said to be one, not as an id
// would be (the file may hold that number as another interaction's id).
func TestReadFileEmptyInteraction(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "atm.yaml")
	text := "---\nversion: 2\ninteractions:\n    - id: 1\n    -\n    - id: 0\n"
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := ReadFile(path)
	if want := path + ": the interaction at position 1 (from 0) is empty"; !errors.Is(err, ErrInvalidCassette) || !strings.HasSuffix(err.Error(), want) {
		t.Errorf("got %v, want ErrInvalidCassette ending %q", err, want)
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

// TestFilesNoCassetteNames: an empty path, and a file whose name lacks
// .yaml or .yml when no NAME.yaml exists, are ErrCassetteNotFound saying
// so (a reader would look for NAME.yaml: "cassette not found: NAME.yaml"
// of a file that exists); with NAME.yaml beside it, NAME stands for that.
func TestFilesNoCassetteNames(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	rec, both := filepath.Join(dir, "rec"), filepath.Join(dir, "both")
	for _, f := range []string{rec, both, both + ".yaml"} {
		if err := os.WriteFile(f, []byte(emptyCassette), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range []struct{ path, want string }{
		{"", "cassette not found: an empty path names no cassette"},
		{rec, "cassette not found: " + rec + " is a file whose name does not end in .yaml or .yml: a cassette's name is NAME.yaml (a name without it stands for NAME.yaml, as go-vcr reads it); rename it " + rec + ".yaml"},
	} {
		if _, err := Files(c.path); !errors.Is(err, ErrCassetteNotFound) || err.Error() != c.want {
			t.Errorf("Files(%q): got %v, want ErrCassetteNotFound: %s", c.path, err, c.want)
		}
	}
	if got, err := Files(both); err != nil || !slices.Equal(got, []string{both + ".yaml"}) {
		t.Errorf("Files(%s): %q (%v), want %s.yaml", both, got, err, both)
	}
}

// placed puts s in one place of an interaction and reads it back from there.
type placed struct {
	name string
	put  func(i *cassette.Interaction, s string)
	get  func(i *cassette.Interaction) []string
}

var places = []placed{
	{"request body", func(i *cassette.Interaction, s string) { i.Request.Body = s }, func(i *cassette.Interaction) []string { return []string{i.Request.Body} }},
	{"form value", func(i *cassette.Interaction, s string) { i.Request.Form = map[string][]string{"q": {"plain", s}} }, func(i *cassette.Interaction) []string { return i.Request.Form["q"] }},
	{"form key", func(i *cassette.Interaction, s string) { i.Request.Form = map[string][]string{s: {"v"}} }, func(i *cassette.Interaction) []string { return slices.Sorted(maps.Keys(i.Request.Form)) }},
	{"request header value", func(i *cassette.Interaction, s string) { i.Request.Headers = http.Header{"X-A": {s}} }, func(i *cassette.Interaction) []string { return i.Request.Headers["X-A"] }},
	{"URL", func(i *cassette.Interaction, s string) { i.Request.URL = s }, func(i *cassette.Interaction) []string { return []string{i.Request.URL} }},
	{"response body", func(i *cassette.Interaction, s string) { i.Response.Body = s }, func(i *cassette.Interaction) []string { return []string{i.Response.Body} }},
	{"response header value", func(i *cassette.Interaction, s string) { i.Response.Headers = http.Header{"X-A": {s}} }, func(i *cassette.Interaction) []string { return i.Response.Headers["X-A"] }},
	{"response trailer value", func(i *cassette.Interaction, s string) { i.Response.Trailer = http.Header{"X-A": {s}} }, func(i *cassette.Interaction) []string { return i.Response.Trailer["X-A"] }},
}

// TestMarshalItemReadsBack: strings yaml.v3 (v3.0.1) writes as literal
// blocks it cannot read back, or as a merge key, are read back, in every
// place, by ReadFile and by go-vcr's cassette.Load. Left to yaml.v3, a string beginning with a line
// break lost it everywhere ("\n  indented" read back as "  indented"), and
// inside a list (form and header values) one beginning with a space or a
// break was cut ("indented") or made the file unreadable ("did not find
// expected '-' indicator"), as was any string whose first line begins with a
// tab ("found a tab character where an indentation space is expected").
func TestMarshalItemReadsBack(t *testing.T) {
	t.Parallel()
	strs := []string{
		"\n  indented", "\n", "\n\n", "\nx", "\n\nx", "\n\n  x", "\n a\n", "\n\tx", "\n\t\nx", "\n\u00a0x",
		"  a\nb", " a\n", "  leading spaces\nand lines\n\n\nwith blank lines between", "\t\nx", "\tx\ny",
		"a\n  b", "a\n\tb", "a\r\nb", "\r", "\r\n  x", "\u2028 x", "\u0085  x", "x\n ", "---", "a\n---\nb", "a\n...\nb", "#x\ny", "trail  \nb",
		// YAML's indicators and special plain scalars: "<<" as a map key (a
		// form parameter's name) was written plain and read as a merge key.
		"<<", "<< ", "<<:", "~", "null", "NULL", "true", "yes", "no", "on", "0x1F", "1e3", ".inf", ".nan", "=", "? x", "- x", ": x", "*a", "&a", "!x", "!!binary x",
		"%x", "@x", "`x", "{", "}", "[", "]", ",", "'", "\"", "#", "|", ">", "x #y", "x: y", "",
	}
	dir := t.TempDir()
	for _, p := range places {
		for n, s := range strs {
			i := &cassette.Interaction{Request: cassette.Request{Method: "POST", URL: "http://upstream.example/service/service.asmx"}}
			p.put(i, s)
			item, err := MarshalItem(i)
			if err != nil {
				t.Fatalf("%s %q: %v", p.name, s, err)
			}
			path := filepath.Join(dir, fmt.Sprintf("c%d-%d", len(p.name), n))
			if err := WriteItems(FilePath(path), 1, bytes.NewReader(item), Style{}); err != nil {
				t.Fatal(err)
			}
			want := p.get(i)
			list, err := ReadFile(path)
			if err != nil {
				t.Errorf("%s %q: ReadFile: %v\n%s", p.name, s, err, item)
			} else if got := p.get(list[0]); !slices.Equal(got, want) {
				t.Errorf("%s %q: ReadFile read %q\n%s", p.name, s, got, item)
			}
			c, err := cassette.Load(path)
			if err != nil {
				t.Errorf("%s %q: cassette.Load: %v\n%s", p.name, s, err, item)
			} else if got := p.get(c.Interactions[0]); !slices.Equal(got, want) {
				t.Errorf("%s %q: cassette.Load read %q\n%s", p.name, s, got, item)
			}
		}
	}
}

// TestMarshalItemKeepsLiteralBodies: only the strings yaml.v3 cannot write
// as literal blocks are double-quoted; an ordinary multi-line body in the
// same interaction stays a literal block.
func TestMarshalItemKeepsLiteralBodies(t *testing.T) {
	t.Parallel()
	i := &cassette.Interaction{
		Request: cassette.Request{Method: "POST", URL: "http://upstream.example/service/service.asmx/FindAtms",
			Body: "City=%0A++indented", Form: map[string][]string{"City": {"\n  indented"}}},
		Response: cassette.Response{Code: 200, Body: "<?xml version=\"1.0\"?>\n<a>\n  <b>x</b>\n</a>\n"},
	}
	item, err := MarshalItem(i)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"\n                - \"\\n  indented\"\n", "\n        body: |\n            <?xml version=\"1.0\"?>\n            <a>\n"} {
		if !strings.Contains(string(item), want) {
			t.Errorf("item lacks %q:\n%s", want, item)
		}
	}
}

// FuzzMarshalItemRoundTrip: any strings in the body, a form key and value,
// and a header value of the request and the response read back as written.
func FuzzMarshalItemRoundTrip(f *testing.F) {
	f.Add("<a>\n  <b/>\n</a>\n", "City", "\n  indented", "  lead\nx", "\t\nx")
	f.Add("", "\n k", " v\n", "\r\n", "\u2028")
	f.Fuzz(func(t *testing.T, body, key, value, header, respBody string) {
		i := &cassette.Interaction{
			Request: cassette.Request{Method: "POST", URL: "http://upstream.example/service/service.asmx", Body: body,
				Form: map[string][]string{key: {value, body}}, Headers: http.Header{"X-A": {header, value}}},
			Response: cassette.Response{Code: 200, Body: respBody, Headers: http.Header{"X-B": {respBody, key}}},
		}
		item, err := MarshalItem(i)
		if err != nil {
			t.Fatal(err)
		}
		back, err := UnmarshalItem(item)
		if err != nil {
			t.Fatalf("%v\n%s", err, item)
		}
		q, p := back.Request, back.Response
		if q.Body != body || !slices.Equal(q.Form[key], []string{value, body}) || !slices.Equal(q.Headers["X-A"], []string{header, value}) ||
			p.Body != respBody || !slices.Equal(p.Headers["X-B"], []string{respBody, key}) {
			t.Fatalf("read back otherwise: %#v %#v\n%s", q, p, item)
		}
	})
}

// endingCtx is a context whose Err is nil for its first after calls and
// context.Canceled from then on; it counts the calls.
type endingCtx struct {
	context.Context
	after, calls int
}

func (c *endingCtx) Err() error {
	if c.calls++; c.calls > c.after {
		return context.Canceled
	}
	return nil
}

// TestReadFileContextStops: a context that ends while a cassette is parsed
// stops the parse there (yaml.v3 parsed a whole file of hundreds of
// megabytes in one call, for tens of seconds, Ctrl-C unheard): the context
// is consulted while parsing, and not again once it ended; the error is
// the context's, not an invalid cassette.
func TestReadFileContextStops(t *testing.T) {
	t.Parallel()
	body := strings.Repeat("<location>somewhere</location>\n", 2000) // 60 KB
	var list []*cassette.Interaction
	for i := range 40 { // about 2.4 MB
		list = append(list, &cassette.Interaction{ID: i,
			Request:  cassette.Request{Method: "GET", URL: fmt.Sprintf("http://upstream.example/s?n=%d", i)},
			Response: cassette.Response{Code: 200, Status: "200 OK", Body: body}})
	}
	path := filepath.Join(t.TempDir(), "big.yaml")
	if err := WriteFile(path, list); err != nil {
		t.Fatal(err)
	}
	ctx := &endingCtx{Context: context.Background(), after: 3}
	got, err := ReadFileContext(ctx, path)
	if !errors.Is(err, context.Canceled) || errors.Is(err, ErrInvalidCassette) || got != nil {
		t.Fatalf("got %v (%d interactions), want context.Canceled and none", err, len(got))
	}
	// 3 nil, the one that ends the parse, the checks after it; a whole
	// parse of the file consults it about 70 times.
	if ctx.calls < 4 || ctx.calls > 6 {
		t.Errorf("the context was consulted %d times, want it during the parse and the parse to stop when it ended", ctx.calls)
	}
	if all, err := ReadFileContext(context.Background(), path); err != nil || len(all) != len(list) {
		t.Errorf("ReadFileContext without an end: %d interactions, %v; want %d", len(all), err, len(list))
	}
}

// TestFilesAnyCase: a cassette named NAME.YAML, .YML, .Yaml (as one saved
// on Windows or macOS may be) is a cassette: a directory stands for it, and
// its path names it as it is, not NAME.YAML.yaml. Dot files and other
// extensions are no cassettes.
func TestFilesAnyCase(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	names := []string{"a.YAML", "b.YML", "c.Yaml", "d.yml", "e.yaml"}
	for _, name := range append([]string{".f.YAML", "g.yaml.txt", "h.YAMLX"}, names...) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(emptyCassette), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var want []string
	for _, name := range names {
		want = append(want, filepath.Join(dir, name))
	}
	if got, err := Files(dir); err != nil || !slices.Equal(got, want) {
		t.Errorf("Files(dir): %q (%v), want %q", got, err, want)
	}
	for _, path := range want {
		if got := FilePath(path); got != path {
			t.Errorf("FilePath(%s) = %s, want it as it is", path, got)
		}
		if got, err := Files(path); err != nil || !slices.Equal(got, []string{path}) {
			t.Errorf("Files(%s): %q (%v)", path, got, err)
		}
		if _, err := ReadFile(path); err != nil {
			t.Errorf("ReadFile(%s): %v", path, err)
		}
	}
	if got := FilePath(filepath.Join(dir, "atm")); got != filepath.Join(dir, "atm.yaml") {
		t.Errorf("FilePath(atm) = %s, want atm.yaml", got)
	}
}
