package main

import (
	"net/http"
	"path/filepath"
	"strings"
	"testing"

	"github.com/atmkit/atmkit/internal/mocktest"
)

// A cassette recorded from a deployment in a namespace of its own replays
// its SOAP calls without --namespace: serve takes the namespace the calls
// were recorded in, so the deployment's SOAPActions are the mock's. A
// --namespace given wins.
func TestServeReplayTakesTheCassettesNamespace(t *testing.T) {
	t.Parallel()
	const ns = "http://atmref.example.org/atmService"
	cassette := filepath.Join("..", "..", "cassettes", "testdata", "reference-typed.yaml")
	params := mocktest.ParamsFor("ReturnProvinces", "any-key")

	base, _, _ := startServe(t, nil, "--replay", cassette)
	status, body := mocktest.Call(t, base, ns, "soap11", "ReturnProvinces", params)
	if status != http.StatusOK || !strings.Contains(string(body), "<Code>NB</Code>") {
		t.Errorf("SOAP 1.1 call in the cassette's namespace: got %d %.300q, want 200 and the recorded provinces", status, body)
	}
	if status, wsdl := get(t, base+"/service/service.asmx?WSDL", ""); status != http.StatusOK || !strings.Contains(wsdl, `targetNamespace="`+ns+`"`) {
		t.Errorf("WSDL: got %d, want 200 with targetNamespace %q", status, ns)
	}

	base, _, _ = startServe(t, nil, "--replay", cassette, "--namespace", "http://tempuri.org/")
	if status, body := mocktest.Call(t, base, ns, "soap11", "ReturnProvinces", params); status != http.StatusInternalServerError || !strings.Contains(string(body), "SOAPAction") {
		t.Errorf("with --namespace http://tempuri.org/: got %d %.300q, want 500 naming the SOAPAction it does not recognize", status, body)
	}
}
