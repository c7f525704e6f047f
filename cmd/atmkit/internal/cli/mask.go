package cli

import (
	"flag"
	"io"
	"slices"
	"strings"

	"github.com/atmkit/atmkit/internal/redact"
)

// HideKeys makes the command's output streams mask the given keys wherever
// they appear literally (keys of redact.MinLiteral bytes or more; a
// shorter one would match ordinary words), raw or in any of the forms
// redact.Forms finds (URL-, XML-, HTML- or JSON-escaped, %u escapes, a
// form's ISO-8859-1 bytes, …). Each source of output masks keys itself;
// this is the last line of defence, so that no key a command was given
// reaches its stdout or stderr whatever prints it.
func (e *Env) HideKeys(keys ...string) {
	var forms []keyForm
	for _, k := range keys {
		if len(k) < redact.MinLiteral {
			continue
		}
		for _, f := range redact.Forms(k) {
			forms = append(forms, keyForm{text: f, mask: redact.Key(k)})
		}
	}
	if len(forms) == 0 {
		return
	}
	// Longer forms first, so that an escaped form is masked whole.
	slices.SortStableFunc(forms, func(a, b keyForm) int { return len(b.text) - len(a.text) })
	e.Stdout = &maskWriter{w: e.Stdout, forms: forms}
	e.Stderr = &maskWriter{w: e.Stderr, forms: forms}
}

// keyForm is a form of a key and the key's mask.
type keyForm struct{ text, mask string }

// maskWriter replaces the forms of keys by their masks in every write. A
// single write is masked as a whole: atmkit writes each line (a log
// record, a banner line) in one call.
type maskWriter struct {
	w     io.Writer
	forms []keyForm
}

// Unwrap is the writer written to: where terminal checks look (tty.Colors).
func (mw *maskWriter) Unwrap() io.Writer { return mw.w }

func (mw *maskWriter) Write(p []byte) (int, error) {
	s := string(p)
	masked := s
	for _, f := range mw.forms {
		if strings.Contains(masked, f.text) {
			masked = strings.ReplaceAll(masked, f.text, f.mask)
		}
	}
	if masked == s {
		return mw.w.Write(p)
	}
	if _, err := io.WriteString(mw.w, masked); err != nil {
		return 0, err
	}
	return len(p), nil
}

// GivenSecrets returns the values of fs's secret flags (--key,
// --admin-token, --header's values but a plain header's) that args and their ATMKIT_*
// variables (and the extra names of aliases) give, read without parsing:
// for a command whose parse failed, so that the refusal, which may echo
// another setting holding a key (a --fault's text), is masked. A refused
// value stops the parse before the flags after it are read and before any
// variable is.
func (e *Env) GivenSecrets(fs *flag.FlagSet, args []string, aliases map[string]string) []string {
	var out []string
	add := func(name, v string) {
		if name != "header" {
			out = append(out, v)
			return
		}
		// A header's value, and the credential of "Authorization: Bearer
		// <token>"; a plain header's is none (Reach.Secrets).
		hname, v, _ := strings.Cut(v, ":")
		if slices.ContainsFunc(plainHeaders, func(p string) bool { return strings.EqualFold(p, strings.TrimSpace(hname)) }) {
			return
		}
		v = strings.TrimSpace(v)
		out = append(out, v)
		if _, cred, ok := strings.Cut(v, " "); ok {
			out = append(out, strings.TrimSpace(cred))
		}
	}
	for i := 0; i < len(args); i++ {
		if args[i] == "--" {
			break
		}
		name, v, hasValue := strings.Cut(strings.TrimLeft(args[i], "-"), "=")
		if !strings.HasPrefix(args[i], "-") || !secretFlags[name] || fs.Lookup(name) == nil {
			continue
		}
		if !hasValue && i+1 < len(args) {
			i++
			v = args[i]
		}
		add(name, v)
	}
	for name := range secretFlags {
		if fs.Lookup(name) == nil {
			continue
		}
		names := []string{CommandEnvName(fs.Name(), name)}
		if a, ok := aliases[name]; ok {
			names = append(names, a)
		}
		for _, n := range names {
			sep := ","
			if name == "header" {
				sep = "\n"
			}
			for _, v := range strings.Split(e.Getenv(n), sep) {
				add(name, v)
			}
		}
	}
	return out
}
