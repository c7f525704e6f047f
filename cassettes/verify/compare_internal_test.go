package verify

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"runtime/debug"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/atmkit/atmkit/internal/mocktest"
	"gopkg.in/dnaeon/go-vcr.v3/cassette"
)

const soap12Env = `<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="http://www.w3.org/2003/05/soap-envelope"><soap:Body><OpResponse xmlns="urn:atm"><OpResult>%s</OpResult></OpResponse></soap:Body></soap:Envelope>`

func answer(code int, ct, body string) *cassette.Response {
	return &cassette.Response{Code: code, Headers: http.Header{"Content-Type": {ct}}, Body: body}
}

func xmlAnswer(result string) *cassette.Response {
	return answer(200, "application/soap+xml; charset=utf-8", strings.Replace(soap12Env, "%s", result, 1))
}

func jsonAnswer(body string) *cassette.Response {
	return answer(200, "application/json; charset=utf-8", body)
}

const locations = `<locs xmlns=""><count>2</count><location id="1"><city>Halifax</city><lat>44.6</lat><open>true</open></location><location id="2"><city>Truro</city><lat>45.3</lat><open>false</open><landmark>Mall</landmark></location></locs>`

// hasDiffs wants exactly these differences, as String writes them.
func hasDiffs(want ...string) func(*testing.T, *comparison) {
	return func(t *testing.T, c *comparison) {
		t.Helper()
		var got []string
		for _, d := range c.diffs() {
			got = append(got, d.String())
		}
		if !slices.Equal(got, want) {
			t.Errorf("got %q, want %q", got, want)
		}
	}
}

// counts wants these numbers of structure and value differences.
func counts(structure, values int) func(*testing.T, *comparison) {
	return func(t *testing.T, c *comparison) {
		t.Helper()
		if c.structureN != structure || c.valueN != values {
			t.Errorf("got %d structure and %d value differences, want %d and %d: %q", c.structureN, c.valueN, structure, values, c.diffs())
		}
	}
}

func hasNote(want string) func(*testing.T, *comparison) {
	return func(t *testing.T, c *comparison) {
		t.Helper()
		if !strings.Contains(c.note, want) {
			t.Errorf("got note %q, want one holding %q", c.note, want)
		}
	}
}

const resultPath = "/Envelope/Body/OpResponse/OpResult"

