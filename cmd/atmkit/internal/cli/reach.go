package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/atmkit/atmkit/conformance"
	"github.com/atmkit/atmkit/internal/tlsconf"
)

// Reach are the flags of a client reaching a deployment: TLS trust and
// client certificates, extra headers for gateways, the per-request timeout.
type Reach struct {
	caCert, clientCert, clientKey string
	insecure, legacyTLS           bool
	headers                       Headers
	Timeout                       time.Duration // --timeout; 0 when the command has a --timeout of its own
	ownTimeout                    bool
	// AnyCertificate accepts any server certificate, as
	// --insecure-skip-verify, without its warning: for atmkit health's
	// probe of the mock on this machine's loopback interface, which sends
	// nothing secret (as Kubernetes' HTTPS probes do).
	AnyCertificate bool
}

// reachNames are the flags register adds (timeout too, when asked).
var reachNames = []string{"ca-cert", "client-cert", "client-key", "insecure-skip-verify", "legacy-tls", "header"}

// Register adds the flags to fs; what names the deployment ("the
// upstream"). withTimeout adds --timeout (conform has its own).
func (f *Reach) Register(fs *flag.FlagSet, what string, withTimeout bool) {
	fs.StringVar(&f.caCert, "ca-cert", "", "trust the authorities in this PEM `file` for "+what+", besides the system's (a private CA)")
	fs.StringVar(&f.clientCert, "client-cert", "", "present this client certificate (PEM `file`) to "+what+", with --client-key")
	fs.StringVar(&f.clientKey, "client-key", "", "the private key (PEM `file`) of --client-cert")
	fs.BoolVar(&f.insecure, "insecure-skip-verify", false, "accept any certificate from "+what+" (no check at all; for throwaway test servers only)")
	fs.BoolVar(&f.legacyTLS, "legacy-tls", false, "allow TLS 1.0 and 1.1, the RSA key exchange and 3DES, to "+what+" (deprecated; for a deployment on an old server that offers nothing newer; RC4 never)")
	fs.Var(&f.headers, "header", "add this header to every request to "+what+", e.g. 'X-Api-Key: <key>' for a gateway (repeatable; one per line in "+CommandEnvName(fs.Name(), "header")+"); never written to cassettes, reports or logs")
	if f.ownTimeout = withTimeout; withTimeout {
		fs.DurationVar(&f.Timeout, "timeout", conformance.DefaultTimeout, "per-request `duration` calls to "+what+" may take, from sending to the answer's last byte")
	}
}

// FirstReachSet is the first flag of Reach given at all (on the command
// line, in the environment or the config file), or "".
func (e *Env) FirstReachSet(fs *flag.FlagSet) string {
	origin := e.origins(fs)
	for _, n := range reachNames {
		if origin[n] != "" {
			return n
		}
	}
	return ""
}

// plainHeaders are the request headers whose standard meaning holds no
// credential: content negotiation, caching and the client's name. Their
// values are no secrets: masked, 'Accept: text/xml' would turn an
// answer's own Content-Type into REDACTED in a report or in the cassette
// `cassette verify --update` writes. Referer and Origin are not among
// them: they can hold a URL with a key.
var plainHeaders = []string{
	"Accept", "Accept-Charset", "Accept-Encoding", "Accept-Language",
	"Cache-Control", "Content-Language", "Pragma", "User-Agent",
	"X-Requested-With",
}

// Secrets are the values of the headers, masked wherever atmkit prints
// and swept from what it writes: every header's but a plain one's
// (plainHeaders: Accept, User-Agent, ...), unless scrub names it
// (--scrub-header, any case), with the credential of each "Scheme
// credential" value (Authorization: Bearer <token>). A header of any other
// name (X-Partner-Id) may carry a gateway's credential, so its value is
// one.
func (f *Reach) Secrets(scrub ...string) []string {
	return f.secrets(func(name string) bool {
		named := func(s string) bool { return strings.EqualFold(s, name) }
		return !slices.ContainsFunc(plainHeaders, named) || slices.ContainsFunc(scrub, named)
	})
}

