package mockserver

import "testing"

// TestHelpAtMovesTheDeploymentsAddresses: what helpAt rewrites in a help
// page recorded from a deployment in a virtual directory, and what it
// leaves as recorded.
func TestHelpAtMovesTheDeploymentsAddresses(t *testing.T) {
	t.Parallel()
	const (
		recorded = "http://ATM.example.org:8080/App/service/service.asmx"
		origin   = "http://127.0.0.1:4711"
		host     = "127.0.0.1:4711"
	)
	tests := []struct{ name, page, want string }{
		{"sample request, .NET's Host without the port",
			"<pre>POST /App/service/service.asmx HTTP/1.1\nHost: atm.example.org\nContent-Type: text/xml</pre>",
			"<pre>POST /service/service.asmx HTTP/1.1\nHost: 127.0.0.1\nContent-Type: text/xml</pre>"},
		{"sample request, Host with the port",
			"POST /app/service/service.asmx/ReturnProvinces HTTP/1.1\nHost: atm.example.org:8080\n",
			"POST /service/service.asmx/ReturnProvinces HTTP/1.1\nHost: 127.0.0.1:4711\n"},
		{"Mono's sample, in HTML",
			"POST&nbsp;/App/service/service.asmx<br>Host:&nbsp;<span class='literal-placeholder'>string</span>",
			"POST&nbsp;/service/service.asmx<br>Host:&nbsp;<span class='literal-placeholder'>string</span>"},
		{"test form and links of both files",
			`<form action="http://atm.example.org:8080/app/service/service.asmx/ReturnProvinces"><a href="http://atm.example.org:8080/App/Service-V2.asmx?disco"><link href="/App/service-v2.asmx">`,
			`<form action="http://127.0.0.1:4711/service/service.asmx/ReturnProvinces"><a href="http://127.0.0.1:4711/service-v2.asmx?disco"><link href="/service-v2.asmx">`},
		{"relative references stay",
			`<a href="service.asmx?op=ReturnProvinces">x</a>`,
			`<a href="service.asmx?op=ReturnProvinces">x</a>`},
		{"other hosts and paths stay",
			`<a href="http://prod.example.org/App/service/service.asmx">prod</a> /Other/service/service.asmx /App/service/service.asmxx Host: prod.example.org`,
			`<a href="http://prod.example.org/App/service/service.asmx">prod</a> /Other/service/service.asmx /App/service/service.asmxx Host: prod.example.org`},
	}
	for _, tt := range tests {
		if got := string(helpAt([]byte(tt.page), recorded, origin, host)); got != tt.want {
			t.Errorf("%s: got %q, want %q", tt.name, got, tt.want)
		}
	}
}

// TestDiscoAtMovesEveryLocation: every location of a discovery document
// naming one of the two files is moved, what follows the file kept.
func TestDiscoAtMovesEveryLocation(t *testing.T) {
	t.Parallel()
	doc := `<discovery xmlns="http://schemas.xmlsoap.org/disco/">
  <contractRef ref="http://h:1/app/service-v2.asmx?wsdl" docRef='HTTPS://h:1/app/service-v2.asmx' xmlns="http://schemas.xmlsoap.org/disco/scl/" />
  <soap address="http://h:1/app/service/service.asmx" xmlns:q1="urn:x" binding="q1:AtmServiceSoap" xmlns="http://schemas.xmlsoap.org/disco/soap/" />
  <discoveryRef ref="other.disco" />
  <soap address="http://h:1/app/other.asmx" binding="q1:Other" />
</discovery>`
	want := `<discovery xmlns="http://schemas.xmlsoap.org/disco/">
  <contractRef ref="http://m:2/service-v2.asmx?wsdl" docRef='http://m:2/service-v2.asmx' xmlns="http://schemas.xmlsoap.org/disco/scl/" />
  <soap address="http://m:2/service/service.asmx" xmlns:q1="urn:x" binding="q1:AtmServiceSoap" xmlns="http://schemas.xmlsoap.org/disco/soap/" />
  <discoveryRef ref="other.disco" />
  <soap address="http://h:1/app/other.asmx" binding="q1:Other" />
</discovery>`
	if got := string(discoAt([]byte(doc), "http://m:2")); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

// TestDiscoAtLooksPastAnEarlierAsmx: a location whose host or base path
// holds ".asmx" before the file's own (a host legacy.asmx.example.org, a
// virtual directory /x.asmx-files) is moved too: the file is found after
// it; one in a query names no file.
func TestDiscoAtLooksPastAnEarlierAsmx(t *testing.T) {
	t.Parallel()
	doc := `<soap address="http://legacy.asmx.example.org/app/service/service.asmx" /><contractRef ref="http://h:1/x.asmx-files/service-v2.asmx?wsdl" /><soap address="http://h:1/other.asmx?u=/service/service.asmx" />`
	want := `<soap address="http://m:2/service/service.asmx" /><contractRef ref="http://m:2/service-v2.asmx?wsdl" /><soap address="http://h:1/other.asmx?u=/service/service.asmx" />`
	if got := string(discoAt([]byte(doc), "http://m:2")); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}