func TestCompareAnswers(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name         string
		rec, live    *cassette.Response
		ignoreValues bool
		checks       []func(*testing.T, *comparison)
	}{
		{"same, other prefixes and indentation", xmlAnswer(locations),
			answer(200, "application/soap+xml;charset=UTF-8", strings.NewReplacer("soap:", "s:", "xmlns:soap", "xmlns:s", "<location ", "\n  <location ").Replace(strings.Replace(soap12Env, "%s", locations, 1))),
			false, []func(*testing.T, *comparison){counts(0, 0)}},
		{"status", xmlAnswer(locations), answer(500, "text/plain; charset=utf-8", "System.Exception: boom\n   at X.Y()"), false,
			[]func(*testing.T, *comparison){hasDiffs(`status: recorded 200, live 500 "System.Exception: boom"`)}},
		{"status, an ASP.NET error page that is not XML: its title", xmlAnswer(locations), answer(404, "text/html", monoErrorPage), false,
			[]func(*testing.T, *comparison){hasDiffs(`status: recorded 200, live 404 "Error 404"`)}},
		{"status, .NET's yellow page: its title", xmlAnswer(locations), answer(500, "text/html; charset=utf-8", "<!DOCTYPE html>\r\n<html>\r\n    <head>\r\n        <title>Runtime Error</title>\r\n    </head>\r\n    <body bgcolor=\"white\">\r\n            <span><H1>Server Error in '/' Application.<hr width=100% size=1 color=silver></H1>\r\n</body></html>"), false,
			[]func(*testing.T, *comparison){hasDiffs(`status: recorded 200, live 500 "Runtime Error"`)}},
		{"content type", xmlAnswer(locations), answer(200, "text/xml; charset=utf-8", xmlAnswer(locations).Body), false,
			[]func(*testing.T, *comparison){hasDiffs(`content type: recorded "application/soap+xml; charset=utf-8", live "text/xml; charset=utf-8"`)}},
		{"result renamed", xmlAnswer(locations), answer(200, "application/soap+xml; charset=utf-8", strings.ReplaceAll(xmlAnswer(locations).Body, "OpResult>", "OpReturn>")), false,
			[]func(*testing.T, *comparison){hasDiffs("/Envelope/Body/OpResponse: OpResult renamed to OpReturn")}},
		{"envelope namespace", xmlAnswer(locations), answer(200, "application/soap+xml; charset=utf-8", strings.Replace(xmlAnswer(locations).Body, "2003/05/soap-envelope", "2003/05/soap-envelope-x", 1)), false,
			[]func(*testing.T, *comparison){hasDiffs(`/Envelope: namespace changed from "http://www.w3.org/2003/05/soap-envelope" to "http://www.w3.org/2003/05/soap-envelope-x"`)}},
		{"result content namespace", xmlAnswer(locations), xmlAnswer(strings.Replace(locations, `xmlns=""`, `xmlns="urn:atm"`, 1)), false,
			[]func(*testing.T, *comparison){hasDiffs(resultPath + `/locs: namespace changed from "" to "urn:atm"`)}},
		{"element removed from every item", xmlAnswer(locations), xmlAnswer(strings.ReplaceAll(strings.ReplaceAll(locations, "<city>Halifax</city>", ""), "<city>Truro</city>", "")), false,
			[]func(*testing.T, *comparison){hasDiffs(resultPath + "/locs/location: city removed")}},
		{"optional element missing from some items", xmlAnswer(locations), xmlAnswer(strings.Replace(locations, "<landmark>Mall</landmark>", "", 1)), false,
			[]func(*testing.T, *comparison){counts(0, 1), hasDiffs(resultPath + `/locs/location[2]/landmark: recorded "Mall", live absent`)}},
		{"element added", xmlAnswer(locations), xmlAnswer(strings.ReplaceAll(locations, "</lat>", "</lat><lon>1</lon>")), false,
			[]func(*testing.T, *comparison){hasDiffs(resultPath + "/locs/location: lon added")}},
		{"order changed", xmlAnswer(locations), xmlAnswer(strings.NewReplacer("<city>Halifax</city><lat>44.6</lat>", "<lat>44.6</lat><city>Halifax</city>", "<city>Truro</city><lat>45.3</lat>", "<lat>45.3</lat><city>Truro</city>").Replace(locations)), false,
			[]func(*testing.T, *comparison){hasDiffs(resultPath + "/locs/location: city moved (another order of elements)")}},
		{"number became text", xmlAnswer(locations), xmlAnswer(strings.NewReplacer("44.6", "44,6", "45.3", "45,3").Replace(locations)), false,
			[]func(*testing.T, *comparison){counts(1, 2), hasDiffs(resultPath+"/locs/location/lat: type changed from number to text",
				resultPath+`/locs/location[1]/lat: recorded "44.6", live "44,6"`, resultPath+`/locs/location[2]/lat: recorded "45.3", live "45,3"`)}},
		{"boolean became number", xmlAnswer(locations), xmlAnswer(strings.NewReplacer(">true<", ">1<", ">false<", ">0<").Replace(locations)), true,
			[]func(*testing.T, *comparison){hasDiffs(resultPath + "/locs/location/open: type changed from boolean to number")}},
		{"text became elements", xmlAnswer(locations), xmlAnswer(strings.Replace(strings.Replace(locations, "<city>Halifax</city>", "<city><name>Halifax</name></city>", 1), "<city>Truro</city>", "<city><name>Truro</name></city>", 1)), true,
			[]func(*testing.T, *comparison){hasDiffs(resultPath + "/locs/location/city: type changed from text to element")}},
		{"attribute renamed", xmlAnswer(locations), xmlAnswer(strings.NewReplacer(`id="1"`, `key="1"`, `id="2"`, `key="2"`).Replace(locations)), true,
			[]func(*testing.T, *comparison){hasDiffs(resultPath+"/locs/location: attribute id removed", resultPath+"/locs/location: attribute key added")}},
		{"values: text, attribute, count", xmlAnswer(locations), xmlAnswer(strings.NewReplacer("Truro", "Sydney", `id="1"`, `id="7"`).Replace(locations)), false,
			[]func(*testing.T, *comparison){hasDiffs(resultPath+`/locs/location[1]/@id: recorded "1", live "7"`, resultPath+`/locs/location[2]/city: recorded "Truro", live "Sydney"`)}},
		{"an item dropped is a change of values", xmlAnswer(locations), xmlAnswer(strings.Replace(strings.Replace(locations, `<location id="2"><city>Truro</city><lat>45.3</lat><open>false</open><landmark>Mall</landmark></location>`, "", 1), "<count>2</count>", "<count>1</count>", 1)), false,
			[]func(*testing.T, *comparison){counts(0, 2), hasDiffs(resultPath+`/locs/count: recorded "2", live "1"`, resultPath+"/locs/location: 2 recorded, 1 live")}},
		{"an item dropped, values ignored", xmlAnswer(locations), xmlAnswer(strings.Replace(locations, `<location id="2"><city>Truro</city><lat>45.3</lat><open>false</open><landmark>Mall</landmark></location>`, "", 1)), true,
			[]func(*testing.T, *comparison){counts(0, 0)}},
		{"an empty list says nothing of structure", xmlAnswer(locations), xmlAnswer(`<locs xmlns=""><count>0</count></locs>`), false,
			[]func(*testing.T, *comparison){counts(0, 2), hasDiffs(resultPath+`/locs/count: recorded "2", live "0"`, resultPath+"/locs/location: 2 recorded, 0 live")}},
		{"a list that was empty holds items: a change of values", xmlAnswer(`<locs xmlns="" />`), xmlAnswer(`<locs xmlns=""><location><city>Halifax</city></location><location><city>Truro</city></location></locs>`), false,
			[]func(*testing.T, *comparison){counts(0, 1), hasDiffs(resultPath + "/locs/location: 0 recorded, 2 live")}},
		{"a list of one item emptied: a change of values", xmlAnswer(`<locs xmlns=""><location><city>Halifax</city></location></locs>`), xmlAnswer(`<locs xmlns="" />`), false,
			[]func(*testing.T, *comparison){counts(0, 1), hasDiffs(resultPath + "/locs/location: 1 recorded, 0 live")}},
		{"an empty leaf now holding elements", xmlAnswer(`<locs xmlns=""><city /></locs>`), xmlAnswer(`<locs xmlns=""><city><name>Halifax</name></city></locs>`), false,
			[]func(*testing.T, *comparison){counts(0, 1), hasDiffs(resultPath + `/locs/city/name: recorded absent, live "Halifax"`)}},
		{"JSON: an empty array now holding one item is a change of values", jsonAnswer(`{"items":[]}`), jsonAnswer(`{"items":[{"id":1}]}`), false,
			[]func(*testing.T, *comparison){counts(0, 1), hasDiffs("$.items: 0 items recorded, 1 live")}},
		{"JSON: an array of one item emptied, values ignored", jsonAnswer(`{"items":[{"id":1}]}`), jsonAnswer(`{"items":[]}`), true,
			[]func(*testing.T, *comparison){counts(0, 0)}},
		{"a single element missing from the only item", xmlAnswer(locations), xmlAnswer(strings.Replace(locations, "<count>2</count>", "", 1)), false,
			[]func(*testing.T, *comparison){counts(1, 0), hasDiffs(resultPath + "/locs: count removed")}},
		{"a leaf renamed in every item", xmlAnswer(locations), xmlAnswer(strings.ReplaceAll(locations, "city>", "town>")), false,
			[]func(*testing.T, *comparison){counts(1, 0), hasDiffs(resultPath + "/locs/location: city renamed to town")}},
		{"numbers written differently", xmlAnswer(locations), xmlAnswer(strings.Replace(locations, "44.6", "44.60", 1)), false,
			[]func(*testing.T, *comparison){counts(0, 0)}},
		{"JSON same, other member order", jsonAnswer(`{"a":1,"b":{"c":"x"}}`), jsonAnswer(`{"b":{"c":"x"},"a":1.0}`), false,
			[]func(*testing.T, *comparison){counts(0, 0)}},
		{"JSON member renamed", jsonAnswer(`{"count":1,"items":[{"id":1,"city":"Halifax"}]}`), jsonAnswer(`{"count":1,"items":[{"id":1,"town":"Halifax"}]}`), false,
			[]func(*testing.T, *comparison){hasDiffs("$.items[*]: city renamed to town")}},
		{"JSON type changed", jsonAnswer(`{"count":1,"items":[{"id":1}]}`), jsonAnswer(`{"count":"1","items":[{"id":1}]}`), false,
			[]func(*testing.T, *comparison){hasDiffs("$.count: type changed from number to string")}},
		{"JSON null is any type", jsonAnswer(`{"landmark":"Mall"}`), jsonAnswer(`{"landmark":null}`), false,
			[]func(*testing.T, *comparison){counts(0, 1), hasDiffs(`$.landmark: recorded "Mall", live null`)}},
		{"JSON values and count", jsonAnswer(`{"items":[{"id":1},{"id":2}]}`), jsonAnswer(`{"items":[{"id":3}]}`), false,
			[]func(*testing.T, *comparison){hasDiffs("$.items: 2 items recorded, 1 live", "$.items[0].id: recorded 1, live 3")}},
		{"JSON became text", jsonAnswer(`{"a":1}`), answer(200, "application/json; charset=utf-8", "oops"), false,
			[]func(*testing.T, *comparison){hasDiffs("body: recorded JSON, live text")}},
		{"text answers: first line", answer(500, "text/plain; charset=utf-8", "System.InvalidOperationException: Missing parameter: a.\r\n   at A.B()"),
			answer(500, "text/plain; charset=utf-8", "System.InvalidOperationException: Missing parameter: b.\r\n   at C.D()"), false,
			[]func(*testing.T, *comparison){hasDiffs(`text: recorded "System.InvalidOperationException: Missing parameter: a.", live "System.InvalidOperationException: Missing parameter: b."`), hasNote("first line")}},
		{"HTML pages: not their text", answer(200, "text/html; charset=utf-8", "<html><body>a</body></html>"), answer(200, "text/html; charset=utf-8", "<html><body>b</body></html>"), false,
			[]func(*testing.T, *comparison){counts(0, 0), hasNote("HTML")}},
		{"WSDL: host of the address ignored", answer(200, "text/xml; charset=utf-8", wsdl("http://a.example/service/service.asmx", "s:int")),
			answer(200, "text/xml; charset=utf-8", wsdl("https://b.example:8443/service/service.asmx", "s:int")), false,
			[]func(*testing.T, *comparison){counts(0, 0)}},
		{"WSDL: the base path of the address ignored (staging below /atm, production at the root)", answer(200, "text/xml; charset=utf-8", wsdl("https://staging.example/atm/service/service.asmx", "s:int")),
			answer(200, "text/xml; charset=utf-8", wsdl("https://atm.example.org/service/service.asmx", "s:int")), false,
			[]func(*testing.T, *comparison){counts(0, 0)}},
		{"WSDL: another file in the address is structure", answer(200, "text/xml; charset=utf-8", wsdl("http://a.example/service/service.asmx", "s:int")),
			answer(200, "text/xml; charset=utf-8", wsdl("http://a.example/service/other.asmx", "s:int")), false,
			[]func(*testing.T, *comparison){counts(1, 0)}},
		{"disco: the base path of its references ignored", answer(200, "text/xml; charset=utf-8", disco("https://staging.example/atm")), answer(200, "text/xml; charset=utf-8", disco("https://atm.example.org")), false,
			[]func(*testing.T, *comparison){counts(0, 0)}},
		{"WSDL: a type changed is structure", answer(200, "text/xml; charset=utf-8", wsdl("http://a.example/service/service.asmx", "s:int")),
			answer(200, "text/xml; charset=utf-8", wsdl("http://a.example/service/service.asmx", "s:string")), true,
			[]func(*testing.T, *comparison){hasDiffs(`/definitions/types/schema/element[@name='Op']/complexType/sequence/element[@name='intCityID']/@type: recorded "s:int", live "s:string"`)}},
		{"WSDL: a parameter renamed", answer(200, "text/xml; charset=utf-8", wsdl("http://a.example/service/service.asmx", "s:int")),
			answer(200, "text/xml; charset=utf-8", strings.Replace(wsdl("http://a.example/service/service.asmx", "s:int"), `name="intCityID"`, `name="cityId"`, 1)), true,
			[]func(*testing.T, *comparison){hasDiffs(`/definitions/types/schema/element[@name='Op']/complexType/sequence: element[@name='intCityID'] renamed to element[@name='cityId']`)}},
		{"xsi:type: another prefix of the same namespace is no change", xmlAnswer(typed("a", nsXSD)), xmlAnswer(typed("b", nsXSD)), false,
			[]func(*testing.T, *comparison){counts(0, 0)}},
		{"xsi:type: the same prefix bound to another namespace is structure", xmlAnswer(typed("a", nsXSD)), xmlAnswer(typed("a", "urn:other")), false,
			[]func(*testing.T, *comparison){hasDiffs(resultPath + `/v/@xsi:type: recorded "{http://www.w3.org/2001/XMLSchema}int", live "{urn:other}int"`)}},
		{"WSDL: a type's prefix renamed, same namespace", answer(200, "text/xml; charset=utf-8", wsdl("http://a.example/service/service.asmx", "s:int")),
			answer(200, "text/xml; charset=utf-8", strings.Replace(wsdl("http://a.example/service/service.asmx", "x:int"), `xmlns:s=`, `xmlns:x="`+nsXSD+`" xmlns:s=`, 1)), true,
			[]func(*testing.T, *comparison){counts(0, 0)}},
		{"WSDL: a binding's prefix bound to another namespace", answer(200, "text/xml; charset=utf-8", strings.Replace(wsdl("http://a.example/service/service.asmx", "s:int"), `xmlns:s=`, `xmlns:tns="urn:atm" xmlns:s=`, 1)),
			answer(200, "text/xml; charset=utf-8", strings.Replace(wsdl("http://a.example/service/service.asmx", "s:int"), `xmlns:s=`, `xmlns:tns="urn:other" xmlns:s=`, 1)), true,
			[]func(*testing.T, *comparison){hasDiffs(`/definitions/service[@name='Svc']/port[@name='SvcSoap12']/@binding: recorded "{urn:atm}SvcSoap12", live "{urn:other}SvcSoap12"`)}},
		{"DataSet: a column's type in the inline schema is structure", xmlAnswer(dataSet("xs:string", "NS")), xmlAnswer(dataSet("xs:int", "NS")), true,
			[]func(*testing.T, *comparison){counts(1, 0), hasDiffs(resultPath + `/schema/element[@name='NewDataSet']/complexType/choice/element[@name='Province']/complexType/sequence/element[@name='Abbrev']/@type: recorded "xs:string", live "xs:int"`)}},
		{"DataSet: a row's value is a value", xmlAnswer(dataSet("xs:string", "NS")), xmlAnswer(dataSet("xs:string", "NB")), false,
			[]func(*testing.T, *comparison){counts(0, 1)}},
		{"DataSet: the schema gone", xmlAnswer(dataSet("xs:string", "NS")), xmlAnswer(`<diffgr:diffgram xmlns:diffgr="urn:schemas-microsoft-com:xml-diffgram-v1"><NewDataSet xmlns=""><Province><Abbrev>NS</Abbrev></Province></NewDataSet></diffgr:diffgram>`), true,
			[]func(*testing.T, *comparison){hasDiffs(resultPath + ": schema removed")}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := compareAnswers(tc.rec, tc.live, tc.ignoreValues, 10)
			for _, check := range tc.checks {
				check(t, c)
			}
		})
	}
}

