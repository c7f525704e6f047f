// Package health checks that an atmkit mock answers its health endpoint:
// what atmkit health, the image's HEALTHCHECK and exec probes run.
package health

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/atmkit/atmkit/cmd/atmkit/internal/cli"
	"github.com/atmkit/atmkit/internal/printable"
	"github.com/atmkit/atmkit/internal/redact"
)

// Path is the mock's health endpoint, which needs no admin token.
const Path = "/__admin/health"

// defaultURL is where atmkit health looks by default: atmkit serve's
// default port on the loopback interface.
const defaultURL = "http://127.0.0.1:8080"

// DefaultURL is the URL atmkit health checks without --url: atmkit
// serve's default, or, where ATMKIT_ADDR sets serve's address (as in the
// container image), that address (a zone written %25, as in
// http://[fe80::1%25eth0]:8080), on the loopback interface when it names
// every interface (0.0.0.0, [::], no host; for [::], Run checks
// fallbackURL too where [::1] cannot be reached). Its scheme is https where the variables of serve's TLS
// flags set it (ATMKIT_TLS_CERT, ATMKIT_TLS_SELF_SIGNED; see ServesTLS).
// An ATMKIT_ADDR it takes no port from (none, or 0) leaves serve's default
// here, the flag's default its usage shows; Run refuses to check it.
func DefaultURL(getenv func(string) string) string {
	scheme := "http"
	if ServesTLS(getenv) {
		scheme = "https"
	}
	addr := getenv("ATMKIT_ADDR")
	if addr == "" {
		return scheme + strings.TrimPrefix(defaultURL, "http")
	}
	host, port, err := net.SplitHostPort(addr)
	if err != nil || port == "" || port == "0" {
		return scheme + strings.TrimPrefix(defaultURL, "http")
	}
	ip, err := netip.ParseAddr(host)
	switch {
	case host == "" || (err == nil && ip.Unmap() == netip.IPv4Unspecified()):
		host = "127.0.0.1"
	case err == nil && ip == netip.IPv6Unspecified():
		host = "::1"
	case err == nil: // one address, a zone's too (fe80::1%eth0): the URL serve prints for it
		if n, err := strconv.ParseUint(port, 10, 16); err == nil {
			base, _ := cli.ReachableURL(net.TCPAddrFromAddrPort(netip.AddrPortFrom(ip, uint16(n))), scheme)
			return base
		}
	}
	return scheme + "://" + net.JoinHostPort(host, port)
}

// fallbackURL is the URL atmkit health checks when DefaultURL cannot be
// reached, for an ATMKIT_ADDR of [::] (its port on [::1]): the port on
// 127.0.0.1. serve on [::] takes IPv4 calls too, and where IPv6 is off (a
// container with IPv6 turned off has no ::1) only those reach it.
// It is "" for any other ATMKIT_ADDR.
func fallbackURL(getenv func(string) string) string {
	host, port, err := net.SplitHostPort(getenv("ATMKIT_ADDR"))
	if err != nil || port == "" || port == "0" {
		return ""
	}
	if ip, err := netip.ParseAddr(host); err != nil || ip != netip.IPv6Unspecified() {
		return ""
	}
	scheme := "http"
	if ServesTLS(getenv) {
		scheme = "https"
	}
	return scheme + "://" + net.JoinHostPort("127.0.0.1", port)
}

// ServesTLS reports whether the environment sets atmkit serve's TLS, as a
// container's does for its health check: ATMKIT_TLS_CERT, or
// ATMKIT_TLS_SELF_SIGNED true.
func ServesTLS(getenv func(string) string) bool {
	if getenv("ATMKIT_TLS_CERT") != "" {
		return true
	}
	on, err := strconv.ParseBool(getenv("ATMKIT_TLS_SELF_SIGNED"))
	return err == nil && on
}

// Target is the health endpoint of the mock at base, its base URL: base
// and Path, or base itself, but its trailing slashes, when it names the
// endpoint already (as serve's banner prints it).
func Target(base string) string {
	base = strings.TrimRight(base, "/")
	if u, err := url.Parse(base); err == nil && strings.HasSuffix(u.Path, Path) {
		return base
	}
	return base + Path
}

// IsServiceURL reports whether u, a URL given as the mock's base URL,
// names a service instead: a path segment ending in .asmx (any case), as
// in http://127.0.0.1:8080/service/service.asmx. A host or a query that
// holds ".asmx" (http://atm.asmx.example:8080) is no service's URL.
func IsServiceURL(u string) bool {
	pu, err := url.Parse(u)
	if err != nil {
		return false
	}
	for _, seg := range strings.Split(pu.Path, "/") {
		if strings.HasSuffix(strings.ToLower(seg), ".asmx") {
			return true
		}
	}
	return false
}

// IsAdminURL reports whether u, a URL given as the mock's base URL, names
// its admin API or page instead: a path segment __admin, as in
// http://127.0.0.1:8080/__admin/, the page's URL. The health endpoint's
// own URL (Path, which Target takes for its base) is not one.
func IsAdminURL(u string) bool {
	pu, err := url.Parse(u)
	if err != nil || strings.HasSuffix(strings.TrimRight(pu.Path, "/"), Path) {
		return false
	}
	return slices.Contains(strings.Split(pu.Path, "/"), "__admin")
}

// Check GETs the health endpoint at target: nil when it answers 200
// with {"status":"ok"}. It follows no redirect, whatever c's
// CheckRedirect: a mock answers its health endpoint itself, and the
// headers c's transport adds (a gateway's credentials) must not go
// wherever a redirect points.
func Check(ctx context.Context, c *http.Client, target string) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, target, nil)
	if err != nil {
		return err
	}
	noRedirect := *c
	noRedirect.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	resp, err := noRedirect.Do(req)
	if errors.Is(err, context.DeadlineExceeded) {
		return errors.New("no answer within --timeout")
	}
	var ue *url.Error
	if errors.As(err, &ue) {
		return ue.Err // the URL is in the caller's message already
	}
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, 4096))
	if errors.Is(err, context.DeadlineExceeded) {
		return errors.New("an answer that did not end within --timeout")
	}
	if err != nil {
		return fmt.Errorf("read the answer: %w", err)
	}
	if loc := resp.Header.Get("Location"); loc != "" && resp.StatusCode >= 300 && resp.StatusCode < 400 {
		return fmt.Errorf("answered %s, a redirect to %q (not followed), want 200 OK", printable.Text(resp.Status), redact.URL(loc))
	}
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("answered %s, want 200 OK", printable.Text(resp.Status)) // the reason phrase is the server's
	}
	var st struct{ Status string }
	if err := json.Unmarshal(body, &st); err != nil || st.Status != "ok" {
		return fmt.Errorf(`answered %.80q, want {"status":"ok"}: not an atmkit mock`, body)
	}
	return nil
}
