// Package learnfrom gathers what atmkit shape learn learns from into a
// learn.Input: a deployment's WSDL fetched from its URL, and the answers
// and WSDL recorded in cassettes. Package learn itself reads only bytes.
package learnfrom

import (
	"bytes"
	"context"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/atmkit/atmkit/asmx"
	"github.com/atmkit/atmkit/cassettes"
	"github.com/atmkit/atmkit/cmd/atmkit/internal/banner"
	"github.com/atmkit/atmkit/cmd/atmkit/internal/cli"
	"github.com/atmkit/atmkit/internal/neterr"
	"github.com/atmkit/atmkit/internal/printable"
	"github.com/atmkit/atmkit/internal/redact"
	"github.com/atmkit/atmkit/mockserver"
	"github.com/atmkit/atmkit/shape"
	"github.com/atmkit/atmkit/shape/learn"
)

// maxWSDL is the largest WSDL read, in bytes.
const maxWSDL = 16 << 20

// IsURL reports whether src is an http or https URL, which WSDL fetches;
// anything else names a file.
func IsURL(src string) bool {
	u, err := url.Parse(src)
	return err == nil && (u.Scheme == "http" || u.Scheme == "https")
}

// Read reads the WSDL src names: a file ("-": standard input), or a URL
// WSDL fetches (see there). from names the source without credentials or query.
func Read(ctx context.Context, src string, timeout time.Duration, rt http.RoundTripper) (data []byte, from string, err error) {
	if lower := strings.ToLower(src); !IsURL(src) && (strings.HasPrefix(lower, "http://") || strings.HasPrefix(lower, "https://")) {
		// Not a file name: a URL that does not parse, whose text (its
		// password, its query's key) the error must not show.
		_, err := url.Parse(src)
		return nil, "", fmt.Errorf("--wsdl: the URL does not parse: %w (percent-encode a user name, password or query beyond ASCII)", scrubURLError(err))
	}
	if !IsURL(src) {
		if data, err = readFile(ctx, src); err != nil {
			return nil, "", fmt.Errorf("--wsdl: %w", err)
		}
		name, from := filepath.Base(src), filepath.Base(src)
		if src == "-" {
			name, from = "- (standard input)", "on standard input"
		}
		if len(data) > maxWSDL {
			return nil, "", fmt.Errorf("--wsdl %s: over %d MiB, larger than any WSDL: give a WSDL file (what service.asmx?WSDL answers) or the service's address", name, maxWSDL>>20)
		}
		if isUTF16(data) {
			return nil, "", fmt.Errorf("--wsdl %s: is UTF-16 (it starts with a UTF-16 byte order mark, as PowerShell 5's > writes); save it as UTF-8 (Invoke-WebRequest 'URL?WSDL' -OutFile FILE keeps the bytes the deployment sent)", name)
		}
		if isCassette(data) {
			return nil, "", fmt.Errorf("--wsdl %s: a cassette, not a WSDL: give it with --cassette (a ?WSDL recorded in it is used too)", name)
		}
		if err := isWSDL(data); err != nil {
			return nil, "", fmt.Errorf("--wsdl %s: %w: give a WSDL file (what service.asmx?WSDL answers) or the service's address", name, err)
		}
		return data, from, nil
	}
	if data, from, err = WSDL(ctx, src, timeout, rt); err != nil {
		return nil, "", fmt.Errorf("could not read the deployment's WSDL: %w", err)
	}
	return data, from, nil
}

// Reading returns what shape learn says before it reads the WSDL src when
// that may be a wait: fetching a URL (Fetching's form, up to timeout), or
// reading standard input ("-", which on a terminal waits for typing); ""
// for a file.
func Reading(src string, timeout time.Duration) string {
	switch {
	case src == "-":
		return "reading the WSDL from standard input (Ctrl-C stops it)"
	case IsURL(src):
		return fmt.Sprintf("fetching the WSDL from %s (up to --timeout %s; Ctrl-C stops it)", Fetching(src), timeout)
	}
	return ""
}

