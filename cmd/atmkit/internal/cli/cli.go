// Package cli is the flag plumbing atmkit's commands share: flag sets
// whose flags are mirrored by ATMKIT_* variables and read from config
// files, errors that name where a wrong value came from, validation
// helpers, the flags of a client reaching a deployment (TLS trust, client
// certificates, headers, timeout) and of a server's TLS, the banner lines
// that say how to reach a server, and output streams that mask keys.
package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"slices"
	"strings"
)

// Exit codes of atmkit.
const (
	ExitOK      = 0 // success, or an explicit --help
	ExitFailure = 1 // the command ran and failed (a failing conformance run, a server error)
	ExitUsage   = 2 // the command line was wrong
)

// Env is what a command reads and writes: its output streams and its
// environment, and where each of its flags got its value.
type Env struct {
	Stdout io.Writer
	Stderr io.Writer
	// Getenv reads the environment (os.Getenv in atmkit), for ATMKIT_* variables.
	Getenv func(string) string
	// Environ lists the environment (os.Environ in atmkit), for the
	// warning about ATMKIT_* variables no command reads; nil: no warning.
	Environ func() []string

	// Stdin is standard input, which --shape - and --config - read; nil:
	// os.Stdin.
	Stdin io.Reader

	// envChecked is set once the environment was checked (warnUnknownEnv).
	envChecked bool
	// stdinReadBy is the flag that read Stdin, which is read once.
	stdinReadBy string

	// origin records where each flag got its value, per flag set (Parse,
	// ApplyConfig), so errors can name the setting.
	origin map[*flag.FlagSet]map[string]string
	// masks are the forms of the keys HideKeys masks in Stdout and Stderr.
	masks *maskSet
}

// UsageError marks a wrong command line: atmkit exits 2. Cmd, when set,
// is the command whose --help the message points to.
type UsageError struct{ Cmd, Msg string }

// Error returns the command and the message, as atmkit prints them.
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

// Logger returns the logger of --log-format and --log-level: text or JSON
// records on Stderr, of level at least level ("" is info).
func (e *Env) Logger(format, level string) (*slog.Logger, error) {
	lv, err := logLevel(level)
	if err != nil {
		return nil, err
	}
	opts := &slog.HandlerOptions{Level: lv}
	switch format {
	case "text", "":
		return slog.New(slog.NewTextHandler(e.Stderr, opts)), nil
	case "json":
		return slog.New(slog.NewJSONHandler(e.Stderr, opts)), nil
	}
	return nil, Usagef("", "--log-format %q: want text or json", format)
}

// logLevels are the values of --log-level.
var logLevels = map[string]slog.Level{"debug": slog.LevelDebug, "info": slog.LevelInfo, "": slog.LevelInfo,
	"warn": slog.LevelWarn, "error": slog.LevelError}

// logLevel reads --log-level (any case).
func logLevel(s string) (slog.Level, error) {
	if lv, ok := logLevels[strings.ToLower(s)]; ok {
		return lv, nil
	}
	return 0, Usagef("", "--log-level %q: want debug, info, warn or error", s)
}

// Warnf prints a warning line on Stderr: "atmkit: WARNING: " and the text.
func (e *Env) Warnf(format string, args ...any) {
	fmt.Fprintf(e.Stderr, "atmkit: WARNING: "+format+"\n", args...)
}

// WarnKeySpaces warns when key, a service key from --key or ATMKIT_KEY
// that the command sends, has white space at its ends: it is sent so, and
// a deployment (the mock too) refuses it. cmd.exe's `set ATMKIT_KEY=k &&
// atmkit ...` leaves such a space in the variable.
func (e *Env) WarnKeySpaces(key string) {
	if key != strings.TrimSpace(key) {
		e.Warnf("the key (--key or ATMKIT_KEY) has white space at its ends and is sent so; in cmd.exe, `set ATMKIT_KEY=k && atmkit ...` keeps the space before && (write `set \"ATMKIT_KEY=k\"`)")
	}
}

