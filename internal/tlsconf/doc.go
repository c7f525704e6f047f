// Package tlsconf is atmkit's one place for TLS: the configuration every
// atmkit server serves HTTPS with (a certificate and key from files, or a
// throwaway one issued by a private authority made at start, and optionally
// client certificates required and verified), the configuration and
// transport of every client that reaches an HTTPS deployment (a private CA
// added to the system roots, a client certificate, proxies from the
// environment), and the one-line explanation of a certificate failure that
// says what failed and which setting fixes it.
//
// Problems with the files a user names are *SettingError values that name
// the setting (the command-line flag without its dashes, e.g. "tls-cert"),
// so the command reports them as it reports any wrong setting.
package tlsconf
