package loadgen

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"net/http"
	"net/url"
	"sort"
	"strconv"

	"github.com/atmkit/atmkit/internal/redact"
)

// Request is one HTTP request to send repeatedly. URL is absolute
// (http://host:port/path?query); Header holds the request headers beyond
// Host and Content-Length, which are derived.
type Request struct {
	Method string
	URL    string
	Header http.Header
	Body   []byte
}

// target is a Request parsed once for sending.
type target struct {
	addr string // host:port to dial
	wire []byte // the whole request as sent
	head bool   // HEAD: responses carry no body
}

// prepare serialises r as an HTTP/1.1 request with keep-alive.
func (r Request) prepare() (*target, error) {
	u, err := url.Parse(r.URL)
	if err != nil {
		return nil, redact.Error(fmt.Errorf("request URL %q: %w", redact.URL(r.URL), err))
	}
	if u.Scheme != "http" {
		return nil, fmt.Errorf("request URL %q: only http is supported", redact.URL(r.URL))
	}
	if u.Host == "" {
		return nil, fmt.Errorf("request URL %q: no host", redact.URL(r.URL))
	}
	addr := u.Host
	if u.Port() == "" {
		addr += ":80"
	}
	method := r.Method
	if method == "" {
		method = http.MethodGet
	}
	var b bytes.Buffer
	b.WriteString(method)
	b.WriteByte(' ')
	b.WriteString(u.RequestURI())
	b.WriteString(" HTTP/1.1\r\nHost: ")
	b.WriteString(u.Host)
	b.WriteString("\r\n")
	keys := make([]string, 0, len(r.Header))
	for k := range r.Header {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	// A URL's user and password are HTTP Basic authentication, as
	// net/http sends them, unless the request has an Authorization.
	if u.User != nil && r.Header.Get("Authorization") == "" {
		pw, _ := u.User.Password()
		b.WriteString("Authorization: Basic ")
		b.WriteString(base64.StdEncoding.EncodeToString([]byte(u.User.Username() + ":" + pw)))
		b.WriteString("\r\n")
	}
	for _, k := range keys {
		ck := http.CanonicalHeaderKey(k)
		if ck == "Host" || ck == "Content-Length" || ck == "Connection" {
			continue
		}
		for _, v := range r.Header[k] {
			b.WriteString(ck)
			b.WriteString(": ")
			b.WriteString(v)
			b.WriteString("\r\n")
		}
	}
	if len(r.Body) > 0 || method == http.MethodPost || method == http.MethodPut {
		b.WriteString("Content-Length: ")
		b.WriteString(strconv.Itoa(len(r.Body)))
		b.WriteString("\r\n")
	}
	b.WriteString("\r\n")
	b.Write(r.Body)
	return &target{addr: addr, wire: b.Bytes(), head: method == http.MethodHead}, nil
}

// Wire returns r as Run writes it on every connection: the whole HTTP/1.1
// request, head and body.
func (r Request) Wire() ([]byte, error) {
	t, err := r.prepare()
	if err != nil {
		return nil, err
	}
	return t.wire, nil
}

// NewHTTPRequest returns r as a *http.Request, for sending it once with a
// regular client.
func (r Request) NewHTTPRequest() (*http.Request, error) {
	method := r.Method
	if method == "" {
		method = http.MethodGet
	}
	req, err := http.NewRequest(method, r.URL, bytes.NewReader(r.Body))
	if err != nil {
		return nil, redact.Error(fmt.Errorf("build request %s %s: %w", method, redact.URL(r.URL), err))
	}
	for k, vs := range r.Header {
		for _, v := range vs {
			req.Header.Add(k, v)
		}
	}
	return req, nil
}