// Fetching returns the URL WSDL fetches for rawURL (see there) as shape
// learn's "fetching the WSDL from" line shows it: its password and every
// value of its query (a gateway's key may be under any name) written
// xxxxx. A URL that does not parse is shown as redact.URL shows it.
func Fetching(rawURL string) string {
	u, err := url.Parse(rawURL)
	if err != nil {
		return redact.URL(rawURL)
	}
	var pairs []string
	for _, pair := range strings.Split(wsdlQuery(u.RawQuery), "&") {
		if key, v, ok := strings.Cut(pair, "="); ok && v != "" {
			pair = key + "=xxxxx"
		}
		pairs = append(pairs, pair)
	}
	u.RawQuery = strings.Join(pairs, "&")
	return u.Redacted()
}

// wsdlQuery is the query that asks an ASMX service for its WSDL, keeping
// the pairs of raw that are not about its documents (a gateway's, say): raw
// itself when it asks for the WSDL already (?wsdl in any case, ?x=1&WSDL);
// else raw without its document keys (the help page's op, wsdl= and
// schema=, as ASMX reads a key: decoded, compared OrdinalIgnoreCase) and
// without its pairs that have no '=' (ASMX joins their values with commas,
// so that with any of them ?x&WSDL reads as "x,WSDL", the help page), then
// WSDL, as ASMX reads a query (asmx.ParseDocsQuery: ?x=1&WSDL asks for the
// WSDL, ?disco&WSDL does not).
func wsdlQuery(raw string) string {
	if kind, _, _ := asmx.ParseDocsQuery(raw); raw != "" && kind == asmx.DocsWSDL {
		return raw
	}
	var keep []string
	for _, pair := range strings.FieldsFunc(raw, func(r rune) bool { return r == '&' }) {
		if kind, _, hasOp := asmx.ParseDocsQuery(pair); !strings.Contains(pair, "=") || kind != asmx.DocsHelp || hasOp {
			continue
		}
		keep = append(keep, pair)
	}
	return strings.Join(append(keep, "WSDL"), "&")
}

// nsWSDL is the namespace of a WSDL 1.1 document's definitions root.
const nsWSDL = "http://schemas.xmlsoap.org/wsdl/"

// isWSDL reports, as an error saying what it is instead, a document whose
// root is not WSDL 1.1's definitions: an HTML page (a gateway's sign-in
// page, the service's help page), other XML, or no XML at all. A WSDL
// that is broken further in is left to the learner, which says where.
func isWSDL(data []byte) error {
	d := xml.NewDecoder(bytes.NewReader(data))
	d.Strict = false // an HTML page is named by its root, not by its first error
	d.AutoClose = xml.HTMLAutoClose
	d.Entity = xml.HTMLEntity
	for {
		tok, err := d.Token()
		if err != nil {
			return errors.New("not a WSDL: no XML element in it")
		}
		if se, ok := tok.(xml.StartElement); ok {
			if se.Name.Space == nsWSDL && se.Name.Local == "definitions" {
				return nil
			}
			root := "<" + printable.Text(se.Name.Local) + ">"
			if se.Name.Space != "" {
				root += " in " + printable.Text(se.Name.Space)
			}
			return fmt.Errorf("not a WSDL: a document whose root is %s, not wsdl:definitions", root)
		}
	}
}

