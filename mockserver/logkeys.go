package mockserver

import (
	"net/http"
	"slices"
	"sync"
	"sync/atomic"
	"unicode/utf8"

	"github.com/atmkit/atmkit/internal/redact"
)

// A mock that takes any key (atmkit serve without --key) knows no key but
// those its calls carry. The journal masks them in every entry when read
// (journal_cross.go); the request log line and the held list, written
// while serving, mask those of the calls answered 200 so far too: the
// first crossKeyMax, noted as the calls are answered (one look through
// at most 16 keys a call), their forms found once, when one is added.

// loggedKeys are the keys of the calls answered 200 that the log line
// masks, with a Masker of them. A value is replaced when a key is added,
// never changed: log lines read it without a lock.
type loggedKeys struct {
	keys []string
	mask *redact.Masker
}

// keyNotes holds the loggedKeys of a Server that takes any key.
type keyNotes struct {
	mu  sync.Mutex // serializes adding a key
	cur atomic.Pointer[loggedKeys]
}

// note adds k, the key of a call answered 200, unless it is noted, too
// short to mask (MinLiteral: it would be masked inside words), longer than
// a parameter the journal shows, or crossKeyMax are noted.
func (n *keyNotes) note(k string) {
	if !n.wants(n.cur.Load(), k) {
		return
	}
	n.mu.Lock()
	defer n.mu.Unlock()
	cur := n.cur.Load()
	if !n.wants(cur, k) {
		return
	}
	var keys []string
	if cur != nil {
		keys = slices.Clone(cur.keys)
	}
	keys = append(keys, k)
	n.cur.Store(&loggedKeys{keys: keys, mask: redact.NewMasker(keys...)})
}

func (n *keyNotes) wants(cur *loggedKeys, k string) bool {
	if cur != nil && (len(cur.keys) >= crossKeyMax || slices.Contains(cur.keys, k)) {
		return false
	}
	return len(k) <= journalParamMax && utf8.RuneCountInString(k) >= redact.MinLiteral
}

// mask masks the noted keys in text.
func (n *keyNotes) mask(text string) string {
	if cur := n.cur.Load(); cur != nil {
		return cur.mask.Text(text)
	}
	return text
}

// noteKey notes the key of ex's call if it was answered 200 by a mock
// that takes any key (one with keys masks those).
func (s *Server) noteKey(ex *exchange, status int) {
	if status == http.StatusOK && ex.call != nil && ex.call.Key != "" && len(s.cfg.keys) == 0 {
		s.noted.note(ex.call.Key)
	}
}