// ExitError is the error of a command that ran and ends with an exit code
// of its own: 1 when it found a failure (a target that does not conform,
// drift, problems in a data set), 2 when it could not check at all.
type ExitError struct {
	Code int
	Err  error
}

// Error returns the wrapped error's text.
func (e *ExitError) Error() string { return e.Err.Error() }

// Unwrap is the error behind the exit code.
func (e *ExitError) Unwrap() error { return e.Err }

// ExitCode is the process's exit code.
func (e *ExitError) ExitCode() int { return e.Code }

// Exitf returns an ExitError with code and the formatted message.
func Exitf(code int, format string, args ...any) error {
	return &ExitError{Code: code, Err: fmt.Errorf(format, args...)}
}

// Sub is one subcommand of a command group (atmkit cassette list).
type Sub struct {
	Name string
	Run  func(ctx context.Context, args []string) error
}

// Dispatch runs the subcommand of group cmd that args[0] names. With no
// subcommand, or an unknown one, it is a usage error; "help" prints usage,
// and "help SUB" SUB's, as atmkit help GROUP SUB does.
func (e *Env) Dispatch(ctx context.Context, cmd, usage string, args []string, subs ...Sub) error {
	names := make([]string, len(subs))
	for i, s := range subs {
		names[i] = s.Name
	}
	want := strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
	if len(args) == 0 {
		fmt.Fprintln(e.Stderr, usage)
		return Usagef(cmd, "no subcommand given (%s)", want)
	}
	for _, s := range subs {
		if s.Name == args[0] {
			return s.Run(ctx, args[1:])
		}
	}
	if IsHelp(args[0]) {
		if len(args) > 1 && !IsHelp(args[1]) { // atmkit fixtures help generate, as atmkit help fixtures generate
			return e.Dispatch(ctx, cmd, usage, append(slices.Clone(args[1:]), "--help"), subs...)
		}
		fmt.Fprintln(e.Stdout, usage)
		return flag.ErrHelp
	}
	if meant := closest(args[0], names); meant != "" {
		return Usagef(cmd, "unknown subcommand %q (did you mean: atmkit %s %s?)", args[0], cmd, meant)
	}
	return Usagef(cmd, "unknown subcommand %q (want %s)", args[0], want)
}

// IsHelp reports whether arg asks for help: help, -h, -help or --help.
func IsHelp(arg string) bool {
	switch arg {
	case "help", "-h", "-help", "--help":
		return true
	}
	return false
}

// Exit maps the error a command returned to the process's exit code and
// prints it on Stderr: none and an explicit --help are ExitOK, a usage
// error is ExitUsage (one line pointing to the command's --help), an error
// with an ExitCode method has that code, any other is ExitFailure.
func (e *Env) Exit(err error) int {
	var ue *UsageError
	switch {
	case err == nil, errors.Is(err, flag.ErrHelp):
		return ExitOK
	case errors.As(err, &ue) && ue.Cmd != "":
		fmt.Fprintf(e.Stderr, "atmkit %s: %s; see atmkit %s --help\n", ue.Cmd, ue.Msg, ue.Cmd)
		return ExitUsage
	case errors.As(err, &ue):
		fmt.Fprintf(e.Stderr, "atmkit: %s; see atmkit --help\n", ue.Msg)
		return ExitUsage
	}
	var ec interface{ ExitCode() int }
	if errors.As(err, &ec) {
		if msg := err.Error(); msg != "" {
			fmt.Fprintf(e.Stderr, "atmkit: %s\n", msg)
		}
		return ec.ExitCode()
	}
	fmt.Fprintf(e.Stderr, "atmkit: %s\n", err)
	return ExitFailure
}

// NoArgs is a usage error naming the first argument left in fs, if any.
func NoArgs(fs *flag.FlagSet) error {
	if fs.NArg() > 0 {
		return Usagef(fs.Name(), "unexpected argument %q", fs.Arg(0))
	}
	return nil
}
