// Package shell finds the shell the lines atmkit prints for pasting (a
// banner's try line, its "serve it:" lines, conform's reproduce lines)
// are written for: the one ATMKIT_SHELL names, else on Windows the shell
// atmkit was started from (found up the process tree: PowerShell, cmd.exe,
// or a POSIX shell of Git Bash, MSYS2 or Cygwin; cmd.exe when none is
// found), else a POSIX shell.
package shell

import (
	"fmt"
	"runtime"
	"strings"
	"sync"
	"time"

	"github.com/atmkit/atmkit/internal/shellquote"
)

// EnvVar is the environment variable that names the shell when detection
// is wrong: cmd, powershell or posix.
const EnvVar = "ATMKIT_SHELL"

// Proc is one process of a snapshot of the process table.
type Proc struct {
	PID, PPID uint32
	// Exe is the name of its executable file (powershell.exe), or a path
	// ending in it.
	Exe string
	// Created is when it started; zero when not known.
	Created time.Time
}

// MaxDepth is how many processes up from atmkit the walk looks at: the
// parent is the shell, or under go run (go.exe) or a wrapper or two its
// parent.
const MaxDepth = 4

// shells are the executables of the shells found, by lower-case name.
var shells = map[string]shellquote.Shell{
	"powershell.exe": shellquote.PowerShell, // Windows PowerShell 5.1
	"pwsh.exe":       shellquote.PowerShell, // PowerShell 7
	"cmd.exe":        shellquote.Cmd,
	"bash.exe":       shellquote.POSIX, // Git Bash, MSYS2, Cygwin
	"sh.exe":         shellquote.POSIX,
	"zsh.exe":        shellquote.POSIX,
	"fish.exe":       shellquote.POSIX,
}

// Walk finds the shell among the ancestors of process self in procs: the
// first of at most MaxDepth parents up whose executable is a shell's (its
// name in any case). It stops at a parent not in procs (it ended), one
// that started after its child (its id was reused: the real parent
// ended), and at a process seen before (ids reused in a cycle); found is
// false when no shell was met.
func Walk(procs []Proc, self uint32) (sh shellquote.Shell, found bool) {
	byPID := make(map[uint32]Proc, len(procs))
	for _, p := range procs {
		byPID[p.PID] = p
	}
	cur, ok := byPID[self]
	if !ok {
		return shellquote.POSIX, false
	}
	seen := map[uint32]bool{self: true}
	for range MaxDepth {
		parent, ok := byPID[cur.PPID]
		if !ok || seen[parent.PID] || !parent.Created.IsZero() && !cur.Created.IsZero() && parent.Created.After(cur.Created) {
			break
		}
		if sh, ok := shells[strings.ToLower(baseName(parent.Exe))]; ok {
			return sh, true
		}
		seen[parent.PID] = true
		cur = parent
	}
	return shellquote.POSIX, false
}

// baseName is the last element of a Windows or POSIX path.
func baseName(p string) string {
	if i := strings.LastIndexAny(p, `\/`); i >= 0 {
		return p[i+1:]
	}
	return p
}

// Default is the shell when none is named or found: cmd.exe on Windows
// (where atmkit is mostly used from it or PowerShell, and a cmd.exe line
// runs from PowerShell after typing cmd), a POSIX shell elsewhere.
func Default(goos string) shellquote.Shell {
	if goos == "windows" {
		return shellquote.Cmd
	}
	return shellquote.POSIX
}

// detected is the shell found up the process tree, or Default's, looked
// for once.
var detected = sync.OnceValue(func() shellquote.Shell {
	procs, self := snapshot()
	if sh, ok := Walk(procs, self); ok {
		return sh
	}
	return Default(runtime.GOOS)
})

// Choose is the shell to write lines for: the one ATMKIT_SHELL names
// (read with getenv; nil reads nothing), else the one atmkit was started
// from on Windows, else Default's. A value of ATMKIT_SHELL that names no
// shell is an error naming it (and the shell found is returned).
func Choose(getenv func(string) string) (shellquote.Shell, error) {
	v := ""
	if getenv != nil {
		v = getenv(EnvVar)
	}
	if v == "" {
		return detected(), nil
	}
	sh, err := shellquote.ParseShell(v)
	if err != nil {
		return detected(), fmt.Errorf("%s=%q: not a shell atmkit writes lines for (want cmd, powershell or posix, or a shell's name such as pwsh or bash)", EnvVar, v)
	}
	return sh, nil
}
