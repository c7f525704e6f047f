package main

import (
	"errors"
	"flag"
	"fmt"
	"net/http"
	"strings"
	"text/tabwriter"

	"github.com/atmkit/atmkit/cmd/atmkit/internal/cli"
	"github.com/atmkit/atmkit/deviate"
)

// deviateUsage is the help text of atmkit serve --deviate.
const deviateUsage = "break the interface on purpose in the named `ways` (comma-separated, repeatable; 'list' shows them), to prove a conformance run catches them"

// listDeviations prints the deviations, name and description, and reports
// true if --deviate asked for that list (serve then exits 0).
func (m *Main) listDeviations(values []string) bool {
	if _, list := cli.Names(values); !list {
		return false
	}
	fmt.Fprintln(m.Stdout, "Deviations of atmkit serve --deviate NAME[,NAME] (each breaks the interface on purpose):")
	tw := tabwriter.NewWriter(m.Stdout, 0, 0, 2, ' ', 0)
	for _, d := range deviate.List() {
		fmt.Fprintf(tw, "  %s\t%s\n", d.Name, d.Description)
	}
	_ = tw.Flush()
	return true
}

// deviate wraps h with the deviations --deviate names; with none it returns h.
// An unknown name is a usage error listing the valid ones.
func (m *Main) deviated(fs *flag.FlagSet, h http.Handler, values []string) (http.Handler, error) {
	names, _ := cli.Names(values)
	dh, err := deviate.Wrap(h, names...)
	if errors.Is(err, deviate.ErrUnknown) {
		return nil, m.BadSetting(fs, "deviate", err.Error())
	}
	if err != nil {
		return nil, fmt.Errorf("--deviate: %w", err)
	}
	return dh, nil
}

// warnDeviations prints a loud line on stderr naming the active deviations.
func (m *Main) warnDeviations(values []string) {
	if names, _ := cli.Names(values); len(names) > 0 {
		fmt.Fprintf(m.Stderr, "atmkit: WARNING: this mock BREAKS the interface on purpose (--deviate %s); never point real clients at it\n",
			strings.Join(names, ","))
	}
}
