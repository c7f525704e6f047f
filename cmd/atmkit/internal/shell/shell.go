// Package shell finds the shell the lines atmkit prints for pasting (a
// banner's try line, its "serve it:" lines, conform's reproduce lines)
// are written for: the one ATMKIT_SHELL names, else on Windows the shell
// atmkit was started from (found up the process tree: PowerShell, cmd.exe,
// or a POSIX shell of Git Bash, MSYS2, Cygwin or WSL, past the shells that
// only run a command line for a program, such as npm's cmd.exe /d /s /c;
// cmd.exe when none is found), else a POSIX shell.
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
	// Args is the command line it was started with, its program first
	// (cmd.exe /d /s /c "atmkit serve"); empty when not read. It is only
	// read for IsRunner, never printed or logged: it may hold a key.
	Args string
}

// MaxDepth is how many processes up from atmkit the walk looks at: the
// parent is the shell, or under go run (go.exe) or a wrapper or two its
// parent; under an npm script run from PowerShell through npm.cmd the
// shell is the 4th (atmkit <- cmd.exe /c <- node.exe <- cmd.exe /c npm.cmd
// <- powershell.exe), under go run or a runner such as concurrently or
// nodemon in the script one or two further up.
const MaxDepth = 8

// shells are the executables of the shells found, by lower-case name.
var shells = map[string]shellquote.Shell{
	"powershell.exe": shellquote.PowerShell, // Windows PowerShell 5.1
	"pwsh.exe":       shellquote.PowerShell, // PowerShell 7
	"cmd.exe":        shellquote.Cmd,
	"bash.exe":       shellquote.POSIX, // Git Bash, MSYS2, Cygwin
	"sh.exe":         shellquote.POSIX,
	"zsh.exe":        shellquote.POSIX,
	"fish.exe":       shellquote.POSIX,
	// A Windows program started from a Linux shell of WSL (1 or 2) is
	// started by WSL's interop server, in wsl.exe (the one that started
	// the Linux session) or wslhost.exe (once that wsl.exe ended), with
	// CreateProcessAsUserW and no other parent named: its parent.
	"wsl.exe":     shellquote.POSIX,
	"wslhost.exe": shellquote.POSIX,
}

// interopHosts are the executables among shells that are no shell but
// start the Windows programs a Linux shell starts: never runners.
var interopHosts = map[string]bool{"wsl.exe": true, "wslhost.exe": true}

// scriptRunners are the programs (by lower-case name) that start a
// cmd.exe only to run one command line (Node's child_process with shell,
// npm's, yarn's and pnpm's scripts): such a cmd.exe is taken for a
// runner when its own command line could not be read.
var scriptRunners = map[string]bool{"node.exe": true, "bun.exe": true, "deno.exe": true, "pnpm.exe": true}

// Walk finds the shell among the ancestors of process self in procs: the
// first of at most MaxDepth parents up whose executable is a shell's (its
// name in any case) and that is not a runner, a shell started only to run
// one command line or script for a program (see IsRunner); when every
// shell met is a runner, the outermost of them. So under npm run, whose
// cmd.exe /d /s /c runs the script, and npm.cmd, which a cmd.exe /c runs,
// the shell found is the one npm was typed in. It stops at a parent not
// in procs (it ended), one that started after its child (its id was
// reused: the real parent ended), and at a process seen before (ids
// reused in a cycle); found is false when no shell was met.
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
	// parentOf is p's parent, unless it ended (not in procs), its id was
	// reused (it started after p) or it was met before.
	parentOf := func(p Proc) (Proc, bool) {
		parent, ok := byPID[p.PPID]
		if !ok || seen[parent.PID] || parent.PID == p.PID || !parent.Created.IsZero() && !p.Created.IsZero() && parent.Created.After(p.Created) {
			return Proc{}, false
		}
		return parent, true
	}
	outer, haveOuter := shellquote.POSIX, false
	for range MaxDepth {
		parent, ok := parentOf(cur)
		if !ok {
			break
		}
		if sh, ok := shells[strings.ToLower(baseName(parent.Exe))]; ok {
			grand, known := parentOf(parent)
			if !IsRunner(parent, known && scriptRunners[strings.ToLower(baseName(grand.Exe))]) {
				return sh, true
			}
			outer, haveOuter = sh, true
		}
		seen[parent.PID] = true
		cur = parent
	}
	return outer, haveOuter
}

