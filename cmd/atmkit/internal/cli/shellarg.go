package cli

import (
	"runtime"

	"github.com/atmkit/atmkit/internal/shellquote"
)

// ShellArg is s as one argument of a command line the user pastes into a
// shell (a banner's "serve it:" and "trust it with" lines): as it is when
// no shell reads any of its characters specially, else quoted. On Windows
// for cmd.exe, in double quotes, which cmd.exe and PowerShell both read as
// one argument (a Windows path holds no double quote, and C:\Users\Jane
// Doe\... is common; a path holding a % is escaped for cmd.exe alone);
// elsewhere in single quotes, for a POSIX shell (see shellquote).
func ShellArg(s string) string {
	return shellArg(s, runtime.GOOS == "windows")
}

func shellArg(s string, windows bool) string { return shellquote.Arg(s, windows) }
