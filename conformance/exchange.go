package conformance

import (
	"bytes"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/url"
	"sort"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/beevik/etree"

	"github.com/atmkit/atmkit/internal/shellquote"
)

// Request is one call of an operation in one binding, built from the
// interface document. The zero values of the overrides mean "as documented".
type Request struct {
	// Binding is the binding to call.
	Binding Binding
	// Op is the operation name; an unknown name is sent as-is.
	Op string
	// Values holds the parameters by name; they are sent in the document's
	// order of Op's parameters, and parameters not given are left out.
	Values map[string]string
	// Namespace overrides the service namespace of the SOAP body element.
	Namespace string
	// Action overrides the SOAP 1.1 SOAPAction header value (sent as given,
	// so include the quotes). Empty means the quoted {ns}/{Op}.
	Action string
	// EnvelopeNS overrides the SOAP envelope namespace.
	EnvelopeNS string
	// ContentType overrides the content type of a SOAP or an HTTP POST
	// request.
	ContentType string
	// NoAction leaves the SOAPAction header out of a SOAP 1.1 request.
	NoAction bool
	// Prolog is written between a SOAP request's XML declaration and its
	// envelope (e.g. a DOCTYPE).
	Prolog string
	// Reversed sends the parameters in the reverse of the document's order.
	Reversed bool
}

// params returns the names of the parameters r sends, in the order it sends
// them.
func (r Request) params() []string {
	ps := operation(r.Op).Params
	if !r.Reversed {
		return ps
	}
	out := make([]string, len(ps))
	for i, p := range ps {
		out[len(ps)-1-i] = p
	}
	return out
}

func (r Request) cacheKey() string {
	names := make([]string, 0, len(r.Values))
	for k := range r.Values {
		names = append(names, k)
	}
	sort.Strings(names)
	var b strings.Builder
	fmt.Fprintf(&b, "%s|%s|%s|%s|%s|%s|%t|%q|%t", r.Binding, r.Op, r.Namespace, r.Action, r.EnvelopeNS, r.ContentType, r.NoAction, r.Prolog, r.Reversed)
	for _, k := range names {
		fmt.Fprintf(&b, "|%s=%s", k, r.Values[k])
	}
	return b.String()
}

// Exchange is one HTTP request the suite sent and the answer it got.
type Exchange struct {
	// Request is what the suite meant to send.
	Request Request
	// Method, URL, Header and Body are what went on the wire.
	Method string
	URL    string
	Header http.Header
	Body   []byte
	// Status, RespHeader and RespBody are the answer.
	Status     int
	RespHeader http.Header
	RespBody   []byte
	// key is the session's key, replaced by $ATMKIT_KEY in curl lines.
	key string
	// secrets are the session's Config.Secrets that the reports mask
	// (reportKeys): with the key, masked in a quote of the answer before
	// it is cut (clip).
	secrets []string
	// shell is the session's Config.Shell, that Curl writes for.
	shell Shell

	docOnce sync.Once
	doc     *etree.Document
	docErr  error
}

// xml parses the answer's body once; the document must not be modified.
func (x *Exchange) xml() (*etree.Document, error) {
	x.docOnce.Do(func() { x.doc, x.docErr = parseXML(x.RespBody, x.masks()...) })
	return x.doc, x.docErr
}

// masks are the values a quote of the answer masks before it is cut: the
// key and the secrets.
func (x *Exchange) masks() []string { return append([]string{x.key}, x.secrets...) }

// ContentType is the answer's Content-Type header as sent.
func (x *Exchange) ContentType() string { return x.RespHeader.Get("Content-Type") }

// Curl returns a shell command that reproduces the request: CurlFor the
// session's Config.Shell (cmd.exe for PowerShell too; for ShellSystem,
// cmd.exe on Windows, a POSIX shell elsewhere).
func (x *Exchange) Curl() string { return x.CurlFor(x.shell.cmdLines()) }

// CurlFor returns a command that reproduces the request, for a POSIX shell,
// or for Windows's cmd.exe when windows is true: curl.exe (curl in
// PowerShell is Invoke-WebRequest), its arguments quoted for cmd.exe
// (shellquote). The session's service key is written as a reference to
// the environment variable ATMKIT_KEY ("$ATMKIT_KEY", %ATMKIT_KEY%) so
// reports do not carry it. A request cmd.exe cannot hold (a line break in
// a header or the body), or whose key cmd.exe would read as its own
// (cmdKeySpecial), is written for a POSIX shell on Windows too, followed
// by a comment saying so.
func (x *Exchange) CurlFor(windows bool) string {
	line, ok := x.curl(windows)
	switch {
	case !ok:
		line, _ = x.curl(false)
		line += "  # for a POSIX shell (Git Bash, WSL): cmd.exe cannot hold the line break in it"
	case windows && strings.ContainsAny(x.key, cmdKeySpecial) && strings.Contains(line, "%ATMKIT_KEY%"):
		line, _ = x.curl(false)
		line += `  # for a POSIX shell (Git Bash, WSL): cmd.exe would read a " & | < > or ^ of %ATMKIT_KEY% as its own`
	}
	return line
}

