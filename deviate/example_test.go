package deviate_test

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"time"

	"github.com/atmkit/atmkit/asmx"
	"github.com/atmkit/atmkit/deviate"
	"github.com/atmkit/atmkit/mockserver"
)

// The mock answering SOAP 1.1 in the SOAP 1.2 envelope namespace, to check
// that a conformance run catches it.
func ExampleWrap() {
	mock, err := mockserver.New()
	if err != nil {
		panic(err)
	}
	broken, err := deviate.Wrap(mock, "soap11-envelope-ns")
	if err != nil {
		panic(err)
	}
	srv := httptest.NewServer(broken)
	defer srv.Close()
	body := `<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="` + asmx.NamespaceSOAP11 + `"><soap:Body>` +
		`<ReturnProvinces xmlns="` + asmx.DefaultNamespace + `"><strAtmServiceKey>k</strAtmServiceKey></ReturnProvinces></soap:Body></soap:Envelope>`
	req, _ := http.NewRequest("POST", srv.URL+asmx.ServicePath, strings.NewReader(body))
	req.Header.Set("Content-Type", asmx.ContentTypeSOAP11)
	req.Header.Set("SOAPAction", `"`+asmx.SOAPAction(asmx.DefaultNamespace, asmx.OpReturnProvinces)+`"`)
	client := &http.Client{Timeout: 10 * time.Second}
	resp, err := client.Do(req)
	if err != nil {
		panic(err)
	}
	defer resp.Body.Close()
	answer, _ := io.ReadAll(resp.Body)
	fmt.Println(resp.StatusCode, strings.Contains(string(answer), asmx.NamespaceSOAP12))
	// Output: 200 true
}

func ExampleList() {
	for _, d := range deviate.List()[:2] {
		fmt.Printf("%s: %s\n", d.Name, d.Description)
	}
	// Output:
	// soap11-envelope-ns: SOAP 1.1 answers use the SOAP 1.2 envelope namespace
	// soap12-envelope-ns: SOAP 1.2 answers use the SOAP 1.1 envelope namespace
}
