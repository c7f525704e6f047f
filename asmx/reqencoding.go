package asmx

import (
	"errors"
	"fmt"
	"net/url"
)

// RequestEncoding is a deployment's requestEncoding (web.config's
// <globalization requestEncoding="...">, UTF-8 by default): the encoding
// ASP.NET reads a request's query string and form body in when the
// request names no charset. HttpRequest.ContentEncoding is the charset of
// the request's Content-Type when the request has a body and .NET knows
// the name (GetEncodingFromHeaders), else requestEncoding; Request.Form is
// read in it, and Request.QueryString too, except that UTF-16
// (Encoding.Unicode) reads a query as UTF-8 (QueryStringEncoding). Both
// are filled from the raw bytes (HttpValueCollection.FillFromEncodedBytes):
// split at the bytes '&' and '=', each name and value URL-decoded in that
// encoding, %XX escapes and raw bytes alike. SOAP bodies are not read so:
// their encoding comes from the Content-Type or the XML (SOAPText).
//
// The zero RequestEncoding is RequestEncodingUTF8.
type RequestEncoding struct{ cs charset }

// RequestEncodingUTF8 is ASP.NET's default requestEncoding.
var RequestEncodingUTF8 = RequestEncoding{charsetUTF8}

// ParseRequestEncoding returns the requestEncoding of name as .NET's
// Encoding.GetEncoding knows it ("iso-8859-1", "windows-1252", "utf-8";
// case ignored). A name .NET does not know is an error, as ASP.NET refuses
// the web.config (GlobalizationSection: "Invalid value for
// 'requestEncoding'"); so is UTF-16 or UTF-32, which atmkit does not
// model (.NET would read every form sent in ASCII as pairs of bytes).
func ParseRequestEncoding(name string) (RequestEncoding, error) {
	cs, ok := lookupCharset(name)
	switch {
	case !ok:
		return RequestEncoding{}, fmt.Errorf("request encoding %q: %w", name, ErrUnknownEncoding)
	case cs.unicode:
		return RequestEncoding{}, fmt.Errorf("request encoding %q: %w", name, ErrUnicodeRequestEncoding)
	}
	return RequestEncoding{cs}, nil
}

// The errors of ParseRequestEncoding, wrapped with the name given.
var (
	// ErrUnknownEncoding: a name .NET's Encoding.GetEncoding does not know.
	ErrUnknownEncoding = errors.New("not an encoding .NET knows; want one such as utf-8, iso-8859-1 or windows-1252")
	// ErrUnicodeRequestEncoding: UTF-16 or UTF-32, which atmkit does not
	// model as a requestEncoding.
	ErrUnicodeRequestEncoding = errors.New("UTF-16 and UTF-32 are not modelled as a requestEncoding; want one such as utf-8, iso-8859-1 or windows-1252")
)

// Name is the encoding's name, lower case ("utf-8", "iso-8859-1").
func (e RequestEncoding) Name() string { return e.charset().name }

// IsUTF8 reports whether e is UTF-8, ASP.NET's default.
func (e RequestEncoding) IsUTF8() bool { return e.charset() == charsetUTF8 }

func (e RequestEncoding) charset() charset {
	if e.cs.name == "" {
		return charsetUTF8
	}
	return e.cs
}

// contentEncoding is HttpRequest.ContentEncoding of a request of content
// type ct with a body or none: the charset ct names when the request has a
// body and .NET knows the name, else e.
func (e RequestEncoding) contentEncoding(ct string, hasBody bool) charset {
	if hasBody {
		if name, ok := contentTypeParam(ct, "charset"); ok && name != "" {
			if cs, known := lookupCharset(name); known {
				return cs
			}
		}
	}
	return e.charset()
}

// Form returns a form body (application/x-www-form-urlencoded) sent with
// content type ct written for UTF-8, so that ParseQuery, ValidateQuery and
// DecodeQuery read it as ASP.NET reads Request.Form: in the charset ct
// names when .NET knows the name, else in e (see RequestEncoding). A body
// in UTF-8, or in UTF-16 or UTF-32 (left as UTF-8: .NET reads ASCII forms
// sent so as pairs of bytes, which no client sends), is returned as it is.
func (e RequestEncoding) Form(ct, body string) string {
	return transcodeForm(e.contentEncoding(ct, true), body)
}

// Query returns a query string (as sent, raw) written for UTF-8, so that
// ParseQuery, ValidateQuery and DecodeQuery read it as ASP.NET reads
// Request.QueryString: in the charset of ct when the request has a body
// (hasBody) and .NET knows the name, else in e; UTF-16 reads it as UTF-8.
func (e RequestEncoding) Query(ct string, hasBody bool, query string) string {
	cs := e.contentEncoding(ct, hasBody)
	if cs == charsetUTF16LE { // Encoding.Unicode
		return query
	}
	return transcodeForm(cs, query)
}

// QueryEscape escapes s for a query string or form that a deployment of
// requestEncoding e reads (one that names no charset): s's characters in
// e's bytes, each byte outside the unreserved set %XX-escaped and a space
// '+', as url.QueryEscape writes UTF-8. A character e cannot hold is
// written '?', as .NET's encoders replace it (EncoderReplacementFallback).
func (e RequestEncoding) QueryEscape(s string) string {
	cs := e.charset()
	switch {
	case cs.name == charsetUTF8.name:
		return url.QueryEscape(s)
	case cs.ascii:
		b := []byte(s)
		out := b[:0]
		for _, r := range s {
			if r >= 0x80 {
				r = '?'
			}
			out = append(out, byte(r))
		}
		return url.QueryEscape(string(out))
	}
	enc := cs.enc.NewEncoder()
	var out []byte
	for _, r := range s {
		b, err := enc.Bytes([]byte(string(r)))
		if err != nil || len(b) == 0 {
			b = []byte{'?'}
		}
		out = append(out, b...)
	}
	return url.QueryEscape(string(out))
}