// secrets are the values of the headers whose names secret holds, and
// the credential of each "Scheme credential" value among them.
func (f *Reach) secrets(secret func(name string) bool) []string {
	var out []string
	for name, vs := range f.headers.h {
		if !secret(name) {
			continue
		}
		for _, v := range vs {
			out = append(out, v)
			// The credential of an "Authorization: Bearer <token>".
			if _, cred, ok := strings.Cut(v, " "); ok {
				out = append(out, strings.TrimSpace(cred))
			}
		}
	}
	return out
}

// Transport checks the flags and builds the transport that reaches the
// deployment named by the flag urlFlag ("target", "upstream"): TLS as the
// flags say, proxies from HTTPS_PROXY/NO_PROXY, the headers, the timeout
// when it is positive. A TLS failure through it is one line naming the
// flag that fixes it. --insecure-skip-verify is warned about on stderr.
func (e *Env) Transport(fs *flag.FlagSet, f *Reach, urlFlag string) (http.RoundTripper, error) {
	if f.ownTimeout && f.Timeout <= 0 {
		return nil, e.BadSetting(fs, "timeout", "must be positive, e.g. 30s")
	}
	if err := e.noStdinPEM(fs, "ca-cert", f.caCert, "client-cert", f.clientCert, "client-key", f.clientKey); err != nil {
		return nil, err
	}
	c := tlsconf.Client{CAFile: f.caCert, CertFile: f.clientCert, KeyFile: f.clientKey, InsecureSkipVerify: f.insecure || f.AnyCertificate, URLSetting: urlFlag, LegacyTLS: f.legacyTLS}
	ct, err := c.Load()
	var se *tlsconf.SettingError
	if errors.As(err, &se) {
		return nil, e.BadSetting(fs, se.Setting, se.Problem)
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", fs.Name(), err)
	}
	for _, w := range ct.Warnings {
		fmt.Fprintf(e.Stderr, "atmkit: WARNING: %s\n", w)
	}
	if f.legacyTLS {
		fmt.Fprintf(e.Stderr, "atmkit: WARNING: --legacy-tls: TLS 1.0 and 1.1 are allowed to --%s, and 3DES for a server that offers nothing better; they are deprecated (RFC 8996; 3DES: Sweet32): for a legacy deployment only.\n", urlFlag)
	}
	if f.insecure {
		fmt.Fprintf(e.Stderr, "atmkit: WARNING: --insecure-skip-verify: the certificate of --%s is NOT CHECKED; anyone between here and it can read and change every call, the key included. Give its authority with --ca-cert FILE instead.\n", urlFlag)
	}
	var rt http.RoundTripper = ct.Transport()
	if len(f.headers.h) > 0 {
		rt = &headerTransport{next: rt, h: f.headers.h}
	}
	if f.Timeout > 0 {
		rt = &timeoutTransport{next: rt, d: f.Timeout}
	}
	return rt, nil
}

// headerTransport adds headers to each request on its way out, on a copy:
// the request the caller holds (and a recorder records) never has them.
type headerTransport struct {
	next http.RoundTripper
	h    http.Header
}

// RoundTrip sends a copy of req with the headers set.
func (t *headerTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	out := req.Clone(req.Context())
	for k, vs := range t.h {
		out.Header[k] = slices.Clone(vs)
	}
	return t.next.RoundTrip(out)
}

// CloseIdleConnections closes the idle connections of the transport below.
func (t *headerTransport) CloseIdleConnections() { closeIdle(t.next) }

// timeoutTransport bounds each request, from sending it to the answer's
// last byte.
type timeoutTransport struct {
	next http.RoundTripper
	d    time.Duration
}

// RoundTrip sends req with the timeout.
func (t *timeoutTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	ctx, cancel := context.WithTimeout(req.Context(), t.d)
	resp, err := t.next.RoundTrip(req.WithContext(ctx))
	if err != nil {
		timedOut := ctx.Err() != nil && req.Context().Err() == nil
		cancel()
		if timedOut {
			return nil, fmt.Errorf("no answer within %s (--timeout): %w", t.d, context.DeadlineExceeded)
		}
		return nil, err
	}
	resp.Body = &cancelBody{ReadCloser: resp.Body, cancel: cancel}
	return resp, nil
}

