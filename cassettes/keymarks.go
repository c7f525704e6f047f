package cassettes

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"slices"

	"github.com/atmkit/atmkit/cassettes/internal/recorded"
	"gopkg.in/dnaeon/go-vcr.v3/cassette"
)

// A call recorded once with a wrong key and once with the right one is one
// question with two answers once the key is scrubbed; replayed, the key
// fault would answer every caller. So a Recorder marks key rejections, by
// this rule:
//
//	An error answer (status other than 200) to a call whose key has not
//	received a 200 answer in the recording, while another key has, is a key
//	rejection: its recorded key is RejectedPlaceholder instead of Placeholder.
//
// Marks follow the recording as it goes: a key's errors are marked once
// another key gets a 200, and unmarked if the key itself gets one later;
// the cassette is rewritten (atomically, as always) with the marks of its
// latest state. Keys are compared in memory by a salted hash, the salt
// chosen per Recorder; neither keys nor hashes reach the file. Interactions
// of a cassette the Recorder appends to keep the marks they were written
// with. Replaying, a mock server serves marked answers only to callers
// whose key it rejects itself (mockserver.KeyRejectionReplayer).

// keyMarks knows, per interaction a Recorder lists, the hash of the key it
// sent and whether it is marked, and which keys were answered 200.
type keyMarks struct {
	salt   []byte
	of     []string // per listed interaction: its key's hash ("" for no call, or one read from the file)
	status []int
	marked []bool
	ok     map[string]bool // hashes of the keys answered 200
	// answers holds, per request key (a question), the answers recorded
	// to it and what decides whether each is a key rejection.
	answers map[string][]answerOf
}

// answerOf is an answer recorded to a question: its digest, and the hash
// of the key the call sent and the status, or, for one read from the file,
// the mark it was written with.
type answerOf struct {
	digest, key string
	status      int
	fileMark    bool
}

func newKeyMarks() keyMarks {
	salt := make([]byte, 32)
	_, _ = rand.Read(salt) // crypto/rand never fails on supported platforms
	return keyMarks{salt: salt, ok: map[string]bool{}, answers: map[string][]answerOf{}}
}

// answered notes answer a to question q.
func (k *keyMarks) answered(q string, a answerOf) {
	if !slices.Contains(k.answers[q], a) {
		k.answers[q] = append(k.answers[q], a)
	}
}

// otherAnswers counts the distinct answers to question q, other than the
// one of digest d, recorded to calls that are no key rejections by the
// rule as it stands: a wrong key's fault beside the right key's answer is
// no second answer (replay serves it to rejected keys only).
func (k *keyMarks) otherAnswers(q, d string) int {
	var ds []string
	for _, a := range k.answers[q] {
		rejected := a.fileMark
		if a.key != "" {
			rejected = k.rejected(a.key, a.status)
		}
		if !rejected && a.digest != d && !slices.Contains(ds, a.digest) {
			ds = append(ds, a.digest)
		}
	}
	return len(ds)
}

// loaded lists n interactions read from the file: their marks are theirs.
func (k *keyMarks) loaded(n int) {
	for range n {
		k.of = append(k.of, "")
		k.status = append(k.status, 0)
		k.marked = append(k.marked, false)
	}
}

// hash returns the salted hash of the key i's request sends, or "" when
// the request is no call of an operation.
func (k *keyMarks) hash(i *cassette.Interaction) string {
	c, ok := recorded.CallOf(i.Request.Method, i.Request.URL, i.Request.Headers, i.Request.Body)
	if !ok {
		return ""
	}
	h := sha256.New()
	h.Write(k.salt)
	h.Write([]byte(c.Key))
	return hex.EncodeToString(h.Sum(nil))
}

// accepted notes that key was answered 200; it reports whether that is
// news, which may change marks.
func (k *keyMarks) accepted(key string) bool {
	if key == "" || k.ok[key] {
		return false
	}
	k.ok[key] = true
	return true
}

// rejected applies the rule to an answer with status to a call with key.
func (k *keyMarks) rejected(key string, status int) bool {
	return key != "" && status != http.StatusOK && !k.ok[key] && len(k.ok) > 0
}

// add lists an interaction and reports whether it is a key rejection.
func (k *keyMarks) add(key string, status int) bool {
	m := k.rejected(key, status)
	k.of = append(k.of, key)
	k.status = append(k.status, status)
	k.marked = append(k.marked, m)
	return m
}

// marks updates the marks to the rule and returns those that changed, by
// list index, with their new value.
func (k *keyMarks) marks() map[int]bool {
	var changed map[int]bool
	for j, key := range k.of {
		if key == "" {
			continue
		}
		if m := k.rejected(key, k.status[j]); m != k.marked[j] {
			if changed == nil {
				changed = map[int]bool{}
			}
			k.marked[j], changed[j] = m, m
		}
	}
	return changed
}

// markRejections returns, for each interaction of list (a cassette made
// elsewhere, not yet scrubbed), whether it is a key rejection by the rule a
// Recorder follows, applied to the whole cassette at once. Keys already
// redacted and empty ones (an error answered to an empty key is marked by
// the key itself) take no part.
func markRejections(list []*cassette.Interaction) []bool {
	k := newKeyMarks()
	keys := make([]string, len(list))
	for j, i := range list {
		c, ok := recorded.CallOf(i.Request.Method, i.Request.URL, i.Request.Headers, i.Request.Body)
		if !ok || c.Key == "" || recorded.IsPlaceholder(c.Key) {
			continue
		}
		keys[j] = k.hash(i)
		if i.Response.Code == http.StatusOK {
			k.accepted(keys[j])
		}
	}
	marks := make([]bool, len(list))
	for j, i := range list {
		marks[j] = keys[j] != "" && k.rejected(keys[j], i.Response.Code)
	}
	return marks
}
