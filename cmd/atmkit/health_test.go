package main

import (
	"maps"
	"net"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/atmkit/atmkit/internal/mocktest"
	"github.com/atmkit/atmkit/mockserver"
)

// TestHealth runs atmkit health against real servers: a mock (with and
// without an admin token, over HTTP and HTTPS), a port nobody listens on,
// and servers that are not atmkit mocks.
func TestHealth(t *testing.T) {
	t.Parallel()
	mock := mockserver.NewTestServer(t)
	guarded := mockserver.NewTestServer(t, mockserver.WithAdminToken("admin-secret"))
	tlsMock := mockserver.NewTestServer(t, mockserver.WithTLS())
	caFile := filepath.Join(t.TempDir(), "ca.pem")
	if err := os.WriteFile(caFile, tlsMock.CACertPEM(), 0o644); err != nil {
		t.Fatal(err)
	}
	notMock := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = w.Write([]byte("<html>hello</html>"))
	}))
	t.Cleanup(notMock.Close)
	failing := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "starting", http.StatusServiceUnavailable)
	}))
	t.Cleanup(failing.Close)
	mockPort := mustURL(t, mock.URL).Port()
	tlsPort := mustURL(t, tlsMock.URL).Port()
	otherCA := filepath.Join(t.TempDir(), "other-ca.pem") // an authority that did not issue tlsMock's certificate
	if err := os.WriteFile(otherCA, mockserver.NewTestServer(t, mockserver.WithTLS()).CACertPEM(), 0o644); err != nil {
		t.Fatal(err)
	}
	other := newElsewhere(t) // the gateway's header goes nowhere else
	redirecting := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, other.url+r.URL.RequestURI(), http.StatusTemporaryRedirect)
	}))
	t.Cleanup(redirecting.Close)
	endless := httptest.NewServer(dribble("", "{"))
	t.Cleanup(endless.Close)
	// A health endpoint that refuses a call with a header meant for
	// another server (the upstream's gateway).
	headerless := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("X-Gateway-Key") != "" {
			http.Error(w, "unexpected X-Gateway-Key", http.StatusBadRequest)
			return
		}
		_, _ = w.Write([]byte(`{"status":"ok"}`))
	}))
	t.Cleanup(headerless.Close)
	// A gateway serving the mock under /atm/, as a reverse proxy does.
	mockURL := mustURL(t, mock.URL)
	prefixed := httptest.NewServer(http.StripPrefix("/atm", httputil.NewSingleHostReverseProxy(mockURL)))
	t.Cleanup(prefixed.Close)

	for _, tc := range []struct {
		name string
		env  map[string]string
		args []string
		code int
		out  string // in stdout (code 0) or stderr
	}{
		{"a mock", nil, []string{"--url", mock.URL}, 0, "/__admin/health: ok"},
		{"a mock, URL with a slash", nil, []string{"--url", mock.URL + "/"}, 0, mock.URL + "/__admin/health: ok"},
		// The health endpoint's own URL (serve's banner prints it): it was
		// called at …/__admin/health/__admin/health, 404, exit 1.
		{"a mock, the health endpoint's URL", nil, []string{"--url", mock.URL + "/__admin/health"}, 0, "health: " + mock.URL + "/__admin/health: ok"},
		{"a mock behind a prefix, the health endpoint's URL", nil, []string{"--url", prefixed.URL + "/atm/__admin/health/"}, 0, prefixed.URL + "/atm/__admin/health: ok"},
		{"a mock with an admin token", nil, []string{"--url", guarded.URL}, 0, ": ok"},
		{"ATMKIT_URL", map[string]string{"ATMKIT_URL": mock.URL}, nil, 0, ": ok"},
		{"ATMKIT_HEALTH_URL", map[string]string{"ATMKIT_HEALTH_URL": mock.URL}, nil, 0, mock.URL + "/__admin/health: ok"},
		// serve's settings for its upstream, in the same environment (the
		// image's), are not the health check's.
		{"serve's ATMKIT_TIMEOUT", map[string]string{"ATMKIT_URL": mock.URL, "ATMKIT_TIMEOUT": "1ns"}, nil, 0, ": ok"},
		{"serve's ATMKIT_HEADER", map[string]string{"ATMKIT_URL": headerless.URL, "ATMKIT_HEADER": "X-Gateway-Key: gw-secret-4242"}, nil, 0, ": ok"},
		{"ATMKIT_HEALTH_HEADER", map[string]string{"ATMKIT_URL": headerless.URL, "ATMKIT_HEALTH_HEADER": "X-Gateway-Key: gw-secret-4242"}, nil, 1, "answered 400 Bad Request"},
		{"serve's ATMKIT_INSECURE_SKIP_VERIFY", map[string]string{"ATMKIT_URL": tlsMock.URL, "ATMKIT_INSECURE_SKIP_VERIFY": "true"}, nil, 2, "--ca-cert FILE"},
		{"serve's ATMKIT_CA_CERT", map[string]string{"ATMKIT_URL": tlsMock.URL, "ATMKIT_CA_CERT": caFile}, nil, 2, "--ca-cert FILE"},
		{"ATMKIT_HEALTH_CA_CERT", map[string]string{"ATMKIT_URL": tlsMock.URL, "ATMKIT_HEALTH_CA_CERT": caFile}, nil, 0, ": ok"},
		{"ATMKIT_HEALTH_TIMEOUT 0", map[string]string{"ATMKIT_URL": mock.URL, "ATMKIT_HEALTH_TIMEOUT": "0s"}, nil, 2, `ATMKIT_HEALTH_TIMEOUT="0s": must be positive`},
		{"the port of ATMKIT_ADDR", map[string]string{"ATMKIT_ADDR": "0.0.0.0:" + mockPort}, nil, 0, "http://127.0.0.1:" + mockPort + "/__admin/health: ok"},
		// An ATMKIT_ADDR with no port health can take is a wrong setting
		// (exit 2, as serve refuses it): checking 8080 instead, as health
		// did, could find another mock there healthy.
		{"ATMKIT_ADDR without a port", map[string]string{"ATMKIT_ADDR": "8080"}, nil, 2, `atmkit health: ATMKIT_ADDR="8080": want host:port, as serve takes it, such as 0.0.0.0:8080 (health checks that port on 127.0.0.1); or give the mock's base URL with --url or ATMKIT_URL`},
		{"ATMKIT_ADDR with a port that is no number", map[string]string{"ATMKIT_ADDR": "0.0.0.0:http"}, nil, 2, `ATMKIT_ADDR="0.0.0.0:http": want host:port`},
		// A sign net.Listen takes, which a URL's port cannot hold (:+0 is a free port too).
		{"ATMKIT_ADDR with a signed port", map[string]string{"ATMKIT_ADDR": "0.0.0.0:+8080"}, nil, 2, `ATMKIT_ADDR="0.0.0.0:+8080": want host:port`},
		{"ATMKIT_ADDR with a signed port 0", map[string]string{"ATMKIT_ADDR": ":+0"}, nil, 2, `ATMKIT_ADDR=":+0": want host:port`},
		{"ATMKIT_ADDR with port 0", map[string]string{"ATMKIT_ADDR": "127.0.0.1:0"}, nil, 2, `atmkit health: ATMKIT_ADDR="127.0.0.1:0": port 0 has serve pick a free port, which health cannot know; give the mock's base URL with --url or ATMKIT_URL (serve prints the port it picked)`},
		{"ATMKIT_ADDR with port 0, ATMKIT_URL", map[string]string{"ATMKIT_ADDR": "127.0.0.1:0", "ATMKIT_URL": mock.URL}, nil, 0, ": ok"},
		{"ATMKIT_ADDR without a port, --url", map[string]string{"ATMKIT_ADDR": "no-port"}, []string{"--url", mock.URL}, 0, ": ok"},
		{"HTTPS with its authority", nil, []string{"--url", tlsMock.URL, "--ca-cert", caFile}, 0, ": ok"},
		{"HTTPS, authority unknown", nil, []string{"--url", tlsMock.URL}, 2, "an authority not trusted here; give that authority's certificate (PEM) with --ca-cert FILE"},
		{"http:// to the HTTPS mock", nil, []string{"--url", strings.Replace(tlsMock.URL, "https:", "http:", 1)}, 2, "the server speaks HTTPS at that address, not plain HTTP (it answered with 400 \"Client sent an HTTP request to an HTTPS server.\"); use https:// in --url"},
		{"https:// to the HTTP mock", nil, []string{"--url", strings.Replace(mock.URL, "http:", "https:", 1)}, 2, "the server does not speak TLS at that address (it answered in plain HTTP); use http:// in --url"},
		// The image's health check of a mock whose TLS the ATMKIT_TLS_*
		// variables set: https on the port of ATMKIT_ADDR, whatever its
		// certificate (and whatever authority ATMKIT_CA_CERT names for
		// serve's --upstream).
		{"HTTPS from ATMKIT_TLS_SELF_SIGNED", map[string]string{"ATMKIT_ADDR": "0.0.0.0:" + tlsPort, "ATMKIT_TLS_SELF_SIGNED": "true"}, nil, 0, "https://127.0.0.1:" + tlsPort + "/__admin/health: ok"},
		{"HTTPS from ATMKIT_TLS_CERT", map[string]string{"ATMKIT_ADDR": "0.0.0.0:" + tlsPort, "ATMKIT_TLS_CERT": "server.pem", "ATMKIT_CA_CERT": otherCA}, nil, 0, "https://127.0.0.1:" + tlsPort + "/__admin/health: ok"},
		// serve's TLS set with its flags (docker run … serve
		// --tls-self-signed): the image's health check, which takes no
		// flags, asks plain HTTP; the fix is the variables it reads.
		{"HTTPS from serve's flags", map[string]string{"ATMKIT_ADDR": "0.0.0.0:" + tlsPort}, nil, 2, "(it answered with 400 \"Client sent an HTTP request to an HTTPS server.\"); set serve's TLS with ATMKIT_TLS_SELF_SIGNED=true, or ATMKIT_TLS_CERT and ATMKIT_TLS_KEY, instead of its flags"},
		{"ATMKIT_TLS_SELF_SIGNED false", map[string]string{"ATMKIT_ADDR": "0.0.0.0:" + mockPort, "ATMKIT_TLS_SELF_SIGNED": "false"}, nil, 0, "http://127.0.0.1:" + mockPort + "/__admin/health: ok"},
		{"HTTPS from ATMKIT_TLS_SELF_SIGNED, --url checks the certificate", map[string]string{"ATMKIT_TLS_SELF_SIGNED": "true"}, []string{"--url", tlsMock.URL}, 2, "--ca-cert FILE"},
		{"nothing listening", nil, []string{"--url", mocktest.ClosedPort(t)}, 1, "connection refused: nothing listens there"},
		{"a password in the URL", nil, []string{"--url", strings.Replace(mocktest.ClosedPort(t), "://", "://user:pass-word-987@", 1)}, 1, "://user:xxxxx@127.0.0.1:"},
		{"not a mock", nil, []string{"--url", notMock.URL}, 1, "not an atmkit mock"},
		{"503", nil, []string{"--url", failing.URL}, 1, "answered 503 Service Unavailable, want 200 OK"},
		{"a redirect to another host", nil, []string{"--url", redirecting.URL, "--header", "X-Gateway-Key: gw-secret-4242"}, 1, "answered 307 Temporary Redirect, a redirect to \"http://127.0.0.1:"},
		{"an endless answer", nil, []string{"--url", endless.URL, "--timeout", "2s"}, 1, "/__admin/health: an answer that did not end within --timeout"},
		{"not an HTTP URL", nil, []string{"--url", "ftp://127.0.0.1:21"}, 2, "--url ftp://127.0.0.1:21: want an http or https URL"},
		// A port no server can have is a wrong command line (exit 2), not
		// a mock that is down: it was exit 1, "dial tcp: address 99999:
		// invalid port", and port 0 "connection refused".
		{"a port over 65535", nil, []string{"--url", "http://127.0.0.1:99999"}, 2, "--url http://127.0.0.1:99999: the port must be a number from 1 to 65535"},
		{"port 0", map[string]string{"ATMKIT_URL": "https://127.0.0.1:0/"}, nil, 2, `ATMKIT_URL="https://127.0.0.1:0/": the port must be a number from 1 to 65535`},
		{"the service's URL", nil, []string{"--url", mock.URL + "/service/service.asmx"}, 2, "/service/service.asmx: the service's URL; want the mock's base URL, such as http://127.0.0.1:8080"},
		// The URL of the admin page or of another admin endpoint (the
		// health endpoint's own is taken, above): a 404 of
		// /__admin/__admin/health, exit 1, read as a mock that is not well.
		{"the admin page's URL", map[string]string{"ATMKIT_URL": mock.URL + "/__admin/"}, nil, 2, `/__admin/": the admin API's URL; want the mock's base URL`},
		{"the admin API's requests URL", nil, []string{"--url", mock.URL + "/__admin/requests"}, 2, "/__admin/requests: the admin API's URL; want the mock's base URL, such as http://127.0.0.1:8080 (health asks its /__admin/health)"},
		{"timeout 0", nil, []string{"--url", mock.URL, "--timeout", "0s"}, 2, "--timeout 0s: must be positive"},
		{"a key in the URL's query", nil, []string{"--url", mock.URL + "/?key=pass-word-987"}, 2, "/?...: want a base URL, with a path prefix at most"},
		// The URL is echoed as written, its query and fragment masked:
		// a fragment was shown as a query (/x?... for /x#frag).
		{"a fragment", nil, []string{"--url", mock.URL + "/x#pass-word-987"}, 2, "--url " + mock.URL + "/x#...: want a base URL, with a path prefix at most (such as http://127.0.0.1:8080/prefix): no query (?...) or fragment (#...)"},
		{"a query and a fragment", nil, []string{"--url", mock.URL + "/x?key=pass-word-987#frag"}, 2, "--url " + mock.URL + "/x?...#...: want a base URL"},
		// From ATMKIT_URL, the variable is named, as for another wrong
		// value of it: it was shown as --url.
		{"a fragment in ATMKIT_URL", map[string]string{"ATMKIT_URL": mock.URL + "/x#pass-word-987"}, nil, 2, `ATMKIT_URL="` + mock.URL + `/x#...": want a base URL, with a path prefix at most (such as http://127.0.0.1:8080/prefix): no query (?...) or fragment (#...) (--url)`},
		{"an empty query", nil, []string{"--url", mock.URL + "/x?"}, 2, "--url " + mock.URL + "/x?: want a base URL"},
		// An empty fragment was taken, and the path appended went into
		// it: /x#/__admin/health asked /x.
		{"an empty fragment", nil, []string{"--url", mock.URL + "/#"}, 2, "--url " + mock.URL + "/#: want a base URL"},
		{"a mock behind a path prefix", nil, []string{"--url", prefixed.URL + "/atm/"}, 0, prefixed.URL + "/atm/__admin/health: ok"},
		{"an argument", nil, []string{mock.URL}, 2, "unexpected argument"},
		{"an unknown flag", nil, []string{"--port", "8080"}, 2, "unknown flag --port"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			code, out, errOut := runAtmkit(tc.env, append([]string{"health"}, tc.args...)...)
			if code != tc.code {
				t.Fatalf("exit code: got %d, want %d\nstdout: %s\nstderr: %s", code, tc.code, out, errOut)
			}
			got := errOut
			if code == 0 {
				got = out
			}
			if !strings.Contains(got, tc.out) {
				t.Errorf("got %q, want it to contain %q", got, tc.out)
			}
			if strings.Contains(out+errOut, "pass-word-987") || strings.Contains(out+errOut, "gw-secret-4242") {
				t.Errorf("the URL's password is in the output: %q", out+errOut)
			}
		})
	}
}

