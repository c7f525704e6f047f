package asmx

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// TestValidateQuery checks ASP.NET's request validation as the three modes
// apply it to a query: what is dangerous (CrossSiteScriptingValidation),
// which values are looked at and in what order, and the message
// (HttpRequest.ValidateString: the name, 10 characters before the match
// and 20 after, HTML-encoded by the GET/POST error form).
func TestValidateQuery(t *testing.T) {
	t.Parallel()
	city, _ := LookupOperation(OpReturnAtmSearchByCity)
	const prefix = "A potentially dangerous Request.QueryString value was detected from the client ("
	for _, tc := range []struct {
		name  string
		mode  RequestValidation
		b     Binding
		query string
		want  string // the remote text; "" for no error
	}{
		{"a tag", Validation40, HTTPGet, "strAtmServiceKey=k&intCityID=%3Cb%3E", prefix + "intCityID=&quot;&lt;b&gt;&quot;)."},
		{"a tag written raw", Validation40, HTTPGet, "strAtmServiceKey=k&intCityID=<b>", prefix + "intCityID=&quot;&lt;b&gt;&quot;)."},
		{"<!, </ and <?", Validation40, HTTPGet, "a=%3C!&b=%3C/&c=%3C%3F", prefix + "a=&quot;&lt;!&quot;)."},
		{"a character reference", Validation40, HTTPGet, "strAtmServiceKey=%26%2365;", prefix + "strAtmServiceKey=&quot;&amp;#65;&quot;)."},
		{"%u escapes", Validation40, HTTPGet, "a=%u003Cb&b=%U0026%23", prefix + "a=&quot;&lt;b&quot;)."},
		{"%u0026 then #", Validation40, HTTPGet, "b=%u0026%23", prefix + "b=&quot;&amp;#&quot;)."},
		{"other escapes are safe", Validation40, HTTPGet, "strAtmServiceKey=k&intCityID=1&x=B1P%201A1%2C%3E%23", ""},
		{"the form of POST", Validation40, HTTPPost, "strAtmServiceKey=%3Cx", "A potentially dangerous Request.Form value was detected from the client (strAtmServiceKey=&quot;&lt;x&quot;)."},
		{"< before a digit, a space or at the end is safe", Validation40, HTTPGet, "a=%3C1&b=%3C%20&c=x%3C&d=%26&e=%26x", ""},
		{"a NUL between < and a letter does not hide it", Validation40, HTTPGet, "a=%3C%00b", prefix + "a=&quot;&lt;b&quot;)."},
		{"a non-ASCII letter after < is safe", Validation40, HTTPGet, "a=%3C%C3%A9", ""},
		{"the excerpt: 10 before, 20 after", Validation40, HTTPGet, "note=1234567890ab%26%2365;cdefghijklmnopqrstuvwxyz", prefix + "note=&quot;...34567890ab&amp;#65;cdefghijklmnopq...&quot;)."},
		{"4.0: an unknown name, in the order of the query", Validation40, HTTPGet, "x=%3Ca&strAtmServiceKey=%3Cb", prefix + "x=&quot;&lt;a&quot;)."},
		{"4.0: before a missing parameter", Validation40, HTTPGet, "x=%3Ca", prefix + "x=&quot;&lt;a&quot;)."},
		{"4.0: values of one name joined, names ignoring case", Validation40, HTTPGet, "intCityID=1&INTCITYID=%3Cb", prefix + "intCityID=&quot;1,&lt;b&quot;)."},
		{"4.0: a pair without a name", Validation40, HTTPGet, "%3Cb", prefix + "=&quot;&lt;b&quot;)."},
		{"4.0: a value without a name is not the empty name's", Validation40, HTTPGet, "=a&%3Cb", prefix + "=&quot;&lt;b&quot;)."},
		{"4.0: nor the other way round", Validation40, HTTPGet, "=%3Cb&x", prefix + "=&quot;&lt;b&quot;)."},
		{"bytes that are not UTF-8: one U+FFFD a sequence", Validation40, HTTPGet, "a=%A4%E9%80%3Cb", prefix + "a=&quot;\ufffd\ufffd&lt;b&quot;)."},
		{"4.0: ASP.NET's own fields are skipped", Validation40, HTTPGet, "__VIEWSTATE=%3Cb", ""},
		{"4.5: an unknown name is not read", Validation45, HTTPGet, "x=%3Ca&strAtmServiceKey=k&intCityID=1", ""},
		{"4.5: the parameters in their order", Validation45, HTTPGet, "intCityID=%3Ca&strAtmServiceKey=%3Cb", prefix + "strAtmServiceKey=&quot;&lt;b&quot;)."},
		{"4.5: a missing parameter comes first", Validation45, HTTPGet, "intCityID=%3Ca", ""},
		{"4.5: the JSON path's query", Validation45, JSON, "strAtmServiceKey=k&intCityID=%3Ca", prefix + "intCityID=&quot;&lt;a&quot;)."},
		{"4.0: the Kelvin sign K is no k (OrdinalIgnoreCase)", Validation40, HTTPGet, "x\u212A=%3Cb&xk=1", prefix + "x\u212A=&quot;&lt;b&quot;)."},
		{"4.5: a name with the Kelvin sign K is not the key's", Validation45, HTTPGet, "strAtmService\u212Aey=%3Cb&strAtmServiceKey=k&intCityID=1", ""},
		{"2.0: nothing is validated", ValidationOff, HTTPGet, "strAtmServiceKey=%3Cb&intCityID=1", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := ValidateQuery(city, tc.b, tc.query, tc.mode)
			got := ""
			if e != nil {
				got = e.plainText(ErrorForm{})
				if e.Kind != KindRequestValidation || e.Status != 500 {
					t.Errorf("kind %s, status %d; want %s, 500", e.Kind, e.Status, KindRequestValidation)
				}
			}
			if strings.TrimRight(got, "\r\n") != tc.want {
				t.Errorf("ValidateQuery(%q) in %s:\n got %q\nwant %q", tc.query, tc.mode, got, tc.want)
			}
		})
	}
}

