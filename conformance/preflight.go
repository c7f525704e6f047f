package conformance

import (
	"errors"
	"fmt"
	"net/http"
	"regexp"
	"slices"
	"strings"

	"github.com/atmkit/atmkit/internal/printable"
	"github.com/atmkit/atmkit/internal/redact"
	"github.com/beevik/etree"
)

// This file holds the preflight: a few cheap calls, before the specs, that
// tell a target that cannot be checked (unreachable, silent, the wrong path,
// a refused key) from one that does not conform.

// PreflightCause says why a target could not be checked.
type PreflightCause string

// Causes of a failed preflight. The transport causes are those of
// TransportKind.
const (
	CauseRefused    PreflightCause = "refused"     // nothing listens at the target's address
	CauseTimeout    PreflightCause = "timeout"     // no answer within the per-request timeout
	CauseTLS        PreflightCause = "tls"         // TLS failed
	CauseClosed     PreflightCause = "closed"      // the connection was closed without an answer
	CauseNoHost     PreflightCause = "dns"         // the host name does not resolve
	CauseTooBig     PreflightCause = "too-big"     // an answer larger than atmkit reads
	CauseRedirect   PreflightCause = "redirect"    // the calls are answered with redirects, which atmkit does not follow
	CauseTransport  PreflightCause = "transport"   // another error of the HTTP client
	CauseNotFound   PreflightCause = "not-found"   // 404 at the service path and the JSON path
	CauseKeyRefused PreflightCause = "key-refused" // the target answers the key as it answers a made-up one
	CauseUnusable   PreflightCause = "unusable"    // the same non-ASMX error status to every call
)

// PreflightError is a target the suite cannot check: its message is one
// paragraph that names the cause and what to try. It never holds the key.
type PreflightError struct {
	// Cause classifies the failure.
	Cause PreflightCause
	// Message is the paragraph.
	Message string
	// Err is the request's error, for the transport causes.
	Err error
}

// Error returns the preflight's message.
func (e *PreflightError) Error() string { return e.Message }

// Unwrap returns the transport error, if any.
func (e *PreflightError) Unwrap() error { return e.Err }

// Preflight is what the preflight found out about a target that can be
// checked.
type Preflight struct {
	// Status is the HTTP status each binding's preflight call got
	// (ReturnProvinces; a coordinate search for the JSON binding); a binding
	// missing was not called (SOAP without a known namespace).
	Status map[Binding]int
	// Disabled lists HTTP GET and POST when they answer errors to a call
	// SOAP answers: their protocols are off in web.config. The specs of
	// these bindings fail with DisabledFailure, without a request.
	Disabled []Binding
	// disabledText is what a disabled binding answered.
	disabledText string
	// Encoding is how the target reads a query or form that names no
	// charset (its requestEncoding), as one call after the preflight's
	// found it: information for the summary, never a check.
	Encoding *RequestEncoding
}

// preflightBindings are the bindings the preflight calls, in order: the
// first needs no namespace, so a target that cannot be reached is known
// after one request.
var preflightBindings = []Binding{HTTPGet, HTTPPost, JSON, SOAP11, SOAP12}

// preflightRequest is the cheap call of binding b.
func preflightRequest(b Binding) Request {
	if b == JSON {
		return Request{Binding: JSON, Op: opByCoords, Values: map[string]string{pPostalCode: "", pLatitude: "0", pLongitude: "0", pRadius: "0"}}
	}
	return Request{Binding: b, Op: opProvinces}
}

// madeUpKey is the key the preflight compares the given key's answers with.
const madeUpKey = "atmkit-preflight-made-up-key"

