package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"
	"unicode"

	"github.com/atmkit/atmkit/cmd/atmkit/internal/cli"
)

// The tests in this file keep the documentation honest: README.md and
// docs/*.md are read as a user reads them, and every atmkit command they
// show, every flag and ATMKIT_* variable they name, every sample answer
// they embed and every link they hold is checked against atmkit itself.

// repoRoot is the repository's root, seen from this package's directory.
const repoRoot = "../.."

// docFile is one markdown file of the documentation.
type docFile struct {
	path  string // relative to the repository root: "docs/serving.md"
	lines []string
}

// userDocs reads README.md and every docs/*.md: the documentation whose
// commands must work today. CHANGELOG.md records the past and is only
// checked for its links.
func userDocs(t *testing.T) []docFile {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join(repoRoot, "docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(paths)
	if len(paths) == 0 {
		t.Fatal("no docs/*.md found")
	}
	paths = append([]string{filepath.Join(repoRoot, "README.md")}, paths...)
	var docs []docFile
	for _, p := range paths {
		docs = append(docs, readDoc(t, p))
	}
	return docs
}

func readDoc(t *testing.T, path string) docFile {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	rel, _ := filepath.Rel(repoRoot, path)
	return docFile{path: filepath.ToSlash(rel), lines: strings.Split(string(b), "\n")}
}

// codeBlock is a fenced code block of a markdown file.
type codeBlock struct {
	line   int    // line number of the opening fence (from 1)
	lang   string // the fence's info string: "sh", "yaml", ""
	marker string // the HTML comment on the line before the fence, if any
	lines  []string
}

// inlineCode is a code span of prose: `atmkit serve --key K`.
type inlineCode struct {
	line int
	text string
}

var codeSpanRE = regexp.MustCompile("`([^`]+)`")

// parse splits a markdown file into its fenced code blocks and the code
// spans of the rest.
func (d docFile) parse() (blocks []codeBlock, spans []inlineCode) {
	var cur *codeBlock
	fence := ""
	for i, l := range d.lines {
		trimmed := strings.TrimSpace(l)
		if cur != nil {
			if strings.HasPrefix(trimmed, fence) && strings.Trim(trimmed, "`~") == "" {
				blocks = append(blocks, *cur)
				cur = nil
				continue
			}
			cur.lines = append(cur.lines, l)
			continue
		}
		if strings.HasPrefix(trimmed, "```") || strings.HasPrefix(trimmed, "~~~") {
			fence = trimmed[:3]
			cur = &codeBlock{line: i + 1, lang: strings.TrimSpace(strings.Trim(trimmed, "`~"))}
			if i > 0 {
				if m := strings.TrimSpace(d.lines[i-1]); strings.HasPrefix(m, "<!--") && strings.HasSuffix(m, "-->") {
					cur.marker = strings.TrimSpace(strings.TrimSuffix(strings.TrimPrefix(m, "<!--"), "-->"))
				}
			}
			continue
		}
		for _, m := range codeSpanRE.FindAllStringSubmatch(l, -1) {
			spans = append(spans, inlineCode{line: i + 1, text: m[1]})
		}
	}
	return blocks, spans
}

// helpInfo is what `atmkit CMD --help` says about a command.
type helpInfo struct {
	subcommands []string        // for a command that only groups others (fixtures, cassette, shape)
	flags       map[string]bool // flag name → whether it is a boolean flag
	positional  bool            // whether the synopsis takes arguments besides flags
	text        string
}

// helps runs atmkit's commands with --help in process and remembers what
// they say, by command path ("serve", "cassette list").
type helps struct {
	t     *testing.T
	cache map[string]*helpInfo
}

var (
	helpFlagRE    = regexp.MustCompile(`^  -([A-Za-z0-9][A-Za-z0-9-]*)(?: (\S+))?(?:\t.*)?$`)
	subcommandRE  = regexp.MustCompile(`^  ([a-z][a-z-]*)\s{2,}\S`)
	placeholderRE = regexp.MustCompile(`^[A-Z][A-Z_]*$`)
)

// help returns what `atmkit <path...> --help` prints, or nil when atmkit
// has no such command.
func (h *helps) help(path ...string) *helpInfo {
	key := strings.Join(path, " ")
	if hi, ok := h.cache[key]; ok {
		return hi
	}
	var out bytes.Buffer
	m := &Main{cli.Env{Stdout: &out, Stderr: &out, Getenv: func(string) string { return "" }}}
	err := m.Run(context.Background(), append(slices.Clone(path), "--help"))
	if err != flag.ErrHelp {
		h.cache[key] = nil
		return nil
	}
	hi := &helpInfo{flags: map[string]bool{}, text: out.String()}
	lines := strings.Split(out.String(), "\n")
	inSub := false
	for _, l := range lines {
		switch {
		case strings.HasPrefix(l, "Subcommands:"):
			inSub = true
			continue
		case inSub && subcommandRE.MatchString(l):
			hi.subcommands = append(hi.subcommands, subcommandRE.FindStringSubmatch(l)[1])
			continue
		case inSub && strings.TrimSpace(l) == "":
			inSub = false
		}
		if m := helpFlagRE.FindStringSubmatch(l); m != nil {
			hi.flags[m[1]] = m[2] == ""
		}
	}
	// The synopsis: "Usage: atmkit cassette scrub [--check] PATH...". An
	// upper-case word takes a positional argument unless it is the value
	// of the flag before it.
	if len(lines) > 0 && strings.HasPrefix(lines[0], "Usage: atmkit "+key) && hi.subcommands == nil {
		words := strings.Fields(strings.TrimPrefix(lines[0], "Usage: atmkit "+key))
		prev := ""
		for _, w := range words {
			w = strings.Trim(w, "[].")
			if placeholderRE.MatchString(w) {
				name := strings.TrimLeft(prev, "-")
				if !strings.HasPrefix(prev, "-") || hi.flags[name] {
					hi.positional = true
				}
			}
			prev = w
		}
	}
	h.cache[key] = hi
	return hi
}

// allHelps returns the help of every command and subcommand atmkit has.
func (h *helps) all() map[string]*helpInfo {
	all := map[string]*helpInfo{}
	for _, c := range (&Main{}).commands() {
		hi := h.help(c.name)
		if hi == nil {
			h.t.Fatalf("atmkit %s --help failed", c.name)
		}
		all[c.name] = hi
		for _, sub := range hi.subcommands {
			if shi := h.help(c.name, sub); shi != nil {
				all[c.name+" "+sub] = shi
			}
		}
	}
	return all
}

// shellWords splits a shell command line into words, honouring quotes and
// backslashes; it stops at a comment. Operators (| && || ; & and
// redirections) are words of their own.
func shellWords(s string) []string {
	var words []string
	var cur strings.Builder
	in := false // a word is being built
	flush := func() {
		if in {
			words = append(words, cur.String())
			cur.Reset()
			in = false
		}
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '\'':
			in = true
			j := strings.IndexByte(s[i+1:], '\'')
			if j < 0 {
				j = len(s) - i - 1
			}
			cur.WriteString(s[i+1 : i+1+j])
			i += j + 1
		case c == '"':
			in = true
			for i++; i < len(s) && s[i] != '"'; i++ {
				if s[i] == '\\' && i+1 < len(s) {
					i++
				}
				cur.WriteByte(s[i])
			}
		case c == '\\' && i+1 < len(s):
			in = true
			i++
			cur.WriteByte(s[i])
		case c == '#' && !in:
			flush()
			return words
		case c == ' ' || c == '\t':
			flush()
		case c == '<' && !in && i+1 < len(s) && unicode.IsLetter(rune(s[i+1])) && strings.IndexByte(s[i:], '>') > 0:
			// A placeholder such as <command>, not a redirection.
			j := i + strings.IndexByte(s[i:], '>')
			words = append(words, s[i:j+1])
			i = j
		case c == '>' || c == '<':
			// A redirection: its descriptor (2>), the operator and, for
			// >&1, the descriptor it names are one word, ">" or ">&".
			if in && strings.Trim(cur.String(), "0123456789") == "" {
				cur.Reset()
				in = false
			}
			flush()
			j := i + 1
			for j < len(s) && (s[j] == '>' || s[j] == '&') {
				j++
			}
			op := s[i:j]
			if strings.HasSuffix(op, "&") {
				for j < len(s) && s[j] >= '0' && s[j] <= '9' {
					j++
				}
				op = ">&"
			} else {
				op = ">"
			}
			words = append(words, op)
			i = j - 1
		case c == '|' || c == '&' || c == ';':
			flush()
			j := i + 1
			for j < len(s) && (s[j] == '|' || s[j] == '&') {
				j++
			}
			words = append(words, s[i:j])
			i = j - 1
		default:
			in = true
			cur.WriteByte(c)
		}
	}
	flush()
	return words
}