func mustURL(t *testing.T, s string) *url.URL {
	t.Helper()
	u, err := url.Parse(s)
	if err != nil {
		t.Fatal(err)
	}
	return u
}

// TestHealthMutualTLS: the image's health check (no --url; ATMKIT_ADDR and
// ATMKIT_TLS_* as serve reads them) of a mock that requires client
// certificates passes with a client certificate of the health check's own
// variables, and without one exits 2 naming them; serve's ATMKIT_CLIENT_CERT
// (for its upstream, which serve refuses without one) is not taken.
func TestHealthMutualTLS(t *testing.T) {
	t.Parallel()
	c := newCerts(t)
	srv := startCmd(t, nil, "serve", "--addr", "127.0.0.1:0", "--tls-cert", c.serverCert, "--tls-key", c.serverKey, "--tls-client-ca", c.caFile)
	image := map[string]string{"ATMKIT_ADDR": "0.0.0.0:" + mustURL(t, srv.base).Port(),
		"ATMKIT_TLS_CERT": c.serverCert, "ATMKIT_TLS_KEY": c.serverKey, "ATMKIT_TLS_CLIENT_CA": c.caFile}
	with := func(kv ...string) map[string]string {
		env := maps.Clone(image)
		for i := 0; i < len(kv); i += 2 {
			env[kv[i]] = kv[i+1]
		}
		return env
	}
	for _, tc := range []struct {
		name string
		env  map[string]string
		args []string
		code int
		out  string
	}{
		{"a client certificate of ATMKIT_HEALTH_CLIENT_CERT", with("ATMKIT_HEALTH_CLIENT_CERT", c.clientCert, "ATMKIT_HEALTH_CLIENT_KEY", c.clientKey), nil, 0,
			"https://127.0.0.1:" + mustURL(t, srv.base).Port() + "/__admin/health: ok"},
		{"a client certificate of --client-cert", image, []string{"--client-cert", c.clientCert, "--client-key", c.clientKey}, 0, ": ok"},
		{"none", image, nil, 2, "the mock requires client certificates (ATMKIT_TLS_CLIENT_CA is set): give the health check one that an authority of ATMKIT_TLS_CLIENT_CA issued, with ATMKIT_HEALTH_CLIENT_CERT=FILE ATMKIT_HEALTH_CLIENT_KEY=FILE"},
		{"serve's ATMKIT_CLIENT_CERT", with("ATMKIT_CLIENT_CERT", c.clientCert, "ATMKIT_CLIENT_KEY", c.clientKey), nil, 2, "ATMKIT_HEALTH_CLIENT_CERT=FILE"},
		{"one of another authority", with("ATMKIT_HEALTH_CLIENT_CERT", c.strangerCert, "ATMKIT_HEALTH_CLIENT_KEY", c.strangerKey), nil, 2,
			"the one of --client-cert is from another, so none was sent"},
		{"by hand, none", nil, []string{"--url", srv.base, "--ca-cert", c.caFile}, 2,
			"TLS: the server requires a client certificate and none was sent (it said: certificate required); give a client certificate the server trusts and its key with --client-cert FILE --client-key FILE"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			code, out, errOut := runAtmkit(tc.env, append([]string{"health"}, tc.args...)...)
			if code != tc.code {
				t.Fatalf("exit code: got %d, want %d\nstdout: %s\nstderr: %s", code, tc.code, out, errOut)
			}
			if got := map[bool]string{true: out, false: errOut}[code == 0]; !strings.Contains(got, tc.out) || strings.Count(got, "\n") != 1 {
				t.Errorf("got %q, want one line with %q", got, tc.out)
			}
		})
	}
	// serve in the same environment, with the health check's variables.
	code, _, errOut := runAtmkitWithin(2*time.Second, with("ATMKIT_ADDR", "127.0.0.1:0", "ATMKIT_HEALTH_CLIENT_CERT", c.clientCert, "ATMKIT_HEALTH_CLIENT_KEY", c.clientKey), "serve")
	if code != 0 {
		t.Errorf("serve beside ATMKIT_HEALTH_CLIENT_CERT: exit %d, want 0 (stopped): %s", code, errOut)
	}
}

