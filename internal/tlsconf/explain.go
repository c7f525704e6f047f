package tlsconf

import (
	"bytes"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"
)

// Error is a TLS failure explained: what failed, in one line, and which
// setting fixes it.
type Error struct {
	// Kind classifies the failure.
	Kind Kind
	// Problem says what failed.
	Problem string
	// Fix says which setting fixes it (or what else to do).
	Fix string
	// Err is the TLS or HTTP client's error.
	Err error
}

// Kind is a kind of TLS failure.
type Kind string

// Kinds of TLS failure.
const (
	UnknownAuthority   Kind = "unknown-authority"    // the server's certificate is signed by an authority not trusted
	NameMismatch       Kind = "name-mismatch"        // the server's certificate is for other names
	Expired            Kind = "expired"              // the server's certificate (or one of its chain) expired or is not yet valid
	ClientCertRequired Kind = "client-cert-required" // the server requires a client certificate and none was sent
	ClientCertRefused  Kind = "client-cert-refused"  // the server refused the client certificate sent
	NotTLS             Kind = "not-tls"              // the server does not speak TLS at that address
	PlainToTLS         Kind = "plain-to-tls"         // a plain HTTP request reached a port that speaks HTTPS only
	HandshakeFailed    Kind = "handshake"            // no common version or cipher suite, or another handshake failure
	InvalidCertificate Kind = "invalid-certificate"  // the server's certificate cannot be used (another x509 reason)
	OldVersion         Kind = "old-version"          // the server speaks TLS 1.0 or 1.1 only, and --legacy-tls is off
)

// Error is the one line: what failed; the fix.
func (e *Error) Error() string { return e.Problem + "; " + e.Fix }

// Unwrap returns the client's error.
func (e *Error) Unwrap() error { return e.Err }

// Hints are what Explain needs beyond the error to name the fix.
type Hints struct {
	// URLSetting names the setting holding the server's URL, without
	// dashes ("target"); empty: "the URL".
	URLSetting string
	// ClientCert says whether a client certificate was configured.
	ClientCert bool
	// ServerAsked says whether the server asked for a client certificate.
	ServerAsked bool
	// LegacyTLS says whether TLS 1.0 and 1.1 were allowed (--legacy-tls).
	LegacyTLS bool
	// Withheld says whether the configured client certificate was not
	// sent because no authority the server accepts issued it.
	Withheld bool
}

func (h Hints) url() string {
	if h.URLSetting == "" {
		return "the URL"
	}
	return "--" + h.URLSetting
}

