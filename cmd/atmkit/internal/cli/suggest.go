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
// the command meant (-v, --verison: atmkit version). A group mistyped
// (cassettes) gets the group.
func Suggest(name string) string {
	name = strings.ToLower(name)
	near := func(c string) bool { return name == c || len(name) >= 4 && distance(name, c) <= 2 }
	if strings.HasPrefix(name, "-") {
		if name == "-v" {
			return " (did you mean: atmkit version?)"
		}
		flag := name
		name = strings.TrimLeft(name, "-")
		for _, c := range Commands { // --version, --serve: a command typed as a flag
			if !strings.Contains(c, " ") && near(c) {
				return " (did you mean: atmkit " + c + "?)"
			}
		}
		return " (a flag: give the command first, e.g. atmkit serve " + flag + ")"
	}
	if flag, ok := servesFlags[name]; ok {
		return " (a flag of serve: atmkit serve " + flag + ")"
	}
	var meant []string
	groups := map[string]bool{}
	for _, c := range Commands {
		words := strings.Fields(c)
		last := words[len(words)-1]
		switch {
		case name == last || len(words) == 1 && near(c):
			meant = append(meant, "atmkit "+c)
		case len(words) == 2 && !groups[words[0]] && near(words[0]): // cassettes, fixture
			groups[words[0]] = true
			meant = append(meant, "atmkit "+words[0])
		}
	}
	if len(meant) == 0 {
		return ""
	}
	return " (did you mean: " + strings.Join(meant, ", ") + "?)"
}

// closest is the one of names that name looks like a mistyping of (a
// letter or two off, in any case, two letters swapped counting as one):
// the nearest, "" when none is that near or more than one is as near.
func closest(name string, names []string) string {
	meant, best, tied := "", 0, false
	for _, n := range names {
		d := distance(strings.ToLower(name), n)
		switch {
		case d > 2 || d >= len(n):
		case meant == "" || d < best:
			meant, best, tied = n, d, false
		case d == best:
			tied = true
		}
	}
	if tied {
		return ""
	}
	return meant
}

// distance is the edit distance of a and b, in bytes: the letters inserted,
// deleted or replaced, and pairs of neighbours swapped (the optimal string
// alignment distance, Levenshtein's with transpositions), so that KYES is
// one from KEYS and two from KEY.
func distance(a, b string) int {
	rows := make([][]int, len(a)+1)
	for i := range rows {
		rows[i] = make([]int, len(b)+1)
		rows[i][0] = i
	}
	for j := range rows[0] {
		rows[0][j] = j
	}
	for i := 1; i <= len(a); i++ {
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			rows[i][j] = min(rows[i-1][j]+1, rows[i][j-1]+1, rows[i-1][j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				rows[i][j] = min(rows[i][j], rows[i-2][j-2]+1)
			}
		}
	}
	return rows[len(a)][len(b)]
}
