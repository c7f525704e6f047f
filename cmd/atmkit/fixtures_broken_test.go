package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/atmkit/atmkit/fixtures"
)

// brokenSet is a data set of 20 generated ATMs, broken by edit.
type brokenSet struct {
	name string
	edit func(t *testing.T, dir string)
	// check is fixtures check's exit code; want is in its output and in
	// serve's one line on stderr, which also names --fixtures.
	check int
	want  string
}

// replaceIn replaces the first old by new in the file.
func replaceIn(t *testing.T, path, old, new string) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), old) {
		t.Fatalf("%s does not contain %q", path, old)
	}
	if err := os.WriteFile(path, []byte(strings.Replace(string(b), old, new, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
}

// editATM replaces the first old by new in the line of ATM id.
func editATM(t *testing.T, dir string, id int, old, new string) {
	t.Helper()
	path := filepath.Join(dir, "atms.jsonl")
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(b), "\n")
	l := &lines[id-1]
	if !strings.HasPrefix(*l, fmt.Sprintf(`{"id":%d,`, id)) || !strings.Contains(*l, old) {
		t.Fatalf("line %d of %s is not ATM %d's or holds no %q: %s", id, path, id, old, *l)
	}
	*l = strings.Replace(*l, old, new, 1)
	if err := os.WriteFile(path, []byte(strings.Join(lines, "\n")), 0o644); err != nil {
		t.Fatal(err)
	}
}

var brokenSets = []brokenSet{
	{"a value out of range", func(t *testing.T, dir string) {
		editATM(t, dir, 3, `"latitude":`, `"latitude":123.4,"x":`)
	}, exitFailure, "atms.jsonl:3 (id 3): coordinates.latitude: 123.4 is out of range [-90, 90]"},
	{"a missing file", func(t *testing.T, dir string) {
		if err := os.Remove(filepath.Join(dir, "cities.json")); err != nil {
			t.Fatal(err)
		}
	}, exitUsage, "cities.json: no such file or directory"},
	{"a directory for a file", func(t *testing.T, dir string) {
		path := filepath.Join(dir, "atms.jsonl")
		if err := os.Remove(path); err != nil {
			t.Fatal(err)
		}
		if err := os.Mkdir(path, 0o755); err != nil {
			t.Fatal(err)
		}
	}, exitUsage, "atms.jsonl: is a directory"},
	{"Windows-1252, not UTF-8", func(t *testing.T, dir string) {
		replaceIn(t, filepath.Join(dir, "cities.json"), `"Moncton"`, "\"Monct\xf3n\"")
	}, exitFailure, "cities.json: not UTF-8 at line 4, column 19 (byte 0xF3); save the file as UTF-8"},
	{"UTF-16", func(t *testing.T, dir string) {
		path := filepath.Join(dir, "provinces.json")
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		out := []byte{0xFF, 0xFE}
		for _, c := range b {
			out = append(out, c, 0)
		}
		if err := os.WriteFile(path, out, 0o644); err != nil {
			t.Fatal(err)
		}
	}, exitFailure, "provinces.json: is UTF-16 (it starts with a UTF-16 byte order mark); save it as UTF-8"},
	// A character of several bytes where JSON wants another was named by
	// its first byte, as if Latin-1: 'â' for a “, 'ï' for a byte order
	// mark; and a column counted bytes, not characters.
	{"a typographic quote", func(t *testing.T, dir string) {
		replaceIn(t, filepath.Join(dir, "cities.json"), `"name": "Moncton"`, `“name”: "Moncton"`)
	}, exitFailure, `cities.json: invalid JSON at line 4, column 5: invalid character '“' (U+201C, a typographic quote: JSON's quotes are ") looking for beginning of object key string`},
	{"a byte order mark inside a file", func(t *testing.T, dir string) {
		editATM(t, dir, 2, `{"id":2,`, "\uFEFF{\"id\":2,") // a second file joined on
	}, exitFailure, "atms.jsonl:2 (id 2): invalid JSON at column 1: invalid character U+FEFF (a byte order mark: only the start of a file may hold one) looking for beginning of value"},
	{"a column after an accent", func(t *testing.T, dir string) {
		editATM(t, dir, 5, `{"id":5,`, `{"id":5,"é":1 2,`)
	}, exitFailure, "atms.jsonl:5 (id 5): invalid JSON at column 15: invalid character '2' after object key:value pair"},
	// A record of a list file was named by its index alone, which an
	// editor cannot go to in an indented file: now the line it starts on
	// too (each city is 7 lines from line 2: the second starts on line 9).
	{"a city's id taken", func(t *testing.T, dir string) {
		replaceIn(t, filepath.Join(dir, "cities.json"), `"id": 102,`, `"id": 101,`)
	}, exitFailure, "cities.json:9[1] (id 101): id: 101 is used by an earlier city"},
	// A line of any length was read whole into memory (a file that lost
	// its line ends: all of it).
	{"a line over the limit", func(t *testing.T, dir string) {
		editATM(t, dir, 4, `{"id":4,`, `{"id":4,`+strings.Repeat(" ", fixtures.MaxLineBytes))
	}, exitFailure, "atms.jsonl:4: the line is longer than 1048576 bytes (1 MiB), the most a line of atms.jsonl may hold"},
	{"an id beyond int", func(t *testing.T, dir string) {
		editATM(t, dir, 20, `{"id":20,`, `{"id":2147483648,`)
	}, exitFailure, "atms.jsonl:20: id: 2147483648 is out of range [-2147483648, 2147483647]"},
}

// TestBrokenFixtures: fixtures check lists the problems of a broken data set
// (exit 1) or says it could not read it (exit 2); serve refuses the same set
// at start with exit 2 and one message naming --fixtures, the file and the
// line, rather than serving it; so does bench --fixtures.
func TestBrokenFixtures(t *testing.T) {
	t.Parallel()
	good := filepath.Join(t.TempDir(), "good")
	if code, _, stderr := runAtmkit(nil, "fixtures", "generate", "--seed", "9", "--atms", "20", "--out", good); code != 0 {
		t.Fatalf("fixtures generate: exit %d: %s", code, stderr)
	}
	for _, tt := range brokenSets {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			dir := filepath.Join(t.TempDir(), "data")
			if err := os.CopyFS(dir, os.DirFS(good)); err != nil {
				t.Fatal(err)
			}
			tt.edit(t, dir)

			code, stdout, stderr := runAtmkit(nil, "fixtures", "check", dir)
			if code != tt.check || !strings.Contains(stdout+stderr, tt.want) {
				t.Errorf("fixtures check: got exit %d and %q, want exit %d and %q", code, stdout+stderr, tt.check, tt.want)
			}
			// A data set that cannot be read: one line naming it once, as
			// serve's does (it said "fixtures check: load fixtures DIR: …").
			if prefix := "atmkit: fixtures check: " + dir + ": "; tt.check == exitUsage &&
				(!strings.HasPrefix(stderr, prefix) || strings.Count(stderr, dir) != 1 || strings.Count(stderr, "\n") != 1) {
				t.Errorf("fixtures check: got %q, want one line beginning %q, naming the directory once", stderr, prefix)
			}

			code, stdout, stderr = runAtmkitWithin(10*time.Second, nil, "serve", "--addr", "127.0.0.1:0", "--fixtures", dir)
			if prefix := "atmkit serve: --fixtures " + dir + ": "; code != exitUsage || !strings.HasPrefix(stderr, prefix) || !strings.Contains(stderr, tt.want) {
				t.Errorf("serve: got exit %d and %q (stdout %q), want exit %d and %q naming %q", code, stderr, stdout, exitUsage, prefix, tt.want)
			}
			if strings.Contains(stdout, "listening") {
				t.Errorf("serve: it started: %q", stdout)
			}

			code, _, stderr = runAtmkitWithin(10*time.Second, nil, "bench", "-d", "1s", "--fixtures", dir)
			if prefix := "atmkit bench: --fixtures " + dir + ": "; code != exitUsage || !strings.HasPrefix(stderr, prefix) || !strings.Contains(stderr, tt.want) {
				t.Errorf("bench: got exit %d and %q, want exit %d and %q naming %q", code, stderr, exitUsage, prefix, tt.want)
			}
		})
	}
}
