package recorded

import (
	"bytes"
	"net/http"
	"strings"
	"testing"

	"github.com/atmkit/atmkit/internal/mocktest"
	"gopkg.in/dnaeon/go-vcr.v3/cassette"
	"gopkg.in/yaml.v3"
)

// atmsAnswer is a long answer as a deployment sends one: XML, indented,
// beyond ASCII in places, with a tab inside a line and blank lines.
func atmsAnswer(n int, end string) string {
	var b strings.Builder
	b.WriteString("<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<atmLocations>\n  <count>42</count>\n  <locations>\n")
	for j := range n {
		b.WriteString("    <location>\n      <id>")
		b.WriteString(strings.Repeat("7", j%5+1))
		b.WriteString("</id>\n      <city>Québec — “Vieux”\tPort</city>\n\n        <note>a: b # c</note>\n    </location>\n")
	}
	b.WriteString("  </locations>\n</atmLocations>")
	b.WriteString(end)
	return b.String()
}

// longInteraction is a call whose request and response bodies are req and resp.
func longInteraction(req, resp string) *cassette.Interaction {
	return &cassette.Interaction{
		ID: 3,
		Request: cassette.Request{Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1, Method: "POST", URL: "http://upstream.example/service/service.asmx",
			Body: req, Headers: http.Header{"Content-Type": {"text/xml; charset=utf-8"}, "Soapaction": {`"http://tempuri.org/atmService/ReturnAllAtms"`}},
			Form: map[string][]string{}},
		Response: cassette.Response{Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1, Status: "200 OK", Code: 200, ContentLength: int64(len(resp)),
			Body: resp, Headers: http.Header{"Content-Type": {"text/xml; charset=utf-8"}}},
	}
}

// TestEncodeItemAsYAML: an interaction with long bodies yaml.v3 writes as
// literal blocks or double-quoted is encoded with the bodies held by
// reference (written by EncodeItem, not yaml.v3), to the bytes yaml.v3
// writes for it, which read back as it; one with a long body yaml.v3
// writes otherwise goes through yaml.v3 whole.
func TestEncodeItemAsYAML(t *testing.T) {
	t.Parallel()
	short := atmsAnswer(1, "\n")
	cases := []struct {
		name     string
		req, rsp string
		direct   bool // EncodeItem writes a body itself
	}{
		{"response, no final line break", short, atmsAnswer(2000, ""), true},
		{"response, final line break", short, atmsAnswer(2000, "\n"), true},
		{"request and response", atmsAnswer(1500, "\n"), atmsAnswer(2000, ""), true},
		{"request alone", atmsAnswer(1500, ""), "", true},
		{"two final line breaks", short, atmsAnswer(2000, "\n\n"), false},
		{"leading space", short, " " + atmsAnswer(2000, ""), false},
		{"a line separator", short, atmsAnswer(2000, "\u2028"), false},
		{"one line beginning with a digit", short, "1" + strings.Repeat("<a>x</a>", 10000), false},
		{"one line with a line separator", short, strings.Repeat("<a>x</a>", 10000) + "\u2028", false},
		{"not UTF-8", short, atmsAnswer(2000, "\xff"), false},
		// double-quoted
		{"carriage returns", short, strings.ReplaceAll(atmsAnswer(2000, ""), "\n", "\r\n"), true},
		{"carriage returns, request and response", strings.ReplaceAll(atmsAnswer(1500, "\n"), "\n", "\r\n"), strings.ReplaceAll(atmsAnswer(2000, ""), "\n", "\r\n"), true},
		{"line ending in a space", short, atmsAnswer(2000, " \nx"), true},
		{"final space", short, atmsAnswer(2000, " "), true},
		{"an emoji", short, atmsAnswer(2000, "\n🏧"), true},
		{"one line with a tab", short, strings.Repeat("<a>x</a>", 10000) + "\t", true},
		{"one line with a carriage return", short, strings.Repeat("<a>x</a>", 10000) + "\r", true},
		// single-quoted, plain
		{"one line of JSON", short, `{"d":"it's ` + strings.Repeat("<a>x</a>", 10000) + `"}`, true},
		{"one line holding ': '", short, strings.Repeat("<a>x</a>", 10000) + "x: y", true},
		{"one line ending in ':'", short, strings.Repeat("<a>x</a>", 10000) + ":", true},
		{"one line holding ' #'", short, strings.Repeat("<a>x</a>", 10000) + " #", true},
		{"one line", short, `<?xml version="1.0" encoding="utf-8"?><a b='c'>` + strings.Repeat("<a>x: #x</a>", 10000), true},
		{"escapes", short, atmsAnswer(2000, "\r\"\\\x00\x07\x08\x0b\x0c\x1b\x7f\u0085\u00a0\u2028\u2029\ufeff\ufffe\U0010ffff\x01"), true},
	}
	for _, c := range cases {
		i := longInteraction(c.req, c.rsp)
		want, err := marshalItem(i)
		if err != nil {
			t.Fatal(err)
		}
		it, err := EncodeItem(i)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if direct := len(it.parts) > 1; direct != c.direct {
			t.Errorf("%s: bodies written by EncodeItem: %v, want %v", c.name, direct, c.direct)
		}
		var w bytes.Buffer
		n, err := it.WriteTo(&w)
		if err != nil || n != it.Len() || int64(w.Len()) != n {
			t.Errorf("%s: WriteTo wrote %d bytes (%v), Len %d", c.name, n, err, it.Len())
		}
		if !bytes.Equal(w.Bytes(), want) || !bytes.Equal(it.Bytes(), want) {
			t.Errorf("%s: EncodeItem wrote otherwise than yaml.v3 (%d bytes, want %d)", c.name, w.Len(), len(want))
			continue
		}
		if got, err := MarshalItem(i); err != nil || !bytes.Equal(got, want) {
			t.Errorf("%s: MarshalItem wrote otherwise than yaml.v3 (%v)", c.name, err)
		}
		back, err := UnmarshalItem(w.Bytes())
		if err != nil || back.Request.Body != c.req || back.Response.Body != c.rsp {
			t.Errorf("%s: does not read back (%v)", c.name, err)
		}
	}
}

