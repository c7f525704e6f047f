package asmx

import (
	"net/url"
	"strings"
	"testing"
	"unicode/utf8"
)

const ns = DefaultNamespace

func env11(body string) string {
	return `<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="` + NamespaceSOAP11 + `"><soap:Body>` + body + `</soap:Body></soap:Envelope>`
}

func env12(body string) string {
	return `<soap12:Envelope xmlns:soap12="` + NamespaceSOAP12 + `"><soap12:Body>` + body + `</soap12:Body></soap12:Envelope>`
}

func TestDecodeSOAP(t *testing.T) {
	coords := `<ReturnAtmSearchByCoordinates xmlns="` + ns + `"><strAtmServiceKey>k</strAtmServiceKey><strPostalCode>B3J 1A1</strPostalCode><dblLatitude>44.5</dblLatitude><dblLongitude>-63.5</dblLongitude><bytRadius>25</bytRadius></ReturnAtmSearchByCoordinates>`
	action := `"` + ns + `/ReturnAtmSearchByCoordinates"`
	tests := []struct {
		name      string
		b         Binding
		action    string
		hasAction bool
		body      string
		wantErr   string // Kind, or "" for success
		status    int
		check     func(*Call) string
	}{
		{name: "soap11", b: SOAP11, action: action, body: env11(coords), check: func(c *Call) string {
			if c.Key != "k" || c.Postal != "B3J 1A1" || c.Latitude != 44.5 || c.Longitude != -63.5 || c.Radius != 25 {
				return "values"
			}
			return ""
		}},
		{name: "soap12 routed by element", b: SOAP12, body: env12(coords), check: func(c *Call) string {
			if c.Op.Name != OpReturnAtmSearchByCoordinates {
				return c.Op.Name
			}
			return ""
		}},
		{name: "prefixed params and order", b: SOAP11, action: action, body: env11(`<a:ReturnAtmSearchByCoordinates xmlns:a="` + ns + `"><a:bytRadius>7</a:bytRadius><a:strAtmServiceKey>k</a:strAtmServiceKey></a:ReturnAtmSearchByCoordinates>`),
			check: func(c *Call) string {
				if c.Radius != 7 || c.Latitude != 0 || c.Key != "k" {
					return "values"
				}
				return ""
			}},
		{name: "param in other namespace is skipped", b: SOAP11, action: action, body: env11(`<ReturnAtmSearchByCoordinates xmlns="` + ns + `"><bytRadius xmlns="urn:other">7</bytRadius></ReturnAtmSearchByCoordinates>`),
			check: func(c *Call) string {
				if c.Radius != 0 {
					return "radius read from the wrong namespace"
				}
				return ""
			}},
		{name: "unknown action", b: SOAP11, action: `"urn:nope"`, body: env11(coords), wantErr: KindUnknownAction, status: 500},
		{name: "empty action", b: SOAP11, action: ``, body: env11(coords), wantErr: KindUnknownAction, status: 500},
		{name: "action of another op", b: SOAP11, action: `"` + ns + `/ReturnProvinces"`, body: env11(coords), wantErr: KindUnknownOperation, status: 500},
		{name: "wrong service namespace", b: SOAP12, body: env12(strings.Replace(coords, ns, "urn:x", 1)), wantErr: KindUnknownOperation, status: 500},
		{name: "version mismatch", b: SOAP11, action: action, body: env12(coords), wantErr: KindVersionMismatch, status: 500},
		{name: "malformed", b: SOAP11, action: action, body: `<soap:Envelope`, wantErr: KindMalformedRequest, status: 400},
		{name: "doctype", b: SOAP11, action: action, body: `<!DOCTYPE x [<!ENTITY a "b">]>` + env11(coords), wantErr: KindMalformedRequest, status: 500},
		{name: "radius overflow", b: SOAP11, action: action, body: env11(strings.Replace(coords, ">25<", ">256<", 1)), wantErr: KindInvalidParameter, status: 500},
		{name: "latitude out of range", b: SOAP11, action: action, body: env11(strings.Replace(coords, ">44.5<", ">91<", 1)), wantErr: KindInvalidParameter, status: 500},
		{name: "latitude not a number", b: SOAP11, action: action, body: env11(strings.Replace(coords, ">44.5<", ">north<", 1)), wantErr: KindInvalidParameter, status: 500},
		{name: "element inside a parameter", b: SOAP11, action: action, body: env11(strings.Replace(coords, ">k<", "><x>k</x><", 1)), wantErr: KindMalformedRequest, status: 500},
		{name: "too deep", b: SOAP11, action: action, body: env11(`<ReturnAtmSearchByCoordinates xmlns="` + ns + `"><x>` + strings.Repeat("<y>", 40) + strings.Repeat("</y>", 40) + `</x></ReturnAtmSearchByCoordinates>`), wantErr: KindMalformedRequest, status: 500},
		{name: "invalid utf-8", b: SOAP11, action: action, body: env11(strings.Replace(coords, ">k<", ">\xff<", 1)), wantErr: KindMalformedRequest, status: 400},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, e := DecodeSOAP(tt.b, ns, tt.action, tt.b == SOAP11 || tt.hasAction, []byte(tt.body))
			if tt.wantErr != "" {
				if e == nil {
					t.Fatalf("got success, want error %s", tt.wantErr)
				}
				if e.Kind != tt.wantErr || e.Status != tt.status {
					t.Fatalf("got %s/%d (%s), want %s/%d", e.Kind, e.Status, e.Fault, tt.wantErr, tt.status)
				}
				return
			}
			if e != nil {
				t.Fatalf("got error %s: %s", e.Kind, e.Fault)
			}
			if msg := tt.check(c); msg != "" {
				t.Errorf("check failed: %s: %+v", msg, c)
			}
		})
	}
}

