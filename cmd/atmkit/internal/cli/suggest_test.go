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
		"mock":       "",
		"x":          "",
		"--upstream": "",
	} {
		if got := Suggest(name); got != want {
			t.Errorf("Suggest(%q): got %q, want %q", name, got, want)
		}
	}
}
