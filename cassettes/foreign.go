package cassettes

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"

	"github.com/atmkit/atmkit/cassettes/internal/recorded"
	"gopkg.in/dnaeon/go-vcr.v3/cassette"
)

// decompressReplayed makes a replayed answer that was recorded compressed
// (go-vcr keeps the body as it came when the client itself asked for
// gzip) one every client reads: go-vcr replays the body with its recorded
// Content-Encoding, and no transport undoes it between the Recorder and
// its client, so a client that did not ask for gzip would read compressed
// bytes. The answer is the one a client not asking for compression gets,
// as replay serves it (LoadIndex).
func decompressReplayed(resp *http.Response) error { return decodeResponse(resp, true) }

// decodeResponse undoes resp's Content-Encoding where recorded.Decompress
// can (gzip, x-gzip, deflate), as replay serves an answer: the body is the
// one a client that asked for no compression reads. An answer that does
// not decode is an error when strict, and otherwise left as it came.
func decodeResponse(resp *http.Response, strict bool) error {
	if recorded.HeaderValue(resp.Header, "Content-Encoding") == "" {
		return nil
	}
	b, err := io.ReadAll(resp.Body)
	_ = resp.Body.Close()
	if err != nil {
		return err
	}
	i := &cassette.Interaction{Response: cassette.Response{Headers: resp.Header, Body: string(b), ContentLength: resp.ContentLength}}
	changed, err := recorded.Decompress(i)
	if err != nil && strict {
		return err
	}
	if !changed {
		resp.Body = io.NopCloser(bytes.NewReader(b))
		return nil
	}
	resp.Header, resp.ContentLength = i.Response.Headers, i.Response.ContentLength
	resp.Uncompressed = true
	resp.Body = io.NopCloser(strings.NewReader(i.Response.Body))
	return nil
}

// scrubLoaded scrubs the interactions of the cassette a recording will
// rewrite, as ScrubCassette does: one made elsewhere may hold raw keys,
// and every interaction that reaches the file is scrubbed. Answers
// recorded compressed are decompressed first, so that the scrubbing reads
// them (and does not rewrite bytes of a compressed stream); one that does
// not decode is ErrInvalidCassette.
func (r *Recorder) scrubLoaded(list []*cassette.Interaction) error {
	names := recorded.Names(list)
	for pos, i := range list {
		if _, err := recorded.Decompress(i); err != nil {
			return fmt.Errorf("%w: %s: interaction %s: %w", ErrInvalidCassette, r.path, names[pos], err)
		}
	}
	// WithSecrets' values too, recorded before they were named: swept
	// with the keys, so that one holding the other is swept whole.
	n, in, _ := scrubList(context.Background(), list, r.cfg.secrets, r.cfg.scrubHeaders...)
	if n > 0 {
		r.log.Warn("the cassette held keys: they are written scrubbed with what is recorded", "cassette", r.path, "values", n, "interactions", in)
	}
	return nil
}

// lengthEdited reports whether the recorded length of i's answer (its
// content_length, its Content-Length header) is not its body's: a body
// edited by hand, its length left as recorded. go-vcr replays the recorded
// length, which a client reading to it, or a proxy declaring it, cuts the
// body at (ownLength). An answer recorded compressed is decompressed with
// its length set when replayed.
func lengthEdited(i *cassette.Interaction) bool {
	rs := &i.Response
	if recorded.HeaderValue(rs.Headers, "Content-Encoding") != "" {
		return false
	}
	if rs.ContentLength >= 0 && rs.ContentLength != int64(len(rs.Body)) {
		return true
	}
	for k, vs := range rs.Headers {
		if strings.EqualFold(k, "Content-Length") && len(vs) > 0 && vs[0] != strconv.Itoa(len(rs.Body)) {
			return true
		}
	}
	return false
}

// ownLength gives a replayed answer the length of its body, in
// ContentLength and in a Content-Length header it has, as the replaying
// mock serves an edited body.
func ownLength(resp *http.Response) error {
	b, err := io.ReadAll(resp.Body)
	_ = resp.Body.Close()
	if err != nil {
		return err
	}
	resp.Body = io.NopCloser(bytes.NewReader(b))
	resp.ContentLength = int64(len(b))
	for k := range resp.Header {
		if strings.EqualFold(k, "Content-Length") {
			resp.Header[k] = []string{strconv.Itoa(len(b))}
		}
	}
	return nil
}
