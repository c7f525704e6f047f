package mockserver

import (
	"net/http"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/atmkit/atmkit/internal/redact"
)

// A mock that takes any key (atmkit serve without --key) knows no key but
// those its calls carry: a request that holds one where no call carries it
// (a path .../service.asmx/KEY, a SOAPAction, a header field) would show
// it. So the journal also masks, in every entry, the keys its calls
// carried: the first crossKeyMax of them, those of calls answered 200
// first, as cassettes.ScrubList sweeps a cassette's. They are gathered
// when the journal is read, from the entries journaled since the last
// read (journal.crossKeys), so that serving a request costs nothing more;
// an entry shown before a key was gathered is masked again, with the keys
// gathered since, when next read (shownCall.remask).

// crossKeyMax bounds the keys of its calls the journal masks in every
// entry: each costs a pass over each text shown.
const crossKeyMax = 16

// crossKeys are the keys the journal's calls carried since the mock
// started (a reset keeps them: a request after it may hold one).
type crossKeys struct {
	scanned   uint64   // the seq of the newest entry looked at
	ok, other []string // the keys of calls answered 200, of the others: the first crossKeyMax of each
	// list is ok and then other, crossKeyMax at most: the keys masked. It
	// is replaced when it changes, never changed in place: reads share it.
	list []string
}

// crossKeys gathers the keys of the calls journaled since it last ran,
// oldest first, and returns the keys to mask in every entry. j.mu must be
// held.
func (j *journal) crossKeys() []string {
	c := &j.cross
	if c.scanned == j.seq {
		return c.list
	}
	var recs []*journalRecord // newest first, back to the last one looked at
	visit := func(from, to int) bool {
		for i := to - 1; i >= from; i-- {
			if j.entries[i].Seq <= c.scanned {
				return false
			}
			recs = append(recs, &j.entries[i])
		}
		return true
	}
	if visit(0, j.next) && j.full {
		visit(j.next, len(j.entries))
	}
	c.scanned = j.seq
	changed := false
	for i := len(recs) - 1; i >= 0; i-- {
		r := recs[i]
		if r.call == nil || !j.crossKey(r.call.Key) {
			continue
		}
		k := r.call.Key
		if slices.Contains(c.ok, k) || slices.Contains(c.other, k) {
			continue
		}
		switch {
		case r.Status == http.StatusOK && len(c.ok) < crossKeyMax:
			c.ok = append(c.ok, strings.Clone(k))
		case r.Status != http.StatusOK && len(c.other) < crossKeyMax:
			c.other = append(c.other, strings.Clone(k))
		default:
			continue
		}
		changed = true
	}
	if changed {
		// The keys answered 200 first: many wrong keys would crowd them out.
		list := append(slices.Clone(c.ok), c.other...)
		c.list = list[:min(len(list), crossKeyMax)]
	}
	return c.list
}

// crossKey reports whether k is a key the journal masks in every entry:
// not a configured one (masked already), of MinLiteral characters or more
// (a shorter key would be masked inside words, and its mask is longer
// than it: a text shown within its bound would grow), and not longer than
// a parameter the journal shows.
func (j *journal) crossKey(k string) bool {
	return utf8.RuneCountInString(k) >= redact.MinLiteral && len(k) <= journalParamMax && !slices.Contains(j.keys, k)
}

// newKeys returns the keys of list that masked does not hold.
func newKeys(list, masked []string) []string {
	if len(list) == len(masked) && (len(list) == 0 || &list[0] == &masked[0]) {
		return nil // the same list: replaced, never changed, when keys are gathered
	}
	var out []string
	for _, k := range list {
		if !slices.Contains(masked, k) {
			out = append(out, k)
		}
	}
	return out
}

// crossKey is a key of the journal's calls with its forms
// (redact.Forms, each once), made once for a read of the journal.
type crossKey struct {
	key   string
	forms []string
}

// crossKeysOf returns keys with their forms.
func crossKeysOf(keys []string) []crossKey {
	out := make([]crossKey, len(keys))
	for i, k := range keys {
		forms := redact.Forms(k)
		slices.Sort(forms)
		out[i] = crossKey{k, slices.Compact(forms)}
	}
	return out
}

// pickCross returns the keys of cross named in keys.
func pickCross(cross []crossKey, keys []string) []crossKey {
	return slices.DeleteFunc(slices.Clone(cross), func(c crossKey) bool { return !slices.Contains(keys, c.key) })
}

