package verify

import (
	"encoding/xml"
	"regexp"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

// ncName is the prefixes the fuzzed documents declare: XML names without
// a colon (ASCII ones), none of the xml family.
var ncName = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_.-]{0,20}$`)

// qnameDocs are, by kind, documents whose attribute holds a QName (two
// for memberTypes) of prefix %[1]s, bound to %[2]s, local name %[3]s.
var qnameDocs = []string{
	`<schema xmlns="` + nsXSD + `" xmlns:%[1]s="%[2]s"><element name="e" type="%[1]s:%[3]s"/></schema>`,
	`<r xmlns:xsi="` + nsXSI + `" xmlns:%[1]s="%[2]s"><v xsi:type="%[1]s:%[3]s">1</v></r>`,
	`<definitions xmlns="` + nsWSDL + `"><message name="m"><part name="p" element="%[1]s:%[3]s" xmlns:%[1]s="%[2]s"/></message></definitions>`,
	`<schema xmlns="` + nsXSD + `"><simpleType xmlns:%[1]s="%[2]s"><union memberTypes="%[1]s:%[3]s  %[1]s:%[3]s2"/></simpleType></schema>`,
}

// FuzzQNames: verify compares a QName-valued attribute resolved. A
// document compared with itself, its prefix renamed, shows no difference;
// with its prefix bound to another namespace, it shows one.
func FuzzQNames(f *testing.F) {
	f.Add("tns", "s0", "urn:atm", "urn:other", "Op", uint8(0))
	f.Add("s", "q1", "http://www.w3.org/2001/XMLSchema", "http://tempuri.org/", "int", uint8(1))
	f.Add("tns", "ns", "http://tempuri.org/atmService", "http://tempuri.org/atmService/", "ReturnProvinces", uint8(2))
	f.Add("a", "b", "urn:&<\"'", "urn:&amp;", "t", uint8(3))
	f.Fuzz(func(t *testing.T, p1, p2, uri, uri2, local string, kind uint8) {
		if !ncName.MatchString(p1) || !ncName.MatchString(p2) || p1 == "xsi" || p2 == "xsi" ||
			strings.HasPrefix(strings.ToLower(p1), "xml") || strings.HasPrefix(strings.ToLower(p2), "xml") ||
			uri == "" || uri2 == "" || uri == uri2 || !xmlChars(uri) || !xmlChars(uri2) || !xmlChars(local) ||
			local == "" || strings.ContainsFunc(local, func(r rune) bool { return r == ':' || unicode.IsSpace(r) }) {
			return
		}
		doc := qnameDocs[int(kind)%len(qnameDocs)]
		write := func(p, u string) string {
			return fmtDoc(doc, p, attrEscape(u), attrEscape(local))
		}
		rec := answer(200, "text/xml; charset=utf-8", write(p1, uri))
		if c := compareAnswers(rec, answer(200, "text/xml; charset=utf-8", write(p2, uri)), false, 5); c.structureN+c.valueN != 0 {
			t.Errorf("prefix %q renamed %q: got %q, want no difference", p1, p2, c.diffs())
		}
		if c := compareAnswers(rec, answer(200, "text/xml; charset=utf-8", write(p1, uri2)), false, 5); c.structureN+c.valueN == 0 {
			t.Errorf("prefix %q bound to %q, then to %q: got no difference, want one", p1, uri, uri2)
		}
	})
}

// fmtDoc fills doc's %[1]s, %[2]s and %[3]s.
func fmtDoc(doc, p, u, local string) string {
	return strings.NewReplacer("%[1]s", p, "%[2]s", u, "%[3]s", local).Replace(doc)
}

// xmlChars reports whether s is UTF-8 of characters XML 1.0 allows, none
// of them a control character (a line end in an attribute is read as a
// space or a newline).
func xmlChars(s string) bool {
	for _, r := range s {
		if r < 0x20 || r == utf8.RuneError || r == 0xFFFE || r == 0xFFFF || (r >= 0x7F && r <= 0x9F) {
			return false
		}
	}
	return utf8.ValidString(s)
}

// attrEscape escapes s for an attribute value in double quotes.
func attrEscape(s string) string {
	var b strings.Builder
	_ = xml.EscapeText(&b, []byte(s))
	return b.String()
}