// TestHealthSpecificAddr: the image's health check (no --url) of a serve
// whose ATMKIT_ADDR names one address, which the loopback interface does
// not reach (eth0's, say), checks that address: an IPv4 one, and an IPv6
// link-local one with its zone (written %25 in the URL, RFC 6874), where
// this host has them.
func TestHealthSpecificAddr(t *testing.T) {
	t.Parallel()
	for name, find := range map[string]func() (string, error){"IPv4": mocktest.HostAddr, "link-local": mocktest.LinkLocalAddr} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			addr, err := find()
			if err != nil {
				t.Skip(err)
			}
			srv := startCmd(t, nil, "serve", "--addr", addr)
			host, _, _ := net.SplitHostPort(addr)
			env := map[string]string{"ATMKIT_ADDR": net.JoinHostPort(host, mustURL(t, srv.base).Port())}
			code, out, errOut := runAtmkit(env, "health")
			if want := srv.base + "/__admin/health: ok\n"; code != 0 || !strings.HasSuffix(out, want) {
				t.Errorf("ATMKIT_ADDR=%s: exit %d, stdout %q, stderr %q; want 0 and %q", env["ATMKIT_ADDR"], code, out, errOut, want)
			}
		})
	}
}

// TestHealthEveryInterfaceIPv6: the image's health check (no --url) of a
// serve whose ATMKIT_ADDR is [::] asks [::1], which reaches a serve on [::]
// (IPv6 and IPv4 alike), and 127.0.0.1 where nothing answers there: a
// container with IPv6 turned off has no ::1, while serve on
// [::] takes its IPv4 calls, and the check failed with "cannot assign
// requested address" beside a mock that answers. The serve here listens
// on 127.0.0.1 alone, so that [::1] finds nothing, as it finds nothing
// there.
func TestHealthEveryInterfaceIPv6(t *testing.T) {
	t.Parallel()
	srv := startCmd(t, nil, "serve", "--addr", "127.0.0.1:0")
	env := map[string]string{"ATMKIT_ADDR": "[::]:" + mustURL(t, srv.base).Port()}
	code, out, errOut := runAtmkit(env, "health")
	if want := srv.base + "/__admin/health: ok\n"; code != 0 || !strings.HasSuffix(out, want) {
		t.Errorf("ATMKIT_ADDR=%s: exit %d, stdout %q, stderr %q; want 0 and %q", env["ATMKIT_ADDR"], code, out, errOut, want)
	}
	code, _, errOut = runAtmkit(map[string]string{"ATMKIT_ADDR": "[::]:" + mustURL(t, closedPort(t)).Port()}, "health")
	if want := "health: http://127.0.0.1:"; code != 1 || !strings.Contains(errOut, want) || !strings.Contains(errOut, "connection refused: nothing listens there") {
		t.Errorf("ATMKIT_ADDR=[::] of a closed port: exit %d, stderr %q; want 1, %q and connection refused", code, errOut, want)
	}
}