// monoErrorPage is the start of the page Mono's ASP.NET answers a path it
// does not serve with: XHTML by its declarations, but not well-formed XML.
const monoErrorPage = `<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Transitional//EN" "http://www.w3.org/TR/xhtml1/DTD/xhtml1-transitional.dtd">
<html xmlns="http://www.w3.org/1999/xhtml">
<head>
<script type="text/javascript">
	window.onload = function () {
		if (!hideElementsById || hideElementsById.length < 1)
			return;
	}
</script>
<title>Error 404</title>
</head>
<body>
<h1>Server Error in '/' Application</h1>
<h2 class="exceptionMessage">The resource cannot be found.</h2>
</body>
</html>`

// dataSet is a DataSet result: its inline schema with a column of type
// typ, and one row holding value.
func dataSet(typ, value string) string {
	return `<xs:schema id="NewDataSet" xmlns="" xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:msdata="urn:schemas-microsoft-com:xml-msdata">
  <xs:element name="NewDataSet" msdata:IsDataSet="true"><xs:complexType><xs:choice minOccurs="0" maxOccurs="unbounded">
    <xs:element name="Province"><xs:complexType><xs:sequence><xs:element name="Abbrev" type="` + typ + `" minOccurs="0" /></xs:sequence></xs:complexType></xs:element>
  </xs:choice></xs:complexType></xs:element>
</xs:schema><diffgr:diffgram xmlns:diffgr="urn:schemas-microsoft-com:xml-diffgram-v1"><NewDataSet xmlns=""><Province><Abbrev>` + value + `</Abbrev></Province></NewDataSet></diffgr:diffgram>`
}

