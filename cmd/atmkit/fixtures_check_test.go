package main

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/atmkit/atmkit/fixtures"
)

// TestFixturesCheckSaysItIsReading: a check of a large data set says on
// stderr what it reads before the seconds it takes (a million ATMs: 434 MB,
// seconds of silence before), as serve and bench do; a small one says
// nothing there.
func TestFixturesCheckSaysItIsReading(t *testing.T) {
	t.Parallel()
	for _, n := range []int{300, fixtures.LargeATMs} {
		dir := filepath.Join(t.TempDir(), "data")
		if code, _, errOut := runFixturesCmd(t, nil, "fixtures", "generate", "--seed", "4", "--atms", strconv.Itoa(n), "--out", dir); code != 0 {
			t.Fatalf("generate: got exit %d; stderr %q", code, errOut)
		}
		if !fixtures.IsLarge(dir) == (n >= fixtures.LargeATMs) {
			t.Fatalf("IsLarge(%d ATMs) = %v", n, fixtures.IsLarge(dir))
		}
		code, _, errOut := runFixturesCmd(t, nil, "fixtures", "check", dir)
		if code != 0 {
			t.Fatalf("check: got exit %d; stderr %q", code, errOut)
		}
		want := "atmkit fixtures check: reading " + dir + " ("
		if got := strings.Contains(errOut, want); got != (n >= fixtures.LargeATMs) {
			t.Errorf("%d ATMs: got stderr %q, want it to contain %q: %v", n, errOut, want, n >= fixtures.LargeATMs)
		}
	}
}

// TestFixturesCheckPrintsNoControlCharacters: a data set's province code
// with a line end and an escape sequence (one that sets a terminal's
// title) is printed escaped, one problem a line.
func TestFixturesCheckPrintsNoControlCharacters(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "data")
	if code, _, errOut := runFixturesCmd(t, nil, "fixtures", "generate", "--atms", "5", "--out", dir); code != 0 {
		t.Fatalf("generate: got exit %d; stderr %q", code, errOut)
	}
	provinces := "[{\"code\":\"N\\nX\\u001b]0;pwned\\u0007\",\"name\":\"x\",\"postalPrefixes\":\"B\",\"atlantic\":true}]"
	if err := os.WriteFile(filepath.Join(dir, fixtures.ProvincesFile), []byte(provinces), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, _ := runFixturesCmd(t, nil, "fixtures", "check", dir)
	if code != 1 {
		t.Fatalf("got exit %d, want 1", code)
	}
	if strings.ContainsAny(out, "\x1b\x07") {
		t.Errorf("stdout holds control characters: %q", out)
	}
	for line := range strings.Lines(out) {
		if !strings.HasPrefix(line, "provinces.json") && !strings.HasPrefix(line, "institutions.json") &&
			!strings.HasPrefix(line, "cities.json") && !strings.HasPrefix(line, "atms.jsonl") {
			t.Errorf("a line that names no file: %q", line)
		}
	}
	if want := `provinces.json:1[0] (code N\nX\x1b]0;pwned\a): code:`; !strings.Contains(out, want) {
		t.Errorf("got %q, want it to contain %q", out, want)
	}
}

// TestFixturesCheckNoATMs: an empty atms.jsonl is a valid data set (a
// deployment whose table is empty answers every search with an empty
// list), exit 0, and the check says on stderr that it holds no ATMs; a
// data set with ATMs gets no such note.
func TestFixturesCheckNoATMs(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "data")
	if code, _, errOut := runFixturesCmd(t, nil, "fixtures", "generate", "--atms", "5", "--out", dir); code != 0 {
		t.Fatalf("generate: got exit %d; stderr %q", code, errOut)
	}
	note := "atmkit fixtures check: note: " + filepath.Join(dir, fixtures.ATMsFile) + " holds no ATMs: served, every ATM search answers an empty list\n"
	if code, _, errOut := runFixturesCmd(t, nil, "fixtures", "check", dir); code != 0 || strings.Contains(errOut, "note:") {
		t.Errorf("5 ATMs: got exit %d and stderr %q, want exit 0 and no note", code, errOut)
	}
	if err := os.WriteFile(filepath.Join(dir, fixtures.ATMsFile), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := runFixturesCmd(t, nil, "fixtures", "check", dir)
	if code != 0 || !strings.Contains(out, ": valid: ") || !strings.Contains(out, ", 0 ATMs (checked in") || errOut != note {
		t.Errorf("no ATMs: got exit %d, stdout %q and stderr %q; want exit 0, valid with 0 ATMs, and stderr %q", code, out, errOut, note)
	}
}