// atmkitCall is one atmkit command line found in the docs.
type atmkitCall struct {
	where string   // "docs/serving.md:42"
	args  []string // the words after the program: ["serve", "--key", "k1"]
	// prose is set for a code span of prose, which may name a flag
	// without its value: "`atmkit conform --target`".
	prose bool
}

var (
	envAssignRE = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*=`)
	// atmkitProgRE matches the words that run atmkit: atmkit, ./atmkit,
	// ./cmd/atmkit (after go run), github.com/atmkit/atmkit/cmd/atmkit@v1.
	atmkitProgRE = regexp.MustCompile(`^(?:\./|\S*/)?(?:cmd/)?atmkit(?:@\S+)?$`)
)

// atmkitCalls returns the atmkit invocations of one shell command line.
func atmkitCalls(where, line string) []atmkitCall {
	var calls []atmkitCall
	var simple [][]string
	var cur []string
	words := shellWords(line)
	for i := 0; i < len(words); i++ {
		w := words[i]
		switch {
		case w == "|" || w == "||" || w == "&&" || w == "&" || w == ";":
			simple, cur = append(simple, cur), nil
		case w == ">":
			i++ // the file redirected to
		case w == ">&":
			// to another descriptor: nothing follows
		default:
			cur = append(cur, w)
		}
	}
	simple = append(simple, cur)
	for _, words := range simple {
		for len(words) > 0 && envAssignRE.MatchString(words[0]) {
			words = words[1:]
		}
		// Wrappers that run the command after them.
		for len(words) > 0 && (words[0] == "time" || words[0] == "/usr/bin/time" || words[0] == "exec" || words[0] == "nohup") {
			words = words[1:]
			for len(words) > 0 && strings.HasPrefix(words[0], "-") {
				words = words[1:]
			}
		}
		if len(words) >= 3 && words[0] == "go" && words[1] == "run" {
			words = words[2:]
			for len(words) > 0 && strings.HasPrefix(words[0], "-") {
				words = words[1:]
			}
			if len(words) > 0 && (words[0] == "." || !atmkitProgRE.MatchString(words[0])) {
				continue // go run of another program
			}
		}
		if len(words) == 0 || !atmkitProgRE.MatchString(words[0]) {
			continue
		}
		calls = append(calls, atmkitCall{where: where, args: words[1:]})
	}
	return calls
}

// shellLangs are the info strings of code blocks that hold command lines;
// text blocks (output) are left alone.
var shellLangs = map[string]bool{"": true, "sh": true, "bash": true, "shell": true, "console": true, "yaml": true}

// docCalls returns every atmkit command line of the docs: in shell and
// YAML code blocks (lines joined at a trailing backslash; a YAML block's
// "run:" scripts are shell) and in code spans of prose that start with
// atmkit.
func docCalls(docs []docFile) []atmkitCall {
	var calls []atmkitCall
	for _, d := range docs {
		blocks, spans := d.parse()
		for _, b := range blocks {
			if !shellLangs[b.lang] || b.marker != "" {
				continue
			}
			for i := 0; i < len(b.lines); i++ {
				start := i
				line := strings.TrimSpace(b.lines[i])
				for strings.HasSuffix(line, `\`) && i+1 < len(b.lines) {
					i++
					line = strings.TrimSuffix(line, `\`) + " " + strings.TrimSpace(b.lines[i])
				}
				if b.lang == "yaml" {
					line = strings.TrimPrefix(strings.TrimPrefix(line, "- "), "run: ")
				}
				line = strings.TrimPrefix(line, "$ ")
				calls = append(calls, atmkitCalls(fmt.Sprintf("%s:%d", d.path, b.line+1+start), line)...)
			}
		}
		for _, s := range spans {
			if strings.HasPrefix(s.text, "atmkit ") || strings.HasPrefix(s.text, "go run ./cmd/atmkit ") {
				for _, c := range atmkitCalls(fmt.Sprintf("%s:%d", d.path, s.line), s.text) {
					c.prose = true
					calls = append(calls, c)
				}
			}
		}
	}
	return calls
}

// check says what is wrong with an atmkit command line of the docs, or "".
func (h *helps) check(c atmkitCall) string {
	args := c.args
	if len(args) == 0 {
		return "atmkit without a command"
	}
	if args[0] == "help" {
		if len(args) > 1 && h.help(args[1]) == nil {
			return fmt.Sprintf("atmkit has no command %q", args[1])
		}
		return ""
	}
	if strings.HasPrefix(args[0], "<") {
		return "" // atmkit <command>: nothing to check
	}
	path := []string{args[0]}
	hi := h.help(path...)
	if hi == nil {
		return fmt.Sprintf("atmkit has no command %q", args[0])
	}
	args = args[1:]
	if hi.subcommands != nil {
		if len(args) == 0 || args[0] == "--help" {
			return ""
		}
		if !slices.Contains(hi.subcommands, args[0]) {
			return fmt.Sprintf("atmkit %s has no subcommand %q (it has %s)", path[0], args[0], strings.Join(hi.subcommands, ", "))
		}
		path = append(path, args[0])
		if hi = h.help(path...); hi == nil {
			return fmt.Sprintf("atmkit %s --help fails", strings.Join(path, " "))
		}
		args = args[1:]
	}
	name := "atmkit " + strings.Join(path, " ")
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	for f, isBool := range hi.flags {
		if isBool {
			fs.Bool(f, false, "")
		} else {
			fs.String(f, "", "")
		}
	}
	var words []string
	for _, a := range args {
		if a != "..." && a != "…" {
			words = append(words, a)
		}
	}
	if err := cli.ParseFlags(fs, words); err != nil {
		if err == flag.ErrHelp || c.prose && strings.HasPrefix(err.Error(), "flag needs an argument") {
			return ""
		}
		return fmt.Sprintf("%s: %v (flags of %s --help: %s)", name, err, name, strings.Join(slices.Sorted(maps.Keys(hi.flags)), ", "))
	}
	if fs.NArg() > 0 && !hi.positional {
		return fmt.Sprintf("%s takes no arguments, got %q", name, fs.Args())
	}
	return ""
}

// TestDocsCommands checks every atmkit command line of README.md and
// docs/*.md against the commands' own --help: the command and subcommand
// exist, every flag is one of theirs (a boolean or one that takes a
// value, as used), flags come before arguments, and a command that takes
// no arguments is given none.
func TestDocsCommands(t *testing.T) {
	t.Parallel()
	h := &helps{t: t, cache: map[string]*helpInfo{}}
	calls := docCalls(userDocs(t))
	if len(calls) < 50 {
		t.Fatalf("found %d atmkit command lines in the docs, want many more: is the parser broken?", len(calls))
	}
	seen := map[string]bool{}
	for _, c := range calls {
		if msg := h.check(c); msg != "" {
			t.Errorf("%s: atmkit %s: %s", c.where, strings.Join(c.args, " "), msg)
		}
		if len(c.args) > 0 {
			seen[c.args[0]] = true
		}
	}
	// Every command is shown at least once.
	for _, c := range (&Main{}).commands() {
		if !seen[c.name] {
			t.Errorf("no docs page shows atmkit %s", c.name)
		}
	}
}

// TestDocsCheckerCatchesMistakes makes sure the command checker fails
// where it should: a test of the docs that passes everything proves nothing.
func TestDocsCheckerCatchesMistakes(t *testing.T) {
	t.Parallel()
	h := &helps{t: t, cache: map[string]*helpInfo{}}
	for _, c := range []struct {
		line string
		want string // "" when the line is right
	}{
		{"atmkit serve --addr 127.0.0.1:8081 --key k1 --deviate soap11-envelope-ns &", ""},
		{`ATMKIT_KEYS=k1,k2 go run ./cmd/atmkit serve --fixtures ./my-data 2>&1 | tee log`, ""},
		{`go run github.com/atmkit/atmkit/cmd/atmkit@latest serve --addr 127.0.0.1:8080 > atmkit.log 2>&1 &`, ""},
		{"/usr/bin/time -v ./atmkit serve --fixtures /tmp/fx1m", ""},
		{"atmkit cassette scrub --check testdata/ # CI", ""},
		{"atmkit bench -d 10s -c 16 --json", ""},
		{"atmkit conform --target http://h --key k --label-filter '!get && !post'", ""},
		{"atmkit serve --no-such-flag", "flag provided but not defined"},
		{"atmkit serve --addr", "flag needs an argument"},
		{"atmkit serve extra", "takes no arguments"},
		{"atmkit cassette scrub testdata/ --check", ""},
		{"atmkit cassette scrub testdata/ --chek", "flag provided but not defined"},
		{"atmkit cassette rewind x.yaml", "no subcommand"},
		{"atmkit frobnicate", "no command"},
		{"atmkit conform --tls-self-signed", "flag provided but not defined"},
	} {
		calls := atmkitCalls("test", c.line)
		if len(calls) != 1 {
			t.Errorf("%s: got %d atmkit calls, want 1", c.line, len(calls))
			continue
		}
		got := h.check(calls[0])
		if c.want == "" && got != "" || c.want != "" && !strings.Contains(got, c.want) {
			t.Errorf("%s: got %q, want %q", c.line, got, c.want)
		}
	}
	for _, line := range []string{"go build -o atmkit ./cmd/atmkit", "curl -s $B/__admin/faults", "go test ./...", "npm install wiremock"} {
		if calls := atmkitCalls("test", line); len(calls) != 0 {
			t.Errorf("%s: got %d atmkit calls, want none", line, len(calls))
		}
	}
}

var (
	envVarRE  = regexp.MustCompile(`\bATMKIT_[A-Z0-9_]*[A-Z0-9]`)
	flagRefRE = regexp.MustCompile(`(?:^|[\s(\x60"'\[|/,])--([a-z][a-z0-9]*(?:-[a-z0-9]+)*)`)
)

// otherTools are the flags of other programs the docs show, which are not
// atmkit's: curl's, docker's, node's, kubectl's, goreleaser's.
var otherTools = map[string]string{
	"help":   "every command",
	"foo":    "the docs' example of a mistyped flag",
	"adr":    "the docs' example of a mistyped flag (--addr)",
	"cacert": "curl", "cert": "curl", "data": "curl",
	"rm": "docker run", "user": "docker run", "memory": "docker run", "name": "docker run",
	"read-only": "docker run", "tmpfs": "docker run", "add-host": "docker run", "network": "docker run",
	"health-cmd": "docker run", "health-interval": "docker run", "health-timeout": "docker run", "health-retries": "docker run",
	"exit-code-from": "docker compose up",
	"test":           "node --test",
	"from-literal":   "kubectl create secret",
	"snapshot":       "goreleaser release", "clean": "goreleaser release", "skip": "goreleaser release",
}

// TestDocsFlagsAndVariables checks every --flag and ATMKIT_* variable the
// docs name, in prose too: each is a flag of some atmkit command (or the
// variable mirroring one, or a variable a command's --help names, such as
// ATMKIT_KEYS, or atmkit's own --help: its example of a mistyped one).
func TestDocsFlagsAndVariables(t *testing.T) {
	t.Parallel()
	h := &helps{t: t, cache: map[string]*helpInfo{}}
	flags, vars := map[string]bool{}, map[string]bool{}
	for _, v := range envVarRE.FindAllString(h.help().text, -1) {
		vars[v] = true
	}
	for name, hi := range h.all() {
		for f := range hi.flags {
			flags[f] = true
			vars[cli.CommandEnvName(name, f)] = true
		}
		for _, v := range envVarRE.FindAllString(hi.text, -1) {
			vars[v] = true
		}
	}
	for _, d := range userDocs(t) {
		for i, l := range d.lines {
			for _, v := range envVarRE.FindAllString(l, -1) {
				if !vars[v] {
					t.Errorf("%s:%d: %s mirrors no flag of atmkit and no command's --help names it", d.path, i+1, v)
				}
			}
			for _, m := range flagRefRE.FindAllStringSubmatch(l, -1) {
				if !flags[m[1]] && otherTools[m[1]] == "" {
					t.Errorf("%s:%d: --%s is a flag of no atmkit command", d.path, i+1, m[1])
				}
			}
		}
	}
}

// TestDocsSamples checks every code block the docs mark with a golden
// file: <!-- golden: PATH --> on the line before the fence means the block
// is that file (relative to the repository root); "excerpt" after the path
// allows lines of "..." to stand for lines left out; "json-indented" means
// the file's body (after its header lines, for an .http file) is compact
// JSON, shown indented by two spaces; "xml-indented" the same for compact
// XML (a SOAP answer, written on one line as ASMX writes it), an element
// holding only text shown on one line. CRLF line ends count as LF.
func TestDocsSamples(t *testing.T) {
	t.Parallel()
	n := 0
	for _, d := range userDocs(t) {
		blocks, _ := d.parse()
		for _, b := range blocks {
			if !strings.HasPrefix(b.marker, "golden:") {
				continue
			}
			n++
			fields := strings.Fields(strings.TrimPrefix(b.marker, "golden:"))
			if len(fields) == 0 {
				t.Errorf("%s:%d: golden marker without a path", d.path, b.line)
				continue
			}
			path, mods := fields[0], fields[1:]
			want, err := os.ReadFile(filepath.Join(repoRoot, filepath.FromSlash(path)))
			if err != nil {
				t.Errorf("%s:%d: %v", d.path, b.line, err)
				continue
			}
			// Line ends are compared as a reader sees them: an answer's
			// CRLF shows as a line break in the docs like any other.
			file := strings.ReplaceAll(string(want), "\r\n", "\n")
			if slices.Contains(mods, "json-indented") {
				if file, err = indentJSONBody(file); err != nil {
					t.Errorf("%s:%d: %s: %v", d.path, b.line, path, err)
					continue
				}
			}
			if slices.Contains(mods, "xml-indented") {
				if file, err = indentXMLBody(file); err != nil {
					t.Errorf("%s:%d: %s: %v", d.path, b.line, path, err)
					continue
				}
			}
			if msg := matchSample(b.lines, strings.Split(strings.TrimSuffix(file, "\n"), "\n"), slices.Contains(mods, "excerpt")); msg != "" {
				t.Errorf("%s:%d: the block differs from %s (%s); the file is what atmkit does: copy it into the docs", d.path, b.line, path, msg)
			}
		}
	}
	if n == 0 {
		t.Error("no docs page embeds a golden sample")
	}
}

// indentJSONBody indents the JSON body of a sample: an .http sample's
// body comes after its first blank line.
func indentJSONBody(s string) (string, error) {
	head, body, ok := strings.Cut(s, "\n\n")
	if !ok {
		head, body = "", s
	}
	var b bytes.Buffer
	if err := json.Indent(&b, []byte(body), "", "  "); err != nil {
		return "", err
	}
	if !ok {
		return b.String(), nil
	}
	return head + "\n\n" + b.String(), nil
}

// indentXMLBody indents the compact XML body of a sample (after its
// first blank line for an .http sample): the declaration on a line of its
// own, then every element on a line of its own, two spaces a level, an
// element holding only text (or nothing, <a></a>) on one line. Mixed
// content is refused: no sample shown so has any.
func indentXMLBody(s string) (string, error) {
	head, body, ok := strings.Cut(s, "\n\n")
	if !ok {
		head, body = "", s
	}
	var toks []string
	for rest := body; rest != ""; {
		if rest[0] != '<' {
			i := strings.IndexByte(rest, '<')
			if i < 0 {
				i = len(rest)
			}
			toks, rest = append(toks, rest[:i]), rest[i:]
			continue
		}
		i := strings.IndexByte(rest, '>')
		if i < 0 {
			return "", fmt.Errorf("unterminated tag %.40q", rest)
		}
		toks, rest = append(toks, rest[:i+1]), rest[i+1:]
	}
	isStart := func(k int) bool {
		return k < len(toks) && strings.HasPrefix(toks[k], "<") && !strings.HasPrefix(toks[k], "</") &&
			!strings.HasPrefix(toks[k], "<?") && !strings.HasSuffix(toks[k], "/>")
	}
	isEnd := func(k int) bool { return k < len(toks) && strings.HasPrefix(toks[k], "</") }
	var lines []string
	depth := 0
	line := func(s string) { lines = append(lines, strings.Repeat("  ", depth)+s) }
	for k := 0; k < len(toks); k++ {
		tok := toks[k]
		switch {
		case strings.HasPrefix(tok, "<?"):
			line(tok)
		case isStart(k) && isEnd(k+1):
			line(tok + toks[k+1])
			k++
		case isStart(k) && !strings.HasPrefix(toks[min(k+1, len(toks)-1)], "<") && isEnd(k+2):
			line(tok + toks[k+1] + toks[k+2])
			k += 2
		case isStart(k):
			line(tok)
			depth++
		case isEnd(k):
			depth--
			line(tok)
		case strings.HasPrefix(tok, "<"):
			line(tok)
		default:
			return "", fmt.Errorf("mixed content %.40q", tok)
		}
	}
	out := strings.Join(lines, "\n")
	if !ok {
		return out, nil
	}
	return head + "\n\n" + out, nil
}

// matchSample says where block differs from the file's lines, or "".
// In an excerpt, lines of "..." (any indentation) stand for any number of
// the file's lines, and the other lines must appear in the file's order,
// runs of them adjacent as in the file.
func matchSample(block, file []string, excerpt bool) string {
	for len(block) > 0 && block[len(block)-1] == "" {
		block = block[:len(block)-1]
	}
	if !excerpt {
		if slices.Equal(block, file) {
			return ""
		}
		for i := range block {
			if i >= len(file) {
				return fmt.Sprintf("line %d of the block is past the file's end", i+1)
			}
			if block[i] != file[i] {
				return fmt.Sprintf("line %d: got %q, want %q", i+1, block[i], file[i])
			}
		}
		return fmt.Sprintf("the block ends at line %d, the file goes on: %q", len(block), file[len(block)])
	}
	// Runs of block lines between elisions.
	var runs [][]string
	var cur []string
	leading := len(block) > 0 && isElision(block[0])
	trailing := len(block) > 0 && isElision(block[len(block)-1])
	for _, l := range block {
		if isElision(l) {
			if cur != nil {
				runs = append(runs, cur)
			}
			cur = nil
			continue
		}
		cur = append(cur, l)
	}
	if cur != nil {
		runs = append(runs, cur)
	}
	pos := 0
	for i, run := range runs {
		anchoredStart := i == 0 && !leading
		anchoredEnd := i == len(runs)-1 && !trailing
		found := -1
		for at := pos; at+len(run) <= len(file); at++ {
			if anchoredStart && at != 0 {
				break
			}
			if anchoredEnd && at+len(run) != len(file) {
				continue
			}
			if slices.Equal(file[at:at+len(run)], run) {
				found = at
				break
			}
		}
		if found < 0 {
			return fmt.Sprintf("no run of the file's lines, in order after what came before, is %q", strings.Join(run, "\n"))
		}
		pos = found + len(run)
	}
	return ""
}

func isElision(l string) bool {
	l = strings.TrimSpace(l)
	return l == "..." || l == "…"
}

// TestDocsSampleMatcher checks matchSample on small cases.
func TestDocsSampleMatcher(t *testing.T) {
	t.Parallel()
	file := []string{"<a>", "  <b>1</b>", "  <b>2</b>", "  <b>3</b>", "</a>"}
	for _, c := range []struct {
		block   []string
		excerpt bool
		ok      bool
	}{
		{file, false, true},
		{file[:4], false, false},
		{[]string{"<a>", "  <b>1</b>", "  ...", "</a>"}, true, true},
		{[]string{"<a>", "  ...", "  <b>3</b>", "</a>"}, true, true},
		{[]string{"<a>", "  <b>2</b>", "  ...", "</a>"}, true, false},     // not adjacent to <a>
		{[]string{"<a>", "  ...", "  <b>1</b>", "</a>"}, true, false},     // not adjacent to </a>
		{[]string{"<a>", "  <b>3</b>", "...", "  <b>1</b>"}, true, false}, // out of order
		{[]string{"...", "  <b>2</b>", "..."}, true, true},
		{[]string{"<a>", "  <b>9</b>", "..."}, true, false},
	} {
		got := matchSample(c.block, file, c.excerpt)
		if (got == "") != c.ok {
			t.Errorf("%q (excerpt %v): got %q, want ok %v", c.block, c.excerpt, got, c.ok)
		}
	}
}

var linkRE = regexp.MustCompile(`\]\(([^)\s]+)\)`)

// TestDocsLinks checks the links of README.md, docs/*.md and CHANGELOG.md:
// a relative link names a file of the repository (never a path outside
// it), and an anchor names a heading of the page it points to. The README
// links every docs page.
func TestDocsLinks(t *testing.T) {
	t.Parallel()
	docs := append(userDocs(t), readDoc(t, filepath.Join(repoRoot, "CHANGELOG.md")))
	root, err := filepath.Abs(repoRoot)
	if err != nil {
		t.Fatal(err)
	}
	anchors := map[string]map[string]bool{} // by path relative to the root
	for _, d := range docs {
		anchors[d.path] = headingAnchors(d.lines)
	}
	readme := map[string]bool{}
	for _, d := range docs {
		for i, l := range d.lines {
			for _, m := range linkRE.FindAllStringSubmatch(l, -1) {
				target := m[1]
				if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
					continue
				}
				file, anchor, _ := strings.Cut(target, "#")
				dest := d.path
				if file != "" {
					dest = filepath.ToSlash(filepath.Join(filepath.Dir(d.path), file))
					abs := filepath.Join(root, filepath.FromSlash(dest))
					if rel, err := filepath.Rel(root, abs); err != nil || strings.HasPrefix(rel, "..") {
						t.Errorf("%s:%d: %s points outside the repository", d.path, i+1, target)
						continue
					}
					if _, err := os.Stat(abs); err != nil {
						t.Errorf("%s:%d: %s: no such file in the repository", d.path, i+1, target)
						continue
					}
				}
				if d.path == "README.md" {
					readme[dest] = true
				}
				if anchor == "" {
					continue
				}
				a, ok := anchors[dest]
				if !ok {
					if strings.HasSuffix(dest, ".md") {
						a = headingAnchors(readDoc(t, filepath.Join(root, filepath.FromSlash(dest))).lines)
					} else {
						continue // a line anchor of a source file
					}
				}
				if !a[anchor] {
					t.Errorf("%s:%d: %s: %s has no heading with the anchor #%s", d.path, i+1, target, dest, anchor)
				}
			}
		}
	}
	for _, d := range docs {
		if strings.HasPrefix(d.path, "docs/") && !readme[d.path] {
			t.Errorf("README.md does not link %s", d.path)
		}
	}
	if !readme["CHANGELOG.md"] {
		t.Error("README.md does not link CHANGELOG.md")
	}
}

// headingAnchors returns the anchors GitHub gives a page's headings.
func headingAnchors(lines []string) map[string]bool {
	anchors := map[string]bool{}
	seen := map[string]int{}
	inFence := false
	for _, l := range lines {
		t := strings.TrimSpace(l)
		if strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~") {
			inFence = !inFence
			continue
		}
		if inFence || !strings.HasPrefix(l, "#") {
			continue
		}
		a := slug(strings.TrimLeft(l, "#"))
		if n := seen[a]; n > 0 {
			anchors[fmt.Sprintf("%s-%d", a, n)] = true
		} else {
			anchors[a] = true
		}
		seen[a]++
	}
	return anchors
}

// slug is GitHub's anchor of a heading: lower case, spaces to hyphens,
// punctuation other than hyphens and underscores dropped.
func slug(heading string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(strings.TrimSpace(heading)) {
		switch {
		case unicode.IsLetter(r) || unicode.IsDigit(r) || r == '-' || r == '_':
			b.WriteRune(r)
		case r == ' ':
			b.WriteByte('-')
		}
	}
	return b.String()
}

// TestReadmeFrontPage checks what the README must be: a front page of at
// most 300 lines that shows the two commands a newcomer needs.
func TestReadmeFrontPage(t *testing.T) {
	t.Parallel()
	d := readDoc(t, filepath.Join(repoRoot, "README.md"))
	if n := len(d.lines); n > 301 { // a final newline makes an empty last element
		t.Errorf("README.md has %d lines, want at most 300", n-1)
	}
	text := strings.Join(d.lines, "\n")
	for _, want := range []string{"go run ./cmd/atmkit serve", "go test ./..."} {
		if !strings.Contains(text, want) {
			t.Errorf("README.md does not show %q", want)
		}
	}
	for _, d := range append(userDocs(t), readDoc(t, filepath.Join(repoRoot, "CHANGELOG.md"))) {
		for i, l := range d.lines {
			if strings.Contains(l, "/work/") || strings.Contains(l, "shared/") {
				t.Errorf("%s:%d: names a path users of the repository do not have: %s", d.path, i+1, l)
			}
		}
	}
}

var deviationRowRE = regexp.MustCompile("^\\| `([a-z0-9-]+)` \\|")

// TestDocsDeviations checks that the table of deviations in the
// conformance docs names exactly those `atmkit serve --deviate list` lists.
func TestDocsDeviations(t *testing.T) {
	t.Parallel()
	var out bytes.Buffer
	m := &Main{cli.Env{Stdout: &out, Stderr: &out, Getenv: func(string) string { return "" }}}
	if code := m.Exit(m.Run(context.Background(), []string{"serve", "--deviate", "list"})); code != exitOK {
		t.Fatalf("atmkit serve --deviate list: exit %d: %s", code, out.String())
	}
	var listed []string
	for _, l := range strings.Split(out.String(), "\n") {
		if f := strings.Fields(l); len(f) > 1 && strings.HasPrefix(l, "  ") {
			listed = append(listed, f[0])
		}
	}
	d := readDoc(t, filepath.Join(repoRoot, "docs", "conformance.md"))
	var documented []string
	in := false
	for _, l := range d.lines {
		if strings.HasPrefix(l, "## ") {
			in = l == "## Breaking the mock on purpose"
		}
		if m := deviationRowRE.FindStringSubmatch(l); in && m != nil {
			documented = append(documented, m[1])
		}
	}
	if len(listed) == 0 {
		t.Fatalf("atmkit serve --deviate list listed nothing: %s", out.String())
	}
	slices.Sort(listed)
	slices.Sort(documented)
	if !slices.Equal(listed, documented) {
		t.Errorf("docs/conformance.md documents the deviations %q, want those atmkit serve --deviate list lists: %q", documented, listed)
	}
}
