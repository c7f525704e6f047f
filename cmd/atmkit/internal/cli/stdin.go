package cli

import (
	"flag"
	"fmt"
	"io"
	"os"
	"slices"

	"github.com/atmkit/atmkit/internal/tty"
)

// Standard input ("-") is read by the inputs that are one document read
// once, as a pipe gives it: a shape (--shape) and serve's config file
// (--config), what a CI job makes in one step and hands the next. The
// inputs atmkit names in what it reports, or rewrites in place, or that
// are no single document do not read it, and refuse "-" saying so:
// cassettes (served and listed as atm.yaml#6, rewritten by scrub and
// verify --update), a data set (a directory), a PEM file (several may be
// given at once; <(command) gives a command's output as a file).

// ShownInput is an input's name as messages show it: "- (standard
// input)" for "-".
func ShownInput(path string) string {
	if path == "-" {
		return "- (standard input)"
	}
	return path
}

// readStdin reads standard input whole for the flag name ("-"), no more
// than limit bytes and one (a longer input is the caller's to refuse); a
// problem, for the flag's usage error, when it cannot: standard input is
// a terminal (it would wait for typing, which Ctrl-C does not end), or
// another flag read it already.
func (e *Env) readStdin(name string, limit int64) ([]byte, string) {
	if e.stdinReadBy != "" {
		return nil, "standard input was read by --" + e.stdinReadBy + " already; give this one a file"
	}
	in := e.Stdin
	if in == nil {
		in = os.Stdin
	}
	if f, ok := in.(*os.File); ok && tty.IsTerminal(f) {
		return nil, "standard input is a terminal; pipe the file in (< FILE, or another command's output), or name the file"
	}
	e.stdinReadBy = name
	data, err := io.ReadAll(io.LimitReader(in, limit+1))
	if err != nil {
		return nil, fmt.Sprintf("reading standard input: %v", err)
	}
	return data, ""
}

// StdinNotRead is the problem of an input that does not read standard
// input given "-": instead says what to give instead (DirInput,
// CassetteInput, PEMInput). "" for any other path.
func StdinNotRead(path, instead string) string {
	if path != "-" {
		return ""
	}
	return "standard input is not read here: " + instead
}

// What the inputs that do not read standard input take instead, for
// StdinNotRead.
const (
	// DirInput: a data set is a directory of files.
	DirInput = "name a directory (./- for one named -)"
	// CassetteInput: a cassette is named by its file in what atmkit
	// reports (atm.yaml#6), and rewritten in place.
	CassetteInput = "name a cassette file or directory (./- for one named -); atmkit names a cassette by its file in what it reports (atm.yaml#6)"
	// PEMInput: several PEM files may be given at once; a command's
	// output is one with <(command).
	PEMInput = "name a PEM file (./- for one named -), or give a command's output as one with <(command)"
)

// noStdinPEM refuses "-" for the PEM file flags of fs among pairs (a
// flag's name, then its value).
func (e *Env) noStdinPEM(fs *flag.FlagSet, pairs ...string) error {
	for i := 0; i+1 < len(pairs); i += 2 {
		if p := StdinNotRead(pairs[i+1], PEMInput); p != "" {
			return e.BadSetting(fs, pairs[i], p)
		}
	}
	return nil
}

// CheckNoStdin is StdinNotRead for the first of paths that is "-".
func CheckNoStdin(paths []string, what string) string {
	if slices.Contains(paths, "-") {
		return StdinNotRead("-", what)
	}
	return ""
}