// TestValidateQueryDetailed: the local form names the exception and the
// frames of the mode: the whole collection read (4.0) or one value (4.5).
func TestValidateQueryDetailed(t *testing.T) {
	t.Parallel()
	op, _ := LookupOperation(OpReturnProvinces)
	for mode, frame := range map[RequestValidation]string{
		Validation40: "   at System.Web.HttpRequest.get_Form()\r\n   at System.Web.Services.Protocols.HtmlFormParameterReader.Read(HttpRequest request)",
		Validation45: "   at System.Web.HttpValueCollection.Get(String name)",
	} {
		e := ValidateQuery(op, HTTPPost, "strAtmServiceKey=%3Cb", mode)
		if e == nil {
			t.Fatalf("%s: no error", mode)
		}
		text := e.plainText(ErrorForm{Detailed: true})
		if !strings.HasPrefix(text, "System.Web.HttpRequestValidationException (0x80004005): A potentially dangerous Request.Form value") || !strings.Contains(text, frame) {
			t.Errorf("%s: detailed text %q lacks the type or %q", mode, text, frame)
		}
	}
}

// TestValidateQueryConvertsFirst: in mode 4.5 a parameter that does not
// convert is reported (by DecodeQuery) before a dangerous one after it; in
// mode 4.0 the dangerous one is.
func TestValidateQueryConvertsFirst(t *testing.T) {
	t.Parallel()
	op, _ := LookupOperation(OpReturnAtmSearchByCoordinates)
	q := "strAtmServiceKey=k&strPostalCode=&dblLatitude=north&dblLongitude=1&bytRadius=%3Cb"
	if e := ValidateQuery(op, HTTPGet, q, Validation45); e != nil {
		t.Errorf("4.5: %s, want none (dblLatitude does not convert first)", e.Message)
	}
	if e := ValidateQuery(op, HTTPGet, q, Validation40); e == nil || e.Param != "bytRadius" {
		t.Errorf("4.0: %v, want bytRadius refused", e)
	}
}

func TestParseRequestValidation(t *testing.T) {
	t.Parallel()
	for s, want := range map[string]RequestValidation{"2.0": ValidationOff, "off": ValidationOff, "4.0": Validation40, "4.5": Validation45} {
		if got, err := ParseRequestValidation(s); err != nil || got != want {
			t.Errorf("ParseRequestValidation(%q) = %v, %v; want %v", s, got, err, want)
		}
	}
	for _, s := range []string{"", "4", "on", "4.8"} {
		if _, err := ParseRequestValidation(s); err == nil {
			t.Errorf("ParseRequestValidation(%q): no error", s)
		}
	}
	if DefaultRequestValidation.String() != "4.0" {
		t.Errorf("default %s, want 4.0", DefaultRequestValidation)
	}
}

