package cli

import (
	"bytes"
	"encoding/xml"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/atmkit/atmkit/asmx"
	"github.com/atmkit/atmkit/mockserver"
)

// headerErrorTexts are the fixed texts of Headers.Set's errors: a value
// that is part of one is no value shown.
var headerErrorTexts = []string{
	"want 'Name: value', such as 'X-Api-Key: <key>'",
	"header name  holds characters a header name cannot",
	"the value of header  holds control characters",
	"header  is set by atmkit for each request; it cannot be given",
}

// FuzzHeaderFlag sets any text as a --header value (a flag, ATMKIT_HEADER
// or a config file's header list; the values are a gateway's secrets):
// Set never panics; what it takes are canonical HTTP token names, none
// atmkit sets itself, with values free of control characters, listed once
// each in the order given; and neither its error nor String shows a value.
func FuzzHeaderFlag(f *testing.F) {
	for _, s := range []string{
		"X-Api-Key: " + secret + "\nx-tenant: blue\r\n\n",
		"X-Api-Key:" + secret,
		"Bad Name: " + secret,
		"X-Api-Key " + secret,
		"X-Api-Key: a\x01" + secret,
		"Host: " + secret,
		"x-a: 1\nx-b: 2\nX-A: 3\n",
		": " + secret,
		"X-Ok: fine\nno colon " + secret + "\n",
		"X-Tab:\tin\tvalue\t",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, v string) {
		var h Headers
		err := h.Set(v)
		type line struct{ name, value string }
		var lines []line
		for l := range strings.Lines(v) {
			name, value, _ := strings.Cut(strings.TrimRight(l, "\r\n"), ":")
			lines = append(lines, line{strings.TrimSpace(name), strings.TrimSpace(value)})
		}
		shown := func(what, text string) {
			// The names are taken out as the error writes them, quoted
			// first, the longest first: taking out a short name first (a,
			// "" of an empty line) would split a longer one's quoted form
			// ("1\x05x-b"), whose rest could read as a value.
			var names []string
			for _, l := range lines {
				if l.name != "" {
					names = append(names, l.name)
				}
			}
			slices.SortFunc(names, func(a, b string) int { return len(b) - len(a) })
			for _, form := range []func(string) string{strconv.Quote, http.CanonicalHeaderKey, func(n string) string { return n }} {
				for _, n := range names {
					text = strings.ReplaceAll(text, form(n), "\x00")
				}
			}
			for _, l := range lines {
				if l.value == "" || strings.ContainsFunc(l.value, func(r rune) bool { return r < ' ' || r == 0x7f }) ||
					slices.ContainsFunc(headerErrorTexts, func(s string) bool { return strings.Contains(s, l.value) }) ||
					strings.Contains("******, ", l.value) {
					continue
				}
				if strings.Contains(text, l.value) {
					t.Fatalf("Set(%q): %s shows the value %q: %q", v, what, l.value, text)
				}
			}
		}
		if err != nil {
			shown("the error", err.Error())
			return
		}
		shown("String", h.String())
		if len(h.names) != len(h.h) {
			t.Fatalf("Set(%q): names %q for headers %q", v, h.names, h.h)
		}
		for i, name := range h.names {
			switch {
			case http.CanonicalHeaderKey(name) != name || !isToken(name):
				t.Fatalf("Set(%q): took header name %q", v, name)
			case slices.Contains(framing, name):
				t.Fatalf("Set(%q): took %s, which atmkit sets itself", v, name)
			case slices.Contains(h.names[:i], name) || len(h.h[name]) == 0:
				t.Fatalf("Set(%q): names %q for headers %q", v, h.names, h.h)
			}
			for _, value := range h.h[name] {
				if strings.ContainsFunc(value, func(r rune) bool { return r < ' ' && r != '\t' || r == 0x7f }) {
					t.Fatalf("Set(%q): took %s with a control character in its value", v, name)
				}
			}
		}
	})
}

// isXMLText reports whether an XML document can hold s as text: valid
// UTF-8 of XML 1.0's characters.
func isXMLText(s string) bool {
	for _, r := range s {
		if r == utf8.RuneError || !(r == '\t' || r == '\n' || r == '\r' || r >= ' ' && r <= 0xD7FF || r >= 0xE000 && r <= 0xFFFD || r >= 0x10000) {
			return false
		}
	}
	return true
}

// FuzzWSDLServiceName reads the service name of any recorded WSDL (replay
// and learn-from take the deployment's from it): WSDLServiceName never
// panics, gives back the name a WSDL holds, and ServiceFromWSDL leaves the
// service name as it was or sets one the mock takes.
func FuzzWSDLServiceName(f *testing.F) {
	const wsdlNS = "http://schemas.xmlsoap.org/wsdl/"
	doc := func(name string) []byte {
		var b bytes.Buffer
		b.WriteString(`<?xml version="1.0" encoding="utf-8"?>` + "\r\n" + `<wsdl:definitions xmlns:wsdl="` + wsdlNS + `"><wsdl:types /><wsdl:service name="`)
		_ = xml.EscapeText(&b, []byte(name))
		b.WriteString(`"><wsdl:port name="p" /></wsdl:service></wsdl:definitions>`)
		return b.Bytes()
	}
	f.Add(doc(mockserver.DefaultServiceName), "Service")
	f.Add([]byte(`<definitions xmlns="`+wsdlNS+`"><service name="A&amp;B"/></definitions>`), "a b")
	f.Add([]byte(`<wsdl:definitions xmlns:wsdl="`+wsdlNS+`"><x><wsdl:service name="Inner"/></x></wsdl:definitions>`), "\x01")
	f.Add([]byte(`<definitions><service name="NoNS"/></definitions>`), "é\"<&'>")
	f.Add([]byte(`<wsdl:definitions xmlns:wsdl="`+wsdlNS+`"><wsdl:service name="S&undefined;"/>`), "")
	f.Fuzz(func(t *testing.T, wsdl []byte, name string) {
		got := WSDLServiceName(wsdl)
		a := ASPNET{ServiceName: mockserver.DefaultServiceName}
		a.ServiceFromWSDL(wsdl)
		if a.ServiceName != mockserver.DefaultServiceName {
			if a.ServiceName != got || asmx.CheckServiceName(got) != nil {
				t.Fatalf("ServiceFromWSDL(%q) set %q; WSDLServiceName says %q", wsdl, a.ServiceName, got)
			}
			if _, err := mockserver.New(mockserver.WithServiceName(a.ServiceName)); err != nil {
				t.Fatalf("ServiceFromWSDL(%q) set %q, which the mock refuses: %v", wsdl, a.ServiceName, err)
			}
		}
		if isXMLText(name) {
			if got := WSDLServiceName(doc(name)); got != name {
				t.Fatalf("WSDLServiceName of a WSDL naming %q: %q", name, got)
			}
		}
	})
}
