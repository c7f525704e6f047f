package recorded

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/atmkit/atmkit/asmx"
	"gopkg.in/dnaeon/go-vcr.v3/cassette"
)

// TestCallOfReadsAsASMX: a GET, POST or JSON call whose query or form
// net/url refuses (%uXXXX escapes, a lone '%', '%zz', a ';') is the call
// ASMX reads, its key included (for the key marks); one net/url parses is
// read as net/url reads it, as cassettes recorded so far were: a pair
// without '=' is a parameter with an empty value there (ASMX reads it as
// a value without a name). The %u calls used to be no call (RequestKey
// "raw|..."), which replay never matched with the call the mock decodes.
func TestCallOfReadsAsASMX(t *testing.T) {
	form := http.Header{"Content-Type": {"application/x-www-form-urlencoded; charset=utf-8"}}
	latin1 := http.Header{"Content-Type": {"application/x-www-form-urlencoded; charset=iso-8859-1"}}
	const addr = "/service/service.asmx/ReturnAtmSearchByAddress"
	rest := "&strAddress=&strProvince=QC&strPostalCode=&bytRadius=5"
	for _, c := range []struct {
		name, method, url string
		h                 http.Header
		body              string
		key, city         string
		ok                bool
	}{
		{"GET %u", "GET", addr + "?strAtmServiceKey=k%u00e9y&strCity=Montr%u00e9al" + rest, nil, "", "kéy", "Montréal", true},
		{"GET %u, upper case", "GET", addr + "?strAtmServiceKey=k&strCity=Montr%u00E9al" + rest, nil, "", "k", "Montréal", true},
		{"GET surrogate pair", "GET", addr + "?strAtmServiceKey=k&strCity=%uD83C%uDFE6" + rest, nil, "", "k", "🏦", true},
		{"GET lone %", "GET", addr + "?strAtmServiceKey=k&strCity=100%" + rest, nil, "", "k", "100%", true},
		{"GET %zz", "GET", addr + "?strAtmServiceKey=k&strCity=%zz" + rest, nil, "", "k", "%zz", true},
		{"GET ;", "GET", addr + "?strAtmServiceKey=k;x&strCity=a;b" + rest, nil, "", "k;x", "a;b", true},
		{"GET the key's name as %u", "GET", addr + "?strAtm%u0053erviceKey=k&strCity=x" + rest, nil, "", "k", "x", true},
		{"POST %u", "POST", addr, form, "strAtmServiceKey=k&strCity=Montr%u00e9al" + rest, "k", "Montréal", true},
		{"POST %u, a Latin-1 form", "POST", addr, latin1, "strAtmServiceKey=Cl%E9&strCity=Montr%u00e9al%E9" + rest, "Clé", "Montréalé", true},
		{"JSON GET %u", "GET", "/service-v2.asmx/ReturnAtmSearchByAddress?strAtmServiceKey=k&strCity=Montr%u00e9al" + rest, nil, "", "k", "Montréal", true},
		{"JSON POST %u", "POST", "/service-v2.asmx/ReturnAtmSearchByAddress", form, "strAtmServiceKey=k&strCity=Montr%u00e9al" + rest, "k", "Montréal", true},
		{"GET a pair without =, net/url's reading", "GET", addr + "?strAtmServiceKey&strCity=x" + rest, nil, "", "", "x", true},
		{"GET %u, a parameter missing", "GET", addr + "?strAtmServiceKey=k&strCity=Montr%u00e9al", nil, "", "", "", false},
	} {
		call, ok := CallOf(c.method, "http://upstream.example"+c.url, c.h, c.body)
		if ok != c.ok {
			t.Errorf("%s: CallOf ok = %v, want %v", c.name, ok, c.ok)
			continue
		}
		if !ok {
			continue
		}
		city := ""
		for _, p := range call.Params() {
			if p[0] == asmx.ParamCity {
				city = p[1]
			}
		}
		if call.Key != c.key || city != c.city {
			t.Errorf("%s: CallOf reads the key %q and the city %q, want %q and %q", c.name, call.Key, city, c.key, c.city)
		}
	}
}

// TestIsKeyNameAsASPNET: the key's name is found written as ASP.NET reads
// it, with %uXXXX escapes too, which net/url refuses (a key under such a
// name was kept by the scrubber); what is not the name is not.
func TestIsKeyNameAsASPNET(t *testing.T) {
	for name, want := range map[string]bool{
		"strAtmServiceKey": true, "STRATMSERVICEKEY": true, "strAtm%53erviceKey": true, "strAtmServiceKey+": true,
		"strAtm%u0053erviceKey": true, "%u0073trAtmServiceKey": true, "%u0073%u0074%u0072AtmServiceKe%u0079": true, "strAtm%U0053erviceKey": false,
		"strAtmServiceKey%": false, "strAtmServiceKey%zz": false, "strAtm%u0053erviceKeys": false, "strCity": false,
	} {
		if got := IsKeyName(name); got != want {
			t.Errorf("IsKeyName(%q) = %v, want %v", name, got, want)
		}
	}
}

