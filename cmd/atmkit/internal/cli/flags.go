package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/atmkit/atmkit/asmx"
	"github.com/atmkit/atmkit/internal/atomicfile"
	"github.com/atmkit/atmkit/internal/redact"
	"github.com/atmkit/atmkit/shape"
)

// NewFlagSet returns a flag set for a subcommand that prints usage (with the
// examples) to w and returns errors instead of exiting. Env.Parse prints an
// asked-for --help on the Env's Stdout instead.
func NewFlagSet(name, synopsis, examples string, w io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(w)
	fs.Usage = func() {
		w := fs.Output()
		fmt.Fprintf(w, "Usage: atmkit %s\n", synopsis)
		if ex := envExample(fs); ex != "" {
			fmt.Fprintf(w, "\nFlags (each also read from %s<NAME>, e.g. --%s from %s):\n", envPrefix(fs.Name()), ex, CommandEnvName(fs.Name(), ex))
			fs.PrintDefaults()
		}
		if examples != "" {
			fmt.Fprintf(w, "\nExamples:\n%s\n", strings.TrimRight(examples, "\n"))
		}
	}
	return fs
}

// envExample is the flag the usage text takes as its example of an ATMKIT_*
// variable: the first with a dash in its name (it shows how dashes become
// underscores), else the first; "" when the command has no flags.
func envExample(fs *flag.FlagSet) string {
	first, dashed := "", ""
	fs.VisitAll(func(f *flag.Flag) {
		if first == "" {
			first = f.Name
		}
		if dashed == "" && strings.Contains(f.Name, "-") {
			dashed = f.Name
		}
	})
	if dashed != "" {
		return dashed
	}
	return first
}

// EnvName is the ATMKIT_* variable mirroring a flag: --on-miss → ATMKIT_ON_MISS.
func EnvName(flagName string) string {
	return "ATMKIT_" + strings.ToUpper(strings.ReplaceAll(flagName, "-", "_"))
}

// envPrefixes are the variable prefixes of the commands whose flags are
// not read from ATMKIT_<NAME>. atmkit health runs beside atmkit serve, in
// the same environment (the container image's HEALTHCHECK): serve's
// ATMKIT_TIMEOUT, ATMKIT_CA_CERT, ATMKIT_CLIENT_CERT and ATMKIT_HEADER are
// for its upstream, not for the health check of the mock itself.
var envPrefixes = map[string]string{"health": "ATMKIT_HEALTH_"}

// envPrefix is the prefix of the variables of command cmd's flags:
// ATMKIT_, or the command's own (envPrefixes).
func envPrefix(cmd string) string {
	if p, ok := envPrefixes[cmd]; ok {
		return p
	}
	return "ATMKIT_"
}

// CommandEnvName is the variable mirroring flag flagName of command cmd
// (the name of its flag set): EnvName's, or, for a command with variables
// of its own, ATMKIT_HEALTH_TIMEOUT.
func CommandEnvName(cmd, flagName string) string {
	return envPrefix(cmd) + strings.TrimPrefix(EnvName(flagName), "ATMKIT_")
}

// secretFlags are the flags whose values are shown only masked, in errors too.
var secretFlags = map[string]bool{"key": true, "admin-token": true, "header": true}