// disco is a discovery document of the service at base.
func disco(base string) string {
	return `<?xml version="1.0" encoding="utf-8"?>
<discovery xmlns="http://schemas.xmlsoap.org/disco/">
  <contractRef ref="` + base + `/service/service.asmx?wsdl" docRef="` + base + `/service/service.asmx" xmlns="http://schemas.xmlsoap.org/disco/scl/" />
  <soap address="` + base + `/service/service.asmx" xmlns:q1="urn:atm" binding="q1:SvcSoap" xmlns="http://schemas.xmlsoap.org/disco/soap/" />
</discovery>`
}

// typed is a result <v> whose xsi:type is int in namespace ns, by prefix.
func typed(prefix, ns string) string {
	return `<v xmlns="" xmlns:` + prefix + `="` + ns + `" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:type="` + prefix + `:int">1</v>`
}

func wsdl(location, typ string) string {
	return `<?xml version="1.0" encoding="utf-8"?>
<wsdl:definitions xmlns:s="http://www.w3.org/2001/XMLSchema" xmlns:soap12="http://schemas.xmlsoap.org/wsdl/soap12/" xmlns:wsdl="http://schemas.xmlsoap.org/wsdl/" targetNamespace="urn:atm">
  <wsdl:types><s:schema elementFormDefault="qualified" targetNamespace="urn:atm">
    <s:element name="Op"><s:complexType><s:sequence>
      <s:element minOccurs="0" maxOccurs="1" name="strAtmServiceKey" type="s:string" />
      <s:element minOccurs="1" maxOccurs="1" name="intCityID" type="` + typ + `" />
    </s:sequence></s:complexType></s:element>
  </s:schema></wsdl:types>
  <wsdl:service name="Svc"><wsdl:port name="SvcSoap12" binding="tns:SvcSoap12"><soap12:address location="` + location + `" /></wsdl:port></wsdl:service>
</wsdl:definitions>`
}

