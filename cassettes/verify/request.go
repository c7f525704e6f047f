package verify

import (
	"context"
	"errors"
	"fmt"
	"html"
	"io"
	"net"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/atmkit/atmkit/asmx"
	"github.com/atmkit/atmkit/cassettes"
	"github.com/atmkit/atmkit/cassettes/internal/recorded"
	"github.com/atmkit/atmkit/internal/neterr"
	"github.com/atmkit/atmkit/internal/printable"
	"github.com/atmkit/atmkit/internal/redact"
	"github.com/atmkit/atmkit/internal/tlsconf"
	"github.com/beevik/etree"
	"gopkg.in/dnaeon/go-vcr.v3/cassette"
)

// maxLiveBody bounds the answer Run reads to one request.
const maxLiveBody = 256 << 20

// notResent are recorded request headers Run does not send again: the
// framing net/http sets itself, hop-by-hop headers, and the credentials a
// cassette holds only as cassettes.Placeholder (a gateway gets its own from the
// transport's headers).
var notResent = []string{"Content-Length", "Transfer-Encoding", "Connection", "Host", "Accept-Encoding",
	"Keep-Alive", "Proxy-Connection", "Te", "Trailer", "Upgrade",
	"Authorization", "Proxy-Authorization", "Cookie"}

// send re-sends the recorded request of i to the deployment with key in
// place of its scrubbed key and returns the live interaction, not yet
// scrubbed. A request with no answer is ErrNoAnswer, its text key-free.
func (v *verifier) send(ctx context.Context, i *cassette.Interaction, key string) (*cassette.Interaction, error) {
	rq := &i.Request
	ph := cassettes.Placeholder
	if cassettes.KeyRejected(i) {
		ph = cassettes.RejectedPlaceholder
	}
	target, err := rebase(v.base, rq.URL)
	if err != nil {
		return nil, fmt.Errorf("recorded URL %q: %w", redact.URL(rq.URL), err)
	}
	target = recorded.PutKeyURL(target, ph, key)
	body := recorded.PutKeyBody(rq.Body, recorded.HeaderValue(rq.Headers, "Content-Type"), ph, key)
	h := http.Header{}
	for k, vs := range rq.Headers {
		ck := http.CanonicalHeaderKey(k)
		if slices.Contains(notResent, ck) {
			continue
		}
		vs = slices.Clone(vs)
		if recorded.IsKeyName(k) {
			for n := range vs {
				if vs[n] == ph {
					vs[n] = key
				}
			}
		}
		h[ck] = vs
	}
	if _, err := http.NewRequest(rq.Method, target, nil); err != nil {
		return nil, redact.Error(fmt.Errorf("recorded request %s: %w", recorded.DescribeRequest(rq.Method, rq.URL, rq.Headers, rq.Body), err), v.secrets()...)
	}
	var (
		resp *http.Response
		b    []byte
		rctx context.Context
	)
	// A connection closed without an answer (a keep-alive connection the
	// server dropped as the request went out, a balancer's reset) is tried
	// once more: every call of the service only reads.
	for attempt := 0; ; attempt++ {
		resp, b, rctx, err = v.roundTrip(ctx, rq.Method, target, h, body)
		if err == nil || attempt > 0 || ctx.Err() != nil || errors.Is(rctx.Err(), context.DeadlineExceeded) || !dropped(err) {
			break
		}
	}
	if err == nil {
		live := &cassette.Interaction{
			Request: cassette.Request{Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1,
				ContentLength: int64(len(body)), Body: body, Headers: h, URL: target, Method: rq.Method},
			Response: cassette.Response{Status: resp.Status, Code: resp.StatusCode, Proto: resp.Proto,
				ProtoMajor: resp.ProtoMajor, ProtoMinor: resp.ProtoMinor, TransferEncoding: resp.TransferEncoding,
				Trailer: resp.Trailer, ContentLength: resp.ContentLength, Uncompressed: resp.Uncompressed,
				Body: string(b), Headers: resp.Header},
		}
		// An answer that came compressed (a transport, or a gateway
		// header, asked for it): compared, and written by Update, by what
		// it says. One in an encoding not undone stays as it came.
		_, _ = recorded.Decompress(live)
		return live, nil
	}
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	what := recorded.DescribeRequest(rq.Method, rq.URL, rq.Headers, rq.Body)
	return nil, redact.Error(fmt.Errorf("%w: %s", ErrNoAnswer, failure(rctx, err, v.timeout, redact.URL(recorded.MaskPathKeysURL(target)), what)), v.secrets()...)
}

// roundTrip sends one request with the per-request timeout and reads the
// whole answer; rctx is the request's context (done on return), whose
// error tells a timeout.
func (v *verifier) roundTrip(ctx context.Context, method, target string, h http.Header, body string) (*http.Response, []byte, context.Context, error) {
	rctx, cancel := context.WithTimeout(ctx, v.timeout)
	defer cancel()
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, err := http.NewRequestWithContext(rctx, method, target, rd)
	if err != nil {
		return nil, nil, rctx, err
	}
	req.Header = h.Clone()
	resp, err := v.rt.RoundTrip(req)
	if err != nil {
		return nil, nil, rctx, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(io.LimitReader(resp.Body, maxLiveBody+1))
	if err == nil && len(b) > maxLiveBody {
		return nil, nil, rctx, errTooLarge // not compared cut short: it would differ at the cut
	}
	return resp, b, rctx, err
}

// errTooLarge is the error of an answer longer than maxLiveBody.
var errTooLarge = fmt.Errorf("the answer is larger than %d MiB, the most verify reads of one answer", maxLiveBody>>20)

// dropped reports whether err is a connection closed without an answer.
func dropped(err error) bool {
	return errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) || neterr.Reset(err) ||
		errors.Is(err, syscall.EPIPE) || errors.Is(err, net.ErrClosed) // the transport's connection closed under the request being written
}

