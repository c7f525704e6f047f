package cassettes

import (
	"io"
	"net/http"
	"reflect"
	"slices"
	"strconv"

	"gopkg.in/dnaeon/go-vcr.v3/cassette"
)

// This file holds how what the BeforeReplay hooks change in the answer of
// a fresh capture reaches the client, as go-vcr's recorder, which returns
// the interaction its hooks changed, delivers it. The client gets the
// real answer (the cassette's copy is scrubbed, its Date dropped, its body
// decompressed), with the hooks' changes to the interaction applied: the
// headers they set, changed or removed, and their body.

// answerState is an interaction's answer as the BeforeReplay hooks are
// given it, to tell what they changed.
type answerState struct {
	header http.Header
	body   string
	status string
}

// replayHooks reports whether the recorder has BeforeReplay hooks.
func (r *Recorder) replayHooks() bool {
	return slices.ContainsFunc(r.cfg.hooks, func(h hook) bool { return h.stage == BeforeReplay })
}

// headerID is what tells a request to go-vcr's recorder in afterCapture:
// the identity of its header map, which go-vcr's interaction holds as the
// request's headers (go-vcr makes none of its own). RoundTrip's request is
// a clone, whose map no other request shares.
func headerID(h http.Header) uintptr { return reflect.ValueOf(h).Pointer() }

// watchCapture registers info as that of out, which goes to go-vcr's
// recorder, for afterCapture (captureInfo) to note the answer the hooks
// will be given; the returned func unregisters it. Nothing is registered
// without BeforeReplay hooks.
func (r *Recorder) watchCapture(out *http.Request, info *reqInfo) func() {
	if !r.replayHooks() {
		return func() {}
	}
	if out.Header == nil {
		out.Header = http.Header{}
	}
	id := headerID(out.Header)
	r.capturing.Store(id, info)
	return func() { r.capturing.Delete(id) }
}

// captureInfo is the reqInfo watchCapture registered for a request whose
// header map is h, nil for none.
func (r *Recorder) captureInfo(h http.Header) *reqInfo {
	if h == nil {
		return nil
	}
	info, _ := r.capturing.Load(headerID(h))
	ri, _ := info.(*reqInfo)
	return ri
}

// noteHooked keeps, in info, i's answer as the BeforeReplay hooks will be
// given it, when there are any.
func (r *Recorder) noteHooked(info *reqInfo, i *cassette.Interaction) {
	if info == nil || !r.replayHooks() {
		return
	}
	info.hooked = &answerState{header: i.Response.Headers.Clone(), body: i.Response.Body, status: i.Response.Status}
}

// applyHooked applies to the real answer info holds what the BeforeReplay
// hooks changed in the interaction resp was made of (its headers and
// body, read here): a header they set, changed or removed, and their body,
// which is then the answer's, uncompressed, with its length; and their
// status, when they changed the interaction's (its reason phrase swept
// otherwise, the status line as it came is the client's).
func (info *reqInfo) applyHooked(resp *http.Response) error {
	pre := info.hooked
	if resp.Status != pre.status {
		info.status = resp.Status
	}
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		return err
	}
	_ = resp.Body.Close()
	for name, vs := range resp.Header {
		if !slices.Equal(vs, pre.header[name]) {
			info.header[name] = slices.Clone(vs)
		}
	}
	for name := range pre.header {
		if _, ok := resp.Header[name]; !ok {
			delete(info.header, name)
		}
	}
	if string(body) != pre.body {
		info.respBody = string(body)
		info.respLength = int64(len(body))
		if _, ok := resp.Header["Content-Encoding"]; !ok {
			info.header.Del("Content-Encoding") // the hooks' body is the interaction's: decompressed
		}
		if info.header.Get("Content-Length") != "" {
			info.header.Set("Content-Length", strconv.Itoa(len(body)))
		}
	}
	return nil
}