// CloseIdleConnections closes the idle connections of the transport below.
func (t *timeoutTransport) CloseIdleConnections() { closeIdle(t.next) }

// cancelBody ends a request's timeout when its answer's body is closed.
type cancelBody struct {
	io.ReadCloser
	cancel context.CancelFunc
}

func (b *cancelBody) Close() error {
	err := b.ReadCloser.Close()
	b.cancel()
	return err
}

func closeIdle(rt http.RoundTripper) {
	if c, ok := rt.(interface{ CloseIdleConnections() }); ok {
		c.CloseIdleConnections()
	}
}

// Headers is the repeatable --header 'Name: value' flag. A value may
// hold several headers, one per line (as ATMKIT_HEADER does). Its String
// shows the names only: the values are credentials.
type Headers struct {
	h     http.Header
	names []string
}

// String returns the headers' names only (flag.Value): the values are secrets.
func (f *Headers) String() string {
	if f == nil || len(f.names) == 0 {
		return ""
	}
	return strings.Join(f.names, ": ******, ") + ": ******"
}

// framing are headers atmkit sets for each request itself.
var framing = []string{"Host", "Content-Length", "Content-Type", "Transfer-Encoding", "Connection", "Soapaction", "Expect", "Te", "Trailer", "Upgrade", "Keep-Alive", "Proxy-Connection"}

// Set adds the headers of v, one per line. Its errors name the header,
// never its value.
func (f *Headers) Set(v string) error {
	for line := range strings.Lines(v) {
		line = strings.TrimRight(line, "\r\n")
		if strings.TrimSpace(line) == "" {
			continue
		}
		name, value, ok := strings.Cut(line, ":")
		name, value = strings.TrimSpace(name), strings.TrimSpace(value)
		switch {
		case !ok || name == "":
			return errors.New("want 'Name: value', such as 'X-Api-Key: <key>'")
		case !isToken(name):
			return fmt.Errorf("header name %q holds characters a header name cannot", name)
		case strings.ContainsFunc(value, func(r rune) bool { return r < ' ' && r != '\t' || r == 0x7f }):
			return fmt.Errorf("the value of header %s holds control characters", name)
		}
		canon := http.CanonicalHeaderKey(name)
		if slices.Contains(framing, canon) {
			return fmt.Errorf("header %s is set by atmkit for each request; it cannot be given", canon)
		}
		if f.h == nil {
			f.h = http.Header{}
		}
		if _, seen := f.h[canon]; !seen {
			f.names = append(f.names, canon)
		}
		f.h.Add(canon, value)
	}
	return nil
}

// CheckHeaderNames checks the header names of --scrub-header: each an
// HTTP token, which a name with a space, an empty one or one given with
// its value is not, and would match no header, leaving the values meant
// in the cassette. A value given (X-Token: value, X-Token=value) is hidden
// from the outputs (HideKeys), as the error names the flag's value.
func (e *Env) CheckHeaderNames(names []string) string {
	for _, name := range names {
		if isToken(name) {
			continue
		}
		// Its value after a colon, or after an equals sign (as --fault's
		// fields are written), which a header name never holds.
		for _, sep := range []string{":", "="} {
			if n, v, ok := strings.Cut(name, sep); ok && isToken(strings.TrimSpace(n)) {
				e.HideKeys(strings.TrimSpace(v))
				n = strings.TrimSpace(n)
				shown := n + sep
				if sep == ":" {
					shown += " "
				}
				return fmt.Sprintf("%s…: not a header name; give the name alone (%s)", shown, n)
			}
		}
		return fmt.Sprintf("%q is not a header name (letters, digits and !#$%%&'*+-.^_`|~, no spaces)", name)
	}
	return ""
}

// isToken reports whether s is an HTTP token (RFC 9110), as header names are.
func isToken(s string) bool {
	for _, r := range s {
		if r >= 0x7f || r <= ' ' || strings.ContainsRune(`"(),/:;<=>?@[\]{}`, r) {
			return false
		}
	}
	return s != ""
}
