package cli

import (
	"github.com/atmkit/atmkit/cmd/atmkit/internal/shell"
	"github.com/atmkit/atmkit/internal/shellquote"
)

// Shell is the shell the lines atmkit prints for pasting are written for:
// the one ATMKIT_SHELL names (cmd, powershell or posix), else the one
// atmkit was started from on Windows (cmd.exe when none is found), else a
// POSIX shell (see package shell). A wrong ATMKIT_SHELL is refused by
// CheckShell first; here it counts as not set.
func (e *Env) Shell() shellquote.Shell {
	sh, _ := shell.Choose(e.Getenv)
	return sh
}

// CheckShell refuses an ATMKIT_SHELL that names no shell: exit 2, naming
// it.
func (e *Env) CheckShell() error {
	if _, err := shell.Choose(e.Getenv); err != nil {
		return Exitf(ExitUsage, "%v", err)
	}
	return nil
}

// ShellArg is s as one argument of a command line the user pastes into
// the shell (Env.Shell; a banner's "serve it:" and "trust it with" lines):
// as it is when the shell reads none of its characters specially, else
// quoted: for cmd.exe in double quotes (a Windows path holds no double
// quote, and C:\Users\Jane Doe\... is common; a path holding a % is
// escaped for cmd.exe), for PowerShell in single quotes, for a POSIX shell
// in single quotes (see shellquote).
func (e *Env) ShellArg(s string) string {
	return e.Shell().Arg(s)
}
