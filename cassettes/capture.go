package cassettes

import (
	"fmt"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	"gopkg.in/dnaeon/go-vcr.v3/cassette"
)

// This file holds how the Recorder captures an exchange by itself
// (capture), where go-vcr's recorder does not: in the modes that replay
// nothing, and in ModeRecordNew for the calls go-vcr's recorder refuses.

// captureTransport keeps the real response for RoundTrip to return, before
// the hooks scrub go-vcr's copy of it.
type captureTransport struct{ next http.RoundTripper }

func (t *captureTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := t.next.RoundTrip(req)
	if err != nil {
		return nil, err
	}
	body, err := readText(resp.Body, resp.ContentLength)
	_ = resp.Body.Close()
	if err != nil {
		return nil, fmt.Errorf("read response body: %w", err)
	}
	if info := infoFrom(req.Context()); info != nil {
		info.captured, info.header, info.respBody, info.respLength = true, resp.Header.Clone(), body, resp.ContentLength
		info.status = resp.Status
	}
	resp.Body = io.NopCloser(strings.NewReader(body))
	return resp, nil
}

// capture is what go-vcr's recorder does with a request in a mode that
// replays nothing (its RoundTrip and requestHandler): the request goes to
// the real server, and the interaction made of the exchange goes through
// the hooks (afterCapture, then the BeforeReplay ones, as go-vcr runs them
// on a fresh capture too); the response is made of it. Unlike go-vcr's, no
// copy of the interaction stays behind: the cassette's is afterCapture's.
// Unlike go-vcr's too, a request whose query or form net/http cannot parse
// (which go-vcr refuses) is recorded, with the form ASMX reads
// (capturedForm).
func (r *Recorder) capture(req *http.Request) (*http.Response, error) {
	return r.captureKeeping(req, nil)
}

// captureKeeping is capture that, when kept is not nil, sets *kept to a
// copy of the interaction as recorded, before the BeforeReplay hooks.
func (r *Recorder) captureKeeping(req *http.Request, kept **cassette.Interaction) (*http.Response, error) {
	rt := &captureTransport{next: r.cfg.transport}
	if err := req.Context().Err(); err != nil {
		return nil, err
	}
	info := infoFrom(req.Context())
	form := capturedForm(req, info.body)
	start := time.Now()
	resp, err := rt.RoundTrip(req)
	if err != nil {
		return nil, err
	}
	took := time.Since(start)
	_ = resp.Body.Close() // captureTransport read it into info
	i := &cassette.Interaction{
		Request: cassette.Request{
			Proto:            req.Proto,
			ProtoMajor:       req.ProtoMajor,
			ProtoMinor:       req.ProtoMinor,
			ContentLength:    req.ContentLength,
			TransferEncoding: req.TransferEncoding,
			Trailer:          req.Trailer,
			Host:             req.Host,
			RemoteAddr:       req.RemoteAddr,
			RequestURI:       req.RequestURI,
			Body:             info.body,
			Form:             form,
			Headers:          req.Header,
			URL:              req.URL.String(),
			Method:           req.Method,
		},
		Response: cassette.Response{
			Status:           resp.Status,
			Code:             resp.StatusCode,
			Proto:            resp.Proto,
			ProtoMajor:       resp.ProtoMajor,
			ProtoMinor:       resp.ProtoMinor,
			TransferEncoding: resp.TransferEncoding,
			Trailer:          resp.Trailer,
			ContentLength:    resp.ContentLength,
			Uncompressed:     resp.Uncompressed,
			Body:             info.respBody, // no copy: strings do not change
			Headers:          resp.Header,
			Duration:         took,
		},
	}
	if err := r.afterCapture(i); err != nil {
		return nil, err
	}
	i.ID = int(r.captures.Add(1) - 1) // the number go-vcr would give it
	if kept != nil {
		*kept = ownCopy(i)
	}
	for _, h := range r.cfg.hooks {
		if h.stage == BeforeReplay {
			if err := h.fn(i); err != nil {
				return nil, err
			}
		}
	}
	if err := req.Context().Err(); err != nil {
		return nil, err
	}
	return i.GetHTTPResponse()
}

// unrecordable reports whether go-vcr's recorder, which records in
// ModeRecordNew, would refuse req: its query or form does not parse (a
// %uXXXX escape, a lone %, a ';'), or the form is over net/http's 10 MB.
// Those the cassette file holds go on to go-vcr, which replays them
// without parsing them.
func (r *Recorder) unrecordable(req *http.Request) bool {
	bad := false
	if _, err := url.ParseQuery(req.URL.RawQuery); err != nil {
		bad = true
	}
	info := infoFrom(req.Context())
	if info != nil {
		// A form that does not parse, or is over net/http's 10 MB; in
		// go-vcr's recorder, any content type whose parameters do not
		// parse (its ParseForm fails on it).
		if _, lax, err := postForm(req, info.body); err != nil || lax {
			bad = true
		}
	}
	if !bad || info == nil {
		return bad
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	_, own := r.unparsed[info.key]
	return own || r.counts[info.key] == 0
}

// recordNewUnparsed answers, in ModeRecordNew, a request go-vcr's
// recorder cannot record and the cassette file does not hold: the first
// time it is captured as ModeRecordAll captures (capture: recorded, the
// key scrubbed); when it comes again it is replayed from that capture, as
// go-vcr replays what it records in this mode. (It was forwarded to the
// server unrecorded, with a warning, every time.)
func (r *Recorder) recordNewUnparsed(req *http.Request, info *reqInfo) (*http.Response, error) {
	r.mu.Lock()
	i, ok := r.unparsed[info.key]
	r.mu.Unlock()
	if ok {
		cp := ownCopy(i) // the hooks change their copy, not the capture other calls replay
		for _, h := range r.cfg.hooks {
			if h.stage == BeforeReplay {
				if err := h.fn(cp); err != nil {
					return nil, err
				}
			}
		}
		return cp.GetHTTPResponse()
	}
	var kept *cassette.Interaction
	resp, err := r.captureKeeping(req, &kept)
	if err != nil {
		return nil, err
	}
	r.mu.Lock()
	if r.unparsed == nil {
		r.unparsed = map[string]*cassette.Interaction{}
	}
	if _, ok := r.unparsed[info.key]; !ok {
		r.unparsed[info.key] = kept
	}
	r.mu.Unlock()
	return resp, nil
}

// ownCopy returns a copy of i that shares no map or slice a hook may
// change in place with i: its headers, trailers and form.
func ownCopy(i *cassette.Interaction) *cassette.Interaction {
	cp := *i
	cp.Request.Headers = i.Request.Headers.Clone()
	cp.Request.Trailer = i.Request.Trailer.Clone()
	cp.Request.Form = url.Values(http.Header(i.Request.Form).Clone())
	cp.Request.TransferEncoding = slices.Clone(i.Request.TransferEncoding)
	cp.Response.Headers = i.Response.Headers.Clone()
	cp.Response.Trailer = i.Response.Trailer.Clone()
	cp.Response.TransferEncoding = slices.Clone(i.Response.TransferEncoding)
	return &cp
}