// WSDL fetches a deployment's WSDL from rawURL within timeout through rt
// (http.DefaultTransport when nil: TLS and headers are the caller's),
// asking for the WSDL as ASMX reads a query (wsdlQuery). A redirect is not
// followed (it would carry rt's headers to wherever it points): it is an
// error naming where it points, the values of rawURL's query masked
// there (a redirect to HTTPS keeps a gateway's ?subscription-key=). An
// answer that is not the WSDL is an error quoting a line of it (says);
// one over maxWSDL is refused, having read no more. from names the source
// without credentials or query; errors name it the same way.
func WSDL(ctx context.Context, rawURL string, timeout time.Duration, rt http.RoundTripper) (data []byte, from string, err error) {
	u, err := url.Parse(rawURL)
	if err != nil {
		return nil, "", fmt.Errorf("the WSDL's URL: %w", err)
	}
	u.RawQuery = wsdlQuery(u.RawQuery)
	clean := *u
	clean.User, clean.RawQuery = nil, ""
	from = clean.String()
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return nil, "", fmt.Errorf("fetch the WSDL at %s: %w", from, scrubURLError(err))
	}
	client := &http.Client{Transport: rt, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := client.Do(req)
	if err != nil {
		return nil, "", fmt.Errorf("fetch the WSDL at %s: %w", from, explain(scrubURLError(err), timeout))
	}
	defer resp.Body.Close()
	if loc := resp.Header.Get("Location"); resp.StatusCode >= 300 && resp.StatusCode < 400 && loc != "" {
		return nil, "", fmt.Errorf("the WSDL at %s: HTTP %d, a redirect to %s (not followed): give --wsdl the address it names", from, resp.StatusCode, printable.Text(redact.Text(redact.URL(loc), secrets(u)...)))
	}
	if resp.StatusCode == http.StatusUnauthorized {
		return nil, "", fmt.Errorf("the WSDL at %s: HTTP %d: the deployment, or a gateway in front of it, wants credentials: give them with --header (e.g. 'X-Api-Key: …') or --client-cert and --client-key", from, resp.StatusCode)
	}
	ctype := resp.Header.Get("Content-Type")
	if resp.StatusCode != http.StatusOK {
		// Only what the answer says is read (a line of it), and only its start.
		data, _ = io.ReadAll(io.LimitReader(resp.Body, maxNotWSDL))
		return nil, "", fmt.Errorf("the WSDL at %s: HTTP %d%s, not the WSDL: give --wsdl the service's address (…/service/service.asmx, to which ?WSDL is added) or a WSDL file",
			from, resp.StatusCode, parenthesized(says(u, ctype, data)))
	}
	tooLarge := fmt.Errorf("the WSDL at %s: an answer over %d MiB, larger than any WSDL: give --wsdl the service's address (…/service/service.asmx, to which ?WSDL is added) or a WSDL file", from, maxWSDL>>20)
	if resp.ContentLength > maxWSDL {
		return nil, "", tooLarge
	}
	data, err = io.ReadAll(io.LimitReader(resp.Body, maxWSDL+1))
	if err != nil {
		if errors.Is(err, context.DeadlineExceeded) {
			err = fmt.Errorf("the answer did not end within --timeout (%s)", timeout)
		}
		return nil, "", fmt.Errorf("read the WSDL at %s: %w", from, explain(err, timeout))
	}
	if len(data) > maxWSDL {
		return nil, "", tooLarge
	}
	if err := isWSDL(data); err != nil {
		about := printable.Text(ctype)
		if s := says(u, ctype, data); s != "" {
			about += "; " + s
		}
		return nil, "", fmt.Errorf("the WSDL at %s: HTTP 200 (%s), %w: give --wsdl the service's address (…/service/service.asmx, to which ?WSDL is added; a gateway's sign-in page wants --header or --client-cert)",
			from, about, err)
	}
	return data, from, nil
}

// maxNotWSDL is the most read of an answer that is not the WSDL (an error
// page, a fault), in bytes: what it says is at its start.
const maxNotWSDL = 64 << 10

// parenthesized returns " (s)", or "" for an empty s.
func parenthesized(s string) string {
	if s == "" {
		return ""
	}
	return " (" + s + ")"
}

// readFile reads the file src names ("-": standard input), no more than maxWSDL bytes and one
// (a longer file is no WSDL: --wsdl /dev/zero read without end); it
// stops reading a pipe (--wsdl <(curl …)) when ctx is done, with ctx's
// cause.
func readFile(ctx context.Context, src string) ([]byte, error) {
	f := os.Stdin // "-": curl -s '…?WSDL' | atmkit shape learn --wsdl -
	if src != "-" {
		var err error
		if f, err = os.Open(src); err != nil {
			return nil, err
		}
	}
	defer f.Close()
	stop := context.AfterFunc(ctx, func() { f.Close() })
	defer stop()
	data, err := io.ReadAll(io.LimitReader(f, maxWSDL+1))
	if ctx.Err() != nil {
		return nil, context.Cause(ctx)
	}
	return data, err
}

