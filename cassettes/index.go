package cassettes

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/atmkit/atmkit/asmx"
	"github.com/atmkit/atmkit/internal/redact"
	"github.com/atmkit/atmkit/mockserver"
)

// Index answers a mock server's calls from cassettes; it implements
// mockserver.Replayer. Calls are looked up by binding family (XML or JSON)
// and asmx.Call.Canonical in one map access, so a cassette of 10,000
// interactions answers as fast as one of 10. It is safe for concurrent use.
type Index struct {
	mu      sync.RWMutex // guards entries, byOp and stats; entries' answers are append-only under it
	entries map[string]*entry
	byOp    map[string][]*entry
	stats   IndexStats

	up *upstream // nil: misses are not forwarded
}

// IndexStats counts what an Index loaded.
type IndexStats struct {
	Files        int // cassette files read
	Interactions int // interactions in them
	Calls        int // interactions indexed as calls of an operation
	Answers      int // distinct answers indexed
	Skipped      int // calls whose answer could not be read (see Problems)
	// Empty lists the cassette files that hold no interactions.
	Empty []string
	// Problems describes the skipped calls, first ones only.
	Problems []string
}

// entry holds the distinct answers recorded for one question, in recorded order.
type entry struct {
	params  [][2]string
	op      string
	where   string // file#id (binding) of the first recording
	answers []mockserver.ReplayAnswer
	digests []string
	served  atomic.Uint64
}

// next returns the answer for the n-th request: answers in order, then the last.
func (e *entry) next(ix *Index) mockserver.ReplayAnswer {
	n := e.served.Add(1) - 1
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	return e.answers[min(n, uint64(len(e.answers)-1))]
}

// IndexOption configures an Index.
type IndexOption func(*indexConfig)

type indexConfig struct {
	upstream  string
	record    string
	namespace string
	transport http.RoundTripper
}

// WithUpstream forwards calls with no recording to the service at base
// (e.g. https://atm.example.org), records each new episode into the
// cassette at record (appended, scrubbed, written atomically), and answers
// with it. ns is the service namespace used to write SOAP requests
// (asmx.DefaultNamespace when empty). Close the Index to write the last episodes.
func WithUpstream(base, record, ns string) IndexOption {
	return func(c *indexConfig) { c.upstream, c.record, c.namespace = base, record, ns }
}

// WithUpstreamTransport sets the transport used to reach the upstream
// (default http.DefaultTransport).
func WithUpstreamTransport(rt http.RoundTripper) IndexOption {
	return func(c *indexConfig) { c.transport = rt }
}

// LoadIndex reads the cassettes at paths (files, or directories of .yaml
// files) and indexes their calls.
func LoadIndex(paths []string, opts ...IndexOption) (*Index, error) {
	var cfg indexConfig
	for _, o := range opts {
		o(&cfg)
	}
	ix := &Index{entries: map[string]*entry{}, byOp: map[string][]*entry{}}
	files, err := Files(paths...)
	if err != nil {
		return nil, err
	}
	for _, f := range files {
		list, err := ReadFile(f)
		if err != nil {
			return nil, err
		}
		ix.stats.Files++
		if len(list) == 0 {
			ix.stats.Empty = append(ix.stats.Empty, f)
		}
		for _, i := range list {
			ix.stats.Interactions++
			c, ok := callOf(i.Request.Method, i.Request.URL, i.Request.Headers, i.Request.Body)
			if !ok {
				continue
			}
			ix.stats.Calls++
			where := fmt.Sprintf("%s#%d (%s)", f, i.ID, c.Binding)
			ans, err := answerOf(c.Binding, c.Op.Name, i.Response.Code, i.Response.Body)
			if err != nil {
				ix.stats.Skipped++
				if len(ix.stats.Problems) < 20 {
					ix.stats.Problems = append(ix.stats.Problems, where+": "+err.Error())
				}
				continue
			}
			ix.add(c, ans, where)
		}
	}
	if cfg.upstream != "" {
		if ix.up, err = newUpstream(cfg); err != nil {
			return nil, err
		}
	}
	return ix, nil
}

// family is the index key's prefix: XML answers serve the four XML
// bindings, JSON answers the JSON binding.
func family(b asmx.Binding) string {
	if b == asmx.JSON {
		return "json|"
	}
	return "xml|"
}

// add indexes one answer; it is kept unless the same answer is there already.
func (ix *Index) add(c *asmx.Call, ans mockserver.ReplayAnswer, where string) {
	k := family(c.Binding) + c.Canonical()
	d := digestAnswer(ans)
	ix.mu.Lock()
	defer ix.mu.Unlock()
	e := ix.entries[k]
	if e == nil {
		e = &entry{params: c.Params(), op: c.Op.Name, where: where}
		ix.entries[k] = e
		ix.byOp[c.Op.Name] = append(ix.byOp[c.Op.Name], e)
	}
	for _, x := range e.digests {
		if x == d {
			return
		}
	}
	e.digests = append(e.digests, d)
	e.answers = append(e.answers, ans)
	ix.stats.Answers++
}