// Explain explains err if it is a TLS failure (of the handshake, the
// server's certificate, or an alert the server sent); nil otherwise.
func Explain(err error, h Hints) *Error {
	if err == nil {
		return nil
	}
	var (
		done     *Error
		hostname x509.HostnameError
		unknown  x509.UnknownAuthorityError
		invalid  x509.CertificateInvalidError
		record   tls.RecordHeaderError
	)
	msg := err.Error()
	oldVersion := &Error{Kind: OldVersion, Err: err,
		Problem: "TLS: the server speaks only TLS 1.0 or 1.1, which atmkit does not use unless told to",
		Fix:     "give --legacy-tls to allow them to " + h.url() + " (deprecated, RFC 8996: for a legacy deployment only)"}
	switch {
	case errors.As(err, &done):
		return done
	case strings.Contains(msg, "server selected unsupported protocol version") && !h.LegacyTLS:
		return oldVersion
	case errors.As(err, &hostname):
		got := "no host name"
		if hostname.Certificate != nil {
			got = strings.Join(names(hostname.Certificate), ", ")
		}
		return &Error{Kind: NameMismatch, Err: err,
			Problem: fmt.Sprintf("TLS: the server's certificate is not valid for %s (it is for %s)", hostname.Host, got),
			Fix:     fmt.Sprintf("use a host name the certificate names in %s, or have the server serve a certificate for %s", h.url(), hostname.Host)}
	case errors.As(err, &unknown):
		return &Error{Kind: UnknownAuthority, Err: err,
			Problem: "TLS: the server's certificate " + describeIssuer(unknown.Cert) + ", an authority not trusted here",
			Fix:     "give that authority's certificate (PEM) with --ca-cert FILE"}
	case errors.As(err, &invalid):
		return explainInvalid(invalid, err)
	case errors.As(err, &record), strings.Contains(msg, "server gave HTTP response to HTTPS client"):
		return &Error{Kind: NotTLS, Err: err,
			Problem: "TLS: the server does not speak TLS at that address (it answered in plain HTTP)",
			Fix:     "use http:// in " + h.url() + ", or the port where the server serves HTTPS"}
	}
	alert, ok := remoteAlert(msg)
	if !ok {
		if strings.Contains(msg, "tls: ") {
			return &Error{Kind: HandshakeFailed, Err: err, Problem: "TLS failed: " + tlsText(msg),
				Fix: "check the scheme and port of " + h.url() + " and the server's TLS settings"}
		}
		return nil
	}
	required := &Error{Kind: ClientCertRequired, Err: err,
		Problem: "TLS: the server requires a client certificate and none was sent (it said: " + alert + ")",
		Fix:     "give a client certificate the server trusts and its key with --client-cert FILE --client-key FILE"}
	refused := func(why string) *Error {
		return &Error{Kind: ClientCertRefused, Err: err,
			Problem: "TLS: the server refused the client certificate of --client-cert: " + why + " (it said: " + alert + ")",
			Fix:     "give a client certificate the server accepts with --client-cert FILE --client-key FILE"}
	}
	switch alert {
	case "protocol version not supported":
		if !h.LegacyTLS {
			return oldVersion
		}
	case "certificate required", "bad certificate", "handshake failure":
		// A TLS 1.2 server of crypto/tls refuses a missing certificate
		// with a handshake failure: that is about the certificate only
		// when the server asked for one.
		if alert == "handshake failure" && !h.ServerAsked {
			break
		}
		switch {
		case !h.ClientCert:
			return required
		case h.Withheld:
			// crypto/tls sends a configured certificate only when an
			// authority the server names issued it.
			return &Error{Kind: ClientCertRefused, Err: err,
				Problem: "TLS: the server requires a client certificate from an authority it accepts, and the one of --client-cert is from another, so none was sent (it said: " + alert + ")",
				Fix:     "give a client certificate issued by an authority the server accepts with --client-cert FILE --client-key FILE"}
		}
		return refused("it is not acceptable")
	case "unknown certificate authority", "expired certificate", "certificate unknown", "unsupported certificate", "revoked certificate":
		if !h.ClientCert {
			return required
		}
		return refused(map[string]string{
			"unknown certificate authority": "it does not trust the authority that issued it",
			"expired certificate":           "it expired, or is not yet valid",
			"certificate unknown":           "it cannot use it",
			"unsupported certificate":       "its type or key usage is not for clients",
			"revoked certificate":           "it was revoked",
		}[alert])
	}
	fix := "check the server's TLS settings (atmkit speaks TLS 1.2 and 1.3 with the ECDHE key exchange and AES or ChaCha20; " +
		"a server offering only the RSA key exchange or 3DES, as an old IIS may, or only TLS 1.0 or 1.1 needs --legacy-tls)"
	if h.LegacyTLS {
		fix = "check the server's TLS settings (with --legacy-tls atmkit speaks TLS 1.0 to 1.3, with the ECDHE or RSA key exchange and AES, ChaCha20 or 3DES; never RC4: a server offering RC4 alone must turn on 3DES or AES)"
	}
	return &Error{Kind: HandshakeFailed, Err: err,
		Problem: "TLS: the server ended the handshake (it said: " + alert + "); it shares no TLS version or cipher suite with atmkit, or refused the connection",
		Fix:     fix}
}

// httpsOnly are the beginnings of the 400 answers of HTTPS servers to a
// plain HTTP request: Go's net/http and nginx's.
var httpsOnly = []string{"Client sent an HTTP request to an HTTPS server.", "The plain HTTP request was sent to HTTPS port"}