// TestNotUTF8: a recorded HTTP GET, POST or JSON call whose query or form
// names no charset and holds bytes that are not UTF-8 (a legacy
// deployment's strCity=Montr%E9al), escaped or raw, is told, and Identify
// reads its city in the requestEncoding given: U+FFFD in UTF-8, é in
// iso-8859-1. UTF-8 escapes, %u escapes, a form naming its charset (read
// in it, whatever the requestEncoding), a query ASMX does not read (a
// POST's to the service path) and SOAP hold none.
func TestNotUTF8(t *testing.T) {
	latin1, err := asmx.ParseRequestEncoding("iso-8859-1")
	if err != nil {
		t.Fatal(err)
	}
	none := http.Header{"Content-Type": {asmx.ContentTypeForm}}
	utf8Form := http.Header{"Content-Type": {asmx.ContentTypeForm + "; charset=utf-8"}}
	latin1Form := http.Header{"Content-Type": {asmx.ContentTypeForm + "; charset=iso-8859-1"}}
	const addr = "/service/service.asmx/ReturnAtmSearchByAddress"
	const json = "/service-v2.asmx/ReturnAtmSearchByAddress"
	const rest = "&strAtmServiceKey=k&strAddress=x&strProvince=QC&strPostalCode=&bytRadius=5"
	soap := `<soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body><ReturnAtmSearchByCity xmlns="http://tempuri.org/"><strAtmServiceKey>k</strAtmServiceKey><intCityID>1</intCityID></ReturnAtmSearchByCity></soap:Body></soap:Envelope>`
	for _, c := range []struct {
		name, method, url string
		h                 http.Header
		body              string
		notUTF8           bool
		utf8City, latin1  string // the city read in UTF-8 and in iso-8859-1
	}{
		{"GET, a Latin-1 escape", "GET", addr + "?strCity=Montr%E9al" + rest, nil, "", true, "Montr\uFFFDal", "Montréal"},
		{"GET, a raw Latin-1 byte", "GET", addr + "?strCity=Montr\xe9al" + rest, nil, "", true, "Montr\uFFFDal", "Montréal"},
		{"GET, UTF-8 escapes", "GET", addr + "?strCity=Montr%C3%A9al" + rest, nil, "", false, "Montréal", "MontrÃ©al"},
		{"GET, U+FFFD sent in UTF-8", "GET", addr + "?strCity=Montr%EF%BF%BDal" + rest, nil, "", false, "Montr\uFFFDal", "Montrï¿½al"},
		{"GET, %u escapes", "GET", addr + "?strCity=Montr%u00e9al" + rest, nil, "", false, "Montréal", "Montréal"},
		{"GET, ASCII", "GET", addr + "?strCity=Halifax" + rest, nil, "", false, "Halifax", "Halifax"},
		{"POST, no charset", "POST", addr, none, "strCity=Montr%E9al" + rest, true, "Montr\uFFFDal", "Montréal"},
		{"POST, charset=iso-8859-1", "POST", addr, latin1Form, "strCity=Montr%E9al" + rest, false, "Montréal", "Montréal"},
		{"POST, charset=utf-8", "POST", addr, utf8Form, "strCity=Montr%E9al" + rest, false, "Montr\uFFFDal", "Montr\uFFFDal"},
		{"POST, a query ASMX does not read", "POST", addr + "?x=%E9", none, "strCity=Halifax" + rest, false, "Halifax", "Halifax"},
		{"JSON GET", "GET", json + "?strCity=Montr%E9al" + rest, nil, "", true, "Montr\uFFFDal", "Montréal"},
		{"JSON POST, the form", "POST", json, none, "strCity=Montr%E9al" + rest, true, "Montr\uFFFDal", "Montréal"},
		{"JSON POST, the query", "POST", json + "?strCity=Montr%E9al", none, "strAtmServiceKey=k&strAddress=x&strProvince=QC&strPostalCode=&bytRadius=5", true, "Montr\uFFFDal", "Montréal"},
		{"JSON POST, the query, a form naming its charset", "POST", json + "?strCity=Montr%E9al", utf8Form, "strAtmServiceKey=k&strAddress=x&strProvince=QC&strPostalCode=&bytRadius=5", false, "Montr\uFFFDal", "Montr\uFFFDal"},
		{"SOAP", "POST", "/service/service.asmx", http.Header{"Content-Type": {"text/xml; charset=utf-8"}, "SOAPAction": {`"http://tempuri.org/ReturnAtmSearchByCity"`}}, soap, false, "", ""},
	} {
		i := &cassette.Interaction{Request: cassette.Request{Method: c.method, URL: "http://upstream.example" + c.url, Headers: c.h, Body: c.body}}
		for _, r := range []struct {
			enc  asmx.RequestEncoding
			city string
		}{{asmx.RequestEncodingUTF8, c.utf8City}, {latin1, c.latin1}} {
			b, _, params, notUTF8 := Identify(r.enc, i)
			if b == "" {
				t.Errorf("%s: no call", c.name)
				continue
			}
			city := ""
			for _, p := range params {
				if p[0] == asmx.ParamCity {
					city = p[1]
				}
			}
			if notUTF8 != c.notUTF8 || city != r.city {
				t.Errorf("%s, read in %s: not UTF-8 %v, the city %q; want %v and %q", c.name, r.enc.Name(), notUTF8, city, c.notUTF8, r.city)
			}
		}
	}
}

