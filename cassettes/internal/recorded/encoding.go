package recorded

import (
	"bytes"
	"compress/flate"
	"compress/gzip"
	"compress/zlib"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"

	"gopkg.in/dnaeon/go-vcr.v3/cassette"
)

// maxDecoded bounds a recorded body decompressed (a hand-made cassette
// could hold a gzip bomb).
const maxDecoded = 1 << 30

// Decompress replaces a response body recorded compressed (go-vcr keeps
// the body as it came when the client itself asked for gzip, so Go's
// transport did not decompress it) by its content, and drops the
// Content-Encoding and Content-Length headers that described the
// compressed form: the answer is then the one the deployment gives a
// client that does not ask for compression, which every client reads. It
// reports whether it changed i; an encoding it cannot undo (br, a list of
// several) or a body that does not decompress is an error. An empty body
// is left as it is, as net/http reads it.
func Decompress(i *cassette.Interaction) (bool, error) {
	enc := strings.ToLower(strings.TrimSpace(HeaderValue(i.Response.Headers, "Content-Encoding")))
	var r io.Reader
	var err error
	in := strings.NewReader(i.Response.Body)
	switch {
	case enc == "" || enc == "identity":
		return false, nil
	case i.Response.Body == "":
		return false, nil // nothing to decode: net/http reads an empty body so too
	}
	switch enc {
	case "gzip", "x-gzip":
		r, err = gzip.NewReader(in)
	case "deflate": // zlib, as HTTP says; some servers send raw deflate
		if r, err = zlib.NewReader(in); err != nil {
			r, err = flate.NewReader(strings.NewReader(i.Response.Body)), nil
		}
	default:
		return false, fmt.Errorf("response body recorded with Content-Encoding %q, which replay cannot decode (gzip and deflate only): record it again with a client that does not accept %s (atmkit record's proxy asks for gzip or no compression)", enc, enc)
	}
	if err != nil {
		return false, fmt.Errorf("response body recorded with Content-Encoding %s does not decode: %w", enc, err)
	}
	var out bytes.Buffer
	n, err := io.Copy(&out, io.LimitReader(r, maxDecoded+1))
	switch {
	case err != nil:
		return false, fmt.Errorf("response body recorded with Content-Encoding %s does not decode: %w", enc, err)
	case n > maxDecoded:
		return false, fmt.Errorf("response body recorded with Content-Encoding %s decodes to more than %d bytes", enc, maxDecoded)
	}
	for k := range i.Response.Headers {
		if strings.EqualFold(k, "Content-Encoding") || strings.EqualFold(k, "Content-Length") {
			delete(i.Response.Headers, k)
		}
	}
	if i.Response.Headers == nil {
		i.Response.Headers = http.Header{}
	}
	i.Response.Headers["Content-Length"] = []string{strconv.Itoa(out.Len())}
	i.Response.Body = out.String()
	i.Response.ContentLength = int64(out.Len())
	i.Response.Uncompressed = true
	return true, nil
}

// decodable reports whether Decompress undoes the content coding c (one
// name, in lower case).
func decodable(c string) bool {
	switch c {
	case "", "identity", "gzip", "x-gzip", "deflate":
		return true
	}
	return false
}

// Unasked returns the Content-Encoding of i's answer when it names a
// coding Decompress cannot undo (br, zstd) that i's request did not accept:
// its Accept-Encoding does not name it (nor *), names it with q=0 (which *
// does not undo), or is absent, as in the requests of atmkit's recording
// proxy and of serve's upstream, for which Go's transport asks for gzip
// alone. HTTP lets a server use only a coding
// the request accepts (RFC 9110, 12.5.3): such an answer is the
// deployment's or its gateway's mistake, and the recorder refuses it. ""
// otherwise.
func Unasked(i *cassette.Interaction) string {
	enc := strings.ToLower(strings.TrimSpace(HeaderValue(i.Response.Headers, "Content-Encoding")))
	accepted := map[string]bool{} // false: refused by name (q=0), which "*" does not undo
	for _, a := range strings.Split(strings.ToLower(HeaderValue(i.Request.Headers, "Accept-Encoding")), ",") {
		name, params, _ := strings.Cut(a, ";")
		q := strings.ReplaceAll(params, " ", "")
		accepted[strings.TrimSpace(name)] = !(q == "q=0" || strings.HasPrefix(q, "q=0.") && strings.Trim(q[len("q=0."):], "0") == "")
	}
	for _, c := range strings.Split(enc, ",") {
		c = strings.TrimSpace(c)
		ok, named := accepted[c]
		if !decodable(c) && !ok && (named || !accepted["*"]) {
			return enc
		}
	}
	return ""
}
