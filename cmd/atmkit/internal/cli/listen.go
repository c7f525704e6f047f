package cli

import (
	"context"
	"crypto/tls"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/atmkit/atmkit/internal/atomicfile"
	"github.com/atmkit/atmkit/internal/neterr"
	"github.com/atmkit/atmkit/internal/serve"
	"github.com/atmkit/atmkit/internal/shellquote"
	"github.com/atmkit/atmkit/internal/tlsconf"
)

// ListenTLSFlags are the flags of a listener's TLS, the same for atmkit
// serve and record's proxy.
type ListenTLSFlags struct {
	cert, key, clientCA string
	selfSigned          bool
	caOut               string
	names               List   // --tls-name: further names of the throwaway certificate
	minVersion          string // --tls-min-version; "" is 1.2
}

// Register adds the flags to fs.
func (f *ListenTLSFlags) Register(fs *flag.FlagSet) {
	fs.StringVar(&f.cert, "tls-cert", "", "serve HTTPS with this certificate (PEM `file`; a chain: the server's first), with --tls-key")
	fs.StringVar(&f.key, "tls-key", "", "the private key (PEM `file`) of --tls-cert")
	fs.StringVar(&f.clientCA, "tls-client-ca", "", "require client certificates issued by an authority of this PEM `file` (mutual TLS); needs --tls-cert or --tls-self-signed")
	fs.BoolVar(&f.selfSigned, "tls-self-signed", false, "serve HTTPS with a throwaway certificate for 127.0.0.1, ::1 and localhost (and the --addr host), ECDSA (RSA 2048 with --tls-min-version 1.0 or 1.1, for old Windows clients); the authority that issued it is written to a file named at start")
	fs.Var(&f.names, "tls-name", "with --tls-self-signed, a further host `name` or IP address the throwaway certificate is valid for (repeatable; ATMKIT_TLS_NAME=a,b): one other hosts or containers reach it by, such as its compose service's name")
	fs.StringVar(&f.caOut, "tls-ca-out", "", "with --tls-self-signed, write the throwaway authority's certificate (PEM) to this `file`, one already there replaced only when empty or such a certificate (default: a new file in the temporary directory, removed on exit)")
	fs.StringVar(&f.minVersion, "tls-min-version", "", "the oldest TLS `version` served: 1.0, 1.1, 1.2 or 1.3 (default 1.2); 1.0 for a .NET Framework app before 4.6 that offers nothing newer (below 1.2 the RSA key exchange is served too; at 1.0, 3DES, for Windows XP; RC4 never)")
}

// ServerFlags are the flags of a command that runs a server (atmkit serve,
// record's proxy), besides its address: its TLS, how long requests in
// flight may finish after a signal, and the log's format and level.
type ServerFlags struct {
	TLS       ListenTLSFlags
	Grace     time.Duration // --grace
	LogFormat string        // --log-format: text or json
	LogLevel  string        // --log-level: debug, info, warn or error
}

// Register adds the flags to fs.
func (f *ServerFlags) Register(fs *flag.FlagSet) {
	f.TLS.Register(fs)
	fs.DurationVar(&f.Grace, "grace", 10*time.Second, "how long in-flight requests may finish after SIGINT/SIGTERM (a second signal cuts it short)")
	fs.StringVar(&f.LogFormat, "log-format", "text", "log format on stderr: text or json")
	fs.StringVar(&f.LogLevel, "log-level", "info", "least level logged on stderr: debug, info, warn or error (warn and error: problems only; atmkit serve logs a line a request at info, the admin API's reads at debug)")
}

// ServerSetup sets up what the flags of f ask of a server listening on
// addr: its TLS (see ListenTLS; Close the Serving when done) and its
// logger.
func (e *Env) ServerSetup(fs *flag.FlagSet, f *ServerFlags, addr string) (*Serving, *slog.Logger, error) {
	s, err := e.ListenTLS(fs, &f.TLS, addr)
	if err != nil {
		return nil, nil, err
	}
	logger, err := e.Logger(f.LogFormat, f.LogLevel)
	if err != nil {
		s.Close()
		return nil, nil, err
	}
	return s, logger, nil
}