// TestLimiterSchedule: the limiter spaces starts by its interval, from any
// number of callers, and a late caller does not let later ones catch up.
func TestLimiterSchedule(t *testing.T) {
	t.Parallel()
	var (
		mu     sync.Mutex
		clock  = time.Unix(1000, 0)
		starts []time.Time
	)
	l := newLimiter(4) // 250ms apart
	l.now = func() time.Time { mu.Lock(); defer mu.Unlock(); return clock }
	l.sleep = func(_ context.Context, d time.Duration) error {
		mu.Lock()
		defer mu.Unlock()
		starts = append(starts, clock.Add(d))
		return nil
	}
	var wg sync.WaitGroup
	for range 20 {
		wg.Add(1)
		go func() { defer wg.Done(); _ = l.wait(context.Background()) }()
	}
	wg.Wait()
	mu.Lock()
	clock = clock.Add(time.Hour) // idle for an hour: no credit for it
	mu.Unlock()
	for range 3 {
		_ = l.wait(context.Background())
	}
	slices.SortFunc(starts, func(a, b time.Time) int { return a.Compare(b) })
	for k := 1; k < len(starts); k++ {
		if gap := starts[k].Sub(starts[k-1]); gap < 250*time.Millisecond {
			t.Errorf("start %d: got %s after the one before, want at least 250ms", k, gap)
		}
	}
	if got, want := starts[19].Sub(starts[0]), 19*250*time.Millisecond; got != want {
		t.Errorf("20 starts spread over %s, want %s", got, want)
	}
	if newLimiter(0) != nil {
		t.Error("a rate of 0 must not limit")
	}
}

