package cli

import (
	"bytes"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestPrintListeningOnEveryInterface: a server on every interface prints a
// URL to paste and the URL of this host's name: for other hosts, or, in a
// container (a marker file of its engine present), for other containers,
// beside the published port the host reaches it at. Not parallel: it sets
// containerMarkers, which parallel tests only run after.
func TestPrintListeningOnEveryInterface(t *testing.T) {
	host, err := os.Hostname()
	if err != nil {
		t.Skipf("no host name here: %v", err)
	}
	marker := filepath.Join(t.TempDir(), ".dockerenv")
	if err := os.WriteFile(marker, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	saved := containerMarkers
	t.Cleanup(func() { containerMarkers = saved })
	addr := &net.TCPAddr{IP: net.IPv4zero, Port: 8080}
	for _, tc := range []struct {
		markers []string
		want    string
	}{
		{[]string{filepath.Join(t.TempDir(), "none")},
			"atmkit: mock listening on http://127.0.0.1:8080\n  reachable:  on every interface; from other hosts: http://" + host + ":8080\n"},
		{[]string{filepath.Join(t.TempDir(), "none"), marker},
			"atmkit: mock listening on http://127.0.0.1:8080\n" +
				"  reachable:  on every interface of this container; from the host: the port published (docker run -p PORT:8080)\n" +
				"              from other containers: its service name (compose), or http://" + host + ":8080\n"},
	} {
		containerMarkers = tc.markers
		var out bytes.Buffer
		e := &Env{Stdout: &out}
		if base := e.PrintListening("mock", addr, &Serving{}); base != "http://127.0.0.1:8080" {
			t.Errorf("base: got %q, want http://127.0.0.1:8080", base)
		}
		if got := out.String(); !strings.HasPrefix(got, tc.want) {
			t.Errorf("markers %v: got %q, want %q first", tc.markers, got, tc.want)
		}
	}
}
