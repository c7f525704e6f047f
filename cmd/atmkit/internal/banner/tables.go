package banner

import (
	"cmp"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"text/tabwriter"
	"unicode/utf8"

	"github.com/atmkit/atmkit/asmx"
	"github.com/atmkit/atmkit/cassettes"
	"github.com/atmkit/atmkit/cassettes/verify"
	"github.com/atmkit/atmkit/cmd/atmkit/internal/cli"
	"github.com/atmkit/atmkit/fixtures"
	"github.com/atmkit/atmkit/internal/redact"
	"github.com/atmkit/atmkit/internal/shellquote"
)

// Plural writes n and what, with an s for any n but 1: "1 call", "2 calls".
func Plural(n int, what string) string { return plural(n, what) }

// CassetteList writes the interactions of the cassettes at paths as a table:
// per file a heading "# FILE: N interactions", then a row per interaction
// with its ID, binding ("-" for no call), operation (for no call, its
// method and path), parameters (name=value, the key left out; a value
// quoted when it is empty or holds blanks or quotes; for no call, its
// query as recorded, after a "?") and status, followed by "[key rejection]" for a
// recorded key rejection, as verify words it. The parameters are read as
// a mock replaying the cassettes with requestEncoding enc reads them
// (cassettes.WithRequestEncoding). notUTF8 names the calls (FILE#ID, the
// file's base name) whose queries or forms hold bytes that are not UTF-8
// that their parameters, read in enc, show as U+FFFD (see NotUTF8). It
// stops reading when ctx is done, with an error that wraps ctx's error.
func CassetteList(ctx context.Context, w io.Writer, enc asmx.RequestEncoding, paths ...string) (notUTF8 []string, err error) {
	files, err := cassettes.Files(paths...)
	if err != nil {
		return nil, err
	}
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	for _, f := range files {
		entries, err := cassettes.ListContext(ctx, f, cassettes.WithRequestEncoding(enc))
		if err != nil {
			return nil, err
		}
		fmt.Fprintf(tw, "# %s: %s\n", f, plural(len(entries), "interaction"))
		fmt.Fprintln(tw, "ID\tBINDING\tOPERATION\tPARAMETERS\tSTATUS")
		for _, e := range entries {
			if ShowsReplacement(e) {
				notUTF8 = append(notUTF8, filepath.Base(f)+"#"+e.Name)
			}
			b, ps := cmp.Or(e.Binding, "-"), make([]string, len(e.Params))
			for i, p := range e.Params {
				ps[i] = p[0] + "=" + p[1]
				if p[1] == "" || strings.ContainsAny(p[1], " \t\"") {
					ps[i] = fmt.Sprintf("%s=%q", p[0], p[1])
				}
			}
			status := strconv.Itoa(e.Status)
			if e.KeyRejection {
				status += " [key rejection]"
			}
			op, params := e.Operation, cmp.Or(strings.Join(ps, " "), "-")
			if e.Binding == "" {
				// Not a call ("GET /path?query"): its query goes with the
				// parameters, so that a probe's long URL does not widen the
				// operation column of every row.
				if path, query, ok := strings.Cut(op, "?"); ok {
					op, params = path, "?"+query
				}
			}
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", e.Name, b, op, params, status)
		}
	}
	return notUTF8, tw.Flush()
}

// ShowsReplacement reports whether e is a call whose query or form holds
// bytes that are not UTF-8 (cassettes.Entry.NotUTF8) and whose parameters,
// as read, show one as U+FFFD: a call NotUTF8 names.
func ShowsReplacement(e cassettes.Entry) bool {
	if !e.NotUTF8 {
		return false
	}
	for _, p := range e.Params {
		if strings.ContainsRune(p[1], utf8.RuneError) {
			return true
		}
	}
	return false
}

// VerifyNotUTF8 writes NotUTF8's line for a cassette verify run: the
// results (FILE#ID, the file's base name) whose queries or forms hold
// bytes that are not UTF-8 that their parameters, as read
// (verify.Options.RequestEncoding), show as U+FFFD, named among those
// shown printed (verify.Printer.Shows) and counted among the others
// (--quiet left them out).
func VerifyNotUTF8(w io.Writer, results []verify.Result, shown func(verify.Result) bool) {
	var calls []string
	notPrinted := 0
	for _, r := range results {
		switch {
		case !ShowsReplacement(r.Entry):
		case shown(r):
			calls = append(calls, filepath.Base(r.File)+"#"+r.Entry.Name)
		default:
			notPrinted++
		}
	}
	NotUTF8(w, "cassette verify", calls, notPrinted)
}