// Parse parses args into fs (flags may come before, between or after the
// arguments; see ParseFlags) and applies ATMKIT_* variables for every flag not given on the command
// line, after parsing it; the command line wins over the environment.
// Variables for list flags hold comma-separated values, each trimmed of
// white space at its ends but a service key's: ASMX compares keys exactly,
// and serve takes ATMKIT_KEYS' and ATMKIT_KEY's keys as --key, a config
// file and conform take theirs, spaces and all (serve warns of them). A few flags have an
// extra variable name in aliases (flag name → variable), such as key → ATMKIT_KEYS;
// a list flag takes the values of both (ATMKIT_KEY and ATMKIT_KEYS), any
// other the first set.
//
// An ATMKIT_* variable no atmkit command reads gets a warning
// (warnUnknownEnv), unless --help was asked for. A wrong command line is
// one line naming the problem and the command's --help, not the whole
// usage text; a variable that does not parse names
// the variable, what is wrong with its value and the flag it sets.
func (e *Env) Parse(fs *flag.FlagSet, args []string, aliases map[string]string) error {
	usage, out := fs.Usage, fs.Output()
	fs.Usage = func() {}
	fs.SetOutput(io.Discard)
	err := ParseFlags(fs, args)
	fs.Usage = usage
	fs.SetOutput(out)
	if err != flag.ErrHelp {
		e.warnUnknownEnv(fs, aliases)
	}
	if err != nil {
		if err == flag.ErrHelp { // asked for: the usage is the output, on stdout
			fs.SetOutput(e.Stdout)
			fs.Usage()
			fs.SetOutput(out)
			return err
		}
		// The refusal may echo a value holding a key (a --fault's text),
		// and the keys after it were not read: the output masks them.
		e.HideKeys(e.GivenSecrets(fs, args, aliases)...)
		return Usagef(fs.Name(), "%s", flagParseError(fs, err))
	}
	origin := e.origins(fs)
	fs.Visit(func(f *flag.Flag) { origin[f.Name] = "--" + f.Name })
	fs.VisitAll(func(f *flag.Flag) {
		if origin[f.Name] != "" || err != nil {
			return
		}
		names := []string{CommandEnvName(fs.Name(), f.Name)}
		if a, ok := aliases[f.Name]; ok {
			names = append(names, a)
		}
		for _, n := range names {
			v := e.Getenv(n)
			if v == "" {
				continue
			}
			if origin[f.Name] == "" {
				origin[f.Name] = n
			}
			if lf, ok := f.Value.(*List); ok { // every variable's values count (ATMKIT_KEY and ATMKIT_KEYS)
				for _, part := range strings.Split(v, ",") {
					if !secretFlags[f.Name] { // a key is taken as given, as --key takes it
						part = strings.TrimSpace(part)
					}
					if part != "" {
						_ = lf.Set(part)
					}
				}
				continue
			}
			if e := f.Value.Set(v); e != nil {
				shown := v
				if secretFlags[f.Name] {
					shown = redact.Key(v)
				}
				err = Usagef(fs.Name(), "%s=%q: %s (--%s)", n, shown, valueProblem(f, e), f.Name)
			}
			return
		}
	})
	if err != nil { // a variable's refusal (ATMKIT_FAULT's text), as above
		e.HideKeys(e.GivenSecrets(fs, args, aliases)...)
	}
	return err
}

// ParseFlags parses args into fs as the flag package does, except that flags
// may also come after arguments (atmkit cassette verify rec/ --upstream URL),
// as most command lines allow: every word that is not a flag or a flag's
// value is an argument, in order, and "--" makes every word after it an
// argument. fs.Args() is the arguments afterwards.
func ParseFlags(fs *flag.FlagSet, args []string) error {
	var words []string
	for {
		if err := fs.Parse(args); err != nil {
			return err
		}
		rest := fs.Args()
		if len(rest) == 0 {
			break
		}
		if n := len(args) - len(rest); n > 0 && args[n-1] == "--" { // the flag package took "--"
			words = append(words, rest...)
			break
		}
		words, args = append(words, rest[0]), rest[1:]
	}
	return fs.Parse(append([]string{"--"}, words...))
}

// ParseNoArgs is Parse, without aliases, for a command that takes no
// arguments: one left after the flags is a usage error naming it.
func (e *Env) ParseNoArgs(fs *flag.FlagSet, args []string) error {
	if err := e.Parse(fs, args, nil); err != nil {
		return err
	}
	return NoArgs(fs)
}

// Given reports whether flag name of fs got its value from the command
// line (even an empty one), an ATMKIT_* variable or a config file, rather
// than keeping its default.
func (e *Env) Given(fs *flag.FlagSet, name string) bool {
	return e.origins(fs)[name] != ""
}

// StderrUnlessGiven is Stderr, or io.Discard when flag name of fs was
// given (Given): where a note suggesting that flag goes.
func (e *Env) StderrUnlessGiven(fs *flag.FlagSet, name string) io.Writer {
	if e.Given(fs, name) {
		return io.Discard
	}
	return e.Stderr
}

