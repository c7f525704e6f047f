package mockserver_test

import (
	"context"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"time"

	"github.com/atmkit/atmkit/asmx"
	"github.com/atmkit/atmkit/mockserver"
	"github.com/atmkit/atmkit/shape"
)

// provinces is a downstream app's client call: ReturnProvinces over HTTP GET.
func provinces(client *http.Client, baseURL, key string) ([]string, int, error) {
	q := url.Values{"strAtmServiceKey": {key}}
	resp, err := client.Get(baseURL + "/service/service.asmx/ReturnProvinces?" + q.Encode())
	if err != nil {
		return nil, 0, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		_, _ = io.Copy(io.Discard, resp.Body)
		return nil, resp.StatusCode, fmt.Errorf("ReturnProvinces: status %d", resp.StatusCode)
	}
	var doc struct {
		Provinces []struct {
			Code string `xml:"code"`
		} `xml:"province"`
	}
	if err := xml.NewDecoder(resp.Body).Decode(&doc); err != nil {
		return nil, resp.StatusCode, err
	}
	codes := make([]string, len(doc.Provinces))
	for i, p := range doc.Provinces {
		codes[i] = p.Code
	}
	return codes, resp.StatusCode, nil
}

// A downstream app's test points its client at the test server and then
// checks what the server received. In a test, use
// mockserver.NewTestServer(t, ...), which also closes the server on
// t.Cleanup; outside one, StartTestServer and Close.
func ExampleStartTestServer() {
	ts, err := mockserver.StartTestServer(mockserver.WithKeys("test-key"))
	if err != nil {
		fmt.Println(err)
		return
	}
	defer ts.Close()

	codes, _, err := provinces(http.DefaultClient, ts.URL, "test-key")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("provinces:", len(codes), "first:", codes[0])

	for _, r := range ts.Journal(mockserver.RequestFilter{}) {
		fmt.Println(r.Binding, r.Operation, r.Status, r.Params[asmx.ParamKey])
	}
	// Output:
	// provinces: 13 first: NB
	// get ReturnProvinces 200 te****
}

// A fault makes the next call fail so the client's retry can be tested: here
// one 503, then normal answers.
func ExampleFault_retry() {
	ts, err := mockserver.StartTestServer(
		mockserver.WithGeneratedDataset(7, 100),
		mockserver.WithFault(mockserver.Fault{Operation: asmx.OpReturnProvinces, Status: http.StatusServiceUnavailable, Times: 1}),
	)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer ts.Close()

	client := &http.Client{Timeout: 2 * time.Second}
	for attempt := 1; attempt <= 3; attempt++ {
		codes, status, err := provinces(client, ts.URL, "k")
		fmt.Printf("attempt %d: status %d\n", attempt, status)
		if err == nil {
			fmt.Println("provinces:", len(codes))
			break
		}
	}
	for _, r := range ts.Journal(mockserver.RequestFilter{Operation: asmx.OpReturnProvinces}) {
		fmt.Printf("journal: %d fault=%q\n", r.Status, r.Fault)
	}
	// Output:
	// attempt 1: status 503
	// attempt 2: status 200
	// provinces: 13
	// journal: 503 fault="f1"
	// journal: 200 fault=""
}

// A flaky service, reproducibly: a fault with a probability fails about
// that share of the calls, and which ones depends only on its seed and the
// call's number, so every run fails the same calls. A client that retries
// up to twice gets every answer.
func ExampleFault_probability() {
	ts, err := mockserver.StartTestServer(mockserver.WithFault(mockserver.Fault{
		Operation: "ReturnProvinces", Status: 503, Probability: 0.3, Seed: 42,
	}))
	if err != nil {
		fmt.Println(err)
		return
	}
	defer ts.Close()
	url := ts.URL + "/service/service.asmx/ReturnProvinces?strAtmServiceKey=k"
	for range 8 {
		for attempt := 0; attempt < 3; attempt++ {
			resp, err := http.Get(url)
			if err != nil {
				fmt.Println(err)
				return
			}
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				break
			}
		}
	}
	var failed []uint64
	for _, e := range ts.Journal(mockserver.RequestFilter{}) {
		if e.FaultKind == "status" {
			failed = append(failed, e.Seq)
		}
	}
	fmt.Println("calls:", len(ts.Journal(mockserver.RequestFilter{})), "failed:", failed)
	// Output:
	// calls: 11 failed: [1 5 6]
}

// A fault read from a file or a flag, in the JSON form the admin API
// takes, is checked before there is a server to add it to: Check returns
// it as a server stores it, or why a server would refuse it.
func ExampleFault_Check() {
	var f mockserver.Fault
	if err := json.Unmarshal([]byte(`{"operation":"returnprovinces","binding":"soap12","soapFault":{"code":"Sender"}}`), &f); err != nil {
		fmt.Println(err)
		return
	}
	f, err := f.Check()
	fmt.Println(f.Operation, f.Binding, f.SOAPFault.Code, f.SOAPFault.Text, err)
	_, err = mockserver.Fault{Operation: "ReturnProvinces"}.Check()
	fmt.Println(err)
	// Output:
	// ReturnProvinces soap12 Client Injected fault. <nil>
	// a fault needs at least one of delay, jitter, delayDistribution, status, soapFault, drop, malformed, dribble, reset or garbage
}