// textField is a text an entry is shown from, or shows.
type textField struct {
	s string
	// encoded: masked with redact.Encoded, which finds a key written
	// with percent-escapes of its own ("Sec%72etKey1").
	encoded bool
	// cut: cut short, so its end may be the start of a key.
	cut bool
}

// crossIn returns the keys of cross that fields may hold: a form of one
// in a field, the start of one at the end of a field cut, or any key in
// a field with a percent-escape that is masked with redact.Encoded.
// Masking costs each key's forms for each text (redact.Text makes them
// anew): only the keys an entry holds are masked in it.
func crossIn(cross []crossKey, fields ...textField) []string {
	var out []string
	for _, c := range cross {
		if c.in(fields) {
			out = append(out, c.key)
		}
	}
	return out
}

func (c crossKey) in(fields []textField) bool {
	for _, f := range fields {
		if f.encoded && strings.IndexByte(f.s, '%') >= 0 {
			return true
		}
		for _, form := range c.forms {
			if strings.Contains(f.s, form) {
				return true
			}
		}
		if f.cut && maskTail(f.s, []string{c.key}) != f.s {
			return true
		}
	}
	return false
}

// entryKeys are keys and those of cross the entry's path and parameters
// may hold (crossIn): the keys entry masks in them.
func (r *journalRecord) entryKeys(keys []string, cross []crossKey) []string {
	if len(cross) == 0 {
		return keys
	}
	path := r.Path
	if r.shown != nil {
		path = r.shown.path
	}
	fields := []textField{{s: path}}
	for _, v := range r.params {
		fields = append(fields, textField{s: v, cut: true})
	}
	if c := r.call; c != nil && r.params == nil {
		for _, v := range c.Values {
			fields = append(fields, textField{s: v, cut: len(v) > journalParamMax})
		}
	}
	more := crossIn(cross, fields...)
	if len(more) == 0 {
		return keys
	}
	return append(slices.Clip(keys), more...)
}

// remask returns sh with the keys of cross it holds masked in it too, as
// show masks them: the masks are no longer than the keys (crossKey), so
// what was shown within its bound stays within it. A text shown cut that
// ends with the start of one of them ends with its mask instead.
func (sh *shownCall) remask(cross []crossKey) *shownCall {
	fields := []textField{{s: sh.path, encoded: true, cut: sh.req.HeaderCut}, {s: sh.query, encoded: true, cut: sh.req.HeaderCut},
		{s: sh.req.Body, cut: sh.req.Cut}, {s: sh.resp.Body, cut: sh.resp.Cut}}
	for _, h := range []http.Header{sh.req.Header, sh.resp.Header} {
		for name, vs := range h {
			fields = append(fields, textField{s: name})
			for _, v := range vs {
				fields = append(fields, textField{s: v, encoded: true})
			}
		}
	}
	keys := crossIn(cross, fields...)
	if len(keys) == 0 {
		c := *sh
		return &c
	}
	return &shownCall{
		path:  remaskText(sh.path, keys, sh.req.HeaderCut, redact.Encoded),
		query: remaskText(sh.query, keys, sh.req.HeaderCut, redact.Encoded),
		req:   sh.req.remask(keys),
		resp:  sh.resp.remask(keys),
	}
}

// remask returns m with keys masked in its header fields and body.
func (m JournalMessage) remask(keys []string) JournalMessage {
	if m.Header != nil {
		h := make(http.Header, len(m.Header))
		for name, vs := range m.Header {
			shown := make([]string, len(vs))
			for i, v := range vs {
				shown[i] = redact.Encoded(v, keys...)
			}
			n := redact.Text(name, keys...)
			h[n] = append(h[n], shown...)
		}
		m.Header = h
	}
	m.Body = remaskText(m.Body, keys, m.Cut, redact.Text)
	return m
}

// remaskText masks keys in s with mask; cut: s was shown cut, so an end
// that starts a key is masked too, within len(s).
func remaskText(s string, keys []string, cut bool, mask func(string, ...string) string) string {
	m := mask(s, keys...)
	if !cut {
		return m
	}
	if t := maskTail(m, keys); t != m {
		return maskTail(cutText(m, len(m)-maskRoom(keys)), keys)
	}
	return m
}