// origins returns where each flag of fs got its value: "--name" (the
// command line), the ATMKIT_* variable, or the config file's key; a flag
// missing from it has its default.
func (e *Env) origins(fs *flag.FlagSet) map[string]string {
	if e.origin == nil {
		e.origin = map[*flag.FlagSet]map[string]string{}
	}
	if e.origin[fs] == nil {
		e.origin[fs] = map[string]string{}
	}
	return e.origin[fs]
}

// BadSetting is the usage error for a flag whose value is wrong, naming
// where the value came from: the flag, its ATMKIT_* variable or its key in
// the config file. The values of secret flags are masked.
func (e *Env) BadSetting(fs *flag.FlagSet, name, problem string) error {
	src := e.origins(fs)[name]
	if secretFlags[name] { // no value shown, not even masked
		switch {
		case strings.HasPrefix(src, "ATMKIT_"):
			return Usagef(fs.Name(), "%s: %s (--%s)", src, problem, name)
		case strings.Contains(src, " in config file "):
			return Usagef(fs.Name(), "%s: %s (--%s)", src, problem, name)
		}
		return Usagef(fs.Name(), "--%s: %s", name, problem)
	}
	v := fs.Lookup(name).Value.String()
	if strings.Contains(v, "://") { // a URL's password is not shown (--target https://user:pw@...)
		v = redact.URL(v)
	}
	return e.badShown(fs, name, v, problem)
}

// badShown is BadSetting showing the value as v, masked as needed.
func (e *Env) badShown(fs *flag.FlagSet, name, v, problem string) error {
	src := e.origins(fs)[name]
	switch {
	case strings.HasPrefix(src, "ATMKIT_"):
		return Usagef(fs.Name(), "%s=%q: %s (--%s)", src, v, problem, name)
	case strings.Contains(src, " in config file "):
		return Usagef(fs.Name(), "%s: %s: %s (--%s)", src, quoteValue(v), problem, name)
	}
	return Usagef(fs.Name(), "--%s %s: %s", name, quoteValue(v), problem)
}

// quoteValue quotes v when it is empty or holds anything but plain characters.
func quoteValue(v string) string {
	if v != "" && !strings.ContainsAny(v, " \t\r\n\"'") {
		return v
	}
	return strconv.Quote(v)
}

var (
	errFlagValueRE = regexp.MustCompile(`^invalid (?:boolean )?value "((?:[^"\\]|\\.)*)" for (?:flag )?-(\S+): (.*)$`)
	errFlagUnknown = "flag provided but not defined: -"
	errFlagNoValue = "flag needs an argument: -"
)

// flagParseError rewrites an error of flag.FlagSet.Parse as one short line:
// "unknown flag --foo", "--addr needs a value", `--max-body "abc": not an integer`.
func flagParseError(fs *flag.FlagSet, err error) string {
	msg := err.Error()
	switch {
	case strings.HasPrefix(msg, errFlagUnknown):
		name := strings.TrimPrefix(msg, errFlagUnknown)
		var names []string
		fs.VisitAll(func(f *flag.Flag) { names = append(names, f.Name) })
		if meant := closest(name, names); meant != "" {
			return "unknown flag --" + name + " (did you mean --" + meant + "?)"
		}
		return "unknown flag --" + name
	case strings.HasPrefix(msg, errFlagNoValue):
		return "--" + strings.TrimPrefix(msg, errFlagNoValue) + " needs a value"
	}
	if sub := errFlagValueRE.FindStringSubmatch(msg); sub != nil {
		if f := fs.Lookup(sub[2]); f != nil {
			v, _ := strconv.Unquote(`"` + sub[1] + `"`)
			if secretFlags[f.Name] {
				v = redact.Key(v)
			}
			return fmt.Sprintf("--%s %s: %s", f.Name, quoteValue(v), valueProblem(f, errors.New(sub[3])))
		}
	}
	return msg
}

