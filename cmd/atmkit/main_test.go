package main

import (
	"bytes"
	"context"
	"os"
	"strings"
	"testing"

	"github.com/atmkit/atmkit/cmd/atmkit/internal/cli"
	"github.com/atmkit/atmkit/internal/mocktest"
	"github.com/atmkit/atmkit/internal/refdeploy"
)

// testMainVar, set to 1 in its environment, makes the test binary run
// atmkit's main with its arguments instead of the tests: it stands in for
// atmkit where a command starts atmkit itself (bench --atms-scale starts
// atmkit serve processes with os.Executable). It is not an ATMKIT_*
// variable, which such children do not inherit.
const testMainVar = "GO_TEST_ATMKIT_MAIN"

func TestMain(m *testing.M) {
	if os.Getenv(testMainVar) == "1" {
		os.Args = append([]string{"atmkit"}, os.Args[1:]...)
		main()
		return
	}
	// Most of these tests wait rather than compute: on child processes,
	// servers starting and shutting down, clients giving up. (Not in the
	// conform helper process, where Ginkgo refuses a -parallel.)
	if os.Getenv(conformHelperEnv) == "" {
		mocktest.MoreParallel(4)
	}
	code := m.Run()
	refdeploy.StopShared()
	if smallFixtures.dir != "" {
		_ = os.RemoveAll(smallFixtures.dir)
	}
	os.Exit(code)
}

// TestHelpTexts: every command's --help ends with its examples (help/NAME.txt),
// every command group's lists its subcommands, and asking for help about
// help prints atmkit's usage.
func TestHelpTexts(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"serve", "--help"}, "\nExamples:\n  atmkit serve\n"},
		{[]string{"record", "--help"}, "\nExamples:\n  atmkit record --upstream"},
		{[]string{"conform", "--help"}, "\nExamples:\n  atmkit conform --target"},
		{[]string{"bench", "--help"}, "\nExamples:\n  atmkit bench "},
		{[]string{"version", "--help"}, "\nExamples:\n  atmkit version\n"},
		{[]string{"cassette", "list", "--help"}, "\nExamples:\n  atmkit cassette list "},
		{[]string{"cassette", "scrub", "--help"}, "\nExamples:\n  atmkit cassette scrub "},
		{[]string{"cassette", "verify", "--help"}, "\nExamples:\n  atmkit cassette verify "},
		{[]string{"fixtures", "generate", "--help"}, "\nExamples:\n  atmkit fixtures generate "},
		{[]string{"fixtures", "check", "--help"}, "\nExamples:\n  atmkit fixtures check "},
		{[]string{"shape", "show", "--help"}, "\nExamples:\n  atmkit shape show"},
		{[]string{"shape", "learn", "--help"}, "\nExamples:\n  atmkit shape learn "},
		{[]string{"cassette", "help"}, "Subcommands:\n  list "},
		{[]string{"fixtures", "help"}, "Subcommands:\n  generate "},
		{[]string{"shape", "help"}, "Subcommands:\n  show "},
		// As atmkit help fixtures generate: the subcommand's help, not the group's.
		{[]string{"fixtures", "help", "generate"}, "\nExamples:\n  atmkit fixtures generate "},
		{[]string{"cassette", "help", "verify"}, "\nExamples:\n  atmkit cassette verify "},
		{[]string{"help", "--help"}, "Usage:\n  atmkit <command> [flags]"},
		{[]string{"--help"}, "(--fixtures: ATMKIT_FIXTURES; health's: ATMKIT_HEALTH_*); a flag given wins."},
		{[]string{"health", "--help"}, "\nExamples:\n  atmkit health\n"},
	} {
		var out bytes.Buffer
		m := &Main{cli.Env{Stdout: &out, Stderr: &out, Getenv: func(string) string { return "" }}}
		if code := m.Exit(m.Run(context.Background(), tc.args)); code != exitOK || !strings.Contains(out.String(), tc.want) {
			t.Errorf("atmkit %s: got exit %d and %q, want exit 0 and %q", strings.Join(tc.args, " "), code, out.String(), tc.want)
		}
	}
}

// TestSuggestedCommandsExist: every command atmkit suggests for an unknown
// one runs (its --help exits 0), and a subcommand typed without its group
// is told the command it belongs to.
func TestSuggestedCommandsExist(t *testing.T) {
	t.Parallel()
	for _, c := range cli.Commands {
		if code, _, stderr := runAtmkit(nil, append(strings.Fields(c), "--help")...); code != exitOK {
			t.Errorf("atmkit %s --help: exit %d, want 0: %s", c, code, stderr)
		}
	}
	code, _, stderr := runAtmkit(nil, "verify", "--upstream", "http://127.0.0.1:1", "atm.yaml")
	if want := "atmkit: unknown command \"verify\" (did you mean: atmkit cassette verify?); see atmkit --help\n"; code != exitUsage || !strings.Contains(stderr, want) {
		t.Errorf("atmkit verify: exit %d, stderr %q; want exit 2 and %q", code, stderr, want)
	}
}

// TestMistypedNamesSuggest: a mistyped flag, subcommand or command, or a
// flag before the command, is one line on stderr (exit 2) that names what
// was meant.
func TestMistypedNamesSuggest(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"serve", "--adr", "127.0.0.1:0"}, "atmkit serve: unknown flag --adr (did you mean --addr?); see atmkit serve --help\n"},
		{[]string{"conform", "--taget", "http://127.0.0.1:1"}, "atmkit conform: unknown flag --taget (did you mean --target?); see atmkit conform --help\n"},
		{[]string{"health", "--bogus"}, "atmkit health: unknown flag --bogus; see atmkit health --help\n"},
		{[]string{"cassette", "lst", "atm.yaml"}, "atmkit cassette: unknown subcommand \"lst\" (did you mean: atmkit cassette list?); see atmkit cassette --help\n"},
		{[]string{"shape", "x"}, "atmkit shape: unknown subcommand \"x\" (want show or learn); see atmkit shape --help\n"},
		{[]string{"cassette", "help", "lst"}, "atmkit cassette: unknown subcommand \"lst\" (did you mean: atmkit cassette list?); see atmkit cassette --help\n"},
		{[]string{"sevre"}, "atmkit: unknown command \"sevre\" (did you mean: atmkit serve?); see atmkit --help\n"},
		{[]string{"--addr", "127.0.0.1:0", "serve"}, "atmkit: unknown command \"--addr\" (a flag: give the command first, e.g. atmkit serve --addr); see atmkit --help\n"},
	} {
		code, stdout, stderr := runAtmkit(nil, tc.args...)
		if code != exitUsage || stdout != "" || stderr != tc.want {
			t.Errorf("atmkit %s: exit %d, stdout %q, stderr %q; want exit 2, nothing and %q", strings.Join(tc.args, " "), code, stdout, stderr, tc.want)
		}
	}
}