// Listen listens on TCP address addr, the value of fs's --addr. That it
// cannot (the address is in use, or not this host's, or a port it may not
// open) is a wrong setting: one line naming --addr, exit 2. atmkit serve
// and record both default to 127.0.0.1:8080, so the one can stand in the
// other's way.
func (e *Env) Listen(fs *flag.FlagSet, addr string) (net.Listener, error) {
	ln, err := net.Listen("tcp", addr)
	if err == nil {
		return zoned(ln, addr), nil
	}
	if neterr.AddrInUse(err) {
		return nil, e.BadSetting(fs, "addr", "address already in use (serve and record both default to 127.0.0.1:8080): pick another port, or 0 for a free one")
	}
	problem := err.Error()
	var se *os.SyscallError
	if errors.As(err, &se) {
		problem = se.Error() // "bind: permission denied", without the address again
	}
	return nil, e.BadSetting(fs, "addr", "cannot listen: "+problem)
}

// zoned returns ln, its address given the zone of addr (fe80::1%eth0)
// where its own has none: Go's listener drops it where it listens with
// MPTCP (Go 1.24's default on Linux), and the address is reached through
// no interface without it.
func zoned(ln net.Listener, addr string) net.Listener {
	asked, err := net.ResolveTCPAddr("tcp", addr)
	got, ok := ln.Addr().(*net.TCPAddr)
	if err != nil || asked.Zone == "" || !ok || got.Zone != "" || !got.IP.Equal(asked.IP) {
		return ln
	}
	return zonedListener{ln, &net.TCPAddr{IP: got.IP, Port: got.Port, Zone: asked.Zone}}
}

// zonedListener is a listener with the address zoned gave it.
type zonedListener struct {
	net.Listener
	addr *net.TCPAddr
}

func (l zonedListener) Addr() net.Addr { return l.addr }

// Serve serves h on ln, with the TLS of s, until ctx is done; then it shuts
// down gracefully within --grace, which a second SIGINT or SIGTERM cuts
// short (see serve.Run). Requests cut off either way are a warning, not
// an error: the stop was asked for.
func (f *ServerFlags) Serve(ctx context.Context, ln net.Listener, h http.Handler, s *Serving, logger *slog.Logger) error {
	abort, stop := serve.SecondSignal(ctx)
	defer stop()
	// Requests in flight are counted, so that stopping says what it waits
	// for and what a second signal cut off.
	var inflight atomic.Int64
	counted := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		inflight.Add(1)
		defer inflight.Add(-1)
		h.ServeHTTP(w, r)
	})
	stopping := make(chan struct{})
	go func() {
		select {
		case <-ctx.Done():
			if n := inflight.Load(); n > 0 {
				logger.Warn("stopping: waiting for the requests in flight (a second SIGINT or SIGTERM stops at once)", "inflight", n, "grace", f.Grace)
			}
		case <-stopping:
		}
	}()
	err := serve.Run(ctx, ln, counted, serve.Options{Grace: f.Grace, Abort: abort, TLS: s.TLSConfig(), Logger: logger})
	close(stopping)
	select {
	case <-abort:
		if n := inflight.Load(); n > 0 {
			logger.Warn("stopped at once: requests in flight were cut off", "inflight", n)
		}
	default:
	}
	if errors.Is(err, serve.ErrGraceExpired) { // a stop asked for, as a second signal's: exit 0
		logger.Warn("stopped: the grace period ended and the requests still in flight were cut off", "grace", f.Grace)
		return nil
	}
	return err
}

