package main

import (
	"crypto/tls"
	"errors"
	"flag"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"

	"github.com/atmkit/atmkit/internal/tlsconf"
)

// This file holds the flags of a server's TLS, the same for serve and
// record's listener. The clients' are in reach.go.

// listenTLSFlags are the flags of a listener's TLS.
type listenTLSFlags struct {
	cert, key, clientCA string
	selfSigned          bool
	caOut               string
}

func (f *listenTLSFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&f.cert, "tls-cert", "", "serve HTTPS with this certificate (PEM `file`; a chain: the server's first), with --tls-key")
	fs.StringVar(&f.key, "tls-key", "", "the private key (PEM `file`) of --tls-cert")
	fs.StringVar(&f.clientCA, "tls-client-ca", "", "require client certificates issued by an authority of this PEM `file` (mutual TLS); needs --tls-cert or --tls-self-signed")
	fs.BoolVar(&f.selfSigned, "tls-self-signed", false, "serve HTTPS with a throwaway certificate for 127.0.0.1, ::1 and localhost (and the --addr host); the authority that issued it is written to a file named at start")
	fs.StringVar(&f.caOut, "tls-ca-out", "", "with --tls-self-signed, write the throwaway authority's certificate (PEM) to this `file` (default: a new file in the temporary directory, removed on exit)")
}

// serving is a listener's TLS once set up.
type serving struct {
	*tlsconf.Serving        // nil: plain HTTP
	caFile           string // --tls-self-signed: the authority's certificate
	clientCA         string // --tls-client-ca
	removeCA         bool   // caFile is atmkit's own temporary file
}

// scheme is the URL scheme served: http or https.
func (s *serving) scheme() string {
	if s.Serving == nil {
		return "http"
	}
	return "https"
}

// config is the TLS configuration to serve with; nil for plain HTTP.
func (s *serving) config() *tls.Config {
	if s.Serving == nil {
		return nil
	}
	return s.Config
}

// close removes a temporary CA file.
func (s *serving) close() {
	if s.removeCA {
		_ = os.Remove(s.caFile)
	}
}

// setupListenTLS checks the TLS flags and sets up the listener's TLS; a
// throwaway authority's certificate is written out. addr is the listen
// address: its host joins the throwaway certificate's names.
func (m *Main) setupListenTLS(fs *flag.FlagSet, f *listenTLSFlags, addr string) (*serving, error) {
	if f.caOut != "" && !f.selfSigned {
		return nil, m.badSetting(fs, "tls-ca-out", "needs --tls-self-signed")
	}
	if f.caOut != "" {
		if p := checkDir(filepath.Dir(f.caOut)); p != "" {
			return nil, m.badSetting(fs, "tls-ca-out", "its directory "+filepath.Dir(f.caOut)+": "+p)
		}
	}
	cfg := tlsconf.Server{CertFile: f.cert, KeyFile: f.key, ClientCAFile: f.clientCA, SelfSigned: f.selfSigned}
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
		return nil, m.badSetting(fs, se.Setting, se.Problem)
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", fs.Name(), err)
	}
	s := &serving{Serving: sv, clientCA: f.clientCA}
	if sv == nil {
		return s, nil
	}
	for _, w := range sv.Warnings {
		fmt.Fprintf(m.Stderr, "atmkit: WARNING: %s\n", w)
	}
	if sv.Authority != nil {
		if err := s.writeCA(f.caOut); err != nil {
			return nil, fmt.Errorf("%s: write the throwaway authority's certificate: %w", fs.Name(), err)
		}
	}
	return s, nil
}

// writeCA writes the throwaway authority's certificate to path, atomically,
// or to a new temporary file when path is empty.
func (s *serving) writeCA(path string) error {
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
	tmp, err := os.CreateTemp(filepath.Dir(path), ".atmkit-ca-*.tmp")
	if err != nil {
		return err
	}
	_, err = tmp.Write(pemData)
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(tmp.Name(), 0o644) // a certificate, no secret
	}
	if err == nil {
		err = os.Rename(tmp.Name(), path)
	}
	if err != nil {
		_ = os.Remove(tmp.Name())
		return err
	}
	s.caFile = path
	return nil
}

// printTLS prints the banner's lines on the certificate served and how to
// trust it.
func (m *Main) printTLS(s *serving) {
	if s.Serving == nil {
		return
	}
	fmt.Fprintf(m.Stdout, "  tls:        certificate %s\n", s.Describe())
	if s.caFile != "" {
		when := "kept"
		if s.removeCA {
			when = "removed when atmkit stops"
		}
		fmt.Fprintf(m.Stdout, "  CA:         %s (the throwaway authority's certificate, %s): trust it with curl --cacert %s, atmkit --ca-cert %s\n",
			s.caFile, when, s.caFile, s.caFile)
	}
}

// curlSetup is what the banner's try line needs for TLS: the variables to
// export first and the curl options: the throwaway authority, and a client
// certificate (read from the variables conform and record read it from)
// when one is required.
func (s *serving) curlSetup() (exports []string, opts string) {
	if s.Serving == nil {
		return nil, ""
	}
	if s.caFile != "" {
		opts += " --cacert " + s.caFile
	}
	if s.ClientCAs > 0 {
		exports = append(exports, "ATMKIT_CLIENT_CERT='<a client certificate from "+s.clientCA+">'", "ATMKIT_CLIENT_KEY='<its key>'")
		opts += ` --cert "$ATMKIT_CLIENT_CERT" --key "$ATMKIT_CLIENT_KEY"`
	}
	return exports, opts
}

// printTry prints the banner's try line: a curl command that works as
// printed once the variables it names are exported.
func (m *Main) printTry(s *serving, url string, exports []string) {
	more, opts := s.curlSetup()
	exports = append(exports, more...)
	prefix := "  try:        "
	if len(exports) > 0 {
		fmt.Fprintf(m.Stdout, "%sexport %s\n", prefix, strings.Join(exports, " "))
		prefix = "              "
	}
	fmt.Fprintf(m.Stdout, "%scurl \"%s\"%s\n", prefix, url, opts)
}
