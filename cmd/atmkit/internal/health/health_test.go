package health

import "testing"

func TestHealthDefaultURL(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ addr, want string }{
		{"", "http://127.0.0.1:8080"},
		{"0.0.0.0:9090", "http://127.0.0.1:9090"},
		{":9091", "http://127.0.0.1:9091"},
		{"[::]:9092", "http://[::1]:9092"},
		{"10.0.0.7:9093", "http://10.0.0.7:9093"},
		// A zone written %25 (RFC 6874): a raw % makes no URL.
		{"[fe80::1%eth0]:9094", "http://[fe80::1%25eth0]:9094"},
		{"[fe80::1%12]:9095", "http://[fe80::1%2512]:9095"},
		{"[fd00::2]:9096", "http://[fd00::2]:9096"},
		{"localhost:9097", "http://localhost:9097"},
		// Every interface however written: the loopback's.
		{"[0:0::0]:9098", "http://[::1]:9098"},
		{"[::ffff:0.0.0.0]:9099", "http://127.0.0.1:9099"},
		// A free port, or none: nothing to guess; the usage shows serve's
		// default, and atmkit health refuses to check it (exit 2 naming
		// ATMKIT_ADDR: TestHealth in package main).
		{"127.0.0.1:0", "http://127.0.0.1:8080"},
		{"no-port", "http://127.0.0.1:8080"},
	} {
		got := DefaultURL(func(k string) string {
			if k == "ATMKIT_ADDR" {
				return tc.addr
			}
			return ""
		})
		if got != tc.want {
			t.Errorf("ATMKIT_ADDR=%q: got %q, want %q", tc.addr, got, tc.want)
		}
	}
	// HTTPS where the variables of serve's TLS flags set it.
	for _, tc := range []struct {
		env  map[string]string
		want string
	}{
		{map[string]string{"ATMKIT_TLS_SELF_SIGNED": "true"}, "https://127.0.0.1:8080"},
		{map[string]string{"ATMKIT_TLS_SELF_SIGNED": "1", "ATMKIT_ADDR": "0.0.0.0:8443"}, "https://127.0.0.1:8443"},
		{map[string]string{"ATMKIT_TLS_CERT": "certs/server.pem", "ATMKIT_ADDR": "[::]:8443"}, "https://[::1]:8443"},
		{map[string]string{"ATMKIT_TLS_SELF_SIGNED": "false"}, "http://127.0.0.1:8080"},
		{map[string]string{"ATMKIT_TLS_SELF_SIGNED": "yes please"}, "http://127.0.0.1:8080"}, // serve refuses it: no TLS served
	} {
		if got := DefaultURL(func(k string) string { return tc.env[k] }); got != tc.want {
			t.Errorf("%v: got %q, want %q", tc.env, got, tc.want)
		}
	}
}

// TestHealthFallbackURL: an ATMKIT_ADDR of [::] (however written) has
// 127.0.0.1 to try after [::1], over HTTPS where serve's TLS variables set
// it; no other address has one.
func TestHealthFallbackURL(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		env  map[string]string
		want string
	}{
		{map[string]string{"ATMKIT_ADDR": "[::]:9092"}, "http://127.0.0.1:9092"},
		{map[string]string{"ATMKIT_ADDR": "[0:0::0]:9098"}, "http://127.0.0.1:9098"},
		{map[string]string{"ATMKIT_ADDR": "[::]:8443", "ATMKIT_TLS_SELF_SIGNED": "true"}, "https://127.0.0.1:8443"},
		{map[string]string{"ATMKIT_ADDR": "[::]:0"}, ""},
		{map[string]string{"ATMKIT_ADDR": "[::1]:9092"}, ""},
		{map[string]string{"ATMKIT_ADDR": "0.0.0.0:9090"}, ""},
		{map[string]string{"ATMKIT_ADDR": ":9091"}, ""},
		{map[string]string{}, ""},
	} {
		if got := fallbackURL(func(k string) string { return tc.env[k] }); got != tc.want {
			t.Errorf("%v: got %q, want %q", tc.env, got, tc.want)
		}
	}
}

func TestIsAdminURL(t *testing.T) {
	t.Parallel()
	for u, want := range map[string]bool{
		"http://127.0.0.1:8080":                     false,
		"http://127.0.0.1:8080/atm/":                false,
		"http://__admin.example:8080/":              false, // a host
		"http://127.0.0.1:8080/?p=/__admin/health":  false,
		"http://127.0.0.1:8080/__admin":             true,
		"http://127.0.0.1:8080/__admin/health":      false, // the endpoint's own (Target)
		"http://127.0.0.1:8080/__admin/health/":     false,
		"http://127.0.0.1:8080/__admin/requests":    true,
		"https://gw.example/atm/__admin/":           true,
		"http://127.0.0.1:8080/__administration/x/": false,
	} {
		if got := IsAdminURL(u); got != want {
			t.Errorf("IsAdminURL(%q) = %v, want %v", u, got, want)
		}
	}
}

func TestIsServiceURL(t *testing.T) {
	for u, want := range map[string]bool{
		"http://127.0.0.1:8080":                           false,
		"http://127.0.0.1:8080/":                          false,
		"http://127.0.0.1:8080/mocks/atm":                 false,
		"http://atm.asmx.example:8080":                    false, // a host, not a service
		"http://127.0.0.1:8080/?x=service.asmx":           false,
		"http://127.0.0.1:8080/service/service.asmx":      true,
		"http://127.0.0.1:8080/service/Service.ASMX/":     true,
		"http://127.0.0.1:8080/service-v2.asmx/Op":        true,
		"http://127.0.0.1:8080/service/service.asmx?WSDL": true,
	} {
		if got := IsServiceURL(u); got != want {
			t.Errorf("IsServiceURL(%q) = %v, want %v", u, got, want)
		}
	}
}