// Serving is a listener's TLS once set up.
type Serving struct {
	*tlsconf.Serving        // nil: plain HTTP
	caFile           string // --tls-self-signed: the authority's certificate
	clientCA         string // --tls-client-ca
	removeCA         bool   // caFile is atmkit's own temporary file
	named            bool   // --tls-name gave the throwaway certificate further names
}

// Scheme is the URL scheme served: http or https.
func (s *Serving) Scheme() string {
	if s.Serving == nil {
		return "http"
	}
	return "https"
}

// TLSConfig is the TLS configuration to serve with; nil for plain HTTP.
func (s *Serving) TLSConfig() *tls.Config {
	if s.Serving == nil {
		return nil
	}
	return s.Config
}

// Close removes a temporary CA file.
func (s *Serving) Close() {
	if s.removeCA {
		_ = os.Remove(s.caFile)
	}
}

// ListenTLS checks the TLS flags and sets up the listener's TLS; a
// throwaway authority's certificate is written out. addr is the listen
// address: its host joins the throwaway certificate's names.
func (e *Env) ListenTLS(fs *flag.FlagSet, f *ListenTLSFlags, addr string) (*Serving, error) {
	if f.caOut != "" && !f.selfSigned {
		return nil, e.BadSetting(fs, "tls-ca-out", "needs --tls-self-signed")
	}
	if len(f.names) > 0 && !f.selfSigned {
		return nil, e.BadSetting(fs, "tls-name", "needs --tls-self-signed (a certificate of --tls-cert has the names it was issued for)")
	}
	for _, n := range f.names {
		if p := checkCertName(n); p != "" {
			return nil, e.BadSetting(fs, "tls-name", p)
		}
	}
	if f.caOut != "" {
		if p := CheckDir(filepath.Dir(f.caOut)); p != "" {
			return nil, e.BadSetting(fs, "tls-ca-out", "its directory "+filepath.Dir(f.caOut)+": "+p)
		}
		if p := CheckReportFile(f.caOut); p != "" { // a directory, or one it cannot write in
			return nil, e.BadSetting(fs, "tls-ca-out", p)
		}
		if p := CheckOwnFile(f.caOut, "the certificate of a throwaway authority atmkit wrote", tlsconf.NotThrowawayCA); p != "" {
			return nil, e.BadSetting(fs, "tls-ca-out", p) // a certificate or key of the user's
		}
	}
	if err := e.noStdinPEM(fs, "tls-cert", f.cert, "tls-key", f.key, "tls-client-ca", f.clientCA); err != nil {
		return nil, err
	}
	cfg := tlsconf.Server{CertFile: f.cert, KeyFile: f.key, ClientCAFile: f.clientCA, SelfSigned: f.selfSigned, Hosts: slices.Clone(f.names)}
	if f.minVersion != "" {
		v, err := tlsconf.ParseVersion(f.minVersion)
		if err != nil {
			return nil, e.BadSetting(fs, "tls-min-version", err.Error())
		}
		cfg.MinVersion = v
	}
	if host, _, err := net.SplitHostPort(addr); err == nil {
		if ip := net.ParseIP(host); host == "" || ip != nil && ip.IsUnspecified() {
			if name, err := os.Hostname(); err == nil && name != "" {
				cfg.Hosts = append(cfg.Hosts, name) // the name other hosts use
			}
		} else {
			cfg.Hosts = append(cfg.Hosts, host)
		}
	}
	sv, err := cfg.Load()
	var se *tlsconf.SettingError
	if errors.As(err, &se) {
		return nil, e.BadSetting(fs, se.Setting, se.Problem)
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", fs.Name(), err)
	}
	s := &Serving{Serving: sv, clientCA: f.clientCA, named: len(f.names) > 0}
	if sv == nil {
		return s, nil
	}
	for _, w := range sv.Warnings {
		fmt.Fprintf(e.Stderr, "atmkit: WARNING: %s\n", w)
	}
	if sv.Authority != nil {
		if err := s.writeCA(f.caOut); err != nil {
			if f.caOut == "" {
				// A container's read-only root, a /tmp of another user's,
				// a TMPDIR that names nothing.
				var pe *os.PathError
				problem := err.Error()
				if errors.As(err, &pe) {
					problem = pe.Err.Error()
				}
				return nil, e.BadSetting(fs, "tls-self-signed", fmt.Sprintf(
					"cannot write the throwaway authority's certificate to the temporary directory %s (%s): name a file in a writable directory with --tls-ca-out (in a container, on a mount), or set TMPDIR",
					os.TempDir(), problem))
			}
			return nil, e.BadSetting(fs, "tls-ca-out", caOutProblem(err))
		}
	}
	return s, nil
}