func digestAnswer(a mockserver.ReplayAnswer) string {
	switch {
	case a.Error != nil:
		e := a.Error
		return "e" + strconv.Itoa(e.Status) + "|" + e.Fault + "|" + e.Text + "|" + e.Message
	case a.JSON != nil:
		return "j" + string(a.JSON)
	}
	return "x" + string(a.Node)
}

// Stats reports what the index holds.
func (ix *Index) Stats() IndexStats {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	s := ix.stats
	s.Problems = append([]string(nil), s.Problems...)
	s.Empty = append([]string(nil), s.Empty...)
	return s
}

// Replay implements mockserver.Replayer: the recorded answer to c, in
// recorded order for repeated calls and then the last again. With no
// recording of c it forwards to the upstream when one is set, and otherwise
// returns ok false and the nearest recording (same operation, most equal
// parameters).
func (ix *Index) Replay(c *asmx.Call) (ans mockserver.ReplayAnswer, ok bool, nearest string) {
	canon := c.Canonical()
	fam := family(c.Binding)
	ix.mu.RLock()
	e := ix.entries[fam+canon]
	var other *entry
	if e == nil {
		if fam == "json|" {
			other = ix.entries["xml|"+canon]
		} else {
			other = ix.entries["json|"+canon]
		}
	}
	ix.mu.RUnlock()
	if e != nil {
		return e.next(ix), true, ""
	}
	if ix.up != nil {
		return ix.up.fetch(ix, c), true, ""
	}
	if other != nil {
		// The server explains that only the other family was recorded.
		a := other.next(ix)
		return mockserver.ReplayAnswer{Node: a.Node, JSON: a.JSON}, true, ""
	}
	return mockserver.ReplayAnswer{}, false, ix.nearest(c)
}

// nearest describes the recording of c's operation with the most parameter
// values equal to c's, and which parameters differ.
func (ix *Index) nearest(c *asmx.Call) string {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	var best *entry
	bestEq := -1
	params := c.Params()
	for _, e := range ix.byOp[c.Op.Name] {
		eq := 0
		for j, p := range e.params {
			if j < len(params) && params[j][1] == p[1] {
				eq++
			}
		}
		if eq > bestEq {
			best, bestEq = e, eq
		}
	}
	if best == nil {
		return fmt.Sprintf("none of %s (the cassettes hold %d calls of %d operations)", c.Op.Name, len(ix.entries), len(ix.byOp))
	}
	var sb strings.Builder
	sb.WriteString(best.op)
	sb.WriteByte('(')
	var diff []string
	for j, p := range best.params {
		if j > 0 {
			sb.WriteString(", ")
		}
		sb.WriteString(p[0] + "=" + quote(p[1]))
		if j < len(params) && params[j][1] != p[1] {
			diff = append(diff, p[0])
		}
	}
	sb.WriteString(") recorded in " + best.where)
	if len(diff) > 0 {
		sb.WriteString(", which differs in " + strings.Join(diff, ", "))
	}
	return sb.String()
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
	base *url.URL
	ns   string
	rec  *Recorder
}

func newUpstream(cfg indexConfig) (*upstream, error) {
	u, err := url.Parse(cfg.upstream)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("upstream %q: want an http or https URL", cfg.upstream)
	}
	ns := cfg.namespace
	if ns == "" {
		ns = asmx.DefaultNamespace
	}
	rt := cfg.transport
	if rt == nil {
		rt = http.DefaultTransport
	}
	rec, err := New(cfg.record, WithMode(ModeRecordAll), WithTransport(rt))
	if err != nil {
		return nil, err
	}
	return &upstream{base: u, ns: ns, rec: rec}, nil
}

// fetch asks the upstream c in c's binding, records the episode and indexes it.
func (up *upstream) fetch(ix *Index, c *asmx.Call) mockserver.ReplayAnswer {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	// Errors quote the request, key included: mask it.
	fail := func(what string, err error) mockserver.ReplayAnswer {
		return mockserver.ReplayAnswer{Error: asmx.ErrServer(c.Binding, what+redact.Error(err, c.Key).Error())}
	}
	req, err := newRequest(ctx, up.base, up.ns, c)
	if err != nil {
		return fail("building the upstream request: ", err)
	}
	resp, err := up.rec.RoundTrip(req)
	if err != nil {
		return fail("upstream: ", err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		return fail("upstream: ", err)
	}
	ans, err := answerOf(c.Binding, c.Op.Name, resp.StatusCode, string(body))
	if err != nil {
		return mockserver.ReplayAnswer{Error: asmx.ErrServer(c.Binding, "upstream answer: "+err.Error())}
	}
	ix.add(c, ans, up.rec.Path()+" (from upstream)")
	ix.mu.RLock()
	if e := ix.entries[family(c.Binding)+c.Canonical()]; e != nil {
		e.served.Add(1)
	}
	ix.mu.RUnlock()
	return ans
}

// newRequest writes c as a request of its binding to the service at base.
func newRequest(ctx context.Context, base *url.URL, ns string, c *asmx.Call) (*http.Request, error) {
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
		pairs = append(pairs, url.QueryEscape(p.Name)+"="+url.QueryEscape(v))
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
