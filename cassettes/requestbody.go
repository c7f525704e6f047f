package cassettes

import (
	"bytes"
	"io"
	"mime"
	"net/http"
	"net/url"
)

// readBody reads and closes a request body, returning its bytes.
func readBody(body io.ReadCloser) ([]byte, error) {
	if body == nil || body == http.NoBody {
		return nil, nil
	}
	defer body.Close()
	var buf bytes.Buffer
	_, err := buf.ReadFrom(body)
	return buf.Bytes(), err
}

// postForm is the form go-vcr records of a request with body: ParseForm
// on a copy of it (PostForm: the body's pairs, for a form posted; empty
// otherwise). A content type whose parameters do not parse
// ("text/xml; charset", which ASMX reads as text/xml) is taken for its
// media type, and lax reports it: net/http's ParseForm fails on it, and
// so does go-vcr's recorder.
func postForm(req *http.Request, body []byte) (form url.Values, lax bool, err error) {
	f := &http.Request{Method: req.Method, URL: req.URL, Header: req.Header, Body: io.NopCloser(bytes.NewReader(body))}
	err = f.ParseForm()
	if ct := req.Header.Get("Content-Type"); ct != "" {
		if _, _, merr := mime.ParseMediaType(ct); merr != nil && err != nil && err.Error() == merr.Error() {
			return f.PostForm, true, nil
		}
	}
	return f.PostForm, false, err
}