// checkCertName checks a --tls-name: an IP address, or a DNS name (a
// leading "*." for a wildcard) of letters, digits, hyphens and dots.
func checkCertName(n string) string {
	if net.ParseIP(n) != nil {
		return ""
	}
	valid := len(n) <= 253
	for _, label := range strings.Split(strings.TrimPrefix(n, "*."), ".") {
		valid = valid && label != "" && len(label) <= 63 && !strings.HasPrefix(label, "-") && !strings.HasSuffix(label, "-") &&
			!strings.ContainsFunc(label, func(r rune) bool {
				return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-')
			})
	}
	if !valid {
		return "not a host name or IP address (want one such as atmkit, atm.test or 10.0.0.7; no scheme or port)"
	}
	return ""
}

// caOutProblem says why the throwaway authority's certificate could not be
// written to --tls-ca-out, whose directory the checks found writable: most
// likely a file of another user there, in a directory where only a file's
// owner may replace it (sticky, as /tmp is).
func caOutProblem(err error) string {
	var le *os.LinkError // the rename over the file
	if errors.As(err, &le) && errors.Is(err, fs.ErrPermission) {
		return replaceProblem(le.Err)
	}
	var pe *os.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	return fmt.Sprintf("cannot write it (%v)", err)
}

// writeCA writes the throwaway authority's certificate to path, atomically,
// or to a new temporary file when path is empty.
func (s *Serving) writeCA(path string) error {
	pemData := s.Authority.CertPEM()
	if path == "" {
		f, err := os.CreateTemp("", "atmkit-ca-*.pem")
		if err != nil {
			return err
		}
		_, err = f.Write(pemData)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			_ = os.Remove(f.Name())
			return err
		}
		s.caFile, s.removeCA = f.Name(), true
		return nil
	}
	if err := atomicfile.Write(path, pemData, 0o644); err != nil { // a certificate, no secret
		return err
	}
	s.caFile = path
	return nil
}

// PrintTLS prints the banner's lines on the certificate served and how to
// trust it.
func (e *Env) PrintTLS(s *Serving) {
	if s.Serving == nil {
		return
	}
	fmt.Fprintf(e.Stdout, "  tls:        certificate %s\n", s.Describe())
	if s.caFile == "" {
		return
	}
	when := "kept"
	if s.removeCA {
		when = "removed when atmkit stops"
	}
	sh := e.Shell()
	fmt.Fprintf(e.Stdout, "  CA:         %s (the throwaway authority's certificate, %s): trust it with %s --cacert %s, atmkit --ca-cert %s\n",
		s.caFile, when, sh.Curl(), sh.Arg(s.caFile), sh.Arg(s.caFile))
	if inContainer() {
		// The path is the container's: the host needs a copy.
		where := "or write it to a mounted directory with ATMKIT_TLS_CA_OUT (-v \"$PWD:/data\" -e ATMKIT_TLS_CA_OUT=/data/ca.pem)"
		if !s.removeCA {
			where = "or take it from the directory mounted there"
		}
		fmt.Fprintf(e.Stdout, "              that path is in this container; from the host: docker cp <container>:%s ca.pem (then --cacert ca.pem), %s\n",
			s.caFile, where)
	}
}