// Preflight checks, before any spec, that the target can be checked: that
// it answers HTTP at all, that the service path exists and that the key is
// accepted, with one cheap call per binding. It stops at the first request
// that gets no answer, so a silent target costs one timeout. A target that
// cannot be checked gives a *PreflightError; HTTP GET or POST refused where
// SOAP answers is no such error but a non-conformance, noted in
// Preflight.Disabled. The result is kept: discovery then reads XML results
// over SOAP when HTTP GET is disabled.
func (s *Session) Preflight() (*Preflight, error) {
	p := &Preflight{Status: map[Binding]int{}}
	answers := map[Binding]*Exchange{}
	for _, b := range preflightBindings {
		r := preflightRequest(b)
		var (
			x   *Exchange
			err error
		)
		if b == SOAP11 || b == SOAP12 {
			ns, nerr := s.Namespace()
			if nerr != nil {
				var te *TransportError
				if errors.As(nerr, &te) {
					return nil, s.transportCause(te)
				}
				continue // the SOAP specs say it
			}
			x, err = s.send(r, ns)
		} else {
			x, err = s.send(r, "")
		}
		if err != nil {
			var te *TransportError
			if errors.As(err, &te) {
				return nil, s.transportCause(te)
			}
			return nil, err
		}
		answers[b], p.Status[b] = x, x.Status
	}

	if err := s.htmlEverywhere(answers); err != nil {
		return nil, err
	}
	var ok []Binding
	for _, b := range preflightBindings {
		if p.Status[b] == http.StatusOK {
			ok = append(ok, b)
		}
	}
	if len(ok) == 0 {
		if err := s.unusable(answers); err != nil {
			return nil, err
		}
	}
	if p.Status[SOAP11] == http.StatusOK || p.Status[SOAP12] == http.StatusOK {
		for _, b := range []Binding{HTTPGet, HTTPPost} {
			if x := answers[b]; x != nil && x.Status != http.StatusOK {
				p.Disabled = append(p.Disabled, b)
				if p.disabledText == "" {
					p.disabledText = fmt.Sprintf("%d %s", x.Status, answerText(x))
				}
			}
		}
	}
	p.Encoding = s.probeRequestEncoding(p.Status)
	s.pre.Store(p)
	return p, nil
}

// transportCause turns the first request's transport error into a
// paragraph.
func (s *Session) transportCause(te *TransportError) *PreflightError {
	svc := maskURL(s.base+servicePath, s.cfg.Key) // no password of the URL's in the text
	var cause PreflightCause
	var msg string
	switch te.Kind {
	case TransportRefused:
		cause = CauseRefused
		msg = fmt.Sprintf("connection refused at %s: nothing listens at that address and port. Is the service running, and are --target's host and port right?", svc)
	case TransportTimeout:
		cause = CauseTimeout
		msg = fmt.Sprintf("no answer from %s within %s (--timeout): %s got no answer. Is the target overloaded, stuck, or behind a firewall that swallows the calls? If it is only slow, raise --timeout (ATMKIT_TIMEOUT).", svc, te.Timeout, te.What)
	case TransportTLS:
		cause = CauseTLS
		if x := explainTLS(te.Err); x != nil {
			msg = fmt.Sprintf("TLS failure with %s: %s.", svc, x)
		} else {
			msg = fmt.Sprintf("TLS failure with %s: %s. Check that the target speaks TLS on that port (https:// against a plain HTTP port fails so), and that its certificate is valid for the host and issued by an authority this machine trusts (--ca-cert FILE adds one).", svc, innermost(te.Err))
		}
	case TransportClosed:
		cause = CauseClosed
		msg = fmt.Sprintf("%s closed the connection without an answer to %s (%s). Is an HTTP server listening there, and does no proxy or firewall cut the calls?", svc, te.What, innermost(te.Err))
	case TransportNoHost:
		cause = CauseNoHost
		msg = fmt.Sprintf("%s: %s. Check --target's host name.", svc, te.Cause())
	case TransportTooBig:
		cause = CauseTooBig
		msg = fmt.Sprintf("%s answered %s with more than %d MiB, the most atmkit reads of one answer (the mock's whole ReturnAllAtms is about 2 MB). Is --target the service, and not a download or a stream?", svc, te.What, maxAnswer>>20)
	default:
		cause = CauseTransport
		msg = fmt.Sprintf("%s could not be called: %s got no answer: %s. Check --target.", svc, te.What, innermost(te.Err))
	}
	return &PreflightError{Cause: cause, Message: "could not check the target: " + printable.Text(maskKey(msg, s.cfg.Key)), Err: te}
}

