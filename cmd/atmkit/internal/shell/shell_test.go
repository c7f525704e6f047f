package shell

import (
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/atmkit/atmkit/internal/shellquote"
)

// TestWalk: the first shell up the tree is found, in any case of its
// name, past go.exe (go run) and other programs, within MaxDepth parents;
// the walk stops at a parent that ended (not in the table), one that
// started after its child (its id reused), and a cycle of ids, without
// finding a shell beyond.
func TestWalk(t *testing.T) {
	t.Parallel()
	t0 := time.Date(2026, 11, 27, 9, 0, 0, 0, time.UTC)
	at := func(min int) time.Time { return t0.Add(time.Duration(min) * time.Minute) }
	// A chain: pid 10+i's parent is 10+i+1, exes[i] its name; atmkit is 10.
	chain := func(exes ...string) []Proc {
		var ps []Proc
		for i, e := range exes {
			ps = append(ps, Proc{PID: uint32(10 + i), PPID: uint32(11 + i), Exe: e, Created: at(-i)})
		}
		return ps
	}
	for _, tc := range []struct {
		name  string
		procs []Proc
		want  shellquote.Shell
		found bool
	}{
		{"PowerShell", chain("atmkit.exe", "powershell.exe", "WindowsTerminal.exe"), shellquote.PowerShell, true},
		{"PowerShell 7", chain("atmkit.exe", "pwsh.exe"), shellquote.PowerShell, true},
		{"cmd.exe", chain("atmkit.exe", "cmd.exe", "explorer.exe"), shellquote.Cmd, true},
		{"upper case", chain("ATMKIT.EXE", "CMD.EXE"), shellquote.Cmd, true},
		{"mixed case, a path", chain("atmkit.exe", `C:\Program Files\PowerShell\7\PwSh.Exe`), shellquote.PowerShell, true},
		{"Git Bash", chain("atmkit.exe", "bash.exe", "mintty.exe"), shellquote.POSIX, true},
		{"sh", chain("atmkit.exe", "sh.exe"), shellquote.POSIX, true},
		{"zsh", chain("atmkit.exe", "zsh.exe"), shellquote.POSIX, true},
		{"fish", chain("atmkit.exe", "fish.exe"), shellquote.POSIX, true},
		{"go run from PowerShell", chain("atmkit.exe", "go.exe", "powershell.exe"), shellquote.PowerShell, true},
		{"the nearest shell: cmd started from PowerShell", chain("atmkit.exe", "cmd.exe", "powershell.exe"), shellquote.Cmd, true},
		{"the nearest shell: PowerShell started from cmd.exe", chain("atmkit.exe", "go.exe", "powershell.exe", "cmd.exe"), shellquote.PowerShell, true},
		{"at the depth limit", chain("atmkit.exe", "a.exe", "b.exe", "c.exe", "pwsh.exe"), shellquote.PowerShell, true},
		{"beyond the depth limit", chain("atmkit.exe", "a.exe", "b.exe", "c.exe", "d.exe", "pwsh.exe"), shellquote.POSIX, false},
		{"no shell", chain("atmkit.exe", "explorer.exe"), shellquote.POSIX, false},
		{"not a shell's name", chain("atmkit.exe", "powershell_ise.exe", "bashful.exe", "xcmd.exe"), shellquote.POSIX, false},
		{"the parent ended", chain("atmkit.exe"), shellquote.POSIX, false},
		{"the parent ended: its id reused by a later cmd.exe", []Proc{
			{PID: 10, PPID: 11, Exe: "atmkit.exe", Created: at(0)},
			{PID: 11, PPID: 12, Exe: "cmd.exe", Created: at(5)},
		}, shellquote.POSIX, false},
		{"start times unknown", []Proc{
			{PID: 10, PPID: 11, Exe: "atmkit.exe"},
			{PID: 11, PPID: 12, Exe: "cmd.exe", Created: at(5)},
		}, shellquote.Cmd, true},
		{"a cycle", []Proc{
			{PID: 10, PPID: 11, Exe: "atmkit.exe"},
			{PID: 11, PPID: 12, Exe: "go.exe"},
			{PID: 12, PPID: 11, Exe: "a.exe"},
			{PID: 13, PPID: 0, Exe: "cmd.exe"},
		}, shellquote.POSIX, false},
		{"its own parent", []Proc{{PID: 10, PPID: 10, Exe: "cmd.exe"}}, shellquote.POSIX, false},
		{"not in the table", []Proc{{PID: 11, PPID: 12, Exe: "cmd.exe"}}, shellquote.POSIX, false},
		{"no table", nil, shellquote.POSIX, false},
	} {
		sh, found := Walk(tc.procs, 10)
		if sh != tc.want || found != tc.found {
			t.Errorf("%s: got %v (found %v), want %v (found %v)", tc.name, sh, found, tc.want, tc.found)
		}
	}
}

// TestChoose: ATMKIT_SHELL names the shell, in any case; unset or empty,
// the shell found (none here, off Windows: a POSIX shell); any other value
// is an error naming the variable and the value.
func TestChoose(t *testing.T) {
	t.Parallel()
	env := func(v string) func(string) string {
		return func(name string) string {
			if name == "ATMKIT_SHELL" {
				return v
			}
			return ""
		}
	}
	for v, want := range map[string]shellquote.Shell{"cmd": shellquote.Cmd, "PowerShell": shellquote.PowerShell, "posix": shellquote.POSIX} {
		if sh, err := Choose(env(v)); sh != want || err != nil {
			t.Errorf("ATMKIT_SHELL=%s: got %v, %v; want %v", v, sh, err, want)
		}
	}
	if runtime.GOOS != "windows" {
		for _, getenv := range []func(string) string{nil, env("")} {
			if sh, err := Choose(getenv); sh != shellquote.POSIX || err != nil {
				t.Errorf("no ATMKIT_SHELL: got %v, %v; want posix", sh, err)
			}
		}
	}
	for _, v := range []string{"csh", "wsl", "cmd /c"} {
		_, err := Choose(env(v))
		if err == nil || !strings.Contains(err.Error(), `ATMKIT_SHELL="`+v+`"`) || !strings.Contains(err.Error(), "cmd, powershell or posix") {
			t.Errorf("ATMKIT_SHELL=%s: got %v, want an error naming it", v, err)
		}
	}
	if Default("windows") != shellquote.Cmd || Default("linux") != shellquote.POSIX || Default("darwin") != shellquote.POSIX {
		t.Error("Default: want cmd on Windows, posix elsewhere")
	}
}