// NotUTF8 writes, when calls (FILE#ID) is not empty or notPrinted is not
// 0, the line that says command cmd read bytes of their recorded queries
// or forms that are not UTF-8 as U+FFFD, as ASP.NET's default
// requestEncoding reads them, and that --request-encoding reads them as
// the deployment did (a legacy site's iso-8859-1: strCity=Montr%E9al,
// Montréal). It names no value, only where the calls are: the first of
// calls, the calls printed; notPrinted counts the calls cassette verify
// --quiet did not print, which it does not name. No key can show.
func NotUTF8(w io.Writer, cmd string, calls []string, notPrinted int) {
	n := len(calls) + notPrinted
	if n == 0 {
		return
	}
	var which string
	switch {
	case len(calls) == 0:
		which = plural(notPrinted, "call") + " not printed (--quiet)"
	case n == 1:
		which = calls[0]
	case notPrinted == 0:
		which = fmt.Sprintf("%s and %s", calls[0], plural(n-1, "more call"))
	case notPrinted == n-1:
		which = fmt.Sprintf("%s and %s (not printed: --quiet)", calls[0], plural(n-1, "more call"))
	default:
		which = fmt.Sprintf("%s and %s (%d of them not printed: --quiet)", calls[0], plural(n-1, "more call"), notPrinted)
	}
	verb := "holds bytes in its query or form"
	if n > 1 {
		verb = "hold bytes in their queries or forms"
	}
	fmt.Fprintf(w, "atmkit: %s: %s %s that are not UTF-8, read as U+FFFD (utf-8 is the default --request-encoding); "+
		"--request-encoding iso-8859-1, or the requestEncoding of the deployment's web.config, reads them as that deployment did\n", cmd, which, verb)
}

// FixturesSummary lists the files of the data set d written to dir, a
// few ids to try, and the command that serves it, for shell sh.
func FixturesSummary(w io.Writer, dir string, d *fixtures.Dataset, sh shellquote.Shell) {
	size := func(name string) string {
		fi, err := os.Stat(filepath.Join(dir, name))
		if err != nil {
			return "?"
		}
		return cli.Size(fi.Size())
	}
	fmt.Fprintf(w, "wrote %s (%d provinces)\n", filepath.Join(dir, fixtures.ProvincesFile), len(d.Provinces))
	fmt.Fprintf(w, "wrote %s (%d institutions)\n", filepath.Join(dir, fixtures.InstitutionsFile), len(d.Institutions))
	fmt.Fprintf(w, "wrote %s (%d cities)\n", filepath.Join(dir, fixtures.CitiesFile), len(d.Cities))
	fmt.Fprintf(w, "wrote %s (%s, %s)\n", filepath.Join(dir, fixtures.ATMsFile), plural(len(d.ATMs), "ATM"), size(fixtures.ATMsFile))

	cities, insts := d.Tallies()
	if len(cities) > 0 {
		fmt.Fprint(w, "try: intCityID")
		for i, c := range cities[:min(2, len(cities))] {
			city, _ := d.City(c.ID)
			if i > 0 {
				fmt.Fprint(w, " or")
			}
			fmt.Fprintf(w, " %d (%s, %s: %s)", c.ID, city.Name, city.Province, plural(c.ATMs, "ATM"))
		}
		fmt.Fprintln(w)
	}
	if len(insts) > 0 {
		in, _ := d.Institution(insts[0].ID)
		fmt.Fprintf(w, "     intInstitutionID %d (%s: %s)\n", in.ID, in.Name, plural(insts[0].ATMs, "ATM"))
	}
	// The directory as the wrote lines name it (cleaned: C:\My Data\ is
	// C:\My Data, which Windows PowerShell 5.1 hands on intact).
	fmt.Fprintf(w, "serve it: atmkit serve --fixtures %s\n", sh.Arg(filepath.Clean(dir)))
}

// VerifyHeading says what verify.Run does with o over n cassette files: "2
// cassettes against https://atm.example.org (4 requests at a time, at most
// 10 a second, values compared)", the URL's password and key masked, and
// the key and secrets wherever it holds them.
func VerifyHeading(o verify.Options, n int) string {
	rate, values := "no rate limit", "compared"
	if o.Rate > 0 {
		rate = fmt.Sprintf("at most %g a second", o.Rate)
	}
	if o.IgnoreValues {
		values = "ignored"
	}
	return fmt.Sprintf("%s against %s (%s at a time, %s, values %s)",
		plural(n, "cassette"), redact.Text(redact.URL(o.Upstream), append([]string{o.Key}, o.Secrets...)...), plural(max(1, o.Concurrency), "request"), rate, values)
}

// Scrubbed prints what cassette scrub did to (or, checking, found in) the
// cassette f.
func Scrubbed(w io.Writer, f string, res cassettes.ScrubResult, check bool) {
	marks := ""
	if res.Rejections > 0 {
		marks = fmt.Sprintf(" (%s among them, marked %s)", Plural(res.Rejections, "key rejection"), cassettes.RejectedPlaceholder)
	}
	switch {
	case res.Replaced == 0:
		fmt.Fprintf(w, "%s: clean, unchanged\n", f)
	case check:
		fmt.Fprintf(w, "%s: %s to redact in %s%s\n", f, Plural(res.Replaced, "value"), Plural(res.Interactions, "interaction"), marks)
	default:
		fmt.Fprintf(w, "%s: replaced %s in %s with %s%s\n", f, Plural(res.Replaced, "value"), Plural(res.Interactions, "interaction"), cassettes.Placeholder, marks)
	}
}
