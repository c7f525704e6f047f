// Package cli is the flag plumbing atmkit's commands share: flag sets
// whose flags are mirrored by ATMKIT_* variables and read from config
// files, errors that name where a wrong value came from, validation
// helpers, the flags of a client reaching a deployment (TLS trust, client
// certificates, headers, timeout) and of a server's TLS, the banner lines
// that say how to reach a server, and output streams that mask keys.
package cli

import (
	"flag"
	"fmt"
	"io"
	"log/slog"
)

// Env is what a command reads and writes: its output streams and its
// environment, and where each of its flags got its value.
type Env struct {
	Stdout io.Writer
	Stderr io.Writer
	// Getenv reads the environment (os.Getenv in atmkit), for ATMKIT_* variables.
	Getenv func(string) string

	// origin records where each flag got its value, per flag set (Parse,
	// ApplyConfig), so errors can name the setting.
	origin map[*flag.FlagSet]map[string]string
}

// UsageError marks a wrong command line: atmkit exits 2. Cmd, when set,
// is the command whose --help the message points to.
type UsageError struct{ Cmd, Msg string }

func (e *UsageError) Error() string {
	if e.Cmd != "" {
		return e.Cmd + ": " + e.Msg
	}
	return e.Msg
}

// Usagef is a usage error of command cmd ("serve", "fixtures generate"),
// printed as one line that points to the command's --help; "" for atmkit
// itself.
func Usagef(cmd, format string, args ...any) error {
	return &UsageError{Cmd: cmd, Msg: fmt.Sprintf(format, args...)}
}

// Logger returns the logger of --log-format: text or JSON records on Stderr.
func (e *Env) Logger(format string) (*slog.Logger, error) {
	switch format {
	case "text", "":
		return slog.New(slog.NewTextHandler(e.Stderr, nil)), nil
	case "json":
		return slog.New(slog.NewJSONHandler(e.Stderr, nil)), nil
	}
	return nil, Usagef("", "--log-format %q: want text or json", format)
}

// Warnf prints a warning line on Stderr: "atmkit: WARNING: " and the text.
func (e *Env) Warnf(format string, args ...any) {
	fmt.Fprintf(e.Stderr, "atmkit: WARNING: "+format+"\n", args...)
}