// valueProblem says what is wrong with a value flag f could not take: by
// the flag's type for the standard ones ("not an integer"), else the
// error of its Set.
func valueProblem(f *flag.Flag, err error) string {
	g, ok := f.Value.(flag.Getter)
	if !ok {
		return err.Error()
	}
	if strings.Contains(err.Error(), "out of range") {
		return "out of range"
	}
	switch g.Get().(type) {
	case int, int64:
		return "not an integer"
	case uint, uint64:
		return "not a whole number (0 or more)"
	case float64:
		return "not a number"
	case bool:
		return "not true or false"
	case time.Duration:
		return "not a duration (such as 500ms, 10s or 1m30s)"
	}
	return err.Error()
}

// List is a repeatable string flag.
type List []string

// String returns the values as given (flag.Value).
func (l *List) String() string {
	if l == nil {
		return ""
	}
	return strings.Join(*l, ",")
}

// Set appends one value.
func (l *List) Set(v string) error { *l = append(*l, v); return nil }

// CheckAddr checks a listen address: host:port with a port of decimal
// digits (0 picks a free one). A sign, which net.Listen takes (:+8080 is
// 8080, :-0 a free port), is refused: health reads the port from the
// address serve listens on (ATMKIT_ADDR) and writes it in a URL, which
// takes digits only.
func CheckAddr(addr string) string {
	_, port, err := net.SplitHostPort(addr)
	if err != nil {
		return "want host:port, such as 127.0.0.1:8080 (port 0 picks a free one)"
	}
	if n, err := strconv.Atoi(port); err != nil || n < 0 || n > 65535 || strings.Trim(port, "0123456789") != "" {
		return "the port must be a number from 0 to 65535"
	}
	return ""
}

// CheckHTTPURL checks the base URL of a deployment.
func CheckHTTPURL(s string) string {
	u, err := url.Parse(s)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return "want an http or https URL, such as https://atm.example.org"
	}
	// url.Parse takes any digits for a port: 99999 and 0 name no server,
	// which a call would report as one that is down.
	if p := u.Port(); p != "" {
		if n, err := strconv.Atoi(p); err != nil || n < 1 || n > 65535 {
			return "the port must be a number from 1 to 65535"
		}
	}
	return ""
}

// CheckDir checks a directory that must exist.
func CheckDir(dir string) string {
	if dir == "" {
		return "an empty path names no directory"
	}
	if p := StdinNotRead(dir, DirInput); p != "" {
		return p
	}
	st, err := os.Stat(dir)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return "the directory does not exist"
	case err != nil:
		return err.Error()
	case !st.IsDir():
		return "not a directory"
	}
	return ""
}

// CheckMakeDir checks a directory that exists or can be made: the nearest
// part of it that exists is a directory this process can create files in
// (a directory mounted into the image, which runs as uid 65532, may not
// be), so that a command does not find out only when it writes.
func CheckMakeDir(dir string) string {
	for ; ; dir = filepath.Dir(dir) {
		st, err := os.Stat(dir)
		switch {
		case err == nil && st.IsDir():
			return checkWritable(dir)
		case err == nil:
			return dir + " is not a directory"
		case !errors.Is(err, os.ErrNotExist) && !errors.Is(err, syscall.ENOTDIR):
			return err.Error()
		}
		if filepath.Dir(dir) == dir {
			return ""
		}
	}
}

// checkWritable tries to create (and removes) a file in dir; "" when it
// can, else what failed and what to do.
func checkWritable(dir string) string {
	f, err := os.CreateTemp(dir, ".atmkit-write-check-*")
	if err == nil {
		name := f.Name()
		_ = f.Close()
		_ = os.Remove(name)
		return ""
	}
	var pe *os.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	return fmt.Sprintf("cannot create files in %s (%v) as %s: make the directory writable for it, or choose another", dir, err, whoAmI())
}

// whoAmI names the user atmkit runs as, for a permission problem: its uid
// (the image's is 65532), or "this user" where there is none (Windows).
func whoAmI() string {
	if uid := os.Getuid(); uid >= 0 { // -1 on Windows
		return fmt.Sprintf("uid %d", uid)
	}
	return "this user"
}