// isCassette reports whether data starts as a cassette does (go-vcr's
// YAML: its interactions, after a "---", comments and its version).
func isCassette(data []byte) bool {
	for _, line := range strings.SplitN(string(data[:min(len(data), 4096)]), "\n", 20) {
		line = strings.TrimSpace(line)
		switch key, _, _ := strings.Cut(line, ":"); {
		case line == "" || line == "---" || strings.HasPrefix(line, "#") || key == "version":
		case key == "interactions":
			return true
		default:
			return false
		}
	}
	return false
}

// isUTF16 reports whether b starts with a UTF-16 byte order mark (what
// PowerShell 5's > and Out-File write).
func isUTF16(b []byte) bool {
	return len(b) >= 2 && (b[0] == 0xFF && b[1] == 0xFE || b[0] == 0xFE && b[1] == 0xFF)
}

// explain says what a failed fetch means and what to check.
func explain(err error, timeout time.Duration) error {
	switch {
	case neterr.Refused(err):
		return fmt.Errorf("%w: nothing listens at that address and port. Is the deployment running, and are --wsdl's host and port right?", err)
	case errors.Is(err, context.DeadlineExceeded):
		return fmt.Errorf("no answer within --timeout (%s)", timeout)
	}
	return err
}

// scrubURLError drops the URL (it may carry credentials) from a client error.
func scrubURLError(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		return ue.Err
	}
	return err
}

// Cassettes adds the answers to calls recorded in the cassette files to
// in.Samples, each named "FILE#ID" (the file's base name), and the first
// WSDL recorded with a 200 answer to in.WSDL when it has none (not the
// JSON endpoint's, service-v2.asmx?WSDL). The recorded queries and forms
// that name no charset are read in enc, the requestEncoding of the
// deployment they were recorded from (cassettes.WithRequestEncoding), so
// that each answer is paired by the parameters that deployment read. It
// returns how many answers it added, where the WSDL it took was recorded
// ("" when it took none) and the calls whose parameters, read in enc,
// show bytes that are not UTF-8 as U+FFFD (FILE#ID, for banner.NotUTF8).
// It stops reading when ctx is done, with an error that wraps ctx's
// error.
func Cassettes(ctx context.Context, in *learn.Input, files []string, enc asmx.RequestEncoding) (answers int, wsdlAt string, notUTF8 []string, err error) {
	for _, file := range files {
		recs, err := cassettes.RecordingsContext(ctx, file, cassettes.WithRequestEncoding(enc))
		if err != nil {
			return answers, wsdlAt, notUTF8, err
		}
		for _, r := range recs {
			where := filepath.Base(file) + "#" + r.Entry.Name
			if r.IsWSDL() {
				// The JSON endpoint's WSDL declares its searches void
				// (they write their JSON themselves): no results to learn.
				if r.Status == http.StatusOK && in.WSDL == nil && !jsonEndpoint(r.URL) {
					in.WSDL, wsdlAt = []byte(r.Body), where
				}
				continue
			}
			if r.Binding == "" {
				continue
			}
			if banner.ShowsReplacement(r.Entry) {
				notUTF8 = append(notUTF8, where)
			}
			in.Samples = append(in.Samples, learn.Sample{Binding: r.Binding, Op: r.Operation, Query: fmt.Sprint(r.Params),
				Status: r.Status, Body: []byte(r.Body), Where: where})
			answers++
		}
	}
	return answers, wsdlAt, notUTF8, nil
}

// Learn is learn.LearnContext: it returns when the learner has stopped,
// within moments of ctx's end (Ctrl-C), with an error that wraps ctx's
// error, and leaves nothing running.
func Learn(ctx context.Context, in learn.Input) (*shape.Shape, *learn.Report, error) {
	return learn.LearnContext(ctx, in)
}

// LearnTelling is Learn, calling tell with the time spent so far every
// every while the learner runs (shape learn's "still learning" line:
// hundreds of answers take minutes, which without a word read as a hang).
// tell is not called once LearnTelling has returned.
func LearnTelling(ctx context.Context, in learn.Input, every time.Duration, tell func(time.Duration)) (sh *shape.Shape, rep *learn.Report, err error) {
	telling(every, tell, func() { sh, rep, err = Learn(ctx, in) })
	return sh, rep, err
}