func TestDecodeValues(t *testing.T) {
	op, _ := LookupOperation(OpReturnAtmSearchByCoordinates)
	full := url.Values{"strAtmServiceKey": {"k"}, "strPostalCode": {""}, "dblLatitude": {"44.5"}, "dblLongitude": {"-63"}, "bytRadius": {"10"}}
	c, e := DecodeValues(op, HTTPGet, full)
	if e != nil || c.Radius != 10 || c.Longitude != -63 {
		t.Fatalf("got %+v, %v", c, e)
	}
	for _, tt := range []struct {
		name, param, value, wantText string
	}{
		{"missing", "strPostalCode", "\x00delete", "System.InvalidOperationException: Missing parameter: strPostalCode."},
		{"byte overflow", "bytRadius", "300", "System.ArgumentException: Cannot convert 300 to System.Byte.\r\nParameter name: bytRadius"},
		{"negative byte", "bytRadius", "-1", "Cannot convert -1 to System.Byte"},
		{"double", "dblLatitude", "abc", "Cannot convert abc to System.Double"},
		{"out of range", "dblLongitude", "-181", "Parameter name: dblLongitude\r\nActual value was -181."},
	} {
		t.Run(tt.name, func(t *testing.T) {
			v := url.Values{}
			for k, vs := range full {
				v[k] = vs
			}
			if tt.value == "\x00delete" {
				delete(v, tt.param)
			} else {
				v.Set(tt.param, tt.value)
			}
			_, e := DecodeValues(op, HTTPPost, v)
			if e == nil {
				t.Fatal("got success, want an error")
			}
			if e.Status != 500 || !strings.Contains(e.Text, tt.wantText) {
				t.Errorf("got %d %q, want 500 containing %q", e.Status, e.Text, tt.wantText)
			}
			_, je := DecodeValues(op, JSON, v)
			if je == nil || je.Status != 400 || je.Param != tt.param {
				t.Errorf("JSON: got %+v, want 400 naming %s", je, tt.param)
			}
		})
	}
}

func TestCanonicalIgnoresKeyOrderAndForm(t *testing.T) {
	op, _ := LookupOperation(OpReturnAtmSearchByCoordinates)
	a, _ := DecodeValues(op, HTTPGet, url.Values{"strAtmServiceKey": {"k1"}, "strPostalCode": {" B3J "}, "dblLatitude": {"44.50"}, "dblLongitude": {"-63"}, "bytRadius": {"010"}})
	b, e := DecodeSOAP(SOAP12, ns, "", false, []byte(env12(`<ReturnAtmSearchByCoordinates xmlns="`+ns+`"><bytRadius>10</bytRadius><dblLongitude>-63.0</dblLongitude><dblLatitude>4.45E1</dblLatitude><strPostalCode>B3J</strPostalCode><strAtmServiceKey>k2</strAtmServiceKey></ReturnAtmSearchByCoordinates>`)))
	if e != nil {
		t.Fatal(e.Fault)
	}
	if a.Canonical() != b.Canonical() {
		t.Errorf("got %q and %q, want them equal", a.Canonical(), b.Canonical())
	}
}