// UnreadableProblem says which file or directory this user may not read
// (the path of err, a permission error, else what) and as whom: a mount
// of another user's, as the image's uid 65532 meets one.
func UnreadableProblem(err error, what string) string {
	var pe *os.PathError
	if errors.As(err, &pe) {
		what = pe.Path
	}
	return fmt.Sprintf("cannot read %s (permission denied) as %s: make it, and the directories above it, readable for that user", what, whoAmI())
}

// CheckReportFile checks the file name of a report written atomically
// after a run, before the run, so that the run is not lost to a report it
// cannot write: CheckOutFile, and CheckReplace when the file exists.
func CheckReportFile(path string) string {
	if p := CheckIsFile(path); p != "" {
		return p
	}
	if p := CheckOutFile(path); p != "" {
		return p
	}
	return CheckReplace(path)
}

// CheckOutFile checks the file name of an output: not a directory, in a
// directory that exists or can be made; "" when none is given.
func CheckOutFile(path string) string {
	if path == "" {
		return ""
	}
	if p := CheckNotDash(path, "file"); p != "" {
		return p
	}
	if strings.HasSuffix(path, "/") || strings.HasSuffix(path, string(filepath.Separator)) {
		return "a directory; want a file name"
	}
	if st, err := os.Stat(path); err == nil && st.IsDir() {
		return "a directory; want a file name"
	}
	return CheckMakeDir(filepath.Dir(path))
}

// CheckReplace checks that a file written atomically (internal/atomicfile:
// a temporary file renamed over it) can replace path, before a command
// runs: not a file of another user in a directory where only a file's
// owner may replace it (sticky, as /tmp is), which a check of the
// directory passes and the rename then refuses; nor a symbolic link whose
// target's directory does not exist or cannot be written; "" when it can,
// or path does not exist.
func CheckReplace(path string) string {
	if p := CheckIsFile(path); p != "" {
		return p
	}
	if path == "" {
		return ""
	}
	target := atomicfile.Target(path)
	if target != path { // written through the link: beside its target
		if st, err := os.Stat(filepath.Dir(target)); err != nil || !st.IsDir() {
			return fmt.Sprintf("a symbolic link to %s, whose directory does not exist: atmkit writes through the link; remove the link, or make %s", target, filepath.Dir(target))
		}
		if p := checkWritable(filepath.Dir(target)); p != "" {
			return "a symbolic link to " + target + ": " + p
		}
	}
	fi, err := os.Lstat(target)
	if err != nil || fi.IsDir() {
		return ""
	}
	dir, err := os.Stat(filepath.Dir(target))
	if err != nil || !ownersOnly(dir, fi) {
		return ""
	}
	return replaceProblem(syscall.EPERM)
}

// CheckReplaceIn is CheckReplace for the files names in dir, which a
// command writes atomically, naming the first it cannot replace: a
// directory of that name too, which no file can be renamed over.
func CheckReplaceIn(dir string, names ...string) string {
	for _, name := range names {
		if st, err := os.Stat(filepath.Join(dir, name)); err == nil && st.IsDir() {
			return name + " in it is a directory, which a file cannot replace"
		}
		if p := CheckReplace(filepath.Join(dir, name)); p != "" {
			return name + " in it: " + p
		}
	}
	return ""
}

// replaceProblem says why a file could not be replaced, err being what the
// rename over it (or the check before it) met.
func replaceProblem(err error) string {
	return fmt.Sprintf("cannot replace it (%v): it is likely another user's, in a directory where only a file's owner may replace it (such as /tmp); remove it, or name another file", err)
}

// CheckRequestValidation checks --request-validation: a requestValidationMode.
func CheckRequestValidation(mode string) string {
	if _, err := asmx.ParseRequestValidation(mode); err != nil {
		return "want 4.0, 4.5 or 2.0 (or off)"
	}
	return ""
}

var (
	ansiEscape = regexp.MustCompile("\x1b\\[[0-9;]*m")
	learnMore  = regexp.MustCompile(`(?s)\s*Learn more at:.*$`)
)

// OneLine is a library's error text as one plain line: no terminal
// colours, no "Learn more at" link, white space collapsed (Ginkgo's
// errors carry all three).
func OneLine(s string) string {
	s = learnMore.ReplaceAllString(ansiEscape.ReplaceAllString(s, ""), "")
	return strings.Join(strings.Fields(s), " ")
}

