// Command atmkit is the ATM Location Lookup Service toolkit: a mock server,
// a recorder and replayer of cassettes, and a conformance suite.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
)

// Exit codes of atmkit.
const (
	exitOK      = 0 // success, or an explicit --help
	exitFailure = 1 // the command ran and failed (a failing conformance run, a server error)
	exitUsage   = 2 // the command line was wrong
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	// After the first signal, restore the default handling so that a second
	// SIGINT or SIGTERM ends the process at once instead of waiting for the
	// graceful shutdown.
	go func() { <-ctx.Done(); stop() }()
	m := NewMain()
	os.Exit(m.Exit(m.Run(ctx, os.Args[1:])))
}

// Main is the atmkit program; Stdout and Stderr are where commands write, so
// tests can run commands in process.
type Main struct {
	Stdout io.Writer
	Stderr io.Writer
	// Getenv reads the environment (os.Getenv by default), for ATMKIT_* variables.
	Getenv func(string) string

	// origin records where each flag got its value, per flag set
	// (parseFlags, applyConfig), so errors can name the setting.
	origin map[*flag.FlagSet]map[string]string
}

// NewMain returns a Main wired to the process's standard streams and environment.
func NewMain() *Main {
	return &Main{Stdout: os.Stdout, Stderr: os.Stderr, Getenv: os.Getenv}
}

// usageError marks a wrong command line; it maps to exit code 2. cmd, when
// set, is the command whose --help the message points to.
type usageError struct{ cmd, msg string }

func (e *usageError) Error() string {
	if e.cmd != "" {
		return e.cmd + ": " + e.msg
	}
	return e.msg
}

func usagef(format string, args ...any) error {
	return &usageError{msg: fmt.Sprintf(format, args...)}
}

// cmdUsagef is a usage error of command cmd ("serve", "fixtures generate"),
// printed as one line that points to the command's --help.
func cmdUsagef(cmd, format string, args ...any) error {
	return &usageError{cmd: cmd, msg: fmt.Sprintf(format, args...)}
}

// Exit maps an error from Run to a process exit code and prints it.
func (m *Main) Exit(err error) int {
	var ue *usageError
	switch {
	case err == nil, errors.Is(err, flag.ErrHelp):
		return exitOK
	case errors.As(err, &ue) && ue.cmd != "":
		fmt.Fprintf(m.Stderr, "atmkit %s: %s; see atmkit %s --help\n", ue.cmd, ue.msg, ue.cmd)
		return exitUsage
	case errors.As(err, &ue):
		fmt.Fprintf(m.Stderr, "atmkit: %s\nRun 'atmkit help' for usage.\n", ue.msg)
		return exitUsage
	default:
		var ec interface{ ExitCode() int }
		if errors.As(err, &ec) {
			if msg := err.Error(); msg != "" {
				fmt.Fprintf(m.Stderr, "atmkit: %s\n", msg)
			}
			return ec.ExitCode()
		}
		fmt.Fprintf(m.Stderr, "atmkit: %s\n", err)
		return exitFailure
	}
}

// command is one atmkit subcommand.
type command struct {
	name    string
	summary string
	run     func(m *Main, ctx context.Context, args []string) error
}

func (m *Main) commands() []command {
	return []command{
		{"serve", "serve the mock service from fixtures or cassettes", (*Main).runServe},
		{"fixtures", "generate or check data sets (fixtures generate|check)", (*Main).runFixtures},
		{"record", "record a live deployment into a cassette through a proxy", (*Main).runRecord},
		{"cassette", "list, scrub or verify cassettes (cassette list|scrub|verify)", (*Main).runCassette},
		{"shape", "show or learn result shapes (shape show|learn)", (*Main).runShape},
		{"conform", "run the conformance suite against a target URL", (*Main).runConform},
		{"bench", "measure the mock's throughput against a bare ceiling server", (*Main).runBench},
		{"version", "print atmkit's version", (*Main).runVersion},
	}
}

// Run runs the command named by args[0].
func (m *Main) Run(ctx context.Context, args []string) error {
	if len(args) == 0 {
		m.usage(m.Stderr)
		return usagef("no command given")
	}
	name := args[0]
	switch name {
	case "help", "-h", "-help", "--help":
		if len(args) > 1 {
			return m.Run(ctx, []string{args[1], "--help"})
		}
		m.usage(m.Stdout)
		return flag.ErrHelp
	}
	for _, c := range m.commands() {
		if c.name == name {
			return c.run(m, ctx, args[1:])
		}
	}
	return usagef("unknown command %q", name)
}

func (m *Main) usage(w io.Writer) {
	fmt.Fprintln(w, "atmkit: a toolkit for the ATM Location Lookup Service.")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Usage:")
	fmt.Fprintln(w, "  atmkit <command> [flags]")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Commands:")
	for _, c := range m.commands() {
		fmt.Fprintf(w, "  %-10s %s\n", c.name, c.summary)
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Run 'atmkit <command> --help' for a command's flags. Every flag can also be set")
	fmt.Fprintln(w, "with an ATMKIT_* environment variable (--fixtures: ATMKIT_FIXTURES).")
}