// ReadTelling is Read, calling tell with the time spent so far every
// every while it reads (shape learn's "still fetching" line: a --timeout
// of minutes is a long wait on a slow deployment). tell is not called
// once ReadTelling has returned.
func ReadTelling(ctx context.Context, src string, timeout time.Duration, rt http.RoundTripper, every time.Duration, tell func(time.Duration)) (data []byte, from string, err error) {
	telling(every, tell, func() { data, from, err = Read(ctx, src, timeout, rt) })
	return data, from, err
}

// telling runs do, calling tell with the time spent so far every every
// until it returns; tell is not called once telling has returned.
func telling(every time.Duration, tell func(time.Duration), do func()) {
	start := time.Now()
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		tick := time.NewTicker(every)
		defer tick.Stop()
		for {
			select {
			case <-done:
				return
			case <-tick.C:
				tell(time.Since(start))
			}
		}
	}()
	defer wg.Wait()
	defer close(done)
	do()
}

// jsonEndpoint reports whether rawURL is on the JSON endpoint,
// service-v2.asmx (in any case, as IIS reads paths).
func jsonEndpoint(rawURL string) bool {
	u, err := url.Parse(rawURL)
	return err == nil && strings.HasSuffix(strings.ToLower(u.Path), strings.ToLower(asmx.JSONPath))
}

// ServeLine is the atmkit serve command that serves the shape file out
// learned from a deployment as it is, each value as arg writes it (the
// shell's quoting): --shape out, then --namespace when the deployment's
// service namespace ns is not the mock's default, and --service-name when
// the WSDL learned from (nil when none) names a service other than the
// mock's default, taken as a replaying mock takes a recorded WSDL's
// (cli.ASPNET.ServiceFromWSDL).
func ServeLine(out, ns string, wsdl []byte, arg func(string) string) string {
	s := "atmkit serve --shape " + arg(out)
	if ns != "" && ns != asmx.DefaultNamespace {
		s += " --namespace " + arg(ns)
	}
	svc := cli.ASPNET{ServiceName: mockserver.DefaultServiceName}
	if svc.ServiceFromWSDL(wsdl); svc.ServiceName != mockserver.DefaultServiceName {
		s += " --service-name " + arg(svc.ServiceName)
	}
	return s
}

// header is the comment a learned shape file starts with: what it was
// learned from (sources), how to serve it (ServeLine, the file's base name
// outBase, the WSDL learned from, each value as arg writes it), the
// deployment's service namespace and what was not seen (rep).
func header(sources []string, outBase string, rep *learn.Report, wsdl []byte, arg func(string) string) string {
	header := "Learned by atmkit shape learn from " + strings.Join(sources, ", ") + ".\n" +
		"Review the guesses it printed. Serve it with: " + ServeLine(outBase, rep.Namespace, wsdl, arg)
	if rep.Namespace != "" {
		header += "\n(the deployment's service namespace: " + rep.Namespace + ")"
	}
	if len(rep.NotSeen) > 0 {
		header += "\n\nNot seen, kept as atmkit writes them by default (record the calls named, learn again):"
		for _, l := range rep.NotSeen {
			header += "\n  " + l
		}
	}
	return header
}

// CheckOut checks shape learn's --out as cli.CheckReportFile does, but
// for "-": standard output, where the shape is written (Write).
func CheckOut(out string) string {
	if out == "-" {
		return ""
	}
	if p := cli.CheckIsFile(out); p != "" {
		return p + "; --out - writes the shape to standard output"
	}
	return cli.CheckReportFile(out)
}

// CheckOutKind checks that --out, when it exists, is a shape file, which
// shape learn replaces: not a key or a config file given by mistake
// (after OutIsSource, which names a source given so).
func CheckOutKind(out string) string {
	return cli.CheckOwnFile(out, "a shape file", notShape)
}

// notShape is cli.CheckOwnFile's notOurs for a shape file: one shape
// learn wrote (its header), any the shape package reads, or YAML of
// comments only.
func notShape(data []byte) string {
	if bytes.HasPrefix(data, []byte("# Learned by atmkit shape learn")) {
		return ""
	}
	comments := true
	for _, line := range strings.Split(string(data), "\n") {
		if l := strings.TrimSpace(line); l != "" && !strings.HasPrefix(l, "#") {
			comments = false
			break
		}
	}
	if comments {
		return ""
	}
	if _, err := shape.Parse(data); err == nil {
		return ""
	}
	return cli.NotPEMHolds(data)
}

