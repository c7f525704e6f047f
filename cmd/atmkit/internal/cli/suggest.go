package cli

import "strings"

// Commands are atmkit's commands as typed, subcommands with their group:
// what Suggest proposes. TestSuggestedCommandsExist (cmd/atmkit) runs each
// with --help.
var Commands = []string{
	"serve", "fixtures generate", "fixtures check", "record",
	"cassette list", "cassette scrub", "cassette verify",
	"shape show", "shape learn", "conform", "bench", "health", "version",
}

// servesFlags are words typed as commands that are flags of atmkit serve,
// as the command line that uses them (the deviations are listed by it).
var servesFlags = map[string]string{"deviate": "--deviate list"}

// Suggest returns what to tell after "unknown command NAME": the command
// meant, when name is a subcommand typed without its group (verify:
// cassette verify) or a command mistyped by a letter or two (sevre:
// serve), as " (did you mean: atmkit cassette verify?)"; "" otherwise.
//
// A flag given before any command (--addr, -v) gets where flags go, or
// the command meant (-v: atmkit version).
func Suggest(name string) string {
	name = strings.ToLower(name)
	if strings.HasPrefix(name, "-") {
		if name == "-v" {
			return " (did you mean: atmkit version?)"
		}
		return " (a flag: give the command first, e.g. atmkit serve " + name + ")"
	}
	if flag, ok := servesFlags[name]; ok {
		return " (a flag of serve: atmkit serve " + flag + ")"
	}
	var meant []string
	for _, c := range Commands {
		words := strings.Fields(c)
		last := words[len(words)-1]
		if name == last || (len(words) == 1 && len(name) >= 4 && distance(name, c) <= 2) {
			meant = append(meant, "atmkit "+c)
		}
	}
	if len(meant) == 0 {
		return ""
	}
	return " (did you mean: " + strings.Join(meant, ", ") + "?)"
}

// closest is the one of names that name looks like a mistyping of (a
// letter or two off, in any case); "" when none or more than one is.
func closest(name string, names []string) string {
	meant := ""
	for _, n := range names {
		if d := distance(strings.ToLower(name), n); d <= 2 && d < len(n) {
			if meant != "" {
				return ""
			}
			meant = n
		}
	}
	return meant
}

// distance is the Levenshtein distance of a and b, in bytes.
func distance(a, b string) int {
	prev := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur := make([]int, len(b)+1)
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev = cur
	}
	return prev[len(b)]
}
