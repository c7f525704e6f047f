package redact

import (
	"errors"
	"fmt"
	"io"
	"net"
	"net/url"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestKey(t *testing.T) {
	t.Parallel()
	for k, want := range map[string]string{
		"": "", "a": "******", "abcd": "******", "abcdefg": "******", "abcdefgh": "ab****",
		"Leak-Key-1234": "Le****", "éèabcdefg": "éè****",
	} {
		if got := Key(k); got != want {
			t.Errorf("Key(%q): got %q, want %q", k, got, want)
		}
	}
}

func TestText(t *testing.T) {
	t.Parallel()
	const key = "Leak-Key-1234"
	tests := []struct {
		name, in string
		keys     []string
		want     string
	}{
		{"query", `Get "http://h/service/service.asmx/ReturnProvinces?strAtmServiceKey=Leak-Key-1234": EOF`, nil,
			`Get "http://h/service/service.asmx/ReturnProvinces?strAtmServiceKey=Le****": EOF`},
		{"query, later parameter, other case", `GET /x?a=1&STRATMSERVICEKEY=k&b=2`, nil, `GET /x?a=1&STRATMSERVICEKEY=******&b=2`},
		{"query, escaped", `?strAtmServiceKey=Leak%2DKey%2D1234`, nil, `?strAtmServiceKey=Le****`},
		{"form body", `strAtmServiceKey=short&intCityID=3`, nil, `strAtmServiceKey=******&intCityID=3`},
		{"in a path", `path=/service/service.asmx/ReturnProvinces/strAtmServiceKey=Leak-Key-1234 status=500`, nil,
			`path=/service/service.asmx/ReturnProvinces/strAtmServiceKey=Le**** status=500`},
		{"XML", `<soap:Body><strAtmServiceKey>Leak-Key-1234</strAtmServiceKey>`, nil, `<soap:Body><strAtmServiceKey>Le****</strAtmServiceKey>`},
		{"XML, prefix and attribute", `<a:strAtmServiceKey x="1">k</a:strAtmServiceKey>`, nil, `<a:strAtmServiceKey x="1">******</a:strAtmServiceKey>`},
		{"XML, CDATA", `<strAtmServiceKey><![CDATA[Leak-Key-1234]]></strAtmServiceKey>`, nil, `<strAtmServiceKey>Le****</strAtmServiceKey>`},
		{"XML, a comment inside", `<strAtmServiceKey>Leak<!-- c -->-Key-1234</strAtmServiceKey>`, nil, `<strAtmServiceKey>Le****</strAtmServiceKey>`},
		{"XML, CDATA and text, no end tag", `<strAtmServiceKey>Le<![CDATA[ak-Key]]>-1234<x>`, nil, `<strAtmServiceKey>Le****<x>`},
		{"JSON", `{"strAtmServiceKey": "Leak-Key-1234"}`, nil, `{"strAtmServiceKey": "Le****"}`},
		// A value that starts with an entity or a character reference is
		// masked as its text reads (as a query's %XX escapes are): the
		// first two characters of the key, never a part of an entity,
		// and "******" where they would be markup.
		{"XML, an entity first", `<strAtmServiceKey>&amp;bcdefghij</strAtmServiceKey>`, nil, `<strAtmServiceKey>******</strAtmServiceKey>`},
		{"XML, an entity second", `<strAtmServiceKey>a&amp;cdefghij</strAtmServiceKey>`, nil, `<strAtmServiceKey>******</strAtmServiceKey>`},
		{"XML, markup escaped", `<strAtmServiceKey>&lt;b&gt;cdefghij</strAtmServiceKey>`, nil, `<strAtmServiceKey>******</strAtmServiceKey>`},
		{"XML, character references", `<strAtmServiceKey>&#76;&#x65;ak-Key-1234</strAtmServiceKey>`, nil, `<strAtmServiceKey>Le****</strAtmServiceKey>`},
		{"XML, an entity after two characters", `<strAtmServiceKey>ab&amp;cdefghij</strAtmServiceKey>`, nil, `<strAtmServiceKey>ab****</strAtmServiceKey>`},
		{"XML, a control character's reference", `<strAtmServiceKey>&#x1;bcdefghij</strAtmServiceKey>`, nil, `<strAtmServiceKey>******</strAtmServiceKey>`},
		{"XML, a short key's entity", `<strAtmServiceKey>&amp;b</strAtmServiceKey>`, nil, `<strAtmServiceKey>******</strAtmServiceKey>`},
		{"JSON, an escape first", `{"strAtmServiceKey":"\u004Ceak-Key-1234"}`, nil, `{"strAtmServiceKey":"Le****"}`},
		{"JSON, a quote escaped first", `{"strAtmServiceKey":"\u0022eak-Key-1234"}`, nil, `{"strAtmServiceKey":"******"}`},
		{"literal", "the key Leak-Key-1234 was refused", []string{key}, "the key Le**** was refused"},
		{"literal, URL-escaped", "q=Leak+Key%2F1", []string{"Leak Key/1"}, "q=Le****"},
		{"short literal, as a word only", "a test of the soap11 binding", []string{"test", "soap"}, "a ****** of the soap11 binding"},
		{"short literal in a URL", "GET /x?k=k1&v=bk1x", []string{"k1"}, "GET /x?k=******&v=bk1x"},
		{"literal, XML-escaped", "<a>Leak&amp;Key&lt;1234</a>", []string{"Leak&Key<1234"}, "<a>Le****</a>"},
		{"literal, JSON-escaped", `{"k":"Leak\"Key\u003c1234"}`, []string{`Leak"Key<1234`}, `{"k":"Le****"}`},
		{"already masked", "?strAtmServiceKey=Le****&x=REDACTED", nil, "?strAtmServiceKey=Le****&x=REDACTED"},
		{"query, a key's & sent unencoded", `?strAtmServiceKey=Le&ak'Key-Tail9&%3Cx%3ETail8&intCityID=3`, nil, `?strAtmServiceKey=Le****&intCityID=3`},
		{"query, a document after the key", `?strAtmServiceKey=k&WSDL ?strAtmServiceKey=k&disco&x`, nil, `?strAtmServiceKey=******&WSDL ?strAtmServiceKey=******&disco&x`},
		{"query, an entity after the key", `?strAtmServiceKey=k&quot; ?strAtmServiceKey=k&#39;s`, nil, `?strAtmServiceKey=******&quot; ?strAtmServiceKey=******&#39;s`},
		{"shell reference", `<strAtmServiceKey>'"$ATMKIT_KEY"'</strAtmServiceKey> ?strAtmServiceKey=$ATMKIT_KEY`, nil, `<strAtmServiceKey>'"$ATMKIT_KEY"'</strAtmServiceKey> ?strAtmServiceKey=$ATMKIT_KEY`},
		{"cmd.exe reference", `"http://h/x?strAtmServiceKey=%ATMKIT_KEY%&a=1" <strAtmServiceKey>%ATMKIT_KEY%</strAtmServiceKey>`, nil, `"http://h/x?strAtmServiceKey=%ATMKIT_KEY%&a=1" <strAtmServiceKey>%ATMKIT_KEY%</strAtmServiceKey>`},
		{"placeholder", "<strAtmServiceKey>REDACTED</strAtmServiceKey>", nil, "<strAtmServiceKey>REDACTED</strAtmServiceKey>"},
		{"key rejection's placeholder", "<strAtmServiceKey>REDACTED-REJECTED</strAtmServiceKey> ?strAtmServiceKey=REDACTED-REJECTED", nil, "<strAtmServiceKey>REDACTED-REJECTED</strAtmServiceKey> ?strAtmServiceKey=REDACTED-REJECTED"},
		{"literal, HTML-encoded after the parameter", `?a=1&amp;strAtmServiceKey=Leak&#39;Key&amp;12&quot;34 end`, []string{`Leak'Key&12"34`}, `?a=1&amp;strAtmServiceKey=Le**** end`},
		{"short literal, HTML-encoded after the parameter", `strAtmServiceKey=q&#39;z</p>`, []string{`q'z`}, `strAtmServiceKey=******</p>`},
		{"nothing", "no key here", []string{key}, "no key here"},
		{"a key inside a longer one, the shorter given first", "x=short1-secret&lt;b short1", []string{"short1", "short1-secret<b"}, "x=sh**** ******"},
		// A key beyond ASCII, in every form a client, a form's charset or
		// an ASP.NET error text writes it.
		{"non-ASCII literal, %u escapes", "q=Cl%u00E9-%u79D8%u5BC6 q=Cl%u00e9-%u79d8%u5bc6", []string{"Clé-秘密"}, "q=****** q=******"},
		{"non-ASCII literal, lower-case escapes", "q=Cl%c3%a9-%e7%a7%98%e5%af%86", []string{"Clé-秘密"}, "q=******"},
		{"non-ASCII literal, HtmlEncode", "(strAtmServiceKey=&quot;Cl&#233;-秘密&lt;b&quot;)", []string{"Clé-秘密"}, "(strAtmServiceKey=&quot;******&quot;)"},
		{"non-ASCII literal, character references", "<a>Cl&#233;-&#31192;&#23494;</a><a>Cl&#xE9;-&#x79D8;&#x5BC6;</a><a>Cl&#xe9;-&#x79d8;&#x5bc6;</a>", []string{"Clé-秘密"}, "<a>******</a><a>******</a><a>******</a>"},
		{"non-ASCII literal, JSON-escaped to ASCII", `{"k":"Cl\u00e9-\u79d8\u5bc6","l":"Cl\u00E9-\u79D8\u5BC6"}`, []string{"Clé-秘密"}, `{"k":"******","l":"******"}`},
		{"Latin-1 literal, a form's escapes", "a=Cl%E9+x&b=Cl%e9", []string{"Clé"}, "a=******+x&b=******"},
		{"Latin-1 literal, raw bytes", "a=Cl\xe9 x", []string{"Clé"}, "a=****** x"},
		// An ASCII key's escapes in lower case, as .NET's
		// HttpUtility.UrlEncode writes them.
		{"literal, lower-case escapes", "Referer: http://h/x?k=Leak%2fKey%2b1234%3d", []string{"Leak/Key+1234="}, "Referer: http://h/x?k=Le****"},
		// As ASP.NET AJAX's JSON error object writes a string (an
		// apostrophe as \u0027), and as the JSON binding's results do (\b
		// as \u0008).
		{"literal, AJAX JSON", `{"Message":"(k=\"Leak\u0027Key\u003cb-1234\")"}`, []string{"Leak'Key<b-1234"}, `{"Message":"(k=\"Le****\")"}`},
		{"literal, control character, JSON result", `{"a":"Leak\u0008Key-1234"}`, []string{"Leak\bKey-1234"}, `{"a":"Le****"}`},
		{"XML, a processing instruction inside", `<strAtmServiceKey>Leak<?pi x?>-Key-1234</strAtmServiceKey>`, nil, `<strAtmServiceKey>Le****</strAtmServiceKey>`},
		{"windows-1252 literal", "a=%80uro-key-1 a=\x80uro-key-1", []string{"€uro-key-1"}, "a=€u**** a=€u****"},
		// A key quoted by Go's %q (a report's failure, a log line) before
		// it was masked.
		{"literal, %q-quoted", fmt.Sprintf("got %q, %q and %q", "Leak-\x01-Key-1234", "a Leak-\U000f0000-Key-1234", "Leak-\xff-Key-1234."),
			[]string{"Leak-\x01-Key-1234", "Leak-\U000f0000-Key-1234", "Leak-\xff-Key-1234"}, `got "Le****", "a Le****" and "Le****."`},
		{"literal, as printable writes it", "got Leak-\\x01-Key-1234", []string{"Leak-\x01-Key-1234"}, "got Le****"},
		// ASP.NET's request validation quotes a cut excerpt of a
		// dangerous value (10 units before the markup, 20 after): of a
		// long key, a part no literal mask matches. The whole excerpt is
		// masked, however the message is written (text, HTML, XML, JSON,
		// Go's %q), and only the excerpt.
		{"validation excerpt", `(strAtmServiceKey="<bLeak-Key-1234-5678-9...").`, []string{"<bLeak-Key-1234-5678-90ab-cdef"}, `(strAtmServiceKey="******").`},
		{"validation excerpt, unknown key, in a message", "A potentially dangerous Request.QueryString value was detected from the client (STRATMSERVICEKEY=\"...-5678-90ab&#1-secret-tail...\").\r\n   at System.Web.HttpRequest.ValidateString(String value)", nil,
			"A potentially dangerous Request.QueryString value was detected from the client (STRATMSERVICEKEY=\"******\").\r\n   at System.Web.HttpRequest.ValidateString(String value)"},
		{"validation excerpt, HTML", `<title>A potentially dangerous Request.Form value was detected from the client (strAtmServiceKey=&quot;...-5678-90ab&lt;b-secret-tail...&quot;).</title><style>body {font-family:"Verdana"}</style>`, nil,
			`<title>A potentially dangerous Request.Form value was detected from the client (strAtmServiceKey=&quot;******&quot;).</title><style>body {font-family:"Verdana"}</style>`},
		{"validation excerpt, XML", `<faultstring>(strAtmServiceKey=&#34;...-5678-90ab&lt;b-secret-tail...&#34;).</faultstring>`, nil, `<faultstring>(strAtmServiceKey=&#34;******&#34;).</faultstring>`},
		{"validation excerpt, JSON", `{"Message":"(strAtmServiceKey=\"...-5678-90ab\u003cb-secret-tail...\").","StackTrace":"   at x(String a)"}`, nil, `{"Message":"(strAtmServiceKey=\"******\").","StackTrace":"   at x(String a)"}`},
		{"validation excerpt, quoted twice", `msg="error \"(strAtmServiceKey=\\\"...-5678-90ab<b-secret-tail...\\\").\""`, nil, `msg="error \"(strAtmServiceKey=\\\"******\\\").\""`},
		{"validation excerpt holding the quote and parenthesis", `(strAtmServiceKey="...-5678")-<b-secret-tail...").`, nil, `(strAtmServiceKey="******").`},
		{"validation excerpt, cut", `(strAtmServiceKey="...-5678-90ab<b-sec`, nil, `(strAtmServiceKey="******`},
		{"a quote opening a value, never closed", `strAtmServiceKey="secret ` + strings.Repeat("é", 300), nil, `strAtmServiceKey="******` + strings.Repeat("é", 300-(excerptWindow-len("secret ")+1)/2)}, // cut at a character
		// A query value is the whole text up to the next pair (ASP.NET
		// splits at & alone): a ' or ; inside is the key's.
		{"query, apostrophe and semicolon in the key", `GET /x?strAtmServiceKey=Leak'Key;1234-tail&a=1`, nil, `GET /x?strAtmServiceKey=Le****&a=1`},
		{"query, apostrophe key in a message", `Get "http://h/x?strAtmServiceKey=it's-a-secret": EOF`, []string{"it's-a-secret"}, `Get "http://h/x?strAtmServiceKey=it****": EOF`},
		// A key holding a reference to the variable, or a mask, is a key.
		{"query, a key holding the variable's name", `?strAtmServiceKey=sec$ATMKIT_KEYret&x=%ATMKIT_KEY%tail`, nil, `?strAtmServiceKey=se****&x=%ATMKIT_KEY%tail`},
		{"query, a key holding cmd.exe's reference", `?strAtmServiceKey=%ATMKIT_KEY%-secret`, nil, `?strAtmServiceKey=%A****`},
		{"XML, a key holding the variable's name", `<strAtmServiceKey>sec"$ATMKIT_KEY"ret</strAtmServiceKey>`, nil, `<strAtmServiceKey>se****</strAtmServiceKey>`},
		{"JSON, a key holding a mask", `{"strAtmServiceKey":"Le****-secret"}`, nil, `{"strAtmServiceKey":"Le****"}`},
		{"POSIX curl line's reference", `curl 'http://h/x?strAtmServiceKey='"$ATMKIT_KEY"'&a=1' 'http://h/y?strAtmServiceKey='"$ATMKIT_KEY"`, nil,
			`curl 'http://h/x?strAtmServiceKey='"$ATMKIT_KEY"'&a=1' 'http://h/y?strAtmServiceKey='"$ATMKIT_KEY"`},
		{"PowerShell reference", `curl.exe "http://h/x?strAtmServiceKey=$env:ATMKIT_KEY" "http://h/x?strAtmServiceKey=${env:ATMKIT_KEY}"`, nil,
			`curl.exe "http://h/x?strAtmServiceKey=$env:ATMKIT_KEY" "http://h/x?strAtmServiceKey=${env:ATMKIT_KEY}"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if got := Text(tt.in, tt.keys...); got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
			if got := Text(tt.want, tt.keys...); got != tt.want {
				t.Errorf("masked again: got %q, want %q unchanged", got, tt.want)
			}
			if got := NewMasker(tt.keys...).Text(tt.in); got != tt.want {
				t.Errorf("Masker: got %q, want %q", got, tt.want)
			}
			if got := NewMasker().Text(tt.in, tt.keys...); got != tt.want {
				t.Errorf("Masker of no keys, the keys as more: got %q, want %q", got, tt.want)
			}
		})
	}
}

// FuzzMasker checks that a Masker masks as Text does, its keys' forms
// found once: the request log masks with one, the rest of atmkit with Text.
func FuzzMasker(f *testing.F) {
	f.Add("GET /x?strAtmServiceKey=Leak-Key-1234&k=k1 Leak%2DKey", "Leak-Key-1234", "k1")
	f.Add("<a>Leak&amp;Key&lt;1234</a> a test", "Leak&Key<1234", "test")
	f.Fuzz(func(t *testing.T, s, k1, k2 string) {
		want := Text(s, k1, k2)
		if k1 == k2 { // a Masker masks a key once (Text, given it twice, masks the masked text again)
			want = Text(s, k1)
		}
		if got := NewMasker(k1, k2).Text(s); got != want {
			t.Errorf("NewMasker(%q, %q).Text(%q) = %q, Text = %q", k1, k2, s, got, want)
		}
		if got := NewMasker(k1).Text(s, k2); got != want {
			t.Errorf("NewMasker(%q).Text(%q, %q) = %q, Text = %q", k1, s, k2, got, want)
		}
	})
}

// FuzzTextMasksForms: Text masks a key in every form Forms makes of it,
// wherever a text holds it, next to another key's form. Each key is Q + a
// fuzzed text + Q and nothing else holds a Q or a key a '*': a form found
// in what Text returned is then a form the text held, not one the masks
// made of their first two characters and what stands around them. (The
// Qs keep one key's form from holding another's: the order forms are
// masked in is TestText's.)
func FuzzTextMasksForms(f *testing.F) {
	f.Add("Leak-Key-1234", "Clé-秘密", "a ", "&", "", uint8(0), uint8(3))
	f.Add("k'\"<>&\x01", "Leak\xffKey", "strAtmServiceKey=", "<?pi?>", "\n", uint8(7), uint8(11))
	f.Fuzz(func(t *testing.T, a, b, pre, mid, post string, formA, formB uint8) {
		if strings.ContainsAny(a+b, "Q*") || strings.ContainsRune(pre+mid+post, 'Q') {
			return
		}
		keyA, keyB := "Q"+a+"Q", "Q"+b+"Q"
		if utf8.RuneCountInString(keyA) < MinLiteral || utf8.RuneCountInString(keyB) < MinLiteral {
			return // shorter keys are masked only as words of their own
		}
		formsA, formsB := Forms(keyA), Forms(keyB)
		s := pre + formsA[int(formA)%len(formsA)] + mid + formsB[int(formB)%len(formsB)] + post
		for name, got := range map[string]string{"Text": Text(s, keyA, keyB), "Masker": NewMasker(keyA).Text(s, keyB)} {
			for _, form := range append(formsA, formsB...) {
				if strings.Contains(got, form) {
					t.Fatalf("%s(%q) = %q: holds the form %q", name, s, got, form)
				}
			}
		}
	})
}

func TestURL(t *testing.T) {
	t.Parallel()
	in := "https://user:pass@atm.example.org/service/service.asmx/ReturnProvinces?strAtmServiceKey=Leak-Key-1234"
	want := "https://user:xxxxx@atm.example.org/service/service.asmx/ReturnProvinces?strAtmServiceKey=Le****"
	if got := URL(in); got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	// A URL that does not parse (a password with a space or a stray %)
	// keeps its password out too: a usage error quotes what was given.
	for _, c := range []struct{ in, want string }{
		{"http://u:p\u00e4 ss@127.0.0.1:1/x", "http://u:xxxxx@127.0.0.1:1/x"},
		{"http://u:pw%zz@host/x?y", "http://u:xxxxx@host/x?y"},
		{"https://me:a@b@host:8080", "https://me:xxxxx@host:8080"},
		{"http://u:p w@host#frag", "http://u:xxxxx@host#frag"},
		{"http://host/x%zz?u:p@h", "http://host/x%zz?u:p@h"},
		{"http://justuser@host/ %zz", "http://justuser@host/ %zz"},
	} {
		if got := URL(c.in); got != c.want {
			t.Errorf("URL(%q): got %q, want %q", c.in, got, c.want)
		}
	}
	// The parameter's name percent-encoded, as ASMX decodes it (a letter
	// escaped, a long s): its value masked where it stands, in a URL and
	// in an error quoting one.
	for _, c := range []struct{ in, want string }{
		{"http://h/x?%73trAtmServiceKey=Leak-Key-1234&a=1", "http://h/x?%73trAtmServiceKey=Le****&a=1"},
		{"http://h/x?%C5%BFtrAtmServiceKey=Leak-Key-1234", "http://h/x?%C5%BFtrAtmServiceKey=Le****"},
		{"http://h/x?strAtm%53erviceKey=Leak%2DKey%2D1234", "http://h/x?strAtm%53erviceKey=Le****"},
	} {
		if got := URL(c.in); got != c.want {
			t.Errorf("URL(%q): got %q, want %q", c.in, got, c.want)
		}
		err := &url.Error{Op: "Get", URL: c.in, Err: io.EOF}
		if got, want := Error(err).Error(), `Get "`+c.want+`": EOF`; got != want {
			t.Errorf("Error of a *url.Error for %q: got %q, want %q", c.in, got, want)
		}
	}
}

func TestError(t *testing.T) {
	t.Parallel()
	const key = "Leak-Key-1234"
	sentinel := errors.New("sentinel")
	ue := &url.Error{Op: "Get", URL: "http://127.0.0.1:1/x?strAtmServiceKey=" + key,
		Err: &net.OpError{Op: "dial", Net: "tcp", Err: errors.New("connection refused")}}
	err := fmt.Errorf("fetch: %w (%w)", ue, sentinel)

	got := Error(err, key)
	if strings.Contains(got.Error(), key) || !strings.Contains(got.Error(), "strAtmServiceKey=Le****") {
		t.Errorf("Error(): got %q, want the key masked", got)
	}
	if !errors.Is(got, sentinel) {
		t.Error("errors.Is(masked, sentinel): got false, want true")
	}
	var asURL *url.Error
	if !errors.As(got, &asURL) || strings.Contains(asURL.Error(), key) {
		t.Errorf("errors.As *url.Error: got %v, want the error with its URL masked", asURL)
	}
	var timeout interface{ Timeout() bool }
	if !errors.As(got, &timeout) || strings.Contains(timeout.(error).Error(), key) {
		t.Errorf("errors.As interface: got %v, want the *url.Error with its URL masked", timeout)
	}
	if ue.URL != "http://127.0.0.1:1/x?strAtmServiceKey="+key {
		t.Errorf("the original *url.Error changed: %q", ue.URL)
	}
	var op *net.OpError
	if !errors.As(got, &op) {
		t.Error("errors.As *net.OpError: got false, want the cause")
	}

	if Error(nil, key) != nil {
		t.Error("Error(nil): got an error, want nil")
	}
	if Error(io.EOF, key) != io.EOF {
		t.Error("Error(io.EOF): want io.EOF itself when nothing is masked")
	}
}

func TestValues(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, in string
		want     []string
	}{
		{"none", "no parameter here", nil},
		{"query", "a=1&strAtmServiceKey=Leak%2DKey&b=2", []string{"Leak%2DKey", "Leak-Key"}},
		{"XML, escaped and spaced", "<strAtmServiceKey> a&amp;b </strAtmServiceKey>", []string{" a&amp;b ", "a&amp;b", "a&b"}},
		{"JSON", `{"strAtmServiceKey":"a\"b"}`, []string{`a\"b`, `a"b`}},
		{"query, %u escapes", "strAtmServiceKey=Cl%u00E9-%u79D8", []string{"Cl%u00E9-%u79D8", "Clé-秘"}},
		{"form in ISO-8859-1 or windows-1252", "strAtmServiceKey=Cl%E9%80", []string{"Cl%E9%80", "Cl\xe9\x80", "Clé\u0080", "Clé€"}},
		{"XML, CDATA and a comment", "<strAtmServiceKey>a<!--c--><![CDATA[<b>]]>&amp;</strAtmServiceKey>", []string{"a<!--c--><![CDATA[<b>]]>&amp;", "a<!--c--><![CDATA[<b>]]>&", "a<b>&"}},
		{"XML, a comment and a processing instruction opening with their ends' characters", "<strAtmServiceKey>Leak<!-->c-->-Key<?>p?>-1234</strAtmServiceKey>",
			[]string{"Leak<!-->c-->-Key<?>p?>-1234", "Leak-Key-1234"}},
		{"query, apostrophe and semicolon", "strAtmServiceKey=it's;key&b=2", []string{"it's;key"}},
		{"query, a key holding the variable's name", "strAtmServiceKey=$ATMKIT_KEY-secret", []string{"$ATMKIT_KEY-secret"}},
		{"two keys, a mask left out", "<strAtmServiceKey>one-key</strAtmServiceKey><strAtmServiceKey>Le****</strAtmServiceKey>?strAtmServiceKey=two", []string{"two", "one-key"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got := Values(tt.in)
			if fmt.Sprint(got) != fmt.Sprint(tt.want) {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}

func TestForms(t *testing.T) {
	t.Parallel()
	got := Forms(`a&b"c d`)
	for _, want := range []string{`a&b"c d`, "a%26b%22c+d", "a&amp;b&#34;c d", "a&amp;b&quot;c d", `a\u0026b\"c d`} {
		if !slices.Contains(got, want) {
			t.Errorf("Forms: got %q, want it to hold %q", got, want)
		}
	}
	for i := 1; i < len(got); i++ {
		if len(got[i]) > len(got[i-1]) || got[i] == got[i-1] {
			t.Errorf("Forms: got %q, want each once, longest first", got)
		}
	}
	// As ASP.NET's HtmlEncode writes it: " as &quot;, ' as &#39;.
	if got, want := Forms(`a&"b'c`), "a&amp;&quot;b&#39;c"; !slices.Contains(got, want) {
		t.Errorf("Forms: got %q, want it to hold %q", got, want)
	}
	// A key beyond ASCII: as a client, a form's charset, ASP.NET's
	// HtmlEncode, XML and JSON may write it.
	got = Forms("Clé")
	for _, want := range []string{"Cl%C3%A9", "Cl%c3%a9", "Cl%u00E9", "Cl%u00e9", "Cl%E9", "Cl%e9", "Cl\xe9",
		"Cl&#233;", "Cl&#xE9;", "Cl&#xe9;", `Cl\u00e9`, `Cl\u00E9`} {
		if !slices.Contains(got, want) {
			t.Errorf("Forms(Clé): got %q, want it to hold %q", got, want)
		}
	}
	// A control character as an answer writes it (XmlTextEncoder).
	if got, want := Forms("k\x01ey\""), "k&#x1;ey&quot;"; !slices.Contains(got, want) {
		t.Errorf("Forms: got %q, want it to hold %q", got, want)
	}
	if got := Forms("plain-key"); len(got) != 1 {
		t.Errorf("Forms(plain-key): got %q, want one form", got)
	}
}

func TestIsCredentialHeader(t *testing.T) {
	t.Parallel()
	for name, want := range map[string]bool{"Authorization": true, "cookie": true, "SET-COOKIE": true,
		"Proxy-Authorization": true, "X-Api-Key": true, "Ocp-Apim-Subscription-Key": true, "x-auth-token": true,
		"X-Amz-Security-Token": true, "X-Gateway-Secret": true, "WWW-Authenticate": true, "X-Session-Id": true,
		"Content-Type": false, "SOAPAction": false, "Keep-Alive": false, "User-Agent": false, "Accept-Encoding": false,
		"Content-Length": false, "Cache-Control": false, "X-AspNet-Version": false, "X-Powered-By": false, "Server": false, "Date": false} {
		if got := IsCredentialHeader(name); got != want {
			t.Errorf("IsCredentialHeader(%q): got %v, want %v", name, got, want)
		}
	}
}

// BenchmarkTextPath masks the keys in a request's path as the mock's
// request log does for every call: the configured key and the call's own,
// neither in the path.
func BenchmarkTextPath(b *testing.B) {
	path := "/service/service.asmx/ReturnAtmSearchByCoordinates"
	for b.Loop() {
		if got := Text(path, "bench-key", "ci-secret-key"); got != path {
			b.Fatalf("Text = %q", got)
		}
	}
}

// FuzzParams: the values eachParam finds are masked whole, once. A query
// value or a request validation excerpt of a value leaves none of it in
// what Text returns (it is at least eight bytes and holds a character no
// mask or surrounding text does), and masking Text's result again changes
// nothing.
func FuzzParams(f *testing.F) {
	f.Add("GET /x?", "it's;a-long-Q-secret", "&a=1")
	f.Add("(", `"...<bLeak")-Q-1234...")`, ".")
	f.Add("<title>(", "&quot;...Q&lt;b...&quot;)", ".</title>")
	f.Add("", `\"...Q<b...\")`, `.","StackTrace":""}`)
	f.Fuzz(func(t *testing.T, pre, v, post string) {
		s := pre + ParamName + "=" + v + post
		got := Text(s)
		if again := Text(got); again != got {
			t.Fatalf("Text(%q) = %q, masked again %q", s, got, again)
		}
		// Q is the value's own, after the two characters a mask shows,
		// and not made by decoding.
		if len(v) < 8 || strings.Contains(pre+post, "Q") || strings.Count(v, "Q") != 1 || strings.IndexByte(v, 'Q') < 8 ||
			strings.ContainsAny(v, "%+") || strings.ContainsAny(pre, "Ss") {
			return
		}
		q := openQuote(v)
		var secret string
		if q == "" {
			if queryValue(v) != len(v) || pre != "" && !strings.ContainsAny(pre[len(pre)-1:], paramStarts) || strings.HasPrefix(v, `'"$ATMKIT_KEY"`) {
				return
			}
			secret = v
		} else {
			// An excerpt as the message quotes it: closed by q and ")",
			// no longer than the window.
			inner, ok := strings.CutSuffix(v[len(q):], q+")")
			if !ok || len(inner) > excerptWindow-len(q) || strings.HasPrefix(inner, stars) {
				return
			}
			secret = inner
		}
		if strings.Contains(got, "Q") {
			t.Fatalf("Text(%q) = %q: holds part of the value %q", s, got, secret)
		}
	})
}
