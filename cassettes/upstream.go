package cassettes

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"path/filepath"
	"strings"
	"time"

	"github.com/atmkit/atmkit/asmx"
	"github.com/atmkit/atmkit/cassettes/internal/recorded"
	"github.com/atmkit/atmkit/internal/redact"
	"github.com/atmkit/atmkit/mockserver"
	"gopkg.in/dnaeon/go-vcr.v3/cassette"
)

// DefaultUpstreamTimeout bounds a call forwarded to the upstream when
// Upstream.Timeout does not set another bound.
const DefaultUpstreamTimeout = 30 * time.Second

// Upstream is the deployment an Index forwards calls with no recording to
// (WithUpstream).
type Upstream struct {
	// URL is the deployment's base URL, e.g. https://atm.example.org.
	URL string
	// Record is the cassette each new episode is recorded into (appended,
	// scrubbed, written atomically).
	Record string
	// Namespace is the service namespace used to write SOAP requests.
	// When empty: the namespace of the SOAP calls the cassettes recorded,
	// when they agree on one, else asmx.DefaultNamespace.
	Namespace string
	// Transport reaches the upstream (http.DefaultTransport when nil).
	Transport http.RoundTripper
	// Timeout bounds each forwarded call, from sending it to the answer's
	// last byte (DefaultUpstreamTimeout when 0).
	Timeout time.Duration
}

// WithUpstream forwards calls with no recording to the deployment u names,
// records each new episode into u.Record, and answers with it. Close the
// Index to write the last episodes.
func WithUpstream(u Upstream) IndexOption {
	return func(c *indexConfig) { c.upstream = u }
}

// Close writes the episodes recorded from the upstream, if any; with none,
// no file is written.
func (ix *Index) Close() error {
	if ix.up == nil {
		return nil
	}
	if err := ix.up.rec.Stop(); err != nil && !errors.Is(err, ErrNothingRecorded) {
		return err
	}
	return nil
}

// upstream forwards misses and records them.
type upstream struct {
	base    *url.URL
	ns      string
	rec     *Recorder
	timeout time.Duration
	enc     asmx.RequestEncoding // the deployment's requestEncoding (WithRequestEncoding)
}

func newUpstream(ctx context.Context, cfg Upstream, enc asmx.RequestEncoding) (*upstream, error) {
	u, err := url.Parse(cfg.URL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("upstream %q: want an http or https URL", cfg.URL)
	}
	ns := cfg.Namespace
	if ns == "" {
		ns = asmx.DefaultNamespace
	}
	rt := cfg.Transport
	if rt == nil {
		rt = http.DefaultTransport
	}
	rec, err := NewContext(ctx, cfg.Record, WithMode(ModeRecordAll), WithTransport(rt))
	if err != nil {
		return nil, err
	}
	timeout := cfg.Timeout
	if timeout <= 0 {
		timeout = DefaultUpstreamTimeout
	}
	return &upstream{base: u, ns: ns, rec: rec, timeout: timeout, enc: enc}, nil
}

// fetch asks the upstream c in c's binding, records the episode, and
// answers with the upstream's answer as it came. A success is indexed for
// later calls; an error is not (it may be the caller's key's alone), so the
// next call is forwarded again. The fetch ends when ctx does (the client
// hung up) or after the upstream timeout.
func (up *upstream) fetch(ctx context.Context, ix *Index, c *asmx.Call) mockserver.ReplayAnswer {
	ctx, cancel := context.WithTimeout(ctx, up.timeout)
	defer cancel()
	// Errors quote the request, key included: mask it; and the cassette's
	// path, which the app is told by its file name only.
	fail := func(what string, err error) mockserver.ReplayAnswer {
		if errors.Is(err, context.DeadlineExceeded) && ctx.Err() != nil {
			return mockserver.ReplayAnswer{Error: asmx.NewServerError(c.Binding, fmt.Sprintf("%sno answer within %s", what, up.timeout))}
		}
		msg := what + redact.Error(err, c.Key).Error()
		e := asmx.NewServerError(c.Binding, withoutCassetteDir(msg, up.rec))
		e.Message = msg // the log names the cassette by its path
		return mockserver.ReplayAnswer{Error: e}
	}
	req, err := newRequest(ctx, up.base, up.ns, up.enc, c)
	if err != nil {
		return fail("building the upstream request: ", err)
	}
	resp, err := up.rec.RoundTrip(req)
	if err != nil {
		return fail("upstream: ", err)
	}
	defer resp.Body.Close()
	if err := decodeAnswer(resp); err != nil {
		return fail("upstream: ", err)
	}
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		return fail("upstream: ", err)
	}
	r := &rendition{binding: c.Binding, status: resp.StatusCode, contentType: resp.Header.Get("Content-Type"),
		body: body, where: up.rec.Path() + " (from upstream)", source: mockserver.SourceUpstream, canonical: c.Canonical(), ns: up.ns}
	if r.status != http.StatusOK {
		r.kind = errorOf(r.binding, r.status, string(body)).Kind
		// ASP.NET AJAX's mark of a JSON error, by which script clients
		// tell it from a result: written again, as replay does.
		r.jsonError = strings.EqualFold(strings.TrimSpace(resp.Header.Get("jsonerror")), "true")
		return r.answer()
	}
	// Later calls are answered from the index, not by the upstream: their
	// journal entries name the cassette the episode went into, as an
	// answer loaded from it would (its id is the recorder's to give).
	later := *r
	later.source = filepath.Base(up.rec.Path())
	later.body = sweptOf(body, r.contentType, c.Key)
	ix.add(c, &later)
	ix.mu.RLock()
	if e := ix.entries[family(c.Binding)+r.canonical]; e != nil {
		e.served[c.Binding].Add(1)
	}
	ix.mu.RUnlock()
	return r.answer()
}