// unusable decides, when no binding answered 200, whether the target can
// be checked at all: the wrong path, a refused key, or one error status for
// everything stop the run; other errors are the specs' to report.
func (s *Session) unusable(answers map[Binding]*Exchange) error {
	svc := maskURL(s.base+servicePath, s.cfg.Key)
	var got []string
	all404, sameStatus, status := true, true, 0
	for _, b := range preflightBindings {
		x := answers[b]
		if x == nil {
			continue
		}
		got = append(got, fmt.Sprintf("%s %d", b, x.Status))
		all404 = all404 && x.Status == http.StatusNotFound
		if status == 0 {
			status = x.Status
		}
		sameStatus = sameStatus && x.Status == status
	}
	if len(got) == 0 {
		return nil
	}
	if x := answers[preflightBindings[0]]; sameStatus && isRedirect(x.Status) {
		return &PreflightError{Cause: CauseRedirect, Message: maskKey(fmt.Sprintf(
			"could not check the target: %s answered every call with a redirect (%s), the first to %s. atmkit follows no redirect: ASMX answers no call with one, and the key would go along to wherever it points. Give --target the address the service answers at.",
			svc, strings.Join(got, ", "), redirectTarget(x)), s.cfg.Key)}
	}
	if all404 {
		return &PreflightError{Cause: CauseNotFound, Message: maskKey(fmt.Sprintf(
			"could not check the target: 404 Not Found at the service path: %s and %s%s answered 404 to every call (%s). Is --target the service's base address, without %s? If the service lives below a path, give it: --target https://host/app for https://host/app%s.",
			svc, maskURL(s.base, s.cfg.Key), serviceV2Path, strings.Join(got, ", "), servicePath, servicePath), s.cfg.Key)}
	}

	// The key is refused when every binding answers it exactly as it
	// answers a made-up key, with an error status ASMX or a gateway gives a
	// refused key.
	// The fault text quoted is SOAP 1.1's when there is one.
	refused, text := true, ""
	for _, b := range []Binding{SOAP11, SOAP12, HTTPGet, HTTPPost, JSON} {
		x := answers[b]
		if x == nil || x.Status == http.StatusNotFound {
			continue
		}
		if x.Status != http.StatusInternalServerError && x.Status != http.StatusUnauthorized && x.Status != http.StatusForbidden {
			refused = false
			break
		}
		r := preflightRequest(b)
		r.Values = withKey(r.Values, madeUpKey)
		y, err := s.send(r, x.Request.Namespace)
		if err != nil {
			var te *TransportError
			if errors.As(err, &te) {
				return s.transportCause(te)
			}
			return err
		}
		// Each key masked, to one mask: a fault that quotes the key it
		// refuses quotes the made-up one to the made-up call. Masked
		// before the quote is cut, as the given key is: both masks are
		// six characters, so both quotes are cut at one place.
		if y.Status != x.Status || sameMask(answerText(y, madeUpKey), madeUpKey, s.cfg.Key) != answerText(x) {
			refused = false
			break
		}
		if text == "" {
			text = fmt.Sprintf("%s answered %d %s", b, x.Status, answerText(x))
		}
	}
	if refused && text != "" {
		gateway := ""
		if status == http.StatusUnauthorized || status == http.StatusForbidden {
			gateway = fmt.Sprintf(" If a gateway in front of the service answers %d, give the header it needs with --header 'Name: value'.", status)
		}
		return &PreflightError{Cause: CauseKeyRefused, Message: maskKey(fmt.Sprintf(
			"could not check the target: the key was refused. %s: the same answer as to a made-up key, over every binding (%s). Check --key (or ATMKIT_KEY): it must be a key this deployment accepts.%s",
			text, strings.Join(got, ", "), gateway), s.cfg.Key)}
	}
	if x := answers[preflightBindings[0]]; sameStatus && status == http.StatusBadRequest && strings.Contains(string(x.RespBody), "HTTP request to an HTTPS server") {
		return &PreflightError{Cause: CauseTLS, Message: fmt.Sprintf(
			"could not check the target: %s speaks HTTPS at that port and answered every plain HTTP call with 400 %s; use https:// in --target.",
			svc, answerText(x))}
	}
	if sameStatus && status != http.StatusInternalServerError {
		x := answers[preflightBindings[0]]
		return &PreflightError{Cause: CauseUnusable, Message: maskKey(fmt.Sprintf(
			"could not check the target: %s answered HTTP %d to every call (%s), the first with %s. That is no answer of the service: is --target the service's base address, and is the service up?",
			svc, status, strings.Join(got, ", "), answerText(x)), s.cfg.Key)}
	}
	return nil
}