// IsRunner reports whether shell process p runs one command line or
// script and ends, rather than reading what a user types: by its command
// line, a cmd.exe with /c (or /r) before any command (not /k, which stays
// at its prompt: a Developer Command Prompt is cmd.exe /k), a PowerShell
// with -Command, -File or -EncodedCommand (or a prefix PowerShell reads
// as one: -c, -f, -e, -ec) and no -NoExit before it (VS Code starts its
// terminal's PowerShell with -NoExit -Command), a POSIX shell with -c (or
// fish's --command) among its options. With the command line not read, a
// cmd.exe started by a script runner (startedByRunner: node.exe and the
// like, which start cmd.exe only as cmd.exe /d /s /c) is one; any other
// shell is not. A process that is no shell is no runner, nor is WSL's
// wsl.exe or wslhost.exe, whatever its command line.
func IsRunner(p Proc, startedByRunner bool) bool {
	name := strings.ToLower(baseName(p.Exe))
	sh, ok := shells[name]
	switch {
	case !ok || interopHosts[name]:
		return false
	case p.Args == "":
		return sh == shellquote.Cmd && startedByRunner
	}
	rest := skipProgram(p.Args, p.Exe)
	switch sh {
	case shellquote.Cmd:
		return cmdRuns(rest)
	case shellquote.PowerShell:
		return powerShellRuns(strings.Fields(rest))
	default:
		return posixRuns(strings.Fields(rest))
	}
}

// skipProgram is command line line of a process of executable exe after
// its program's name, as Windows programs read it: up to the closing quote
// when it begins with one; else past exe's name followed by a space or
// tab, in any case (a path with spaces left unquoted: C:\Program
// Files\Git\usr\bin\bash.exe -c ...); else up to the first space or tab.
func skipProgram(line, exe string) string {
	if strings.HasPrefix(line, `"`) {
		if i := strings.IndexByte(line[1:], '"'); i >= 0 {
			return line[i+2:]
		}
		return ""
	}
	if name := baseName(exe); name != "" {
		for i := 0; i+len(name) <= len(line); i++ {
			end := i + len(name)
			if strings.EqualFold(line[i:end], name) && (end == len(line) || line[end] == ' ' || line[end] == '\t') {
				return line[end:]
			}
		}
	}
	if i := strings.IndexAny(line, " \t"); i >= 0 {
		return line[i:]
	}
	return ""
}

// cmdRuns reads cmd.exe's switches as cmd.exe does: any number of them
// (/d /s /q /e:on /v:off ..., with or without spaces between: /d/s/c),
// then /c or /r runs the rest and ends, /k runs it and stays; text that
// is no switch ends them.
func cmdRuns(args string) bool {
	for i := 0; i < len(args); {
		switch c := args[i]; {
		case c == ' ' || c == '\t':
			i++
		case c == '/' && i+1 < len(args):
			switch args[i+1] {
			case 'c', 'C', 'r', 'R':
				return true
			case 'k', 'K':
				return false
			}
			i += 2
			for i < len(args) && args[i] != ' ' && args[i] != '\t' && args[i] != '/' {
				i++
			}
		default:
			return false
		}
	}
	return false
}

// powerShellRuns reads PowerShell's parameters (after -, -- or /, any
// unambiguous prefix of a name, in any case) up to the first that runs a
// command or a file; -NoExit before it keeps the shell at its prompt. A
// positional argument (a command for 5.1, a file for 7) is not read as one:
// it may be the value of another parameter.
func powerShellRuns(args []string) bool {
	noExit := false
	for _, a := range args {
		if !strings.HasPrefix(a, "-") && !strings.HasPrefix(a, "/") {
			continue
		}
		name, _, _ := strings.Cut(strings.ToLower(strings.TrimLeft(a, "-/")), ":")
		switch {
		case name == "":
		case len(name) >= 3 && strings.HasPrefix("noexit", name):
			noExit = true
		case name == "c" || name == "f" || name == "e" || name == "ec" || name == "cwa",
			len(name) >= 3 && (strings.HasPrefix("command", name) || strings.HasPrefix("commandwithargs", name)),
			len(name) >= 2 && strings.HasPrefix("file", name),
			len(name) >= 2 && strings.HasPrefix("encodedcommand", name):
			return !noExit
		}
	}
	return false
}

// posixRuns reads a POSIX shell's options up to the first argument that is
// none (a script, which is not read as one: it may be a terminal's
// wrapper): -c, in a cluster of letters too (bash -lc), or fish's
// --command runs a command line and ends. The values of bash's --rcfile,
// --init-file and -o/-O are skipped.
func posixRuns(args []string) bool {
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "-" || a == "--" || a == "":
			return false
		case a == "--command" || strings.HasPrefix(a, "--command="):
			return true
		case a == "--rcfile" || a == "--init-file":
			i++
		case strings.HasPrefix(a, "--"):
		case a[0] == '-' || a[0] == '+':
			if a[0] == '-' && strings.Contains(a[1:], "c") {
				return true
			}
			if strings.ContainsAny(a[1:], "oO") {
				i++
			}
		default:
			return false
		}
	}
	return false
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