// FuzzCompareAnswers: comparing any two bodies never panics, and a body
// compared with itself never differs.
func FuzzCompareAnswers(f *testing.F) {
	for _, seed := range [][3]string{
		{"application/soap+xml; charset=utf-8", xmlAnswer(locations).Body, xmlAnswer(strings.Replace(locations, "Truro", "Sydney", 1)).Body},
		{"text/xml; charset=utf-8", `{"count":1,"locations":[{"id":1,"landmark":null}]}`, `{"count":"1","locations":[]}`},
		{"text/xml; charset=utf-8", wsdl("http://a/service/service.asmx", "s:int"), wsdl("http://b/service/service.asmx", "s:string")},
		{"text/plain; charset=utf-8", "System.Exception: a\r\n   at X()", "System.Exception: b"},
		{"text/html", "<html><body>help</body></html>", "<html/>"},
		{"text/xml", `<a xmlns:x="urn:x"><b x:t="1"/><b/><c>1</c><b/></a>`, `<a><c>x</c><b/><b/></a>`},
	} {
		f.Add(seed[0], seed[1], seed[2])
	}
	f.Fuzz(func(t *testing.T, ct, rec, live string) {
		_ = compareAnswers(answer(200, ct, rec), answer(200, ct, live), false, 5)
		if self := compareAnswers(answer(200, ct, rec), answer(200, ct, rec), false, 5); self.structureN+self.valueN != 0 {
			t.Errorf("a body compared with itself differs: %q", self.diffs())
		}
	})
}