// FuzzLiteralBody: a long body beginning or ending with any string, or
// holding it in its middle (64 KB long, or longer), in the request or the
// response, is encoded by EncodeItem to the bytes yaml.v3
// writes for it, which read back as it: as a literal block, double-quoted,
// or by yaml.v3 itself.
func FuzzLiteralBody(f *testing.F) {
	if mocktest.Race {
		// Its 150 seeds encode about 1,000 bodies of 64 KB: 10 s alone,
		// 90 s under the race detector, which has nothing to find in
		// code that runs on one goroutine. The run without it checks them.
		f.Skip("too slow under the race detector; the run without it checks this")
	}
	for _, s := range []string{"", "x", "\n", "\n\n", "x\n", "x\n\n", " x", "x ", "x \n", "\tx\n", "x\n\ty", "é\n", "\u2028", "\u0085", "\ufeff",
		"\r\n", "a\n\n\nb", "\x7f", "\x00", "---\n...", "  </a>", "🏧", "\xff", "\ue000\ufffd\ufffe", "\"\\", " \r\n", "\u00a0\u0085\u2029 \t",
		"\x1b\x0b\x0c\x07\x08", "'", "''", "#", " #", ": ", ":", "? ", "?", "- ", "-", "---", "...", "{", "[", "\t", "@", "`", "%", "!", "&", "*", "|", ">",
		"\"", "1", "+", ".", "y", "n", "~", "x\u2028 ", "\u2028", "\u2029#", " ", "\r ", "\u0085",
		"\n...\n", "\n--- x\n", "\n# x", "\n- x", "\n\tx", "x  \n", "\xed\xa0\x80", "\xef\xbf\xbe", "\x00\n", "\n  \n"} {
		f.Add(s, true)
		f.Add(s, false)
	}
	pad := strings.Repeat("    <location>\n      <id>7</id>\n    </location>", 1600)
	flat := strings.Repeat("<location><id>7</id></location>", 2200) // one line
	f.Fuzz(func(t *testing.T, s string, inRequest bool) {
		h, fh := len(pad)/2, len(flat)/2
		exact := ("<a>\n" + pad[:h] + s + pad[h:])[:longBody] // exactly as long as a body EncodeItem writes itself
		for _, body := range []string{s + "\n" + pad, "<a>\n" + pad + s, s + flat, flat + s, "<a>\n" + pad[:h] + s + pad[h:], flat[:fh] + s + flat[fh:], exact} {
			i := longInteraction("", body)
			if inRequest {
				i = longInteraction(body, "")
			}
			want, err := marshalItem(i)
			if err != nil {
				return // yaml.v3's own refusal
			}
			it, err := EncodeItem(i)
			if err != nil {
				t.Fatalf("%q: %v", s, err)
			}
			got := it.Bytes()
			if !bytes.Equal(got, want) || int64(len(got)) != it.Len() {
				t.Fatalf("%q (written by EncodeItem: %v): encoded otherwise than yaml.v3", s, len(it.parts) > 1)
			}
			back, err := UnmarshalItem(got)
			if err != nil || back.Request.Body != i.Request.Body || back.Response.Body != i.Response.Body {
				t.Fatalf("%q: does not read back (%v)", s, err)
			}
		}
	})
}

// FuzzBodyStyle: any string bodyStyle gives a style is written by
// writeBody as yaml.v3 writes it as a mapping's value, and reads back as
// it; a short string, which EncodeItem leaves to yaml.v3, is here to be
// tried fast, bodyStyle and writeBody being the same at any length.
func FuzzBodyStyle(f *testing.F) {
	for _, s := range []string{"<a>\n  <b>x</b>\n</a>", "<a>\r\n</a>\r\n", "{\"a\": \"b\"}", "<a>x</a>", "'x'", "x: y", "x #y", "a\tb", "\ufeffx\n", "\u2028x", "x\u2029\n",
		"é\n", "🏧\n", "\x00\n", "\x7f", "---\n", "? x", "-x", ":x", "x:", " x\n", "x \n", "x\n\n", "\n", "\r", "y\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		st := bodyStyle(s)
		if st == styleNone {
			return
		}
		want, err := yaml.Marshal(map[string]string{"body": s})
		if err != nil {
			t.Fatal(err)
		}
		var got strings.Builder
		got.WriteString("body: ")
		writeBody(&got, itemPart{body: s, style: st, indent: 4})
		if got.String() != string(want) {
			t.Fatalf("%q (style %d): wrote %q, yaml.v3 %q", s, st, got.String(), want)
		}
		var back map[string]string
		if err := yaml.Unmarshal(want, &back); err != nil || back["body"] != s {
			t.Fatalf("%q: reads back as %q (%v)", s, back["body"], err)
		}
	})
}