// curlSetup is what the banner's try line needs for TLS: the shell
// variables to set first and the curl options: the throwaway authority,
// and a client certificate when one is required. The variables are the
// shell's own, not exported and not ATMKIT_*: ATMKIT_CLIENT_CERT is the
// client certificate of serve's upstream, and serve started again in a
// shell that exported it would refuse it (no upstream to use it for). For
// cmd.exe they are its own (set "NAME=value", %NAME%), which are the
// process's: cmd.exe has no other kind; for PowerShell its variables
// ($NAME = 'value', "$NAME"), not $env:NAME.
func (s *Serving) curlSetup(sh shellquote.Shell) (vars []string, opts string) {
	if s.Serving == nil {
		return nil, ""
	}
	if s.caFile != "" {
		opts += " --cacert " + sh.Arg(s.caFile)
	}
	if s.ClientCAs > 0 {
		cert := "<a client certificate from " + s.clientCA + ">"
		switch sh {
		case shellquote.Cmd:
			vars = append(vars, `set "CLIENT_CERT=`+cert+`"`, `set "CLIENT_KEY=<its key>"`)
			opts += ` --cert "%CLIENT_CERT%" --key "%CLIENT_KEY%"`
		case shellquote.PowerShell:
			vars = append(vars, "$CLIENT_CERT = "+sh.Arg(cert), "$CLIENT_KEY = '<its key>'")
			opts += ` --cert "$CLIENT_CERT" --key "$CLIENT_KEY"`
		default:
			vars = append(vars, "CLIENT_CERT="+sh.Arg(cert), "CLIENT_KEY='<its key>'")
			opts += ` --cert "$CLIENT_CERT" --key "$CLIENT_KEY"`
		}
	}
	return vars, opts
}

// PrintTry prints the banner's try line: a curl command for url, with the
// value of environment variable keyVar after it when keyVar is not empty
// (the key, never printed), that works as printed once the shell variables
// it names (vars, and curlSetup's) are set, in the shell of Env.Shell: a
// POSIX shell's "$ATMKIT_KEY", cmd.exe's %ATMKIT_KEY%, PowerShell's
// $env:ATMKIT_KEY (each shell hands the others' on as they are, and the
// mock refuses the key), curl.exe for cmd.exe and PowerShell.
func (e *Env) PrintTry(s *Serving, url, keyVar string, vars []string) {
	e.printTry(s, url, keyVar, vars, e.Shell())
}

// trySeparators join the variables set on one line, by shell.
var trySeparators = map[shellquote.Shell]string{shellquote.POSIX: " ", shellquote.Cmd: " & ", shellquote.PowerShell: "; "}

func (e *Env) printTry(s *Serving, url, keyVar string, vars []string, sh shellquote.Shell) {
	more, opts := s.curlSetup(sh)
	vars = append(vars, more...)
	prefix := "  try:        "
	if len(vars) > 0 {
		fmt.Fprintf(e.Stdout, "%s%s\n", prefix, strings.Join(vars, trySeparators[sh]))
		prefix = "              "
	}
	arg := `"` + url + `"`
	switch {
	case sh == shellquote.POSIX && keyVar != "":
		arg = `"` + url + "$" + keyVar + `"`
	case sh == shellquote.POSIX:
	case keyVar != "":
		arg, _ = sh.Word(shellquote.Lit(url), shellquote.Env(keyVar))
	case sh == shellquote.Cmd || strings.ContainsAny(url, "$`\"\u201C\u201D\u201E"):
		arg = sh.Arg(url)
	}
	fmt.Fprintf(e.Stdout, "%s%s %s%s\n", prefix, sh.Curl(), arg, opts)
}

