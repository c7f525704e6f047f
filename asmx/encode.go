package asmx

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// xmlDecl starts a GET/POST answer, written by an indenting XmlTextWriter
// (XmlSerializer.Serialize(TextWriter)): the declaration, then a line
// break before the root: CR LF, as .NET Framework's TextWriter.WriteLine
// writes it (CoreNewLine; Mono on Linux writes LF).
const xmlDecl = soapDecl + "\r\n"

// soapDecl starts a SOAP answer or fault. SoapServerProtocol writes them
// with the XmlTextWriter GetWriterForMessage makes (a StreamWriter in UTF-8
// without a byte order mark, Formatting.None, never changed):
// WriteStartDocument's declaration, then the envelope, its header, body,
// <OpResponse> and the result, all on one line with no white space between
// tags; the result's serializer (XmlSerializer.Serialize(XmlWriter), an
// XmlNode's WriteTo, DataSet.WriteXml) keeps the writer's formatting.
const soapDecl = `<?xml version="1.0" encoding="utf-8"?>`

// AppendSOAPResponse appends a whole SOAP response of binding b to dst: the
// envelope, <Op>Response in namespace ns holding <Op>Result, whose content is
// node, the XML result. node must be one element without namespace
// declarations of its own for the service namespace; it is given xmlns=""
// so that it stays in no namespace, as ASMX writes an XmlNode result.
func AppendSOAPResponse(dst []byte, b Binding, ns, op string, node []byte) []byte {
	dst = AppendSOAPResponseHead(dst, b, ns, op)
	dst = appendNoNamespace(dst, node)
	return AppendSOAPResponseTail(dst, op)
}

// AppendSOAPResponseHead appends the part of a SOAP response that comes
// before the result node: declaration, envelope, body, <Op>Response and
// <Op>Result start tags, with no white space between them (soapDecl). A caller that writes the result node itself (with
// xmlns="" on its root) then finishes with AppendSOAPResponseTail; the
// three together write what AppendSOAPResponse writes.
func AppendSOAPResponseHead(dst []byte, b Binding, ns, op string) []byte {
	dst = append(dst, soapDecl...)
	if b == SOAP12 {
		dst = append(dst, `<soap:Envelope xmlns:soap="`+NamespaceSOAP12+`" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:xsd="http://www.w3.org/2001/XMLSchema">`...)
	} else {
		dst = append(dst, `<soap:Envelope xmlns:soap="`+NamespaceSOAP11+`" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:xsd="http://www.w3.org/2001/XMLSchema">`...)
	}
	dst = append(dst, "<soap:Body><"...)
	dst = append(dst, op...)
	dst = append(dst, `Response xmlns="`...)
	dst = AppendAttr(dst, ns)
	dst = append(dst, "\"><"...)
	dst = append(dst, op...)
	return append(dst, "Result>"...)
}

// AppendSOAPResponseTail appends the end of a SOAP response begun with
// AppendSOAPResponseHead, after the result node.
func AppendSOAPResponseTail(dst []byte, op string) []byte {
	dst = append(dst, "</"...)
	dst = append(dst, op...)
	dst = append(dst, "Result>"...)
	return AppendSOAPResponseEnd(dst, op)
}

// AppendSOAPResponseEnd appends the envelope's end after <OpResult>:
// </OpResponse></soap:Body></soap:Envelope>, for a result written
// <OpResult />, as XmlTextWriter closes an element given no content.
func AppendSOAPResponseEnd(dst []byte, op string) []byte {
	dst = append(dst, "</"...)
	dst = append(dst, op...)
	return append(dst, "Response></soap:Body></soap:Envelope>"...)
}

// appendNoNamespace appends node with xmlns="" added to its root element
// unless the root declares a default namespace already.
func appendNoNamespace(dst, node []byte) []byte {
	start := 0
	for start < len(node) && node[start] != '<' {
		start++
	}
	if start == len(node) {
		return append(dst, node...)
	}
	end := start + 1
	for end < len(node) {
		c := node[end]
		if c == ' ' || c == '>' || c == '/' || c == '\n' || c == '\t' || c == '\r' {
			break
		}
		end++
	}
	gt := end
	for gt < len(node) && node[gt] != '>' {
		gt++
	}
	if containsDefaultNS(node[end:gt]) {
		return append(dst, node...)
	}
	dst = append(dst, node[:end]...)
	dst = append(dst, ` xmlns=""`...)
	return append(dst, node[end:]...)
}