// cmdKeySpecial are the characters of a key that cmd.exe, expanding
// %ATMKIT_KEY% before it reads the line, would read as its own: a " ends
// the double quotes the key is in, and an & | < > after it runs another
// command or redirects (a key x" & calc & " would run calc); a ^
// escapes. (A POSIX shell's "$ATMKIT_KEY" is not read again.)
const cmdKeySpecial = `"&|<>^`

func (x *Exchange) curl(windows bool) (string, bool) {
	var b strings.Builder
	all := true
	word := func(parts []shellquote.Part) {
		w, ok := shellquote.Word(windows, parts...)
		all = all && ok
		b.WriteString(" " + w)
	}
	arg := func(s string) { word(x.parts(s)) }
	if windows {
		b.WriteString("curl.exe -sS -i")
	} else {
		b.WriteString("curl -sS -i")
	}
	if x.Method != http.MethodGet {
		b.WriteString(" -X " + x.Method)
	}
	arg(withoutPassword(x.URL))
	names := make([]string, 0, len(x.Header))
	for k := range x.Header {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		for _, v := range x.Header[k] {
			b.WriteString(" -H")
			arg(k + ": " + v)
		}
	}
	if len(x.Body) > 0 {
		b.WriteString(" --data-binary")
		parts := x.parts(string(x.Body))
		if windows && asciiSafeXML(x.Body) {
			// curl.exe (a build without Unicode arguments, the common
			// kind) gets its arguments in the ANSI code page and sends
			// an é of the body as Windows-1252's one byte, not UTF-8's
			// two: written as the character reference &#xE9; the body
			// is the same XML in ASCII.
			for i := range parts {
				parts[i].Text = asciiXML(parts[i].Text)
			}
		}
		word(parts)
	}
	return b.String(), all
}

// asciiSafeXML reports whether body is XML whose characters beyond ASCII
// can all be written as character references: none can be in a CDATA
// section (where a reference is text), a comment or a processing
// instruction (the XML declaration is ASCII); names are ASCII in what the
// suite sends.
func asciiSafeXML(body []byte) bool {
	t := bytes.TrimSpace(body)
	if bytes.HasPrefix(t, []byte("<?xml")) {
		_, t, _ = bytes.Cut(t, []byte("?>"))
	}
	return bytes.HasPrefix(bytes.TrimSpace(t), []byte("<")) && utf8.Valid(body) &&
		!bytes.Contains(t, []byte("<![CDATA[")) && !bytes.Contains(t, []byte("<!--")) && !bytes.Contains(t, []byte("<?"))
}

// asciiXML is XML text s with every character beyond ASCII written as a
// character reference (&#xE9;).
func asciiXML(s string) string {
	var b strings.Builder
	for _, r := range s {
		if r < utf8.RuneSelf {
			b.WriteRune(r)
		} else {
			fmt.Fprintf(&b, "&#x%X;", r)
		}
	}
	return b.String()
}

// parts splits s into literal text and references to $ATMKIT_KEY where
// the session key is the value of strAtmServiceKey.
func (x *Exchange) parts(s string) []shellquote.Part {
	if x.key != "" {
		xmlKey := xmlText(x.key)
		for _, pre := range [][2]string{{pKey + "=", url.QueryEscape(x.key)}, {"<" + pKey + ">", xmlKey}} {
			s = strings.ReplaceAll(s, pre[0]+pre[1], pre[0]+"\x00")
		}
	}
	var parts []shellquote.Part
	for i, p := range strings.Split(s, "\x00") {
		if i > 0 {
			parts = append(parts, shellquote.Env("ATMKIT_KEY"))
		}
		parts = append(parts, shellquote.Lit(p))
	}
	return parts
}

// withoutPassword returns URL u with the password of its user information,
// if it has one, written xxxxx (url.URL.Redacted), for texts and reports.
func withoutPassword(u string) string {
	if p, err := url.Parse(u); err == nil {
		if _, has := p.User.Password(); has {
			return p.Redacted()
		}
	}
	return u
}

// xmlText is s escaped as build writes a parameter's text (etree's escaping).
func xmlText(s string) string {
	doc := etree.NewDocument()
	doc.CreateElement("v").SetText(s)
	out, err := doc.WriteToString()
	if err != nil {
		return s
	}
	return strings.TrimSuffix(strings.TrimPrefix(out, "<v>"), "</v>")
}

// mediaType splits a content type into its media type and charset,
// lower-cased; ok is false when it does not parse.
func mediaType(ct string) (mt, charset string, ok bool) {
	mt, params, err := mime.ParseMediaType(ct)
	if err != nil {
		return "", "", false
	}
	return strings.ToLower(mt), strings.ToLower(params["charset"]), true
}