// FuzzValidateQuery: any query is validated without a panic; a query with
// neither '<' nor '%' is never refused; an error names a value the query
// holds and its text is UTF-8.
func FuzzValidateQuery(f *testing.F) {
	f.Add("strAtmServiceKey=k&intCityID=%3Cb%3E")
	f.Add("note=1234567890ab%26%2365;cdefghijklmnopqrstuvwxyz&%3Cb")
	f.Add("a=%3C%00b&A=%F0%9F%98%80%3Cx&__x=%3Cb")
	f.Add("a=%u003cb&b=%2526%23&c=%%3Cx&d=%3%43")
	op, _ := LookupOperation(OpReturnAtmSearchByCity)
	f.Fuzz(func(t *testing.T, query string) {
		for _, mode := range []RequestValidation{ValidationOff, Validation40, Validation45} {
			for _, b := range []Binding{HTTPGet, HTTPPost, JSON} {
				e := ValidateQuery(op, b, query, mode)
				if mode != ValidationOff && !mayHoldMarkup(query) && validateValues(op, b, query, mode) != nil {
					t.Fatalf("%s %s: the shortcut passed %q, which holds markup", mode, b, query)
				}
				if e == nil {
					continue
				}
				if mode == ValidationOff || !strings.ContainsAny(query, "<%") {
					t.Fatalf("%s %s refused %q", mode, b, query)
				}
				if text := e.plainText(ErrorForm{Detailed: true}); !utf8.ValidString(text) || !strings.Contains(text, "potentially dangerous") {
					t.Fatalf("error text %q", text)
				}
			}
		}
	})
}

// TestValidateDocsQuery: a GET of the .asmx itself is validated when ASMX's
// DiscoveryServerProtocolFactory reads its query: in mode 4.0 every value,
// in mode 4.5 the values without a name, schema's, and wsdl's when there is
// no schema; the exception is wrapped by CoreGetHandler and answered with
// ASP.NET's error page (500), titled after the validation's message.
func TestValidateDocsQuery(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		mode  RequestValidation
		query string
		want  string // the excerpt refused; "" for none
	}{
		{Validation40, "x=%3Cb", `x="<b"`},
		{Validation40, "WSDL&x=1&y=%26%23", `y="&#"`},
		{Validation40, "op=%3Cb", `op="<b"`},
		{Validation40, "__x=%3Cb", ""},
		{Validation40, "WSDL", ""},
		{Validation45, "x=%3Cb", ""},
		{Validation45, "op=%3Cb", ""}, // the help page's own reads are not modelled
		{Validation45, "%3Cb", `="<b"`},
		{Validation45, "=%3Cb", ""}, // "" is not the null name
		{Validation45, "wsdl=%3Cb", `wsdl="<b"`},
		{Validation45, "schema=%3Cb&wsdl=1", `schema="<b"`},
		{Validation45, "schema=1&wsdl=%3Cb", ""}, // a schema: wsdl is never read
		{ValidationOff, "x=%3Cb", ""},
	} {
		e := ValidateDocsQuery(tc.query, tc.mode)
		got := ""
		if e != nil {
			x := e.Exception
			if x.Message != "Failed to handle request." || x.Inner == nil || x.Inner.Type != typeRequestValidation || !e.Page || e.Status != 500 {
				t.Errorf("%s %q: got %+v, want the page of a wrapped HttpRequestValidationException, 500", tc.mode, tc.query, e)
				continue
			}
			got = strings.TrimSuffix(strings.TrimPrefix(x.Inner.Message, "A potentially dangerous Request.QueryString value was detected from the client ("), ").")
			page := string(errorPage(e, true))
			if !strings.Contains(page, "<title>"+htmlEncode(x.Inner.Message)+"</title>") || !strings.Contains(page, "Exception Details: </b>System.Web.HttpRequestValidationException: ") {
				t.Errorf("%s %q: the detailed page is not titled after the validation:\n%.600s", tc.mode, tc.query, page)
			}
		}
		if got != tc.want {
			t.Errorf("%s %q: got %q, want %q", tc.mode, tc.query, got, tc.want)
		}
	}
}
