package tty

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"testing"
)

func TestIsTerminal(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	file, err := os.Create(filepath.Join(t.TempDir(), "out.txt"))
	if err != nil {
		t.Fatal(err)
	}
	defer file.Close()
	// /dev/null is a character device but no terminal: a check of the
	// file mode alone (os.ModeCharDevice) takes it for one.
	null, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer null.Close()
	for _, tc := range []struct {
		name string
		w    io.Writer
		want bool
	}{
		{"a pipe", w, false},
		{"a file", file, false},
		{os.DevNull, null, false},
		{"a buffer", &bytes.Buffer{}, false},
		{"a nil file", (*os.File)(nil), false},
		{"a writer wrapping a pipe", wrapping{w}, false},
	} {
		if got := IsTerminal(tc.w); got != tc.want {
			t.Errorf("%s: IsTerminal got %v, want %v", tc.name, got, tc.want)
		}
		if got := Colors(tc.w); got != tc.want {
			t.Errorf("%s: Colors got %v, want %v", tc.name, got, tc.want)
		}
	}
	// The master side of a new pseudo-terminal is a terminal.
	ptmx, err := os.OpenFile("/dev/ptmx", os.O_RDWR, 0)
	if err != nil {
		t.Logf("no pseudo-terminal to check the positive case: %v", err)
		return
	}
	defer ptmx.Close()
	if !IsTerminal(ptmx) || !Colors(ptmx) {
		t.Errorf("/dev/ptmx: IsTerminal %v, Colors %v; want true, true", IsTerminal(ptmx), Colors(ptmx))
	}
	// So is a writer that wraps it (atmkit's stdout masking keys).
	if w := (wrapping{wrapping{ptmx}}); !IsTerminal(w) || !Colors(w) {
		t.Errorf("a writer wrapping /dev/ptmx: IsTerminal %v, Colors %v; want true, true", IsTerminal(w), Colors(w))
	}
}

// wrapping is a writer that wraps another, as atmkit's stdout does.
type wrapping struct{ io.Writer }

func (w wrapping) Unwrap() io.Writer { return w.Writer }