// Dest names what --out names in shape learn's lines: the file, or "the
// shape" for "-" (standard output).
func Dest(out string) string {
	if out == "-" {
		return "the shape"
	}
	return out
}

// Write writes the shape sh learned from sources (rep, the WSDL wsdl) to
// the file out (atomically, its missing directory made) or, for "-", to
// stdout, under a header saying where it was learned from and how to
// serve it (values as arg writes them). It returns what it wrote to and
// the atmkit serve line that serves it (see ServeLine; for "-", the file
// it was saved in, named FILE).
func Write(out string, stdout io.Writer, sh *shape.Shape, sources []string, rep *learn.Report, wsdl []byte, arg func(string) string) (wrote, serve string, err error) {
	if out == "-" {
		if _, err := stdout.Write(shape.Marshal(sh, header(sources, "FILE", rep, wsdl, arg))); err != nil {
			return "", "", fmt.Errorf("write the shape to standard output: %w", err)
		}
		return "the shape to standard output", ServeLine("FILE", rep.Namespace, wsdl, arg) + " (the file you saved it in)", nil
	}
	if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil { // checked as one that can be made
		return "", "", err
	}
	if err := shape.WriteFile(out, sh, header(sources, filepath.Base(out), rep, wsdl, arg)); err != nil {
		return "", "", err
	}
	return out, ServeLine(out, rep.Namespace, wsdl, arg), nil
}

// OutIsSource returns, for a check of --out, what out is when it names a
// file learned from (the same file, however spelt or linked): the --wsdl
// file wsdl (a URL is none) or one of the cassette files; "" when it is
// none of them or does not exist yet. Writing the shape there would
// replace a recording only the deployment can make again: so would
// writing it over any cassette, which it says too.
func OutIsSource(out, wsdl string, cassetteFiles []string) string {
	st, err := os.Stat(out)
	if err != nil {
		return ""
	}
	same := func(path string) bool {
		other, err := os.Stat(path)
		return err == nil && os.SameFile(st, other)
	}
	if wsdl != "" && !IsURL(wsdl) && same(wsdl) {
		return "the WSDL file learned from; give another file"
	}
	for _, f := range cassetteFiles {
		if same(f) {
			return "the cassette " + f + " learned from; give another file"
		}
	}
	if !st.Mode().IsRegular() { // a pipe's open would wait: cli.CheckIsFile names it
		return ""
	}
	if f, err := os.Open(out); err == nil { // a recording of another: as precious
		defer f.Close()
		head := make([]byte, 4096)
		n, _ := io.ReadFull(f, head)
		if isCassette(head[:n]) {
			return "a cassette (recorded interactions), not a shape file; give another file"
		}
	}
	return ""
}

// Counts returns what rep lists, counted, as shape learn's last line says
// it after the sources (": 29 fields mapped, 8 guessed (check them
// above), 2 written with generated values"), so that a guess to check is
// not lost above a long report; "" when rep lists none of these.
func Counts(rep *learn.Report) string {
	var parts []string
	if n := len(rep.Mapped); n > 0 {
		parts = append(parts, banner.Plural(n, "field")+" mapped")
	}
	if n := len(rep.Guessed); n > 0 {
		parts = append(parts, fmt.Sprintf("%d guessed (check them above)", n))
	}
	if n := len(rep.Unmapped); n > 0 {
		parts = append(parts, fmt.Sprintf("%d written with generated values", n))
	}
	if len(parts) == 0 {
		return ""
	}
	return ": " + strings.Join(parts, ", ")
}

// CassetteFiles returns the cassette files names name (cassettes.Files),
// none for no names.
func CassetteFiles(names []string) ([]string, error) {
	if len(names) == 0 {
		return nil, nil
	}
	if p := cli.CheckNoStdin(names, cli.CassetteInput); p != "" {
		return nil, errors.New("--cassette -: " + p)
	}
	return cassettes.Files(names...)
}