// otherParams lists the parameters of a content type other than charset,
// by name, sorted.
func otherParams(ct string) []string {
	_, params, err := mime.ParseMediaType(ct)
	if err != nil {
		return nil
	}
	var out []string
	for k := range params {
		if k != "charset" {
			out = append(out, k)
		}
	}
	sort.Strings(out)
	return out
}

// soapAction is the SOAPAction ASMX gives an operation by default:
// {ns}/{Op}, or {ns}{Op} when the namespace ends in a slash (SoapReflector's
// GetDefaultAction), so that the default http://tempuri.org/ gives
// http://tempuri.org/Op.
func soapAction(ns, op string) string {
	if strings.HasSuffix(ns, "/") {
		return ns + op
	}
	return ns + "/" + op
}

// build turns a Request into an HTTP request against base with the service
// namespace ns and the key.
func build(base, ns string, r Request) (*http.Request, []byte, error) {
	if r.Namespace != "" {
		ns = r.Namespace
	}
	var pairs []string
	for _, p := range r.params() {
		if v, ok := r.Values[p]; ok {
			pairs = append(pairs, url.QueryEscape(p)+"="+url.QueryEscape(v))
		}
	}
	var (
		method, target, ct string
		body               []byte
		hdr                = http.Header{}
	)
	switch r.Binding {
	case SOAP11, SOAP12:
		env := soap11EnvNS
		ct = ctTextXML
		if r.Binding == SOAP12 {
			env, ct = soap12EnvNS, ctSOAP12
		}
		if r.EnvelopeNS != "" {
			env = r.EnvelopeNS
		}
		if r.ContentType != "" {
			ct = r.ContentType
		}
		doc := etree.NewDocument()
		doc.CreateProcInst("xml", `version="1.0" encoding="utf-8"`)
		if r.Prolog != "" {
			doc.CreateDirective(strings.TrimSuffix(strings.TrimPrefix(r.Prolog, "<!"), ">"))
		}
		e := doc.CreateElement("soap:Envelope")
		e.CreateAttr("xmlns:xsi", "http://www.w3.org/2001/XMLSchema-instance")
		e.CreateAttr("xmlns:xsd", xsdNS)
		e.CreateAttr("xmlns:soap", env)
		o := e.CreateElement("soap:Body").CreateElement(r.Op)
		o.CreateAttr("xmlns", ns)
		for _, p := range r.params() {
			if v, ok := r.Values[p]; ok {
				o.CreateElement(p).SetText(v)
			}
		}
		b, err := doc.WriteToBytes()
		if err != nil {
			return nil, nil, fmt.Errorf("encoding %s envelope: %w", r.Binding, err)
		}
		method, target, body = http.MethodPost, base+servicePath, b
		hdr.Set("Content-Type", ct)
		if r.Binding == SOAP11 && !r.NoAction {
			action := r.Action
			if action == "" {
				action = `"` + soapAction(ns, r.Op) + `"`
			}
			hdr["SOAPAction"] = []string{action} // as the document writes it, not canonicalised (Soapaction)
		}
	case HTTPGet:
		method, target = http.MethodGet, base+servicePath+"/"+r.Op
		if len(pairs) > 0 {
			target += "?" + strings.Join(pairs, "&")
		}
	case HTTPPost:
		method, target, body = http.MethodPost, base+servicePath+"/"+r.Op, []byte(strings.Join(pairs, "&"))
		ct = ctForm
		if r.ContentType != "" {
			ct = r.ContentType
		}
		hdr.Set("Content-Type", ct)
	case JSON:
		method, target = http.MethodGet, base+serviceV2Path+"/"+r.Op
		if len(pairs) > 0 {
			target += "?" + strings.Join(pairs, "&")
		}
		hdr.Set("Content-Type", ctJSONReq)
	default:
		return nil, nil, fmt.Errorf("unknown binding %q", r.Binding)
	}
	req, err := http.NewRequest(method, target, bytes.NewReader(body))
	if err != nil {
		return nil, nil, fmt.Errorf("building %s request for %s: %w", r.Binding, r.Op, err)
	}
	req.Header = hdr
	if len(body) == 0 {
		req.Body = http.NoBody
	}
	return req, body, nil
}

// maxAnswer is the most atmkit reads of one answer: far more than any
// result of the service (the mock's whole ReturnAllAtms is about 2 MB), so
// that a runaway target (an endless or a huge body, a gzip bomb) cannot
// exhaust memory.
const maxAnswer = 256 << 20

// errTooLarge is the error of an answer longer than maxAnswer.
var errTooLarge = fmt.Errorf("the answer is larger than %d MiB, the most atmkit reads of one answer", maxAnswer>>20)

// readAll reads an answer's body, failing with errTooLarge past maxAnswer.
func readAll(r io.Reader) ([]byte, error) {
	b, err := io.ReadAll(io.LimitReader(r, maxAnswer+1))
	if err != nil {
		return nil, err
	}
	if len(b) > maxAnswer {
		return nil, errTooLarge
	}
	return b, nil
}