// An app that must call the service over HTTPS is tested against a test
// server with WithTLS: its URL is https, and ts.Client() trusts its
// certificate (ts.CACertPEM() is the authority for clients of other kinds).
func ExampleWithTLS() {
	ts, err := mockserver.StartTestServer(mockserver.WithKeys("test-key"), mockserver.WithTLS())
	if err != nil {
		fmt.Println(err)
		return
	}
	defer ts.Close()

	codes, _, err := provinces(ts.Client(), ts.URL, "test-key")
	if err != nil {
		fmt.Println(err)
		return
	}
	u, _ := url.Parse(ts.URL)
	fmt.Println(u.Scheme, "provinces:", len(codes))
	// Output: https provinces: 13
}

// A deployment whose results are typed XmlSerializer objects (learned with
// atmkit shape learn) is served in its own shape: here ReturnProvinces is
// an ArrayOfProvince of Province items with a ProvinceId atmkit generates.
func ExampleWithShape() {
	sh, err := shape.Load("testdata/shapes/typed.yaml")
	if err != nil {
		fmt.Println(err)
		return
	}
	ts, err := mockserver.StartTestServer(mockserver.WithShape(sh), mockserver.WithNamespace("http://atm.example.org/atmService"))
	if err != nil {
		fmt.Println(err)
		return
	}
	defer ts.Close()
	resp, err := http.Get(ts.URL + "/service/service.asmx/ReturnProvinces?strAtmServiceKey=k")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer resp.Body.Close()
	var doc struct {
		XMLName   xml.Name
		Provinces []struct {
			ID   int    `xml:"ProvinceId"`
			Code string `xml:"Code"`
		} `xml:"Province"`
	}
	if err := xml.NewDecoder(resp.Body).Decode(&doc); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(doc.XMLName.Local, doc.XMLName.Space)
	fmt.Println(doc.Provinces[0].ID, doc.Provinces[0].Code, doc.Provinces[1].ID, doc.Provinces[1].Code)
	// Output:
	// ArrayOfProvince http://atm.example.org/atmService
	// 1 NB 2 NS
}

// An app that mounts the mock in a server of its own serves it with
// ServeWith: the timeouts and connection cap of atmkit serve, and a graceful
// shutdown when the context ends.
func ExampleServeWith() {
	srv, err := mockserver.New(mockserver.WithKeys("test-key"), mockserver.WithGeneratedDataset(7, 100))
	if err != nil {
		fmt.Println(err)
		return
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		fmt.Println(err)
		return
	}
	ctx, stop := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- mockserver.ServeWith(ctx, ln, srv, mockserver.ServeOptions{Grace: 5 * time.Second}) }()

	client := &http.Client{Timeout: 5 * time.Second}
	codes, status, err := provinces(client, "http://"+ln.Addr().String(), "test-key")
	fmt.Println(status, len(codes), err)
	_, status, _ = provinces(client, "http://"+ln.Addr().String(), "wrong-key")
	fmt.Println("wrong key:", status)

	stop() // in a program: signal.NotifyContext(ctx, os.Interrupt)
	fmt.Println("stopped:", <-done)
	for _, r := range srv.Journal(mockserver.RequestFilter{}) {
		fmt.Println(r.Operation, r.Status, r.Error, r.Params[asmx.ParamKey])
	}
	// Output:
	// 200 13 <nil>
	// wrong key: 500
	// stopped: <nil>
	// ReturnProvinces 200  te****
	// ReturnProvinces 500 InvalidServiceKey wr****
}

// The journal narrows to one operation and binding with a RequestFilter.
func ExampleServer_Journal() {
	srv, err := mockserver.New()
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, target := range []string{
		"/service/service.asmx/ReturnProvinces?strAtmServiceKey=key-one",
		"/service/service.asmx/ReturnInstitutions?strAtmServiceKey=key-one",
		"/service/service.asmx/ReturnAtmSearchByCity?strAtmServiceKey=key-one&intCityID=202",
	} {
		srv.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest(http.MethodGet, target, nil))
	}
	for _, r := range srv.Journal(mockserver.RequestFilter{Binding: asmx.HTTPGet, Operation: "returnatmsearchbycity"}) {
		fmt.Println(r.Seq, r.Operation, r.Status)
	}
	srv.ResetJournal()
	fmt.Println(len(srv.Journal(mockserver.RequestFilter{})))
	// Output:
	// 3 ReturnAtmSearchByCity 200
	// 0
}