func containsDefaultNS(attrs []byte) bool {
	for i := 0; i+6 <= len(attrs); i++ {
		if string(attrs[i:i+6]) == "xmlns=" && (i == 0 || attrs[i-1] == ' ' || attrs[i-1] == '\n' || attrs[i-1] == '\t') {
			return true
		}
	}
	return false
}

// AppendXMLDocument appends node as a whole XML document, the GET and POST
// result: an XML declaration, then the node.
func AppendXMLDocument(dst, node []byte) []byte {
	return append(AppendXMLDeclaration(dst), node...)
}

// AppendXMLDeclaration appends the XML declaration that starts every HTTP
// GET and POST XML response, and the line break after it (their writer
// indents), for callers that write the node after it themselves.
func AppendXMLDeclaration(dst []byte) []byte {
	return append(dst, xmlDecl...)
}

// ContentType is the success content type of binding b.
func ContentType(b Binding) string {
	if b == SOAP12 {
		return ContentTypeSOAP12
	}
	return ContentTypeXML
}

// AppendEscaped appends s with every character XML gives a meaning
// escaped (<, >, &, both quotes, a carriage return), usable as text or as
// an attribute value in either quotes: for requests atmkit builds and the
// forms of a value a scrubber looks for. Answers are written as .NET
// writes them: AppendText, AppendAttr. Characters XML 1.0 forbids are
// replaced by U+FFFD so the output is always well-formed.
func AppendEscaped(dst []byte, s string) []byte { return appendEscaped(dst, s, escapeAll) }

// AppendText appends s as element text as .NET's XmlTextWriter writes it
// (XmlTextEncoder, which ASMX's answers and faults go through): <, > and &
// escaped; quotes, tabs, line feeds and carriage returns as they are (a
// reader then reads a CR LF as a line feed, as a .NET client does).
// Characters XML 1.0 forbids are written as the character references
// .NET writes (&#x1;, &#xFFFE;), which no XML 1.0 reader takes; bytes
// that are not UTF-8, which no .NET string holds, as U+FFFD.
func AppendText(dst []byte, s string) []byte { return appendEscaped(dst, s, escapeText) }

// AppendAttr appends s as the value of an attribute in double quotes, as
// XmlTextWriter writes it: <, >, & and " escaped, a carriage return and a
// line feed as &#xD; and &#xA; (read back as themselves, not as spaces),
// an apostrophe and a tab as they are; characters XML 1.0 forbids as
// AppendText writes them.
func AppendAttr(dst []byte, s string) []byte { return appendEscaped(dst, s, escapeAttr) }

// controlRefs are the character references .NET's XmlTextEncoder writes
// for the control characters XML 1.0 forbids, in text and attribute
// values alike (WriteCharEntityImpl: the code in upper-case hex, &#x1F;);
// Mono's XmlTextWriter writes the same. No XML 1.0 reader takes them: a
// .NET client (SoapHttpClientProtocol's XmlTextReader, Normalization on)
// fails on such an answer as it fails on the service's.
var controlRefs = func() (refs [0x20]string) {
	for c := range refs {
		refs[c] = "&#x" + strings.ToUpper(strconv.FormatInt(int64(c), 16)) + ";"
	}
	return refs
}()

// How appendEscaped escapes.
const (
	escapeAll = iota
	escapeText
	escapeAttr
)

func appendEscaped(dst []byte, s string, mode int) []byte {
	last := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			var esc string
			switch c {
			case '<':
				esc = "&lt;"
			case '>':
				esc = "&gt;"
			case '&':
				esc = "&amp;"
			case '"':
				if mode != escapeText {
					esc = "&quot;"
				}
			case '\'':
				if mode == escapeAll {
					esc = "&apos;"
				}
			case '\r':
				if mode != escapeText {
					esc = "&#xD;"
				}
			case '\n':
				if mode == escapeAttr {
					esc = "&#xA;"
				}
			case '\t':
			default:
				if c < 0x20 {
					esc = controlRefs[c]
					if mode == escapeAll {
						esc = "\uFFFD"
					}
				}
			}
			if esc != "" {
				dst = append(dst, s[last:i]...)
				dst = append(dst, esc...)
				last = i + 1
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if (r == utf8.RuneError && size == 1) || r == 0xFFFE || r == 0xFFFF {
			dst = append(dst, s[last:i]...)
			switch {
			case r == utf8.RuneError || mode == escapeAll:
				dst = append(dst, "\uFFFD"...)
			case r == 0xFFFE:
				dst = append(dst, "&#xFFFE;"...)
			default:
				dst = append(dst, "&#xFFFF;"...)
			}
			last = i + size
		}
		i += size
	}
	return append(dst, s[last:]...)
}