// newRequest writes c as a request of its binding to the service at base,
// a GET's or POST's values escaped for the deployment's requestEncoding
// enc (a form names no charset, as the app's did not).
func newRequest(ctx context.Context, base *url.URL, ns string, enc asmx.RequestEncoding, c *asmx.Call) (*http.Request, error) {
	var pairs []string
	var soap bytes.Buffer
	for j, p := range c.Op.Params {
		v := c.Values[j]
		if p.Name == asmx.ParamKey {
			v = c.Key
		}
		if c.Binding.IsSOAP() {
			if c.Present[j] {
				soap.WriteString("\n      <" + p.Name + ">")
				soap.Write(asmx.AppendEscaped(nil, v))
				soap.WriteString("</" + p.Name + ">")
			}
			continue
		}
		pairs = append(pairs, url.QueryEscape(p.Name)+"="+enc.QueryEscape(v)) // read in the deployment's requestEncoding
	}
	query := strings.Join(pairs, "&")
	u := *base
	u.RawQuery = ""
	trim := strings.TrimSuffix(u.Path, "/")
	switch c.Binding {
	case asmx.SOAP11, asmx.SOAP12:
		u.Path = trim + asmx.ServicePath
		envNS, ct := asmx.NamespaceSOAP11, asmx.ContentTypeSOAP11
		if c.Binding == asmx.SOAP12 {
			envNS, ct = asmx.NamespaceSOAP12, asmx.ContentTypeSOAP12
		}
		var b bytes.Buffer
		b.WriteString(`<?xml version="1.0" encoding="utf-8"?>` + "\n")
		b.WriteString(`<soap:Envelope xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:xsd="http://www.w3.org/2001/XMLSchema" xmlns:soap="` + envNS + `">` + "\n  <soap:Body>\n    <" + c.Op.Name + ` xmlns="`)
		b.Write(asmx.AppendEscaped(nil, ns))
		b.WriteString(`">`)
		b.Write(soap.Bytes())
		b.WriteString("\n    </" + c.Op.Name + ">\n  </soap:Body>\n</soap:Envelope>")
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, u.String(), bytes.NewReader(b.Bytes()))
		if err != nil {
			return nil, err
		}
		req.Header.Set("Content-Type", ct)
		if c.Binding == asmx.SOAP11 {
			req.Header.Set("SOAPAction", `"`+asmx.SOAPAction(ns, c.Op.Name)+`"`)
		}
		return req, nil
	case asmx.HTTPPost:
		u.Path = trim + asmx.ServicePath + "/" + c.Op.Name
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, u.String(), strings.NewReader(query))
		if err != nil {
			return nil, err
		}
		req.Header.Set("Content-Type", asmx.ContentTypeForm)
		return req, nil
	case asmx.JSON:
		u.Path = trim + asmx.JSONPath + "/" + c.Op.Name
	default:
		u.Path = trim + asmx.ServicePath + "/" + c.Op.Name
	}
	u.RawQuery = query
	return http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
}

// sweptOf is body, an answer to a call with key, as the cassette holds it:
// every form of the key the deployment echoed replaced by Placeholder. An
// episode indexed for later calls serves other callers, with keys of their
// own; the caller that sent key gets the answer as it came.
func sweptOf(body []byte, contentType, key string) []byte {
	resp := cassette.Response{Body: string(body), Headers: http.Header{"Content-Type": {contentType}}}
	recorded.Sweep(&resp, Placeholder, key)
	if resp.Body == string(body) {
		return body
	}
	return []byte(resp.Body)
}