// TestLeftOutDifferences: the text and the JUnit report say how many
// differences of each kind they do not show (a result keeps 50 structure
// changes and --max-differences value differences).
func TestLeftOutDifferences(t *testing.T) {
	t.Parallel()
	var ds []Difference
	for i := range maxStructure {
		ds = append(ds, Difference{Path: fmt.Sprintf("/a/b%d", i), Change: Added})
	}
	ds = append(ds, Difference{Path: "/a/v", Change: ValueChanged, Recorded: `"1"`, Live: `"2"`})
	r := Result{File: "atm.yaml", Verdict: StructureDrifted, StructureCount: maxStructure + 60, ValueCount: 3, Differences: ds}
	var text strings.Builder
	if err := r.WriteText(&text); err != nil {
		t.Fatal(err)
	}
	var junit bytes.Buffer
	if err := (&Report{Results: []Result{r}}).WriteJUnit(&junit); err != nil {
		t.Fatal(err)
	}
	for name, out := range map[string]string{"text": text.String(), "JUnit": junit.String()} {
		for _, want := range []string{"… and 60 structure changes more", "… and 2 value differences more"} {
			if !strings.Contains(out, want) {
				t.Errorf("%s: want %q in %s", name, want, out)
			}
		}
	}
}

// TestCompareAnswersOfManyNames: answers of tens of thousands of sibling
// elements or members of distinct names, or list items each with a child
// of its own, are compared in time linear in their size. Each name was
// looked for among all the others (60,000 siblings: 50 s; 30,000 items:
// 15 s), so a deployment's or cassette's large answer held a run for
// minutes.
func TestCompareAnswersOfManyNames(t *testing.T) {
	t.Parallel()
	const n = 60000
	var recXML, liveXML, items, recJSON, liveJSON strings.Builder
	items.WriteString(`<locs xmlns="">`)
	for i := range n {
		fmt.Fprintf(&recXML, "<a%d>1</a%d>", i, i)
		fmt.Fprintf(&liveXML, "<b%d>1</b%d>", i, i)
		if i < n/2 {
			fmt.Fprintf(&items, "<location><f%d>1</f%d></location>", i, i)
		}
		sep := map[bool]string{true: "", false: ","}[i == 0]
		fmt.Fprintf(&recJSON, `%s"a%d":1`, sep, i)
		fmt.Fprintf(&liveJSON, `%s"b%d":1`, sep, i)
	}
	items.WriteString(`</locs>`)
	for _, tc := range []struct {
		name      string
		rec, live *cassette.Response
		check     func(*testing.T, *comparison)
	}{
		{"siblings all renamed", xmlAnswer(recXML.String()), xmlAnswer(liveXML.String()), counts(n, 0)},
		{"siblings the same", xmlAnswer(recXML.String()), xmlAnswer(recXML.String()), counts(0, 0)},
		{"items of distinct children, the same", xmlAnswer(items.String()), xmlAnswer(items.String()), counts(0, 0)},
		{"items of distinct children, one more", xmlAnswer(items.String()),
			xmlAnswer(strings.Replace(items.String(), "</locs>", "<location><g>1</g></location></locs>", 1)), counts(0, 1)},
		{"JSON members all renamed", jsonAnswer("{" + recJSON.String() + "}"), jsonAnswer("{" + liveJSON.String() + "}"), counts(n, 0)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.check(t, compareAnswers(tc.rec, tc.live, false, 10))
		})
	}
}

