package conformance

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"net"
	"net/url"
	"os"
	"strings"
	"syscall"
	"time"

	"github.com/atmkit/atmkit/internal/neterr"
	"github.com/atmkit/atmkit/internal/tlsconf"
)

// TransportKind says why a request got no HTTP answer.
type TransportKind string

// Transport failures.
const (
	TransportRefused TransportKind = "refused" // nothing listens at the address
	TransportTimeout TransportKind = "timeout" // no answer within the per-request timeout
	TransportTLS     TransportKind = "tls"     // the TLS handshake failed, or one side does not speak TLS
	TransportClosed  TransportKind = "closed"  // the connection was closed or reset without an answer
	TransportNoHost  TransportKind = "dns"     // the host name does not resolve
	TransportTooBig  TransportKind = "too-big" // the answer is larger than atmkit reads (256 MiB)
	TransportOther   TransportKind = "other"   // anything else the HTTP client reports
)

// TransportError is a request that got no (complete) HTTP answer: the
// connection was refused, timed out, cut, or failed TLS, or the answer was
// too large to read. Neither its text
// nor its fields hold the service key.
type TransportError struct {
	// What names the request, e.g. "ReturnProvinces over get".
	What string
	// Method and URL are the request's, the key masked in the URL.
	Method, URL string
	// Kind says what went wrong.
	Kind TransportKind
	// Timeout is the per-request timeout the request had.
	Timeout time.Duration
	// Err is the HTTP client's error, the key masked.
	Err error
	// Curl is a shell command that reproduces the request (the key read
	// from $ATMKIT_KEY); empty for documentation pages.
	Curl string
}

// Error says what failed and why, with the curl line.
func (e *TransportError) Error() string {
	s := fmt.Sprintf("%s: %s", e.What, e.Cause())
	if e.Curl != "" {
		s += "\n  reproduce: " + e.Curl
	}
	return s
}

// Unwrap returns the HTTP client's error (the key masked).
func (e *TransportError) Unwrap() error { return e.Err }

// Cause describes the failure without naming the request, so that the
// failures of many requests with one cause read the same.
func (e *TransportError) Cause() string {
	host := e.URL
	if u, err := url.Parse(e.URL); err == nil && u.Host != "" {
		host = u.Host
	}
	switch e.Kind {
	case TransportRefused:
		return "connection refused at " + host
	case TransportTimeout:
		return fmt.Sprintf("no answer within %s (the per-request timeout, --timeout)", e.Timeout)
	case TransportTLS:
		return "TLS failure with " + host + ": " + innermost(e.Err)
	case TransportClosed:
		return "the target closed the connection without an answer (" + innermost(e.Err) + ")"
	case TransportNoHost:
		return "host " + strings.Split(host, ":")[0] + " not found"
	case TransportTooBig:
		return errTooLarge.Error()
	}
	return innermost(e.Err)
}

// innermost is the text of the innermost error below a *url.Error, which
// repeats the method and the URL, cut at 300 bytes: the HTTP client's
// errors quote what it could not read (a status line of megabytes).
// The errors of a session have the key masked already (maskError).
func innermost(err error) string {
	var ue *url.Error
	if errors.As(err, &ue) && ue.Err != nil {
		err = ue.Err
	}
	if err == nil {
		return "no error"
	}
	return truncate(err.Error(), 300)
}

// explainTLS is the explanation of a TLS failure: what failed and which
// flag fixes it (tlsconf.Error); nil for other errors. A client made by
// atmkit's command explains its failures itself, knowing whether it has a
// client certificate; another client's are explained here.
func explainTLS(err error) *tlsconf.Error {
	var x *tlsconf.Error
	if errors.As(err, &x) {
		return x
	}
	return tlsconf.Explain(err, tlsconf.Hints{URLSetting: "target"})
}

// transportKind classifies an error of the HTTP client.
func transportKind(err error) TransportKind {
	var (
		ne       net.Error
		dnsErr   *net.DNSError
		verify   *tls.CertificateVerificationError
		unknown  x509.UnknownAuthorityError
		hostname x509.HostnameError
		invalid  x509.CertificateInvalidError
		header   tls.RecordHeaderError
		alert    tls.AlertError
		explain  *tlsconf.Error
	)
	switch {
	case errors.Is(err, errTooLarge):
		return TransportTooBig
	case errors.Is(err, context.DeadlineExceeded), errors.Is(err, os.ErrDeadlineExceeded), errors.As(err, &ne) && ne.Timeout():
		return TransportTimeout
	case neterr.Refused(err):
		return TransportRefused
	case errors.As(err, &dnsErr):
		return TransportNoHost
	case errors.As(err, &explain), errors.As(err, &verify), errors.As(err, &unknown), errors.As(err, &hostname), errors.As(err, &invalid),
		errors.As(err, &header), errors.As(err, &alert),
		strings.Contains(err.Error(), "tls: "), strings.Contains(err.Error(), "HTTP response to HTTPS client"):
		return TransportTLS
	case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF), neterr.Reset(err), errors.Is(err, syscall.EPIPE),
		// The transport's own connection closed under a request being
		// written: its reader saw the server close it first (a timeout or a
		// cancel is matched above).
		errors.Is(err, net.ErrClosed),
		// net/http's error when a kept-alive connection it picks was closed
		// by the server, a plain errors.New value.
		strings.Contains(err.Error(), "server closed idle connection"):
		return TransportClosed
	}
	return TransportOther
}
