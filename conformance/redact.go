package conformance

import "github.com/atmkit/atmkit/internal/redact"

// The suite masks the service key with atmkit's one masking rule
// (internal/redact): every error text, report, note and console line it
// writes goes through these, so the key never leaves a run, raw or escaped.

// maskKey returns s with the key (and every strAtmServiceKey value) masked.
func maskKey(s, key string) string { return redact.Text(s, key) }

// maskURL returns u with its strAtmServiceKey values, its password and the
// key anywhere else masked.
func maskURL(u, key string) string { return redact.Text(redact.URL(u), key) }

// maskError returns err with the key masked in its text and in any
// *url.Error of its chain.
func maskError(err error, key string) error { return redact.Error(err, key) }

// reportKeys are the values the JUnit and JSON reports mask: the key, and
// the secrets (Config.Secrets) of redact.MinLiteral bytes or more, those
// atmkit's output streams mask (a shorter header value, "prod" say, is no
// secret worth mangling every such word of a report for).
func reportKeys(key string, secrets []string) []string {
	keys := []string{key}
	for _, s := range secrets {
		if len(s) >= redact.MinLiteral {
			keys = append(keys, s)
		}
	}
	return keys
}

// secrets are the Config.Secrets the reports mask (reportKeys less the key).
func (s *Session) secrets() []string { return reportKeys(s.cfg.Key, s.cfg.Secrets)[1:] }

// maskReport returns s masked for the reports: maskKey's masking, and the
// secrets of reportKeys.
func (s *Session) maskReport(text string) string {
	return redact.Text(text, reportKeys(s.cfg.Key, s.cfg.Secrets)...)
}