// TestCompareRefusesDeepNesting: a live answer nesting more than 10,000
// levels deep is compared as text, with a note that says why, and the
// process lives on: the JSON reader (and below it the comparison)
// recursed once a level, and a deep enough answer (a live answer may be
// 256 MB) took more stack than Go allows a goroutine, which kills the
// process. It runs alone, its stack bounded to 8 MB where Go's is 1 GB,
// so that 200,000 levels are deep enough.
func TestCompareRefusesDeepNesting(t *testing.T) {
	if !mocktest.RunAlone(t, 2*time.Minute) {
		return
	}
	debug.SetMaxStack(8 << 20)
	const depth = 200_000
	for _, tc := range []struct {
		name      string
		rec, live *cassette.Response
	}{
		{"JSON", jsonAnswer(`{"d":[1]}`), jsonAnswer(`{"d":` + strings.Repeat("[", depth) + strings.Repeat("]", depth) + "}")},
		{"XML", xmlAnswer(locations), xmlAnswer(strings.Repeat("<a>", depth) + strings.Repeat("</a>", depth))},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := compareAnswers(tc.rec, tc.live, false, 10)
			hasDiffs("body: recorded "+tc.name+", live text")(t, c)
			hasNote("the live answer nests more than 10000 levels deep")(t, c)
		})
	}
}

// TestServicePartAfterLettersOfOtherLengths: the service path is cut from
// a URL path where it stands, when letters before it lower-case to another
// length in UTF-8 (Ⱥ: 2 bytes, its lower case 3): the index was taken in a
// lower-cased copy, and 12 such letters made verify panic (slice bounds
// out of range) on an answer naming such an address.
func TestServicePartAfterLettersOfOtherLengths(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ path, want string }{
		{"/" + strings.Repeat("Ⱥ", 12) + "/service/service.asmx", "/service/service.asmx"},
		{"/\u212a/Service/Service.asmx?op=x", "/Service/Service.asmx?op=x"},
		{"/app/service-v2.asmx/ReturnProvinces", "/service-v2.asmx/ReturnProvinces"},
		{"/Ⱥ/other", "/Ⱥ/other"},
	} {
		if got := servicePart(c.path); got != c.want {
			t.Errorf("servicePart(%q) = %q, want %q", c.path, got, c.want)
		}
	}
}
