package conformance

import (
	"errors"
	"fmt"
	"net/http"
	"regexp"
	"strconv"
	"strings"
)

// This file holds the request encoding probe: one call, after the
// preflight, that finds how the deployment reads a query or form that names
// no charset (web.config's <globalization requestEncoding>, UTF-8 by
// default), so that the summary can name the mock's --request-encoding that
// mirrors it. The document is silent on it: it is information, never a
// check, and a deployment that does not tell says "not found".

// encodingProbeValue is the bytRadius the probe sends: 'x' and the bytes
// A4 E9 80, escaped in the query as %A4%E9%80. No byte holds it, so ASMX
// answers the conversion error that repeats the value as it read it
// (ScalarFormatter.FromString: "Cannot convert {0} to {1}."), before the
// method runs and so before any key check. UTF-8 reads the bytes as two
// U+FFFD, one a sequence as .NET's UTF8Encoding replaces them (A4 is no
// lead byte, E9 80 an unfinished sequence; A4 comes first, as E9 80 A4
// would be UTF-8's 逤), ISO-8859-1 as ¤, é and U+0080, ISO-8859-15
// (Latin-9) as €, é and U+0080, windows-1252 as ¤, é and €. Nothing in it
// is a sign request validation looks for ('<' before a letter, "&#").
const encodingProbeValue = "x\xa4\xe9\x80"

// encodingEchoRE finds the value a conversion error repeats, between the
// probe's 'x' and " to System.Byte" (HTML-encoded, as .NET writes the text
// of an HTTP GET or POST error: é as &#233;, U+0080 as it is).
var encodingEchoRE = regexp.MustCompile(`(?s)Cannot convert x(.*?) to System\.`)

// RequestEncoding is what the probe found about the deployment's
// requestEncoding.
type RequestEncoding struct {
	// Name is the encoding found, as the mock's --request-encoding takes
	// it: "utf-8", "iso-8859-1", "iso-8859-15", "windows-1252" or
	// "us-ascii"; empty when the probe found none of them (see Read and
	// Why).
	Name string
	// Read is the probe's bytes A4 E9 80 as the deployment read them; empty
	// when it repeated no value. Longer than maxEncodingRead bytes (what a
	// deployment says it read is three characters), it is cut.
	Read string
	// Why says why nothing was found; empty when the deployment repeated
	// the value.
	Why string
}

// Summary is the "Request encoding:" line's text: the encoding, how the
// deployment read the probe's bytes, and the serve flag that mirrors it.
func (e *RequestEncoding) Summary() string {
	switch e.Name {
	case "utf-8":
		return "utf-8, ASP.NET's default (a query's %A4%E9%80 read as two U+FFFD); the mock's default mirrors it (--request-encoding utf-8)"
	case "iso-8859-1":
		return "iso-8859-1 (a query's %A4 read as ¤, %E9 as é, %80 as U+0080); serve the mock with --request-encoding iso-8859-1"
	case "iso-8859-15":
		return "iso-8859-15 (a query's %A4 read as €, %E9 as é, %80 as U+0080); serve the mock with --request-encoding iso-8859-15"
	case "windows-1252":
		return "windows-1252 (a query's %A4 read as ¤, %E9 as é, %80 as €); serve the mock with --request-encoding windows-1252"
	case "us-ascii":
		return "us-ascii (a query's %A4, %E9 and %80 each read as '?'); serve the mock with --request-encoding us-ascii"
	}
	if e.Read != "" {
		return fmt.Sprintf("unknown (a query's %%A4%%E9%%80 read as %+q, as neither UTF-8, ISO-8859-1, ISO-8859-15, windows-1252 nor US-ASCII reads it); no --request-encoding this probe can name mirrors it: the mock takes the name web.config's <globalization requestEncoding> gives", e.Read)
	}
	return "not found (" + e.Why + "); the mock reads queries in utf-8, ASP.NET's default, unless served with --request-encoding"
}

// probeBindings are the bindings whose queries and forms are read in
// requestEncoding, in the order the probe picks one: the first the
// preflight found answering.
var probeBindings = []Binding{HTTPGet, HTTPPost, JSON}

