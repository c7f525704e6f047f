package cli

import (
	"runtime"
	"strings"
)

// ShellArg is s as one argument of a command line the user pastes into a
// shell (a banner's "serve it:" and "trust it with" lines): as it is when
// no shell reads any of its characters specially, else quoted. On Windows
// in double quotes, which cmd.exe and PowerShell both read as one argument
// (a Windows path holds no double quote, and C:\Users\Jane Doe\... is
// common); elsewhere in single quotes, for a POSIX shell.
func ShellArg(s string) string {
	return shellArg(s, runtime.GOOS == "windows")
}

func shellArg(s string, windows bool) string {
	plain := "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./:+="
	if windows {
		plain += `\` // a path separator there, an escape in a POSIX shell
	} else {
		plain += "@," // plain to a POSIX shell; PowerShell reads them as operators
	}
	switch {
	case s != "" && strings.Trim(s, plain) == "":
		return s
	case windows:
		return `"` + s + `"`
	default:
		return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
	}
}