// ExplainPlainHTTP explains resp, the answer to a plain HTTP request to the URL
// of setting urlSetting ("target"), if an HTTPS server sent it for want of
// TLS (400 "Client sent an HTTP request to an HTTPS server."); nil
// otherwise, with resp's body left whole. That answer is no answer of the
// deployment's: recording it or comparing it with a recording would
// mislead. The transport of Transport calls it itself.
func ExplainPlainHTTP(resp *http.Response, urlSetting string) *Error {
	if resp.StatusCode != http.StatusBadRequest || resp.Request == nil || resp.Request.URL.Scheme != "http" {
		return nil
	}
	// The server closes the connection after its 400; a body it did not
	// read makes that a reset, which may end the read early: what came
	// before it still tells.
	head, err := io.ReadAll(io.LimitReader(resp.Body, 512))
	body := resp.Body
	var rest io.Reader = body
	if err != nil {
		rest = errReader{err} // the caller reads the error again
	}
	resp.Body = struct {
		io.Reader
		io.Closer
	}{io.MultiReader(bytes.NewReader(head), rest), body}
	for _, p := range httpsOnly {
		if bytes.Contains(head, []byte(p)) {
			_ = body.Close()
			return &Error{Kind: PlainToTLS,
				Problem: fmt.Sprintf("the server speaks HTTPS at that address, not plain HTTP (it answered with %d %q)", resp.StatusCode, p),
				Fix:     "use https:// in " + Hints{URLSetting: urlSetting}.url()}
		}
	}
	return nil
}

// errReader is a reader that fails with err.
type errReader struct{ err error }

func (r errReader) Read([]byte) (int, error) { return 0, r.err }

// explainInvalid explains a certificate of the server's chain that cannot
// be used.
func explainInvalid(invalid x509.CertificateInvalidError, err error) *Error {
	c := invalid.Cert
	which := "the server's certificate"
	if c != nil && c.IsCA {
		which = fmt.Sprintf("the authority %q of the server's certificate", c.Subject.CommonName)
	} else if c != nil {
		which = fmt.Sprintf("the server's certificate (%s)", c.Subject.CommonName)
	}
	if invalid.Reason == x509.Expired && c != nil {
		now := time.Now()
		what := "expired on " + c.NotAfter.UTC().Format(time.RFC3339)
		if now.Before(c.NotBefore) {
			what = "is not valid before " + c.NotBefore.UTC().Format(time.RFC3339)
		}
		return &Error{Kind: Expired, Err: err,
			Problem: fmt.Sprintf("TLS: %s %s (it is now %s)", which, what, now.UTC().Format(time.RFC3339)),
			Fix:     "the server must serve a valid certificate (or this machine's clock is wrong); no flag fixes it, --insecure-skip-verify only hides it"}
	}
	return &Error{Kind: InvalidCertificate, Err: err,
		Problem: "TLS: " + which + " cannot be used: " + strings.TrimPrefix(invalid.Error(), "x509: "),
		Fix:     "the server must serve a certificate for a server, issued by an authority; give that authority with --ca-cert FILE"}
}

// describeIssuer says who signed c: "is self-signed" or "was issued by "X"".
func describeIssuer(c *x509.Certificate) string {
	if c == nil {
		return "was issued by an unknown authority"
	}
	subject := c.Subject.CommonName
	if subject == "" {
		subject = c.Subject.String()
	}
	issuer := c.Issuer.CommonName
	if issuer == "" {
		issuer = c.Issuer.String()
	}
	if c.Subject.String() == c.Issuer.String() {
		return fmt.Sprintf("(%s) is self-signed", subject)
	}
	return fmt.Sprintf("(%s) was issued by %q", subject, issuer)
}

// remoteAlert returns the text of a TLS alert the server sent ("bad
// certificate"): crypto/tls reports one as "remote error: tls: <text>".
func remoteAlert(msg string) (string, bool) {
	const p = "remote error: tls: "
	i := strings.Index(msg, p)
	if i < 0 {
		return "", false
	}
	rest := msg[i+len(p):]
	if j := strings.IndexAny(rest, ";\n"); j >= 0 {
		rest = rest[:j]
	}
	return strings.TrimSpace(rest), true
}

// tlsText is the part of msg from its first "tls: " on.
func tlsText(msg string) string {
	if i := strings.Index(msg, "tls: "); i >= 0 {
		return msg[i:]
	}
	return msg
}