// FuzzNotUTF8: for any strCity value of an HTTP GET or POST call (no
// '&', '=' or %u escape; one net/url unescapes), NotUTF8 holds exactly
// when the value's bytes are not UTF-8; read in UTF-8, the city holds
// U+FFFD exactly when they are not, or write U+FFFD themselves; read in
// iso-8859-1, as --request-encoding iso-8859-1 has the note say, never.
func FuzzNotUTF8(f *testing.F) {
	f.Add("Montr%E9al", false)
	f.Add("Montr%C3%A9al", true)
	f.Add("Montr\xe9al", false)
	f.Add("%EF%BF%BD", true)
	f.Add("%C3+%A9", false)
	f.Add("caf%C3", true)
	latin1, err := asmx.ParseRequestEncoding("iso-8859-1")
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, city string, post bool) {
		decoded, err := url.QueryUnescape(city)
		if err != nil || strings.ContainsAny(city, "&=#") || strings.Contains(strings.ToLower(city), "%u") {
			t.Skip()
		}
		const addr = "/service/service.asmx/ReturnAtmSearchByAddress"
		q := "strAtmServiceKey=k&strAddress=x&strCity=" + city + "&strProvince=QC&strPostalCode=&bytRadius=5"
		i := &cassette.Interaction{Request: cassette.Request{Method: "GET", URL: "http://upstream.example" + addr + "?" + q}}
		if post {
			i.Request = cassette.Request{Method: "POST", URL: "http://upstream.example" + addr, Body: q,
				Headers: http.Header{"Content-Type": {asmx.ContentTypeForm}}}
		}
		valid := utf8.ValidString(decoded)
		for _, enc := range []asmx.RequestEncoding{asmx.RequestEncodingUTF8, latin1} {
			b, _, params, notUTF8 := Identify(enc, i)
			if b == "" {
				t.Skip() // no call (a URL net/url refuses, a value the operation refuses)
			}
			if notUTF8 != !valid {
				t.Fatalf("%q (%s): NotUTF8 %v, its bytes UTF-8 %v", city, b, notUTF8, valid)
			}
			got := ""
			for _, p := range params {
				if p[0] == asmx.ParamCity {
					got = p[1]
				}
			}
			want := enc.IsUTF8() && (!valid || strings.ContainsRune(decoded, utf8.RuneError))
			if strings.ContainsRune(got, utf8.RuneError) != want {
				t.Fatalf("%q (%s) read in %s: %q; U+FFFD expected: %v", city, b, enc.Name(), got, want)
			}
		}
	})
}

// TestCallOfJoinsCaseVariantsInOrder: the values of names that differ
// only in case are joined in the order the query or form gives them, as
// ASP.NET's NameValueCollection adds them and the mock decodes a live
// call (asmx.DecodeQuery): a url.Values has no order, and its reading put
// the parameter's own name first and the others as the map gave them, so
// a recorded call (and its RequestKey) was another call than the one the
// mock decodes from the same request, and not the same from run to run.
func TestCallOfJoinsCaseVariantsInOrder(t *testing.T) {
	form := http.Header{"Content-Type": {"application/x-www-form-urlencoded"}}
	const addr = "/service/service.asmx/ReturnAtmSearchByAddress"
	const query = "strAtmServiceKey=k&STRCITY=b&strProvince=QC&strCity=a&StrCity=c&sTRcITY=d&strAddress=&strPostalCode=&bytRadius=5"
	op, _, _ := asmx.OperationFromPath("/ReturnAtmSearchByAddress")
	for _, c := range []struct {
		name, method, url string
		h                 http.Header
		body              string
		b                 asmx.Binding
	}{
		{"GET", "GET", addr + "?" + query, nil, "", asmx.HTTPGet},
		{"POST", "POST", addr, form, query, asmx.HTTPPost},
		{"JSON GET", "GET", "/service-v2.asmx/ReturnAtmSearchByAddress?" + query, nil, "", asmx.JSON},
	} {
		live, e := asmx.DecodeQuery(op, c.b, query)
		if e != nil {
			t.Fatalf("%s: the mock's reading: %v", c.name, e)
		}
		for range 20 { // map orders vary from run to run
			call, ok := CallOf(c.method, "http://upstream.example"+c.url, c.h, c.body)
			if !ok {
				t.Fatalf("%s: CallOf: no call", c.name)
			}
			if got, want := call.Canonical(), live.Canonical(); got != want {
				t.Fatalf("%s: got %s, want the mock's %s", c.name, got, want)
			}
		}
	}
}