// ReachableURL is the base URL to print for a listening address: the
// address itself (its zone too, fe80::1%25eth0), or 127.0.0.1 for one listening on every interface
// (0.0.0.0, [::]), which cannot be pasted into a browser. every reports
// the latter.
func ReachableURL(addr net.Addr, scheme string) (base string, every bool) {
	tcp, ok := addr.(*net.TCPAddr)
	if !ok {
		return scheme + "://" + addr.String(), false
	}
	port := strconv.Itoa(tcp.Port)
	if tcp.IP.IsUnspecified() {
		return scheme + "://" + net.JoinHostPort("127.0.0.1", port), true
	}
	// A zone (fe80::1%eth0) is written %25 in a URL (RFC 6874), as curl
	// and browsers take it.
	return (&url.URL{Scheme: scheme, Host: tcp.String()}).String(), false
}

// PrintListening prints a banner's first lines: what listens where (its
// URL), for one listening on every interface the URL other hosts use, and
// the certificate served. It returns the base URL.
func (e *Env) PrintListening(what string, addr net.Addr, s *Serving) string {
	base, every := ReachableURL(addr, s.Scheme())
	fmt.Fprintf(e.Stdout, "atmkit: %s listening on %s\n", what, base)
	if every {
		host, err := os.Hostname()
		if err != nil || host == "" {
			host = "<this host's name>"
		}
		port := strconv.Itoa(addr.(*net.TCPAddr).Port)
		if inContainer() {
			// Its host name is the container's: the host reaches it
			// through the port Docker publishes, which it cannot know.
			fmt.Fprintf(e.Stdout, "  reachable:  on every interface of this container; from the host: the port published (docker run -p PORT:%s)\n", port)
			fmt.Fprintf(e.Stdout, "              from other containers: its service name (compose), or %s://%s\n", s.Scheme(), net.JoinHostPort(host, port))
			if s.Serving != nil && s.Authority != nil && !s.named {
				fmt.Fprintln(e.Stdout, "              (over HTTPS by its service name: the throwaway certificate must name it, ATMKIT_TLS_NAME=<service>)")
			}
		} else {
			fmt.Fprintf(e.Stdout, "  reachable:  on every interface; from other hosts: %s://%s\n", s.Scheme(), net.JoinHostPort(host, port))
		}
	} else if tcp, ok := addr.(*net.TCPAddr); ok && tcp.IP.IsLoopback() && ContainerMain() {
		// The container's own loopback: a published port forwards to
		// its network interface, which nothing listens on, and the
		// health check, run inside, finds the mock all the same.
		fmt.Fprintf(e.Stdout, "  reachable:  only inside this container (%s is its own): neither the host, through a published port, nor other containers reach it; listen on every interface for them (ATMKIT_ADDR=0.0.0.0:%d, the image's)\n", tcp.IP, tcp.Port)
	}
	e.PrintTLS(s)
	return base
}

// containerMarkers are the files container engines put in a container's
// root: Docker's and Podman's.
var containerMarkers = []string{"/.dockerenv", "/run/.containerenv"}

// ContainerMain reports whether atmkit is the main process of a Docker or
// Podman container, as in the image (its ENTRYPOINT, PID 1): the process
// whose port a published port (-p) and other containers reach. A job's
// container in CI, whose tests call an atmkit it started beside them, is
// not: there 127.0.0.1 is right.
func ContainerMain() bool { return inContainer() && pid1() }

// pid1 reports whether this process is its PID namespace's first.
var pid1 = func() bool { return os.Getpid() == 1 }

// inContainer reports whether atmkit runs in a Docker or Podman container.
// On Windows it never does: the markers are Linux paths, which Windows
// resolves on the current drive (C:\.dockerenv), and a Windows container
// has neither (under Wine, whose drive Z: is the Linux root, a Windows
// binary in a Linux container found the container's and said so).
func inContainer() bool {
	if runtime.GOOS == "windows" {
		return false
	}
	for _, f := range containerMarkers {
		if _, err := os.Stat(f); err == nil {
			return true
		}
	}
	return false
}