// htmlEverywhere stops a target that answered every preflight call with
// 200 and an HTML page: a sign-in page, a gateway's or a web site's, no
// answer of the service (ASMX answers a call with XML, JSON or text, never
// 200 HTML), so its specs would all fail as if the service did not conform.
func (s *Session) htmlEverywhere(answers map[Binding]*Exchange) error {
	var got []string
	for _, b := range preflightBindings {
		x := answers[b]
		if x == nil {
			continue
		}
		if mt, _, _ := mediaType(x.ContentType()); x.Status != http.StatusOK || mt != "text/html" {
			return nil
		}
		got = append(got, string(b))
	}
	if len(got) == 0 {
		return nil
	}
	svc := maskURL(s.base+servicePath, s.cfg.Key)
	return &PreflightError{Cause: CauseUnusable, Message: maskKey(fmt.Sprintf(
		"could not check the target: %s answered every call with 200 and an HTML page (%s), the first %s. That is no answer of the service: is --target the service's base address? If a sign-in page or a gateway stands in front of it, give the header it needs with --header 'Name: value'.",
		svc, strings.Join(got, ", "), answerText(answers[preflightBindings[0]])), s.cfg.Key)}
}

// isRedirect reports whether status is a redirect (3xx but 304, which
// answers a conditional request).
func isRedirect(status int) bool {
	return status >= 300 && status < 400 && status != http.StatusNotModified
}

// redirectTarget is the Location of a redirect as a text shows it, the
// key and any password masked, cut at 300 bytes (a header may hold
// megabytes), or "no address" when it has none.
func redirectTarget(x *Exchange) string {
	loc := x.RespHeader.Get("Location")
	if loc == "" {
		return "no address (no Location header)"
	}
	return fmt.Sprintf("%q", clip(maskURL(loc, x.key), 300, x.masks()...))
}

// sameMask is text, masked for key from, with that mask written as key
// to's: the texts of two answers that differ only by the key they quote
// then read the same.
func sameMask(text, from, to string) string {
	return strings.ReplaceAll(text, redact.Key(from), redact.Key(to))
}

// withKey returns vals with strAtmServiceKey set to key.
func withKey(vals map[string]string, key string) map[string]string {
	out := map[string]string{pKey: key}
	for k, v := range vals {
		if k != pKey {
			out[k] = v
		}
	}
	return out
}

var spaceRE = regexp.MustCompile(`\s+`)

// answerText is the readable part of an error answer, quoted: a SOAP
// fault's faultstring or Reason/Text, an HTML page's title and first
// heading (ASP.NET error pages name the exception there), or the start of
// the body. The call's keys and more are masked before the quote is cut,
// and %q escapes what is not printable after: a key escaped first is a
// text no mask matches.
func answerText(x *Exchange, more ...string) string {
	if x == nil {
		return ""
	}
	keys := append(x.masks(), more...)
	if doc, err := parseXML(x.RespBody); err == nil {
		for _, path := range []string{"//faultstring", "//Reason/Text", "//title"} {
			if e := doc.FindElement(path); e != nil {
				if t := strings.TrimSpace(e.Text()); t != "" {
					return fmt.Sprintf("%q", clip(spaceRE.ReplaceAllString(t, " "), 200, keys...))
				}
			}
		}
	}
	body := head(x.RespBody, 64<<10, keys...) // an error page's title and heading come first
	if m := htmlTextRE.FindAllStringSubmatch(body, -1); len(m) > 0 {
		var parts []string
		for _, g := range m {
			if t := strings.TrimSpace(spaceRE.ReplaceAllString(tagRE.ReplaceAllString(g[2], ""), " ")); t != "" && !slices.Contains(parts, t) {
				parts = append(parts, t)
			}
		}
		if len(parts) > 0 {
			return fmt.Sprintf("%q", clip(strings.Join(parts, ": "), 200, keys...))
		}
	}
	s := strings.TrimSpace(spaceRE.ReplaceAllString(body, " "))
	if s == "" {
		return "(empty body)"
	}
	return fmt.Sprintf("%q", clip(s, 200, keys...))
}

