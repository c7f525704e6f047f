package cli

import (
	"bytes"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/atmkit/atmkit/internal/mocktest"
	"github.com/atmkit/atmkit/internal/shellquote"
	"github.com/atmkit/atmkit/internal/tlsconf"
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

// TestPrintListeningOnLoopbackInContainer: a server on the loopback
// address of a container whose main process it is, as in the image
// (ATMKIT_ADDR=127.0.0.1:8080), is reached from inside it alone, where its
// health check runs: the banner says so, and how to listen for the host
// and other containers. On a host, or started beside a job's tests in a
// CI container (not PID 1), it says nothing more. Not parallel: it sets
// containerMarkers and pid1.
func TestPrintListeningOnLoopbackInContainer(t *testing.T) {
	marker := filepath.Join(t.TempDir(), ".dockerenv")
	if err := os.WriteFile(marker, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	savedMarkers, savedPID1 := containerMarkers, pid1
	t.Cleanup(func() { containerMarkers, pid1 = savedMarkers, savedPID1 })
	const only = "  reachable:  only inside this container (%s is its own): neither the host, through a published port, nor other containers reach it; listen on every interface for them (ATMKIT_ADDR=0.0.0.0:8080, the image's)\n"
	for _, tc := range []struct {
		markers []string
		main    bool // PID 1
		ip      net.IP
		want    string
	}{
		{[]string{filepath.Join(t.TempDir(), "none")}, true, net.IPv4(127, 0, 0, 1), "atmkit: mock listening on http://127.0.0.1:8080\n"},
		{[]string{marker}, false, net.IPv4(127, 0, 0, 1), "atmkit: mock listening on http://127.0.0.1:8080\n"},
		{[]string{marker}, true, net.IPv4(127, 0, 0, 1), "atmkit: mock listening on http://127.0.0.1:8080\n" + fmt.Sprintf(only, "127.0.0.1")},
		{[]string{marker}, true, net.IPv6loopback, "atmkit: mock listening on http://[::1]:8080\n" + fmt.Sprintf(only, "::1")},
	} {
		containerMarkers, pid1 = tc.markers, func() bool { return tc.main }
		var out bytes.Buffer
		e := &Env{Stdout: &out}
		e.PrintListening("mock", &net.TCPAddr{IP: tc.ip, Port: 8080}, &Serving{})
		if got := out.String(); got != tc.want {
			t.Errorf("markers %v, PID 1 %v, %v: got %q, want %q", tc.markers, tc.main, tc.ip, got, tc.want)
		}
	}
}

// TestPrintTLSInContainer: the throwaway authority's file is a path in
// the container; its banner says so, and how the host gets a copy, besides
// the line and try line that work in the container. Not parallel: it sets
// containerMarkers.
func TestPrintTLSInContainer(t *testing.T) {
	marker := filepath.Join(t.TempDir(), ".dockerenv")
	if err := os.WriteFile(marker, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	saved := containerMarkers
	t.Cleanup(func() { containerMarkers = saved })
	sv, err := tlsconf.Server{SelfSigned: true}.Load()
	if err != nil {
		t.Fatal(err)
	}
	const (
		ca    = "  CA:         /tmp/atmkit-ca-1.pem (the throwaway authority's certificate, removed when atmkit stops): trust it with curl --cacert /tmp/atmkit-ca-1.pem, atmkit --ca-cert /tmp/atmkit-ca-1.pem\n"
		try   = `  try:        curl "https://127.0.0.1:8080/x" --cacert /tmp/atmkit-ca-1.pem` + "\n"
		mount = "or write it to a mounted directory with ATMKIT_TLS_CA_OUT (-v \"$PWD:/data\" -e ATMKIT_TLS_CA_OUT=/data/ca.pem)"
	)
	temp := &Serving{Serving: sv, caFile: "/tmp/atmkit-ca-1.pem", removeCA: true}
	for _, tc := range []struct {
		name    string
		markers []string
		s       *Serving
		want    string
	}{
		{"on a host", []string{filepath.Join(t.TempDir(), "none")}, temp, ca + try},
		{"in a container", []string{marker}, temp, ca +
			"              that path is in this container; from the host: docker cp <container>:/tmp/atmkit-ca-1.pem ca.pem (then --cacert ca.pem), " + mount + "\n" + try},
		{"in a container, --tls-ca-out", []string{marker}, &Serving{Serving: sv, caFile: "/data/ca.pem"},
			"  CA:         /data/ca.pem (the throwaway authority's certificate, kept): trust it with curl --cacert /data/ca.pem, atmkit --ca-cert /data/ca.pem\n" +
				"              that path is in this container; from the host: docker cp <container>:/data/ca.pem ca.pem (then --cacert ca.pem), or take it from the directory mounted there\n"},
	} {
		containerMarkers = tc.markers
		var out bytes.Buffer
		e := &Env{Stdout: &out}
		e.PrintTLS(tc.s)
		e.PrintTry(tc.s, "https://127.0.0.1:8080/x", "", nil)
		_, got, _ := strings.Cut(out.String(), "\n") // after the tls: line
		if !strings.HasPrefix(got, tc.want) {
			t.Errorf("%s: got %q, want %q first", tc.name, got, tc.want)
		}
	}
	// On every interface of a container, other containers reach it by its
	// service name, which the throwaway certificate must name: the banner
	// says so where --tls-name (ATMKIT_TLS_NAME) gave it no name, and not
	// where it did (its tls: line lists them).
	containerMarkers = []string{marker}
	const hint = "\n              (over HTTPS by its service name: the throwaway certificate must name it, ATMKIT_TLS_NAME=<service>)\n"
	for _, tc := range []struct {
		args []string
		want bool
	}{
		{nil, true},
		{[]string{"--tls-name", "atmkit"}, false},
	} {
		var f ListenTLSFlags
		fs := flag.NewFlagSet("serve", flag.ContinueOnError)
		f.Register(fs)
		args := append([]string{"--tls-self-signed", "--tls-ca-out", filepath.Join(t.TempDir(), "ca.pem")}, tc.args...)
		if err := fs.Parse(args); err != nil {
			t.Fatal(err)
		}
		e := &Env{Stderr: io.Discard, Getenv: func(string) string { return "" }}
		s, err := e.ListenTLS(fs, &f, "0.0.0.0:8080")
		if err != nil {
			t.Fatalf("%q: %v", args, err)
		}
		var out bytes.Buffer
		e.Stdout = &out
		e.PrintListening("mock", &net.TCPAddr{IP: net.IPv4zero, Port: 8080}, s)
		s.Close()
		if got := strings.Contains(out.String(), hint); got != tc.want {
			t.Errorf("%q: the hint %q shown: %v, want %v:\n%s", args, hint, got, tc.want, out.String())
		}
	}
}

// TestPrintTry: the try line per shell. For cmd.exe: curl.exe (Windows
// PowerShell's curl is Invoke-WebRequest), the key's variable as
// %ATMKIT_KEY% (cmd.exe hands "$ATMKIT_KEY" on as it is), the client
// certificate's variables set with set and read as %NAME%, a path with a
// space in double quotes. For PowerShell: curl.exe, $env:ATMKIT_KEY (it
// hands %ATMKIT_KEY% on as it is), PowerShell variables for the client
// certificate, the path in single quotes (a ' in it doubled). For a POSIX
// shell (Git Bash's curl is curl) the line is as it was.
func TestPrintTry(t *testing.T) {
	t.Parallel()
	sv, err := tlsconf.Server{SelfSigned: true}.Load()
	if err != nil {
		t.Fatal(err)
	}
	sv.ClientCAs = 1
	s := &Serving{Serving: sv, caFile: `C:\Users\Jane Doe\AppData\Local\Temp\atmkit-ca-1.pem`, clientCA: `C:\certs\ca.pem`}
	quote := &Serving{Serving: sv, caFile: `C:\Users\Jane O'Neil\ca.pem`, clientCA: `C:\Jane's certs\ca.pem`}
	plain, err := tlsconf.Server{SelfSigned: true}.Load()
	if err != nil {
		t.Fatal(err)
	}
	ca := &Serving{Serving: plain, caFile: `C:\temp\ca.pem`}
	for _, tc := range []struct {
		sh     shellquote.Shell
		s      *Serving
		keyVar string
		want   string
	}{
		{shellquote.Cmd, s, "ATMKIT_KEY", `  try:        set "CLIENT_CERT=<a client certificate from C:\certs\ca.pem>" & set "CLIENT_KEY=<its key>"` + "\n" +
			`              curl.exe "https://127.0.0.1:8080/x?k=%ATMKIT_KEY%" --cacert "C:\Users\Jane Doe\AppData\Local\Temp\atmkit-ca-1.pem" --cert "%CLIENT_CERT%" --key "%CLIENT_KEY%"` + "\n"},
		{shellquote.Cmd, s, "", `  try:        set "CLIENT_CERT=<a client certificate from C:\certs\ca.pem>" & set "CLIENT_KEY=<its key>"` + "\n" +
			`              curl.exe "https://127.0.0.1:8080/x?k=" --cacert "C:\Users\Jane Doe\AppData\Local\Temp\atmkit-ca-1.pem" --cert "%CLIENT_CERT%" --key "%CLIENT_KEY%"` + "\n"},
		{shellquote.Cmd, ca, "ATMKIT_KEY", `  try:        curl.exe "https://127.0.0.1:8080/x?k=%ATMKIT_KEY%" --cacert C:\temp\ca.pem` + "\n"},
		{shellquote.PowerShell, s, "ATMKIT_KEY", `  try:        $CLIENT_CERT = '<a client certificate from C:\certs\ca.pem>'; $CLIENT_KEY = '<its key>'` + "\n" +
			`              curl.exe "https://127.0.0.1:8080/x?k=$env:ATMKIT_KEY" --cacert 'C:\Users\Jane Doe\AppData\Local\Temp\atmkit-ca-1.pem' --cert "$CLIENT_CERT" --key "$CLIENT_KEY"` + "\n"},
		{shellquote.PowerShell, quote, "", `  try:        $CLIENT_CERT = '<a client certificate from C:\Jane''s certs\ca.pem>'; $CLIENT_KEY = '<its key>'` + "\n" +
			`              curl.exe "https://127.0.0.1:8080/x?k=" --cacert 'C:\Users\Jane O''Neil\ca.pem' --cert "$CLIENT_CERT" --key "$CLIENT_KEY"` + "\n"},
		{shellquote.PowerShell, ca, "ATMKIT_KEY", `  try:        curl.exe "https://127.0.0.1:8080/x?k=$env:ATMKIT_KEY" --cacert C:\temp\ca.pem` + "\n"},
		{shellquote.PowerShell, &Serving{}, "", `  try:        curl.exe "https://127.0.0.1:8080/x?k="` + "\n"},
		{shellquote.POSIX, s, "ATMKIT_KEY", `  try:        CLIENT_CERT='<a client certificate from C:\certs\ca.pem>' CLIENT_KEY='<its key>'` + "\n" +
			`              curl "https://127.0.0.1:8080/x?k=$ATMKIT_KEY" --cacert 'C:\Users\Jane Doe\AppData\Local\Temp\atmkit-ca-1.pem' --cert "$CLIENT_CERT" --key "$CLIENT_KEY"` + "\n"},
		{shellquote.POSIX, quote, "", `  try:        CLIENT_CERT='<a client certificate from C:\Jane'\''s certs\ca.pem>' CLIENT_KEY='<its key>'` + "\n" +
			`              curl "https://127.0.0.1:8080/x?k=" --cacert 'C:\Users\Jane O'\''Neil\ca.pem' --cert "$CLIENT_CERT" --key "$CLIENT_KEY"` + "\n"},
	} {
		var out bytes.Buffer
		(&Env{Stdout: &out}).printTry(tc.s, "https://127.0.0.1:8080/x?k=", tc.keyVar, nil, tc.sh)
		if out.String() != tc.want {
			t.Errorf("%v, %q:\ngot  %s\nwant %s", tc.sh, tc.keyVar, out.String(), tc.want)
		}
	}
}

// TestPrintTryShellOfEnv: PrintTry and PrintTLS's CA line write for the
// shell ATMKIT_SHELL names, read through Env.Getenv (a line each: the
// host may be a container, which adds a line after the CA line).
func TestPrintTryShellOfEnv(t *testing.T) {
	t.Parallel()
	sv, err := tlsconf.Server{SelfSigned: true}.Load()
	if err != nil {
		t.Fatal(err)
	}
	s := &Serving{Serving: sv, caFile: `C:\Users\Jane Doe\ca.pem`}
	for v, want := range map[string]string{
		"powershell":     `trust it with curl.exe --cacert 'C:\Users\Jane Doe\ca.pem', atmkit --ca-cert 'C:\Users\Jane Doe\ca.pem'` + "\n",
		"powershell try": `  try:        curl.exe "https://127.0.0.1:8080/x?k=$env:ATMKIT_KEY" --cacert 'C:\Users\Jane Doe\ca.pem'` + "\n",
		"cmd":            `trust it with curl.exe --cacert "C:\Users\Jane Doe\ca.pem", atmkit --ca-cert "C:\Users\Jane Doe\ca.pem"` + "\n",
		"cmd try":        `  try:        curl.exe "https://127.0.0.1:8080/x?k=%ATMKIT_KEY%" --cacert "C:\Users\Jane Doe\ca.pem"` + "\n",
		"posix":          `trust it with curl --cacert 'C:\Users\Jane Doe\ca.pem', atmkit --ca-cert 'C:\Users\Jane Doe\ca.pem'` + "\n",
		"posix try":      `  try:        curl "https://127.0.0.1:8080/x?k=$ATMKIT_KEY" --cacert 'C:\Users\Jane Doe\ca.pem'` + "\n",
	} {
		var out bytes.Buffer
		v, _, _ := strings.Cut(v, " ")
		e := &Env{Stdout: &out, Getenv: func(name string) string {
			if name == "ATMKIT_SHELL" {
				return v
			}
			return ""
		}}
		if e.CheckShell() != nil {
			t.Fatalf("ATMKIT_SHELL=%s refused", v)
		}
		e.PrintTLS(s)
		e.PrintTry(s, "https://127.0.0.1:8080/x?k=", "ATMKIT_KEY", nil)
		if !strings.Contains(out.String(), want) {
			t.Errorf("ATMKIT_SHELL=%s:\ngot  %s\nwant in it %s", v, out.String(), want)
		}
	}
	e := &Env{Getenv: func(string) string { return "csh" }}
	if err := e.CheckShell(); err == nil || !strings.Contains(err.Error(), `ATMKIT_SHELL="csh"`) {
		t.Errorf("ATMKIT_SHELL=csh: got %v, want it refused naming it", err)
	} else if code := err.(*ExitError).ExitCode(); code != ExitUsage {
		t.Errorf("ATMKIT_SHELL=csh: exit %d, want 2", code)
	}
}

// TestReachableURLZone: the URL of an IPv6 address with a zone (a
// link-local address, fe80::…%eth0) carries the zone, written %25 (RFC
// 6874): without it the address is reached through no interface. Where
// this host has a link-local address, Listen listens on it (keeping the
// zone, which Go's listener drops where it listens with MPTCP, Go 1.24's
// default on Linux) and the printed URL is fetched, with curl too where it
// is installed, as the try line has it run.
func TestReachableURLZone(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		addr *net.TCPAddr
		want string
	}{
		{&net.TCPAddr{IP: net.ParseIP("fe80::1"), Zone: "eth0", Port: 8080}, "http://[fe80::1%25eth0]:8080"},
		{&net.TCPAddr{IP: net.ParseIP("fe80::1"), Zone: "12", Port: 8080}, "http://[fe80::1%2512]:8080"},
		{&net.TCPAddr{IP: net.IPv6loopback, Port: 8080}, "http://[::1]:8080"},
		{&net.TCPAddr{IP: net.IPv4(192, 0, 2, 1), Port: 8080}, "http://192.0.2.1:8080"},
	} {
		if got, _ := ReachableURL(tc.addr, "http"); got != tc.want {
			t.Errorf("%s: got %s, want %s", tc.addr, got, tc.want)
		}
	}
	addr, err := mocktest.LinkLocalAddr()
	if err != nil {
		t.Logf("not fetched: %v", err)
		return
	}
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	ln, err := (&Env{Stdout: io.Discard, Stderr: io.Discard}).Listen(fs, addr)
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { _, _ = io.WriteString(w, "reached") })}
	go func() { _ = srv.Serve(ln) }()
	t.Cleanup(func() { _ = srv.Close() })
	base, _ := ReachableURL(ln.Addr(), "http")
	resp, err := http.Get(base + "/")
	if err != nil {
		t.Fatalf("%s (--addr %s): %v", base, addr, err)
	}
	body, err := io.ReadAll(resp.Body)
	_ = resp.Body.Close()
	if err != nil || string(body) != "reached" {
		t.Errorf("%s: got %q, %v", base, body, err)
	}
	curl, err := exec.LookPath("curl")
	if err != nil {
		return
	}
	out, err := exec.Command(curl, "-sS", base+"/").CombinedOutput()
	if err != nil || string(out) != "reached" {
		t.Errorf("curl %s: got %q, %v", base+"/", out, err)
	}
}
