package learnfrom

import (
	"bytes"
	"encoding/xml"
	"net/url"
	"strings"
	"unicode/utf8"

	"github.com/atmkit/atmkit/internal/printable"
	"github.com/atmkit/atmkit/internal/redact"
)

// maxSays is the longest line says returns, in characters.
const maxSays = 200

// nsSOAP12 is SOAP 1.2's envelope namespace, whose fault's reason is its
// Text elements.
const nsSOAP12 = "http://www.w3.org/2003/05/soap-envelope"

// says returns a line of what an answer that is not the WSDL says, as a
// user reads it: "a SOAP fault: " and its faultstring (SOAP 1.1) or reason
// (SOAP 1.2), "an HTML page: " and its title (ASP.NET's error pages name
// the error there), or "text: " and the first line of a text/plain answer;
// "" when it says none of these. The line is made printable, cut to
// maxSays characters, and every value of u's query and its password (a
// gateway's key, which an error page may echo) is masked, as is a
// strAtmServiceKey parameter's value.
func says(u *url.URL, ctype string, body []byte) string {
	var s string
	if fault, title := faultOrTitle(body); fault != "" {
		s = "a SOAP fault: " + fault
	} else if title != "" {
		s = "an HTML page: " + title
	} else if strings.HasPrefix(strings.ToLower(strings.TrimSpace(ctype)), "text/plain") {
		line, _, _ := strings.Cut(strings.TrimSpace(string(body)), "\n")
		if line = oneLine(line); line != "" {
			s = "text: " + line
		}
	}
	if s == "" {
		return ""
	}
	s = printable.Text(redact.Text(s, secrets(u)...))
	if utf8.RuneCountInString(s) > maxSays {
		s = string([]rune(s)[:maxSays]) + "…"
	}
	return s
}

// faultOrTitle returns the text of a SOAP fault's faultstring or SOAP
// 1.2 reason in body, else the text of an HTML page's title, each on one
// line; "" for what body does not hold. body is read leniently (an HTML
// page is no XML).
func faultOrTitle(body []byte) (fault, title string) {
	d := xml.NewDecoder(bytes.NewReader(body))
	d.Strict = false
	d.AutoClose = xml.HTMLAutoClose
	d.Entity = xml.HTMLEntity
	var in string // "fault" or "title" while in one
	var text strings.Builder
	for {
		tok, err := d.Token()
		if err != nil {
			return "", ""
		}
		switch tok := tok.(type) {
		case xml.StartElement:
			switch {
			case in != "":
			case tok.Name.Local == "faultstring" && tok.Name.Space == "",
				tok.Name.Local == "Text" && tok.Name.Space == nsSOAP12:
				in = "fault"
			case strings.EqualFold(tok.Name.Local, "title"):
				in = "title"
			}
		case xml.CharData:
			if in != "" {
				text.Write(tok)
			}
		case xml.EndElement:
			if in == "" {
				continue
			}
			if s := oneLine(text.String()); s != "" || in == "fault" {
				if in == "fault" {
					return s, ""
				}
				return "", s
			}
			in = ""
		}
	}
}

// oneLine returns s with its runs of white space made one space, trimmed.
func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

// secrets returns what of u an answer may echo that must not be shown: the
// values of its query (a gateway's key under a name of its own), as written
// and decoded, and its password. redact.Text masks those of
// redact.MinLiteral characters or more.
func secrets(u *url.URL) []string {
	var keys []string
	for _, vs := range u.Query() {
		keys = append(keys, vs...)
	}
	for _, pair := range strings.Split(u.RawQuery, "&") {
		_, v, _ := strings.Cut(pair, "=")
		keys = append(keys, v)
	}
	if p, ok := u.User.Password(); ok {
		keys = append(keys, p)
	}
	return keys
}
