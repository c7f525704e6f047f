// Package wire holds the pieces of wire text that several of atmkit's
// packages write or compare alike: JSON strings as each JSON writer
// escapes them (json.go), ASP.NET's URL decoding and HTML encoding
// (aspnet.go), the check of a service namespace URI
// (namespace.go) and URL paths matched without regard to case, as IIS
// matches them. It imports only the standard library.
package wire

import "strings"

// HasPrefixFold reports whether s begins with prefix, ignoring case (as IIS
// matches the paths of a site).
func HasPrefixFold(s, prefix string) bool {
	return len(s) >= len(prefix) && strings.EqualFold(s[:len(prefix)], prefix)
}
