// Command atmkit is the ATM Location Lookup Service toolkit: a mock server,
// a recorder and replayer of cassettes, and a conformance suite.
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"slices"

	"github.com/atmkit/atmkit/cmd/atmkit/internal/cli"
	"github.com/atmkit/atmkit/cmd/atmkit/internal/memlimit"
	"github.com/atmkit/atmkit/internal/stopsignal"
)

// Exit codes of atmkit (see cli.Env.Exit).
const (
	exitOK      = cli.ExitOK
	exitFailure = cli.ExitFailure
	exitUsage   = cli.ExitUsage
)

func main() {
	memlimit.Apply(os.Getenv) // Go's memory limit from the container's, unless GOMEMLIMIT is set
	// SIGINT or SIGTERM (Ctrl-C, Ctrl-Break or closing the console on
	// Windows) cancels ctx; a second one ends the process at once.
	ctx, stop := stopsignal.NotifyContext(context.Background())
	defer stop()
	m := NewMain()
	os.Exit(m.Exit(m.Run(ctx, os.Args[1:])))
}

// Main is the atmkit program. Its Env holds the streams commands write to
// (Stdout, Stderr) and the environment they read (Getenv), so tests can run
// commands in process.
type Main struct {
	cli.Env
}

// NewMain returns a Main wired to the process's standard streams and environment.
func NewMain() *Main {
	return &Main{cli.Env{Stdout: cli.Stdout(os.Stdout), Stderr: os.Stderr, Getenv: os.Getenv, Environ: os.Environ}}
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
		{"health", "check that a mock answers its health endpoint (exit 0: healthy)", (*Main).runHealth},
		{"version", "print atmkit's version, its commit and the commit's date", (*Main).runVersion},
	}
}

// Run runs the command named by args[0].
func (m *Main) Run(ctx context.Context, args []string) error {
	if len(args) == 0 {
		m.usage(m.Stderr)
		return cli.Usagef("", "no command given")
	}
	name := args[0]
	if name == "--version" || name == "-version" {
		name = "version"
	}
	if cli.IsHelp(name) {
		if len(args) > 1 && !cli.IsHelp(args[1]) {
			return m.Run(ctx, append(slices.Clone(args[1:]), "--help"))
		}
		m.usage(m.Stdout)
		return flag.ErrHelp
	}
	if err := m.CheckShell(); err != nil { // ATMKIT_SHELL
		return err
	}
	for _, c := range m.commands() {
		if c.name == name {
			return c.run(m, ctx, args[1:])
		}
	}
	return cli.Usagef("", "unknown command %q%s", name, cli.Suggest(name))
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
	fmt.Fprintln(w, "Run 'atmkit <command> --help' for a command's flags. Every flag can also be set with an")
	fmt.Fprintln(w, "ATMKIT_* environment variable (--fixtures: ATMKIT_FIXTURES; health's: ATMKIT_HEALTH_*); a flag given wins.")
	fmt.Fprintln(w, "An ATMKIT_* variable no atmkit command reads gets a warning at start (ATMKIT_KYES: did you mean\nATMKIT_KEYS?); one another command reads (serve's in health's environment) gets none.")
}