// secrets are the values masked in Run's errors.
func (v *verifier) secrets() []string {
	return append([]string{v.opts.Key}, v.opts.Secrets...)
}

// failure says in one line why a request got no answer.
func failure(rctx context.Context, err error, timeout time.Duration, target, what string) string {
	host := target
	if u, e := url.Parse(target); e == nil {
		host = u.Scheme + "://" + u.Host
		target = host + u.Path
	}
	var te *tlsconf.Error
	var dns *net.DNSError
	switch {
	case errors.Is(rctx.Err(), context.DeadlineExceeded) || errors.Is(err, context.DeadlineExceeded):
		return fmt.Sprintf("no answer from %s within %s (%s)", target, timeout, what)
	case errors.As(err, &te):
		return fmt.Sprintf("TLS failure with %s: %s", host, te.Error())
	case neterr.Refused(err):
		return fmt.Sprintf("connection refused at %s: nothing listens at that address and port", host)
	case errors.As(err, &dns):
		return fmt.Sprintf("%s: host %s not found (%s)", host, dns.Name, dns.Err)
	case dropped(err):
		return fmt.Sprintf("%s closed the connection without an answer (%s)", target, what)
	case errors.Is(err, errTooLarge):
		return fmt.Sprintf("%s answered %s: %v", target, what, err)
	}
	return fmt.Sprintf("%s could not be called (%s): %v", target, what, innermostError(err))
}

// innermostError is the deepest error of err's chain, without the
// request's URL a *url.Error repeats.
func innermostError(err error) error {
	for {
		next := errors.Unwrap(err)
		if next == nil {
			return err
		}
		err = next
	}
}

// rebase returns the recorded URL below base: the part from the service
// path on (the recorded deployment may have lived below another path), or
// the whole path when it holds neither service path. The result is always
// at base's scheme, host and credentials, whatever the recorded URL holds.
func rebase(base *url.URL, recorded string) (string, error) {
	u, err := url.Parse(recorded)
	if err != nil {
		return "", err
	}
	path := u.EscapedPath()
	lower := strings.ToLower(path)
	rest, found := path, false
	for _, p := range []string{asmx.ServicePath, asmx.JSONPath} {
		if k := strings.Index(lower, strings.ToLower(p)); k >= 0 && (!found || k < len(path)-len(rest)) {
			rest, found = path[k:], true
		}
	}
	prefix := strings.TrimSuffix(base.EscapedPath(), "/")
	if !found && prefix != "" && strings.HasPrefix(path, prefix+"/") {
		prefix = "" // recorded through the same path prefix
	}
	if !strings.HasPrefix(rest, "/") {
		// A relative recorded path ("@other.example/x", "other.example/x")
		// would continue the deployment's host: it names a path below it.
		rest = "/" + rest
	}
	out := base.Scheme + "://" + base.Host + prefix + rest
	if u.RawQuery != "" || u.ForceQuery {
		out += "?" + u.RawQuery
	}
	if base.User != nil {
		t, err := url.Parse(out)
		if err != nil {
			return "", err
		}
		t.User = base.User
		out = t.String()
	}
	return out, nil
}

// answerText is a short description of an answer for messages: the fault
// string of a SOAP fault, the title of an HTML page, the first line of a
// text, the root of other XML; made printable, as it quotes the deployment.
func answerText(r *cassette.Response) string { return printable.Text(describeAnswer(r)) }

func describeAnswer(r *cassette.Response) string {
	if r.Code >= 300 && r.Code < 400 {
		if loc := recorded.HeaderValue(r.Headers, "Location"); loc != "" {
			return "a redirect to " + clip(redact.URL(loc)) + " (not followed)" // verify follows none
		}
	}
	body := strings.TrimSpace(r.Body)
	if body == "" {
		return "with an empty body"
	}
	if strings.HasPrefix(body, "<") {
		doc := etree.NewDocument()
		if doc.ReadFromString(body) == nil && doc.Root() != nil {
			for _, path := range []string{"//faultstring", "//Reason/Text", "//title"} {
				if e := doc.FindElement(path); e != nil {
					return clip(recorded.Quote(firstLine(e.Text())))
				}
			}
			return "<" + doc.Root().Tag + ">"
		}
		// An HTML page that is not well-formed XML (ASP.NET's error pages:
		// .NET's unquoted attributes, Mono's script): its title.
		if m := htmlTitleRE.FindStringSubmatch(body); m != nil {
			if title := strings.Join(strings.Fields(html.UnescapeString(m[1])), " "); title != "" {
				return clip(recorded.Quote(title))
			}
		}
	}
	return clip(recorded.Quote(firstLine(body)))
}

// htmlTitleRE finds an HTML page's title, in any case.
var htmlTitleRE = regexp.MustCompile(`(?is)<title[^>]*>(.*?)</title\s*>`)

func firstLine(s string) string {
	s = strings.TrimSpace(s)
	if k := strings.IndexAny(s, "\r\n"); k >= 0 {
		return strings.TrimSpace(s[:k])
	}
	return s
}

// clip shortens s to 160 bytes, at a rune boundary.
func clip(s string) string {
	const most = 160
	if len(s) <= most {
		return s
	}
	cut := most
	for cut > 0 && s[cut]&0xc0 == 0x80 {
		cut--
	}
	return s[:cut] + "…"
}
