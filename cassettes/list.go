package cassettes

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/atmkit/atmkit/cassettes/internal/recorded"
	"gopkg.in/dnaeon/go-vcr.v3/cassette"
)

// Entry describes one recorded interaction, as atmkit cassette list prints it.
type Entry struct {
	ID int
	// Binding is soap11, soap12, get, post or json; empty for requests that
	// are no call of an operation (WSDL, help pages).
	Binding string
	// Operation is the operation's name, or the method and path of other requests.
	Operation string
	// Params are the parameters but the key, in the document's order.
	Params [][2]string
	Status int
}

// List describes the interactions of the cassette at path.
func List(path string) ([]Entry, error) {
	list, err := ReadFile(path)
	if err != nil {
		return nil, err
	}
	out := make([]Entry, 0, len(list))
	for _, i := range list {
		out = append(out, entryOf(i))
	}
	return out, nil
}

// entryOf describes one interaction.
func entryOf(i *cassette.Interaction) Entry {
	e := Entry{ID: i.ID, Status: i.Response.Code}
	e.Binding, e.Operation, e.Params = recorded.Identify(i)
	return e
}

// WriteList writes the interactions of the cassettes at paths (files, or
// directories of .yaml files) as a table, as atmkit cassette list prints
// it: per file a heading "# FILE: N interactions", then a row per
// interaction with its ID, binding ("-" for no call), operation,
// parameters (name=value, the key left out) and status.
func WriteList(w io.Writer, paths ...string) error {
	files, err := Files(paths...)
	if err != nil {
		return err
	}
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	for _, f := range files {
		entries, err := List(f)
		if err != nil {
			return err
		}
		fmt.Fprintf(tw, "# %s: %d interactions\n", f, len(entries))
		fmt.Fprintln(tw, "ID\tBINDING\tOPERATION\tPARAMETERS\tSTATUS")
		for _, e := range entries {
			b := e.Binding
			if b == "" {
				b = "-"
			}
			params := make([]string, len(e.Params))
			for i, p := range e.Params {
				params[i] = p[0] + "=" + listValue(p[1])
			}
			ps := strings.Join(params, " ")
			if ps == "" {
				ps = "-"
			}
			fmt.Fprintf(tw, "%d\t%s\t%s\t%s\t%d\n", e.ID, b, e.Operation, ps, e.Status)
		}
	}
	return tw.Flush()
}

// listValue is a parameter's value in WriteList's table: as is, or quoted
// when it is empty or holds blanks or quotes.
func listValue(s string) string {
	if s != "" && !strings.ContainsAny(s, " \t\"") {
		return s
	}
	return fmt.Sprintf("%q", s)
}
