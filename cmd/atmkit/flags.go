package main

import (
	"flag"
	"fmt"
	"io"
	"strings"
)

// newFlagSet returns a flag set for a subcommand that prints usage (with the
// examples) to w and returns errors instead of exiting.
func newFlagSet(name, synopsis, examples string, w io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(w)
	fs.Usage = func() {
		fmt.Fprintf(w, "Usage: atmkit %s\n\n", synopsis)
		fmt.Fprintln(w, "Flags (each also read from ATMKIT_<NAME>, e.g. --on-miss from ATMKIT_ON_MISS):")
		fs.PrintDefaults()
		if examples != "" {
			fmt.Fprintf(w, "\nExamples:\n%s\n", strings.TrimRight(examples, "\n"))
		}
	}
	return fs
}

// envName is the ATMKIT_* variable mirroring a flag: --on-miss → ATMKIT_ON_MISS.
func envName(flagName string) string {
	return "ATMKIT_" + strings.ToUpper(strings.ReplaceAll(flagName, "-", "_"))
}

// parseFlags applies ATMKIT_* variables for every flag not given on the command
// line, after parsing it; the command line wins over the environment.
// Variables for list flags hold comma-separated values. A few flags have an
// extra variable name in aliases (flag name → variable), such as key → ATMKIT_KEYS.
func (m *Main) parseFlags(fs *flag.FlagSet, args []string, aliases map[string]string) error {
	if err := fs.Parse(args); err != nil {
		if err == flag.ErrHelp {
			return err
		}
		return usagef("%s: %v", fs.Name(), err)
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	var err error
	fs.VisitAll(func(f *flag.Flag) {
		if set[f.Name] || err != nil {
			return
		}
		names := []string{envName(f.Name)}
		if a, ok := aliases[f.Name]; ok {
			names = append(names, a)
		}
		for _, n := range names {
			v := m.Getenv(n)
			if v == "" {
				continue
			}
			if lf, ok := f.Value.(*listFlag); ok {
				for _, part := range strings.Split(v, ",") {
					if part = strings.TrimSpace(part); part != "" {
						_ = lf.Set(part)
					}
				}
				continue
			}
			if e := f.Value.Set(v); e != nil {
				err = usagef("%s=%q: %v", n, v, e)
			}
			return
		}
	})
	return err
}

// listFlag is a repeatable string flag.
type listFlag []string

func (l *listFlag) String() string { return strings.Join(*l, ",") }

// Set appends one value.
func (l *listFlag) Set(v string) error { *l = append(*l, v); return nil }
