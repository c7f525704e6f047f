package cli

import (
	"io"
	"strings"

	"github.com/atmkit/atmkit/internal/redact"
)

// HideKeys makes the command's output streams mask the given keys wherever
// they appear literally (keys of redact.MinLiteral characters or more; a
// shorter one would match ordinary words). Each source of output masks
// keys itself; this is the last line of defence, so that no key a command
// was given reaches its stdout or stderr whatever prints it.
func (e *Env) HideKeys(keys ...string) {
	var ks []string
	for _, k := range keys {
		if len(k) >= redact.MinLiteral {
			ks = append(ks, k)
		}
	}
	if len(ks) == 0 {
		return
	}
	e.Stdout = &maskWriter{w: e.Stdout, keys: ks}
	e.Stderr = &maskWriter{w: e.Stderr, keys: ks}
}

// maskWriter replaces keys by their masks in every write. A single write is
// masked as a whole: atmkit writes each line (a log record, a banner line)
// in one call.
type maskWriter struct {
	w    io.Writer
	keys []string
}

// Unwrap is the writer written to: where terminal checks look (tty.Colors).
func (mw *maskWriter) Unwrap() io.Writer { return mw.w }

func (mw *maskWriter) Write(p []byte) (int, error) {
	s := string(p)
	masked := s
	for _, k := range mw.keys {
		if strings.Contains(masked, k) {
			masked = strings.ReplaceAll(masked, k, redact.Key(k))
		}
	}
	if masked == s {
		return mw.w.Write(p)
	}
	if _, err := io.WriteString(mw.w, masked); err != nil {
		return 0, err
	}
	return len(p), nil
}
