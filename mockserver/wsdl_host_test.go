package mockserver

import (
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/atmkit/atmkit/internal/refdeploy"
)

// TestDocsAddressIsTheCanonicalURL: the WSDL's, the discovery document's
// and the help page's addresses name the host as ASMX does: it builds
// Request.Url, a System.Uri, from the Host header (HttpRequest.BuildUrl),
// and a Uri is canonical: the host in lower case, the scheme's default
// port left out, the port a number. The Mono reference deployment writes
// the same (TestDifferentialDocsHost).
func TestDocsAddressIsTheCanonicalURL(t *testing.T) {
	t.Parallel()
	plain := newTestServer(t)
	h, err := New(WithDataset(smallDataset()))
	if err != nil {
		t.Fatal(err)
	}
	tlsSrv := httptest.NewTLSServer(h)
	t.Cleanup(tlsSrv.Close)
	tests := []struct {
		srv        *httptest.Server
		host, want string
	}{
		{plain, "ATM.Example.ORG:8080", "http://atm.example.org:8080"},
		{plain, "atm.example.org:80", "http://atm.example.org"},
		{plain, "atm.example.org:0080", "http://atm.example.org"},
		{plain, "atm.example.org:08080", "http://atm.example.org:8080"},
		{plain, "atm.example.org:443", "http://atm.example.org:443"},
		{plain, "[FE80::1]:80", "http://[fe80::1]"},
		{plain, "[::1]:8080", "http://[::1]:8080"},
		{plain, "XN--BCHER-KVA.example", "http://xn--bcher-kva.example"},
		{tlsSrv, "Atm.Example.org:443", "https://atm.example.org"},
		{tlsSrv, "atm.example.org:80", "https://atm.example.org:80"},
	}
	for _, tt := range tests {
		get := func(query string) string {
			req, _ := http.NewRequest(http.MethodGet, tt.srv.URL+"/service/service.asmx"+query, nil)
			req.Host = tt.host
			resp, err := tt.srv.Client().Do(req)
			if err != nil {
				t.Fatalf("GET %s, Host %s: %v", query, tt.host, err)
			}
			defer resp.Body.Close()
			body, err := io.ReadAll(resp.Body)
			if err != nil || resp.StatusCode != http.StatusOK {
				t.Fatalf("GET %s, Host %s: %d %v", query, tt.host, resp.StatusCode, err)
			}
			return string(body)
		}
		addr := tt.want + "/service/service.asmx"
		if wsdl := get("?WSDL"); strings.Count(wsdl, `location="`+addr+`"`) != 4 {
			t.Errorf("Host %s: the WSDL's four addresses are not %s:\n%s", tt.host, addr, wsdlAddressLines(wsdl))
		}
		if disco := get("?disco"); strings.Count(disco, `"`+addr) != 4 {
			t.Errorf("Host %s: the discovery document's four locations are not %s:\n%s", tt.host, addr, disco)
		}
		name := strings.TrimPrefix(strings.TrimPrefix(tt.want, "http://"), "https://")
		if i := strings.LastIndex(name, ":"); i > strings.LastIndex(name, "]") {
			name = name[:i]
		}
		if help := get("?op=ReturnProvinces"); !strings.Contains(help, "\nHost: "+name+"\n") {
			t.Errorf("Host %s: the samples' Host is not %s", tt.host, name)
		}
	}
}

// wsdlAddressLines are the lines of a WSDL that hold an address.
func wsdlAddressLines(wsdl string) string {
	var out []string
	for _, l := range strings.Split(wsdl, "\n") {
		if strings.Contains(l, "address location=") {
			out = append(out, strings.TrimSpace(l))
		}
	}
	return strings.Join(out, "\n")
}

// TestDifferentialDocsHost: for a Host in another case, or its port
// written with zeros before it, the mock's WSDL and discovery document
// name the service where the Mono reference deployment's do. (Mono, as
// .NET unless aspnet:UseHostHeaderForRequestUrl is set, takes the port it
// listens on, not the Host header's: each is sent its own.)
func TestDifferentialDocsHost(t *testing.T) {
	d := refdeploy.Shared(t)
	mock := newTestServer(t)
	locations := regexp.MustCompile(`(?:location|ref|docRef|address)="http[^"]*"`)
	get := func(base, query, host string) string {
		u, err := url.Parse(base)
		if err != nil {
			t.Fatal(err)
		}
		req, _ := http.NewRequest(http.MethodGet, base+"/service/service.asmx"+query, nil)
		req.Host = strings.ReplaceAll(host, "PORT", u.Port())
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatalf("GET %s%s, Host %s: %v", base, query, req.Host, err)
		}
		defer resp.Body.Close()
		body, err := io.ReadAll(resp.Body)
		if err != nil || resp.StatusCode != http.StatusOK {
			t.Fatalf("GET %s%s, Host %s: %d %v", base, query, req.Host, resp.StatusCode, err)
		}
		return strings.ReplaceAll(strings.Join(locations.FindAllString(string(body), -1), "\n"), ":"+u.Port()+"/", ":PORT/")
	}
	for _, host := range []string{"ATM.Example.ORG:PORT", "atm.example.org:0PORT", "LOCALHOST:PORT", "127.0.0.1:PORT"} {
		for _, query := range []string{"?wsdl", "?disco"} {
			if got, want := get(mock.URL, query, host), get(d.URL, query, host); got != want {
				t.Errorf("%s, Host %s: the mock's locations\n%s\nthe deployment's\n%s", query, host, got, want)
			}
		}
	}
}
