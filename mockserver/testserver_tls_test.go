package mockserver

import (
	"crypto/tls"
	"crypto/x509"
	"errors"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/atmkit/atmkit/asmx"
)

// TestTestServerTLS: WithTLS serves HTTPS as httptest.NewTLSServer does:
// URL is https, Client trusts the server, CACertPEM works for clients of
// other kinds, a client that does not trust it fails, and the WSDL and
// disco documents give https addresses.
func TestTestServerTLS(t *testing.T) {
	t.Parallel()
	ts := NewTestServer(t, WithDataset(smallDataset()), WithKeys("test-key"), WithTLS())
	u, err := url.Parse(ts.URL)
	if err != nil || u.Scheme != "https" || u.Hostname() != "127.0.0.1" || u.Path != "" {
		t.Fatalf("URL: got %q, want https://127.0.0.1:<port>", ts.URL)
	}
	get := func(c *http.Client, path string) (int, string, *tls.ConnectionState) {
		t.Helper()
		resp, err := c.Get(ts.URL + path)
		if err != nil {
			t.Fatalf("GET %s: %v", path, err)
		}
		defer resp.Body.Close()
		b, err := io.ReadAll(resp.Body)
		if err != nil {
			t.Fatal(err)
		}
		return resp.StatusCode, string(b), resp.TLS
	}
	status, body, state := get(ts.Client(), "/service/service.asmx/ReturnProvinces?strAtmServiceKey=test-key")
	if status != 200 || !strings.Contains(body, "Nova Scotia") {
		t.Errorf("ReturnProvinces: got %d %.200q, want 200 and the provinces", status, body)
	}
	if state == nil || state.NegotiatedProtocol != "" && state.NegotiatedProtocol != "http/1.1" {
		t.Errorf("TLS state: got %+v, want HTTP/1.1 over TLS", state)
	}
	for _, doc := range []string{"/service/service.asmx?WSDL", "/service/service.asmx?disco"} {
		_, body, _ := get(ts.Client(), doc)
		if want := `"` + ts.ServiceURL() + `"`; !strings.Contains(body, want) || strings.Contains(body, "http://127.0.0.1") {
			t.Errorf("%s: got %.400q, want the address %s", doc, body, want)
		}
	}

	// A client of its own, trusting CACertPEM.
	pool := x509.NewCertPool()
	if !pool.AppendCertsFromPEM(ts.CACertPEM()) {
		t.Fatalf("CACertPEM: got %q, want a PEM certificate", ts.CACertPEM())
	}
	own := &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool}}}
	defer own.CloseIdleConnections()
	if status, _, _ := get(own, "/__admin/health"); status != 200 {
		t.Errorf("health with a pool of CACertPEM: got %d, want 200", status)
	}
	if c := ts.CACertificate(); c == nil || !c.IsCA {
		t.Errorf("CACertificate: got %v, want the authority", c)
	}

	// A client that does not trust the authority fails the handshake.
	stranger := &http.Client{Transport: &http.Transport{}}
	defer stranger.CloseIdleConnections()
	_, err = stranger.Get(ts.URL + "/__admin/health")
	var unknown x509.UnknownAuthorityError
	if !errors.As(err, &unknown) {
		t.Errorf("a client not trusting the authority: got %v, want an unknown authority", err)
	}

	// Plain HTTP to the TLS port gets Go's 400, never the service.
	resp, err := http.Get("http://" + u.Host + asmx.ServicePath)
	if err == nil {
		resp.Body.Close()
		if resp.StatusCode != http.StatusBadRequest {
			t.Errorf("plain HTTP to the TLS port: got %d, want 400", resp.StatusCode)
		}
	}
}

// TestTestServerPlainClient: without WithTLS, Client is a plain client
// and there is no authority.
func TestTestServerPlainClient(t *testing.T) {
	t.Parallel()
	ts := NewTestServer(t, WithDataset(smallDataset()))
	if ts.CACertificate() != nil || ts.CACertPEM() != nil {
		t.Error("a plain test server has an authority")
	}
	resp, err := ts.Client().Get(ts.URL + "/__admin/health")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Errorf("health: got %d, want 200", resp.StatusCode)
	}
}

// TestStartTestServerTLS: StartTestServer takes WithTLS too, and Close
// closes the client's idle connections.
func TestStartTestServerTLS(t *testing.T) {
	t.Parallel()
	ts, err := StartTestServer(WithDataset(smallDataset()), WithTLS())
	if err != nil {
		t.Fatal(err)
	}
	defer ts.Close()
	if !strings.HasPrefix(ts.URL, "https://") {
		t.Errorf("URL: got %q, want https", ts.URL)
	}
	resp, err := ts.Client().Get(ts.URL + "/__admin/health")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
}