func TestAppendEscapedIsWellFormed(t *testing.T) {
	got := string(AppendEscaped(nil, "a<b>&\"'\x01\xff\r"))
	want := "a&lt;b&gt;&amp;&quot;&apos;\uFFFD\uFFFD&#xD;"
	if got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

func FuzzDecodeSOAP(f *testing.F) {
	f.Add([]byte(env11(`<ReturnProvinces xmlns="`+ns+`"><strAtmServiceKey>k</strAtmServiceKey></ReturnProvinces>`)), true)
	f.Add([]byte(env12(`<ReturnAtmSearchByCoordinates xmlns="`+ns+`"><bytRadius>10</bytRadius><dblLatitude>1e1</dblLatitude></ReturnAtmSearchByCoordinates>`)), false)
	f.Add([]byte(`<!DOCTYPE a [<!ENTITY x "y">]><a>&x;</a>`), true)
	f.Fuzz(func(t *testing.T, body []byte, v11 bool) {
		b, action := SOAP12, ""
		if v11 {
			b, action = SOAP11, `"`+ns+`/ReturnAtmSearchByCoordinates"`
		}
		c, e := DecodeSOAP(b, ns, action, v11, body)
		if (c == nil) == (e == nil) {
			t.Fatalf("got call %v and error %v: want exactly one", c, e)
		}
		if e != nil {
			if e.Status < 400 || e.Status > 599 {
				t.Fatalf("error status %d", e.Status)
			}
			fault := AppendFault(nil, b, e)
			if !utf8.Valid(fault) {
				t.Fatalf("fault is not UTF-8: %q", fault)
			}
			return
		}
		if c.Radius < 0 || c.Radius > 255 || c.Latitude < -90 || c.Latitude > 90 {
			t.Fatalf("out of range values accepted: %+v", c)
		}
		_ = c.Canonical()
	})
}

func FuzzDecodeValues(f *testing.F) {
	f.Add("strAtmServiceKey=k&strPostalCode=&dblLatitude=44.6&dblLongitude=-63.5&bytRadius=25")
	f.Add("strAtmServiceKey=k&bytRadius=300&dblLatitude=NaN&dblLongitude=1&strPostalCode=%zz")
	op, _ := LookupOperation(OpReturnAtmSearchByCoordinates)
	f.Fuzz(func(t *testing.T, query string) {
		values, err := url.ParseQuery(query)
		if err != nil {
			return
		}
		for _, b := range []Binding{HTTPGet, HTTPPost, JSON} {
			c, e := DecodeValues(op, b, values)
			if (c == nil) == (e == nil) {
				t.Fatalf("got call %v and error %v: want exactly one", c, e)
			}
			if e == nil && (c.Radius > 255 || c.Radius < 0 || c.Longitude > 180 || c.Longitude < -180) {
				t.Fatalf("out of range values accepted: %+v", c)
			}
		}
	})
}

// TestSOAPVersion checks the binding told from content types, including
// those SOAP 1.1's short cut reads without mime.ParseMediaType.
func TestSOAPVersion(t *testing.T) {
	tests := []struct {
		ct        string
		b         Binding
		action    string
		hasAction bool
	}{
		{"text/xml", SOAP11, "", false},
		{"text/xml; charset=utf-8", SOAP11, "", false},
		{" TEXT/XML ;charset=\"utf-8\"", SOAP11, "", false},
		{"text/xml; charset", SOAP11, "", false}, // a broken parameter list
		{"text/xml;;", SOAP11, "", false},
		{"text/xmls", 0, "", false},
		{"text/html", 0, "", false},
		{"", 0, "", false},
		{"application/soap+xml; charset=utf-8", SOAP12, "", false},
		{`application/soap+xml; charset=utf-8; action="urn:a"`, SOAP12, "urn:a", true},
		{"Application/SOAP+XML; action", SOAP12, "", false},
		{"application/xml", 0, "", false},
	}
	for _, tc := range tests {
		b, action, has := SOAPVersion(tc.ct)
		if b != tc.b || action != tc.action || has != tc.hasAction {
			t.Errorf("SOAPVersion(%q): got %v, %q, %v, want %v, %q, %v", tc.ct, b, action, has, tc.b, tc.action, tc.hasAction)
		}
	}
}
