package cli

import (
	"testing"

	"github.com/atmkit/atmkit/internal/shellquote"
)

// TestShellArg: a path a shell would split or expand is quoted for the
// system's shells (POSIX single quotes; double quotes on Windows), one it
// reads as it is is left alone; for PowerShell in single quotes.
func TestShellArg(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		in                string
		posix, window, ps string
	}{
		{"testdata/atm.yaml", "testdata/atm.yaml", "testdata/atm.yaml", "testdata/atm.yaml"},
		{`C:\atm\data`, `'C:\atm\data'`, `C:\atm\data`, `C:\atm\data`},
		{"/home/jane/my data", "'/home/jane/my data'", `"/home/jane/my data"`, "'/home/jane/my data'"},
		{`C:\Users\Jane Doe\AppData\Local\Temp\atmkit-ca-1.pem`, `'C:\Users\Jane Doe\AppData\Local\Temp\atmkit-ca-1.pem'`, `"C:\Users\Jane Doe\AppData\Local\Temp\atmkit-ca-1.pem"`, `'C:\Users\Jane Doe\AppData\Local\Temp\atmkit-ca-1.pem'`},
		{"it's", `'it'\''s'`, `"it's"`, "'it''s'"},
		{"a&b", "'a&b'", `"a&b"`, "'a&b'"},
		{"data,v2", "data,v2", `"data,v2"`, "'data,v2'"},
		{"", "''", `""`, `""`},
		// cmd.exe expands %NAME% in double quotes too: escaped with ^.
		{`C:\100%\ca.pem`, `'C:\100%\ca.pem'`, `^"C:\100^%^\ca.pem^"`, `'C:\100%\ca.pem'`},
	} {
		if got := shellquote.POSIX.Arg(tc.in); got != tc.posix {
			t.Errorf("shellArg(%q) for a POSIX shell: got %s, want %s", tc.in, got, tc.posix)
		}
		if got := shellquote.Cmd.Arg(tc.in); got != tc.window {
			t.Errorf("shellArg(%q) for cmd.exe: got %s, want %s", tc.in, got, tc.window)
		}
		e := &Env{Getenv: func(string) string { return "powershell" }}
		if got := e.ShellArg(tc.in); got != tc.ps {
			t.Errorf("ShellArg(%q) with ATMKIT_SHELL=powershell: got %s, want %s", tc.in, got, tc.ps)
		}
	}
}
