package cli

import (
	"flag"
	"io"
	"slices"
	"strings"
	"sync"

	"github.com/atmkit/atmkit/internal/redact"
)

// HideKeys makes the command's output streams mask the given keys wherever
// they appear literally, raw or in any of the forms redact.Forms finds
// (URL-, XML-, HTML- or JSON-escaped, %u escapes, a form's ISO-8859-1
// bytes, …). A key shorter than redact.MinLiteral (6 bytes) is not
// masked: so short a value ("k", "test") is as likely an ordinary word or
// a part of one, which masking would mangle in every line printed, while
// telling little of a key (the service and the Recorder still mask it
// where it is a strAtmServiceKey value). Each source of output masks keys
// itself; this is the last line of defence, so that no key a command was
// given reaches its stdout or stderr whatever prints it. The keys of every
// call are masked together (one set, one pass): a key that holds, or
// overlaps, another one (a --header value holding the service key) is
// masked whole whichever is met first.
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
	if e.masks == nil {
		e.masks = &maskSet{}
		e.Stdout = &maskWriter{w: e.Stdout, set: e.masks}
		e.Stderr = &maskWriter{w: e.Stderr, set: e.masks}
	}
	e.masks.add(forms)
}

// keyForm is a form of a key and the key's mask.
type keyForm struct{ text, mask string }

// A maskSet is the forms of the keys HideKeys was given, longest first,
// which both output streams mask: one set however many calls gave them.
type maskSet struct {
	mu    sync.RWMutex
	forms []keyForm
}

// add adds forms to the set, kept longest first (so that, of two that
// start at the same byte, the longer one's mask is written).
func (ms *maskSet) add(forms []keyForm) {
	ms.mu.Lock()
	defer ms.mu.Unlock()
	ms.forms = append(ms.forms, forms...)
	slices.SortStableFunc(ms.forms, func(a, b keyForm) int { return len(b.text) - len(a.text) })
}

// mask returns s with every run of it that one form or more cover
// (overlapping or adjacent matches of several keys as one run) replaced
// by the mask of the run's first form (the earliest, then the longest).
// Every match is found in s as it is, before any is masked: the result is
// the same whichever key's match comes first.
func (ms *maskSet) mask(s string) string {
	ms.mu.RLock()
	defer ms.mu.RUnlock()
	type span struct {
		start, end int
		mask       string
	}
	var spans []span
	for _, f := range ms.forms {
		for from := 0; ; {
			i := strings.Index(s[from:], f.text)
			if i < 0 {
				break
			}
			spans = append(spans, span{from + i, from + i + len(f.text), f.mask})
			from += i + 1
		}
	}
	if len(spans) == 0 {
		return s
	}
	slices.SortStableFunc(spans, func(a, b span) int {
		if a.start != b.start {
			return a.start - b.start
		}
		return b.end - a.end
	})
	var b strings.Builder
	last := 0
	for j := 0; j < len(spans); {
		cur := spans[j]
		for j++; j < len(spans) && spans[j].start <= cur.end; j++ {
			cur.end = max(cur.end, spans[j].end)
		}
		b.WriteString(s[last:cur.start])
		b.WriteString(cur.mask)
		last = cur.end
	}
	b.WriteString(s[last:])
	return b.String()
}

// maskWriter replaces the forms of keys by their masks in every write. A
// single write is masked as a whole: atmkit writes each line (a log
// record, a banner line) in one call.
type maskWriter struct {
	w   io.Writer
	set *maskSet
}

// Unwrap is the writer written to: where terminal checks look (tty.Colors).
func (mw *maskWriter) Unwrap() io.Writer { return mw.w }

func (mw *maskWriter) Write(p []byte) (int, error) {
	s := string(p)
	masked := mw.set.mask(s)
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