// CheckLogFormat checks --log-format.
func CheckLogFormat(format string) string {
	if format != "text" && format != "json" {
		return "want text or json"
	}
	return ""
}

// CheckLogLevel checks --log-level.
func CheckLogLevel(level string) string {
	if _, err := logLevel(level); err != nil {
		return "want debug, info, warn or error"
	}
	return ""
}

// LoadShape reads the result shape file --shape of fs names: nil (the
// built-in shape) when path is empty. A missing, unreadable or invalid
// file is a usage error of fs's command naming the problem, and where the
// name came from when not from the flag (ATMKIT_SHAPE, a config file), as
// BadSetting does.
func (e *Env) LoadShape(fs *flag.FlagSet, path string) (*shape.Shape, error) {
	if path == "" {
		return nil, nil
	}
	var sh *shape.Shape
	var err error
	if path == "-" { // atmkit shape learn ... --out - | atmkit serve --shape -
		data, problem := e.readStdin("shape", shape.MaxFileSize)
		if problem != "" {
			return nil, e.BadSetting(fs, "shape", problem)
		}
		sh, err = parseStdinShape(data)
	} else {
		sh, err = shape.Load(path)
	}
	if err != nil { // missing, unreadable (a directory) or invalid: a wrong setting
		if src := e.origins(fs)["shape"]; strings.HasPrefix(src, "ATMKIT_") || strings.Contains(src, " in config file ") {
			return nil, Usagef(fs.Name(), "%s: %v (--shape)", src, err)
		}
		return nil, Usagef(fs.Name(), "--shape: %v", err)
	}
	return sh, nil
}

// parseStdinShape parses a shape read from standard input, its problems
// named as standard input's.
func parseStdinShape(data []byte) (*shape.Shape, error) {
	sh, err := shape.Parse(data)
	var serr *shape.Error
	if errors.As(err, &serr) {
		serr.File = ShownInput("-")
	}
	return sh, err
}

// Check is one validation of a flag: its name and the problem with its
// value, "" when there is none.
type Check struct{ Name, Problem string }

// Bad is the check of flag name: problem is what is wrong with its value,
// "" when nothing is.
func Bad(name, problem string) Check { return Check{name, problem} }

// FirstBad returns the usage error of the first failed check, naming where
// its flag's value came from; nil when every check passed.
func (e *Env) FirstBad(fs *flag.FlagSet, checks ...Check) error {
	for _, c := range checks {
		if c.Problem != "" {
			return e.BadSetting(fs, c.Name, c.Problem)
		}
	}
	return nil
}

// When returns problem if bad holds, else "".
func When(bad bool, problem string) string {
	if bad {
		return problem
	}
	return ""
}

// Names splits the values of a repeatable flag of names (each value may hold
// several, comma-separated), without blanks or repeats, and reports whether
// one of them is list or help: a request to list the names there are.
func Names(values []string) (names []string, list bool) {
	seen := map[string]bool{}
	for _, v := range values {
		for _, n := range strings.Split(v, ",") {
			switch n = strings.TrimSpace(n); n {
			case "":
			case "list", "help":
				list = true
			default:
				if !seen[n] {
					seen[n] = true
					names = append(names, n)
				}
			}
		}
	}
	return names, list
}

// AdminHosts are the names serve's admin API answers on loopback without a
// token besides the built-in ones (mockserver.WithAdminHosts): those of
// --admin-host, and the host of --addr when it is a name (serve --addr
// mock.test:8080).
func AdminHosts(addr string, hosts []string) []string {
	if h, _, err := net.SplitHostPort(addr); err == nil && h != "" && net.ParseIP(h) == nil {
		return append([]string{h}, hosts...)
	}
	return hosts
}

// CheckAdminHosts checks the names of --admin-host: host names, a port
// allowed, or * for any.
func CheckAdminHosts(names []string) string {
	for _, n := range names {
		n = strings.TrimSpace(n)
		if n == "" || n != "*" && strings.ContainsAny(n, " \t\r\n/\\@?#*") {
			return "want host names such as mock.test (a port is ignored), or * for any"
		}
	}
	return ""
}
