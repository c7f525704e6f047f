package tlsconf

import (
	"strings"
	"testing"

	"github.com/atmkit/atmkit/internal/printable"
)

// FuzzNoPEM reads any file given as a certificate or a key (--tls-cert,
// --tls-key, --tls-client-ca, a client's certificates, or a file
// --tls-ca-out would replace) that holds none: what the refusal says it
// holds instead is one line of printable text, whatever the file's PEM
// type lines hold (a terminal's escape sequences, a line break, a type
// of any length, shown cut: three types of maxShownType characters at
// most, each escaped in six bytes or less).
func FuzzNoPEM(f *testing.F) {
	for _, s := range []string{
		"-----BEGIN RSA PRIVATE KEY-----\nMIIB\n-----END RSA PRIVATE KEY-----\n",
		"-----BEGIN \x1b[31mRED\x1b[0m-----\nAAAA\n-----END \x1b[31mRED\x1b[0m-----\n",
		"-----BEGIN A\rB-----\n-----END A\rB-----\n",
		"-----BEGIN " + strings.Repeat("X", 300) + "-----\n-----END " + strings.Repeat("X", 300) + "-----\n",
		"\x30\x82\x01\x0a", "",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, msg := range []string{noPEMCert(data), noPEMKey(data), NotThrowawayCA(data)} {
			if printable.Text(msg) != msg || strings.ContainsAny(msg, "\n\t") || len(msg) > 200+3*6*maxShownType {
				t.Fatalf("%q: %d bytes, not one printable line: %q", data, len(msg), msg)
			}
		}
	})
}

// TestNotThrowawayCAShowsSubjectPrintable: a certificate's subject, which
// a file about to be replaced is named by, is any text: a terminal's
// escape sequence in its common name is shown escaped.
func TestNotThrowawayCAShowsSubjectPrintable(t *testing.T) {
	t.Parallel()
	a, err := NewAuthority("Evil \x1b[2J CA", 0)
	if err != nil {
		t.Fatal(err)
	}
	got := NotThrowawayCA(a.CertPEM())
	if !strings.Contains(got, `Evil \x1b[2J CA`) || strings.Contains(got, "\x1b") {
		t.Errorf("got %q, want the subject with its escape written \\x1b", got)
	}
}