// probeRequestEncoding sends the probe over the first binding of
// probeBindings that answered the preflight with 200 and reads the answer.
// It never fails: a deployment that does not tell, or does not answer,
// gives a RequestEncoding saying why.
func (s *Session) probeRequestEncoding(status map[Binding]int) *RequestEncoding {
	b := Binding("")
	for _, c := range probeBindings {
		if status[c] == http.StatusOK {
			b = c
			break
		}
	}
	if b == "" {
		return &RequestEncoding{Why: "HTTP GET, HTTP POST and the JSON path answered the preflight with errors, and only they read a query or form in it"}
	}
	r := Request{Binding: b, Op: opByCoords, Values: map[string]string{pPostalCode: "", pLatitude: "0", pLongitude: "0", pRadius: encodingProbeValue}}
	call := fmt.Sprintf("%s over %s with bytRadius=x%%A4%%E9%%80", opByCoords, b)
	x, err := s.send(r, "")
	if err != nil {
		var te *TransportError
		if errors.As(err, &te) {
			return &RequestEncoding{Why: maskKey(fmt.Sprintf("%s got no answer: %s", call, te.Cause()), s.cfg.Key)}
		}
		return &RequestEncoding{Why: maskKey(fmt.Sprintf("%s: %v", call, err), s.cfg.Key)}
	}
	return readEncodingEcho(call, x)
}

// readEncodingEcho reads the probe's answer x.
func readEncodingEcho(call string, x *Exchange) *RequestEncoding {
	body := string(x.RespBody)
	m := encodingEchoRE.FindStringSubmatch(body)
	switch {
	case m == nil && strings.Contains(body, "Cannot convert {0} to {1}."):
		return &RequestEncoding{Why: call + ` answered "Cannot convert {0} to {1}.", a conversion error that names no value, as Mono's ASMX writes it`}
	case m == nil:
		return &RequestEncoding{Why: fmt.Sprintf("%s answered %d %s, which repeats no value: custom errors, or a gateway, in front of ASMX's message?", call, x.Status, answerText(x))}
	}
	read := unescapeRefs(m[1])
	e := &RequestEncoding{Read: read}
	switch {
	case read == "\u00a4\u00e9\u0080":
		e.Name = "iso-8859-1"
	case read == "\u20ac\u00e9\u0080":
		e.Name = "iso-8859-15"
	case read == "\u00a4\u00e9\u20ac":
		e.Name = "windows-1252"
	case read == "???":
		e.Name = "us-ascii" // .NET's ASCIIEncoding reads a byte above 0x7F as '?'
	case read != "" && strings.Trim(read, "\ufffd") == "":
		e.Name = "utf-8"
	}
	e.Read = clip(read, maxEncodingRead, x.masks()...) // a target may repeat anything there, of any length
	return e
}

// maxEncodingRead is the most of what a deployment says it read of the
// probe's bytes that RequestEncoding.Read quotes.
const maxEncodingRead = 60

// refRE finds the character references .NET's HtmlEncode writes.
var refRE = regexp.MustCompile(`&#([0-9]+);|&#[xX]([0-9a-fA-F]+);|&(lt|gt|amp|quot|apos);`)

// unescapeRefs reads the character references in s as the code points they
// name. Unlike html.UnescapeString, it reads &#128; as U+0080, not as the
// windows-1252 character HTML5 maps it to: that would take an ISO-8859-1
// reading for a windows-1252 one.
func unescapeRefs(s string) string {
	return refRE.ReplaceAllStringFunc(s, func(ref string) string {
		g := refRE.FindStringSubmatch(ref)
		switch g[3] {
		case "lt":
			return "<"
		case "gt":
			return ">"
		case "amp":
			return "&"
		case "quot":
			return `"`
		case "apos":
			return "'"
		}
		n, err := strconv.ParseUint(g[1], 10, 32)
		if g[2] != "" {
			n, err = strconv.ParseUint(g[2], 16, 32)
		}
		if err != nil || n > 0x10FFFF {
			return ref
		}
		return string(rune(n))
	})
}