var (
	htmlTextRE = regexp.MustCompile(`(?is)<(title|h1|h2)[^>]*>(.*?)</(?:title|h1|h2)>`)
	tagRE      = regexp.MustCompile(`<[^>]*>`)
)

// DisabledFailure is the message of the specs of a disabled binding: one
// cause for all of them, and how to enable the protocols.
func (p *Preflight) DisabledFailure() string {
	if p == nil || len(p.Disabled) == 0 {
		return ""
	}
	names := map[Binding]string{HTTPGet: "HTTP GET", HTTPPost: "HTTP POST"}
	var which []string
	for _, b := range p.Disabled {
		which = append(which, names[b])
	}
	verb := "is"
	if len(which) > 1 {
		verb = "are"
	}
	return fmt.Sprintf("%s %s disabled: ReturnProvinces over %s answered %s where SOAP answers 200 (ASMX answers a protocol removed from web.config with HTTP 500, \"Request format is unrecognized for URL unexpectedly ending in '/ReturnProvinces'.\"). The interface document offers HTTP GET and POST; ASP.NET turns them off by default. Enable them in web.config: <system.web><webServices><protocols><add name=\"HttpGet\"/><add name=\"HttpPost\"/></protocols></webServices></system.web>. To check only the bindings the deployment serves, run with --label-filter '%s'.",
		strings.Join(which, " and "), verb, bindingList(p.Disabled), p.disabledText, labelExclusion(p.Disabled))
}

// disables reports whether a spec with these labels needs a disabled
// binding.
func (p *Preflight) disables(labels []string) bool {
	if p == nil {
		return false
	}
	for _, b := range p.Disabled {
		for _, l := range labels {
			if l == string(b) {
				return true
			}
		}
	}
	return false
}

// Summary is one line on what the preflight found.
func (p *Preflight) Summary(target string) string {
	var ok []Binding
	for _, b := range preflightBindings {
		if p.Status[b] == http.StatusOK {
			ok = append(ok, b)
		}
	}
	s := "Preflight: " + target + " answers"
	if len(ok) > 0 {
		s += "; the key is accepted over " + bindingList(ok)
	}
	if len(p.Disabled) > 0 {
		s += "; " + bindingList(p.Disabled) + " refused (protocols disabled?): their specs fail as one"
	}
	return s + "."
}

func bindingList(bs []Binding) string {
	s := make([]string, len(bs))
	for i, b := range bs {
		s[i] = string(b)
	}
	if len(s) < 2 {
		return strings.Join(s, "")
	}
	return strings.Join(s[:len(s)-1], ", ") + " and " + s[len(s)-1]
}

func labelExclusion(bs []Binding) string {
	s := make([]string, len(bs))
	for i, b := range bs {
		s[i] = "!" + string(b)
	}
	return strings.Join(s, " && ")
}

// discoveryBinding is the XML binding discovery reads results in: HTTP GET,
// or SOAP when the preflight found HTTP GET disabled, so that the specs of
// the other bindings can run without it.
func (s *Session) discoveryBinding() Binding {
	p := s.pre.Load()
	if p == nil || !p.disables([]string{string(HTTPGet)}) {
		return HTTPGet
	}
	if p.Status[SOAP11] == http.StatusOK {
		return SOAP11
	}
	return SOAP12
}

// readResult is resultOf with the session's namespace for a SOAP answer.
func (s *Session) readResult(x *Exchange) (*etree.Element, error) {
	if b := x.Request.Binding; b != SOAP11 && b != SOAP12 {
		return resultOf(x, "")
	}
	ns, err := s.Namespace()
	if err != nil {
		return nil, err
	}
	return resultOf(x, ns)
}
