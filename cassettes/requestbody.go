package cassettes

import (
	"io"
	"mime"
	"net/http"
	"net/url"
	"strings"

	"github.com/atmkit/atmkit/asmx"
)

// readBody reads and closes a request body of size bytes (-1: unknown),
// returning its text; ok is false when there is none.
func readBody(body io.ReadCloser, size int64) (text string, ok bool, err error) {
	if body == nil || body == http.NoBody {
		return "", false, nil
	}
	defer body.Close()
	if size > maxSizedRequest {
		size = -1 // read as it comes: the client may claim more than it sends
	}
	text, err = readText(body, size)
	return text, true, err
}

// maxSized bounds the size readText takes from a Content-Length at its
// word: a larger one is read as a body of unknown size.
const maxSized = 256 << 20

// maxSizedRequest is maxSized for a request's body, which comes from the
// app (a SOAP call is kilobytes; ASP.NET refuses one beyond 4096 KB by
// default): a Content-Length claiming more is not taken at its word.
const maxSizedRequest = 4 << 20

// proven is how much of a body claimed larger readText reads before it
// takes the claim at its word: a Content-Length larger than what is sent
// costs at most this much until the bytes come.
const proven = 1 << 20

// readText reads r to its end into a string, holding the text once: a
// body of a known size (a Content-Length; -1 when unknown) is read into a
// string of that size, one of unknown size into chunks of growing size
// joined once at the end. (io.ReadAll grows one buffer as it reads: a
// body of tens of megabytes allocated twice its size, and a string made
// of it a third copy.) A size beyond proven is taken at its word once that
// much has come: a larger Content-Length than the body sent then costs
// that much, not what it claims.
func readText(r io.Reader, size int64) (string, error) {
	var b strings.Builder
	if size > 0 && size <= maxSized {
		b.Grow(int(min(size, proven)))
		n, err := io.Copy(&b, io.LimitReader(r, proven))
		if err != nil {
			return b.String(), err
		}
		if n == proven && size > proven {
			b.Grow(int(size - n))
		}
		_, err = io.Copy(&b, r) // up to its end, which may be beyond size
		return b.String(), err
	}
	var chunks [][]byte
	total, c := 0, make([]byte, 0, 32<<10)
	for {
		k, err := r.Read(c[len(c):cap(c)])
		c, total = c[:len(c)+k], total+k
		if err == io.EOF {
			break
		}
		if err != nil {
			return "", err
		}
		if len(c) == cap(c) {
			chunks = append(chunks, c)
			c = make([]byte, 0, min(2*cap(c), 1<<20))
		}
	}
	chunks = append(chunks, c)
	b.Grow(total)
	for _, c := range chunks {
		b.Write(c)
	}
	return b.String(), nil
}

// postForm is the form go-vcr records of a request with body: ParseForm
// on a copy of it (PostForm: the body's pairs, for a form posted; empty
// otherwise). A content type whose parameters do not parse
// ("text/xml; charset", which ASMX reads as text/xml) is taken for its
// media type, and lax reports it: net/http's ParseForm fails on it, and
// so does go-vcr's recorder.
func postForm(req *http.Request, body string) (form url.Values, lax bool, err error) {
	f := &http.Request{Method: req.Method, URL: req.URL, Header: req.Header, Body: io.NopCloser(strings.NewReader(body))}
	err = f.ParseForm()
	if ct := req.Header.Get("Content-Type"); ct != "" {
		if _, _, merr := mime.ParseMediaType(ct); merr != nil && err != nil && err.Error() == merr.Error() {
			return f.PostForm, true, nil
		}
	}
	return f.PostForm, false, err
}

// maxFormBytes is the size of a form body net/http's ParseForm reads at
// most (its "http: POST too large").
const maxFormBytes = 10 << 20

// capturedForm is the form a Recorder capturing by itself records of a
// request with body: go-vcr's (postForm) when net/http parses the request.
// When it does not, a form body net/http could not read (%uXXXX escapes,
// which JavaScript's escape() and classic ASP write, a lone '%', a ';') is
// recorded as ASMX reads it, in the charset its content type names
// (asmx.ParseQuery, asmx.FormText); one over net/http's 10 MB, which ASMX
// refuses beyond 4 MB by default, has none recorded (the body holds it).
// A query that does not parse leaves the form as net/http read it: the
// form is the body's alone.
func capturedForm(req *http.Request, body string) url.Values {
	form, _, err := postForm(req, body)
	if err == nil {
		return form
	}
	switch req.Method {
	case http.MethodPost, http.MethodPut, http.MethodPatch: // the methods ParseForm reads a body of
	default:
		return form
	}
	ct := req.Header.Get("Content-Type")
	if mt, _, _ := mime.ParseMediaType(ct); mt != asmx.ContentTypeForm {
		return form
	}
	if len(body) > maxFormBytes {
		return url.Values{}
	}
	if _, perr := url.ParseQuery(body); perr == nil {
		return form // the query failed, the body's pairs are net/http's
	}
	return asmx.ParseQuery(asmx.FormText(ct, body))
}
