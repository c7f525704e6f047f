// Package httpbuf holds a handler's response in memory, so that it can be
// rewritten before it is sent: cut short by a malformed-answer or reset fault
// (mockserver), or changed by a deviation (deviate). It imports only the
// standard library.
//
// A response that must reach the client as it is written (an answer
// streamed in pieces) does not belong here: mockserver's TestServer holds
// its answers with a writer of its own, which can let such an answer
// through.
package httpbuf

import (
	"bytes"
	"net/http"
)

// Response is an http.ResponseWriter that keeps the status, header and body
// written to it. Its header is its own, not the underlying writer's; the
// underlying writer is reached only through Unwrap, so that
// http.ResponseController can hijack the connection. A hijacked response,
// or one nothing was written to, has Status 0.
type Response struct {
	// Status is the status written (200 once the body is written without
	// one); 0 until then.
	Status int
	// Body is the body written (its first Max bytes, with Max set).
	Body bytes.Buffer
	// Max, if more than 0, is the most of the body kept in Body; the rest
	// is counted in Length and dropped, so a response cut short (a reset
	// fault's) is not held whole.
	Max int
	// Length is how many bytes of body were written, kept or not.
	Length int

	w      http.ResponseWriter
	header http.Header
}

// New returns an empty Response in front of w.
func New(w http.ResponseWriter) *Response {
	return &Response{w: w, header: http.Header{}}
}

// Header is the response's own header.
func (r *Response) Header() http.Header { return r.header }

// WriteHeader keeps the first status written.
func (r *Response) WriteHeader(code int) {
	if r.Status == 0 {
		r.Status = code
	}
}

// Write adds p to the body, up to Max.
func (r *Response) Write(p []byte) (int, error) {
	if r.Status == 0 {
		r.Status = http.StatusOK
	}
	r.Length += len(p)
	if keep := r.Max - r.Body.Len(); r.Max > 0 && len(p) > keep {
		_, _ = r.Body.Write(p[:max(keep, 0)])
		return len(p), nil
	}
	return r.Body.Write(p)
}

// Unwrap lets http.ResponseController reach the connection.
func (r *Response) Unwrap() http.ResponseWriter { return r.w }

// FlushError flushes nothing: the response is sent whole, later. (Without
// it, http.ResponseController.Flush would reach the connection and send a
// 200 header before the held status.)
func (r *Response) FlushError() error { return nil }
