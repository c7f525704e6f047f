package cli

import "testing"

// TestSuggest: a subcommand typed without its group, and a command
// mistyped by a letter or two, get the command meant; anything else
// nothing.
func TestSuggest(t *testing.T) {
	t.Parallel()
	for name, want := range map[string]string{
		"verify":     " (did you mean: atmkit cassette verify?)",
		"learn":      " (did you mean: atmkit shape learn?)",
		"generate":   " (did you mean: atmkit fixtures generate?)",
		"check":      " (did you mean: atmkit fixtures check?)",
		"sevre":      " (did you mean: atmkit serve?)",
		"Serve":      " (did you mean: atmkit serve?)",
		"recrod":     " (did you mean: atmkit record?)",
		"conforms":   " (did you mean: atmkit conform?)",
		"helath":     " (did you mean: atmkit health?)",
		"replay":     "",
		"deviate":    " (a flag of serve: atmkit serve --deviate list)",
		"mock":       "",
		"x":          "",
		"--upstream": " (a flag: give the command first, e.g. atmkit serve --upstream)",
		"-v":         " (did you mean: atmkit version?)",
		// A group mistyped, and a command typed as a flag, got nothing, or
		// "give the command first, e.g. atmkit serve --verison".
		"cassettes": " (did you mean: atmkit cassette?)",
		"fixture":   " (did you mean: atmkit fixtures?)",
		"Shapes":    " (did you mean: atmkit shape?)",
		"--verison": " (did you mean: atmkit version?)",
		"--serve":   " (did you mean: atmkit serve?)",
		"-health":   " (did you mean: atmkit health?)",
	} {
		if got := Suggest(name); got != want {
			t.Errorf("Suggest(%q): got %q, want %q", name, got, want)
		}
	}
}

// TestClosest: a name a letter or two off one of the names (two letters
// swapped count as one), or in another case, gets it, the nearest of two;
// one as far from two names, or from all, gets nothing.
func TestClosest(t *testing.T) {
	t.Parallel()
	names := []string{"addr", "admin-token", "journal-size", "list", "scrub", "verify", "c"}
	for name, want := range map[string]string{
		"adr":          "addr",
		"jounral-size": "journal-size",
		"LIST":         "list",
		"lst":          "list",
		"verfy":        "verify",
		"vreify":       "verify", // two letters swapped: one off
		"x":            "",       // one off "c", but as long as it: anything would be
		"generate":     "",
	} {
		if got := closest(name, names); got != want {
			t.Errorf("closest(%q): got %q, want %q", name, got, want)
		}
	}
	if got := closest("ab", []string{"abc", "abd"}); got != "" {
		t.Errorf("closest(ab) of abc and abd: got %q, want none", got)
	}
	// KYES: KEYS swapped (one), KEY two off: the nearest.
	if got := closest("kyes", []string{"key", "keys"}); got != "keys" {
		t.Errorf("closest(kyes) of key and keys: got %q, want keys", got)
	}
}
