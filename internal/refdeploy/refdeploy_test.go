package refdeploy

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"testing"

	"github.com/atmkit/atmkit/mockserver"
)

// TestDeploymentAnswersTyped checks that the deployment runs and answers as a
// typed ASMX service does: the GET root is named by the type, in the service
// namespace, and the JSON path writes the bare result object; and that the
// legacy site at /legacy answers in the other layouts: an XmlElement node
// (the GET root itself, xs:any in the WSDL), a DataSet, attribute values.
func TestDeploymentAnswersTyped(t *testing.T) {
	d := Start(t)
	rows := []struct {
		path       string
		status     int
		ct, inBody string
	}{
		{ServicePath + "/ReturnProvinces?strAtmServiceKey=" + Key, 200, "text/xml; charset=utf-8", `<ArrayOfProvince xmlns:xsd="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns="` + Namespace + `">`},
		{ServicePath + "/ReturnAllAtms?strAtmServiceKey=" + Key, 200, "text/xml; charset=utf-8", "<AtmResult "},
		{ServicePath + "/ReturnProvinces?strAtmServiceKey=wrong", 500, "text/plain; charset=utf-8", "The service key (strAtmServiceKey) is not valid."},
		{JSONPath + "/ReturnAtmSearchByCoordinates?strAtmServiceKey=" + Key + "&strPostalCode=&dblLatitude=44.6488&dblLongitude=-63.5752&bytRadius=5", 200, "text/xml; charset=utf-8", `{"count":`},
		{ServicePath + "?WSDL", 200, "text/xml; charset=utf-8", `name="ArrayOfProvince"`},
		{"/legacy" + ServicePath + "/ReturnAtmSearchByCity?strAtmServiceKey=legacy-key&intCityID=8", 200, "text/xml; charset=utf-8", "?>\n<TellerList>\n  <Found>5</Found>\n  <Teller seq=\"0\" ref=\"923\">"},
		{"/legacy" + ServicePath + "/ReturnInstitutions?strAtmServiceKey=legacy-key", 200, "text/xml; charset=utf-8", `<DataSet xmlns="http://legacy.atmref.example.org/atmService">` + "\n  <xs:schema "},
		{"/legacy" + ServicePath + "/ReturnProvinces?strAtmServiceKey=legacy-key", 200, "text/xml; charset=utf-8", `<Prov abbr="NB" capital="Fredericton">New Brunswick</Prov>`},
		{"/legacy" + ServicePath + "/ReturnProvinces?strAtmServiceKey=wrong", 500, "text/plain; charset=utf-8", "Unknown service key."},
		{"/legacy" + ServicePath + "?WSDL", 200, "text/xml; charset=utf-8", `<s:any />`},
		{"/legacy" + JSONPath + "/ReturnAtmSearchByCoordinates?strAtmServiceKey=legacy-key&strPostalCode=&dblLatitude=46.413374&dblLongitude=-63.770972&bytRadius=1", 200, "text/xml; charset=utf-8", `{"count":`},
	}
	for _, r := range rows {
		resp, err := http.Get(d.URL + r.path)
		if err != nil {
			t.Fatalf("GET %s: %v\n%s", r.path, err, d.Log())
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != r.status {
			t.Errorf("GET %s: got status %d, want %d (%s)", r.path, resp.StatusCode, r.status, body)
		}
		if got := resp.Header.Get("Content-Type"); got != r.ct {
			t.Errorf("GET %s: got content type %q, want %q", r.path, got, r.ct)
		}
		if !strings.Contains(string(body), r.inBody) {
			t.Errorf("GET %s: got %.300q, want it to contain %q", r.path, body, r.inBody)
		}
	}
	// Calls are answered in every binding, and every search finds locations.
	for _, a := range Collect(t, d.URL, Namespace, Key, Calls) {
		if bytes.Contains(a.Body, []byte("<Count>0</Count>")) || bytes.Contains(a.Body, []byte(`"count":0`)) {
			t.Errorf("%s over %s: no location found: %.300s", a.Call, a.Binding, a.Body)
		}
	}
}

// TestCollect: Collect asks each call in every binding its operation has,
// in order, or in the bindings given; WSDL reads the WSDL.
func TestCollect(t *testing.T) {
	t.Parallel()
	const ns, key = "http://collect.example.org/atmService", "collect-key"
	h, err := mockserver.New(mockserver.WithNamespace(ns), mockserver.WithKeys(key))
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	defer srv.Close()
	calls := []Call{
		{Op: "ReturnProvinces"},
		{Op: "ReturnAtmSearchByCity", Params: [][2]string{{"intCityID", "1"}}},
		{Op: "ReturnAtmSearchByCoordinates", Params: [][2]string{{"strPostalCode", ""}, {"dblLatitude", "44.6488"}, {"dblLongitude", "-63.5752"}, {"bytRadius", "5"}}},
	}
	var got []string
	for _, a := range Collect(t, srv.URL, ns, key, calls) {
		got = append(got, a.Call.Op+" "+a.Binding)
		if a.Status != 200 || a.ContentType == "" || len(a.Body) == 0 {
			t.Errorf("%s over %s: got %d %q and %d bytes, want 200, a content type and a body", a.Call, a.Binding, a.Status, a.ContentType, len(a.Body))
		}
	}
	want := []string{
		"ReturnProvinces soap11", "ReturnProvinces soap12", "ReturnProvinces get", "ReturnProvinces post",
		"ReturnAtmSearchByCity soap11", "ReturnAtmSearchByCity soap12", "ReturnAtmSearchByCity get", "ReturnAtmSearchByCity post",
		"ReturnAtmSearchByCoordinates soap11", "ReturnAtmSearchByCoordinates soap12", "ReturnAtmSearchByCoordinates get",
		"ReturnAtmSearchByCoordinates post", "ReturnAtmSearchByCoordinates json",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got the answers\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if as := Collect(t, srv.URL, ns, key, calls[2:], "get", "json"); len(as) != 2 || as[0].Binding != "get" || as[1].Binding != "json" {
		t.Errorf("in GET and JSON: got %d answers, want one in each", len(as))
	}
	if wsdl := WSDL(t, srv.URL); !bytes.Contains(wsdl, []byte(`targetNamespace="`+ns+`"`)) {
		t.Errorf("WSDL: got %.300q, want the service's", wsdl)
	}
	// An answer other than 200 fails the test, naming the call.
	f := &fatalRecorder{TB: t}
	done := make(chan struct{})
	go func() {
		defer close(done)
		Collect(f, srv.URL, ns, "another-key", calls[:1])
	}()
	<-done
	if want := "ReturnProvinces[] over soap11: status 500: "; !strings.HasPrefix(f.msg, want) {
		t.Errorf("a refused key: got %q, want the test failed with %q", f.msg, want)
	}
}

// fatalRecorder is a testing.TB whose Fatalf records its message and ends
// the goroutine, as a test's would.
type fatalRecorder struct {
	testing.TB
	msg string
}

func (f *fatalRecorder) Helper() {}

func (f *fatalRecorder) Fatalf(format string, args ...any) {
	f.msg = fmt.Sprintf(format, args...)
	runtime.Goexit()
}

// TestPageText: Mono's error page reads as the exception it names, past
// its style block, which filled the 300 bytes a failure showed.
func TestPageText(t *testing.T) {
	page := `<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE html><html xmlns="http://www.w3.org/1999/xhtml"><head><title>Object reference not set</title>
<style type="text/css">body { background-color: #FFFFFF; font-size: .75em; }</style></head>
<body><h1>Server Error in '/sets' Application</h1><h2><i>Object reference not set to an instance of an object</i></h2>
<p><b>Description:</b> HTTP 500.&nbsp;Error processing request.</p></body></html>`
	got := PageText(page)
	if want := "Server Error in '/sets' Application Object reference not set to an instance of an object Description: HTTP 500."; !strings.Contains(got, want) || strings.Contains(got, "background-color") {
		t.Errorf("got %q, want it to hold %q and no style", got, want)
	}
	if got := PageText("Missing parameter: x."); got != "Missing parameter: x." {
		t.Errorf("a plain text answer: got %q", got)
	}
}
