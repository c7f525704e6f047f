package shell

import (
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/atmkit/atmkit/internal/shellquote"
)

// t0 is the time the processes of the tests' chains start around.
var t0 = time.Date(2026, 11, 27, 9, 0, 0, 0, time.UTC)

// at is min minutes after t0.
func at(min int) time.Time { return t0.Add(time.Duration(min) * time.Minute) }

// chain is a chain of processes: pid 10+i's parent is 10+i+1, exes[i] its
// name, each started a minute before its child; atmkit is 10.
func chain(exes ...string) []Proc {
	var ps []Proc
	for i, e := range exes {
		ps = append(ps, Proc{PID: uint32(10 + i), PPID: uint32(11 + i), Exe: e, Created: at(-i)})
	}
	return ps
}

// others is n programs that are no shell.
func others(n int) []string {
	var exes []string
	for i := range n {
		exes = append(exes, string(rune('a'+i))+".exe")
	}
	return exes
}

// TestWalk: the first shell up the tree is found, in any case of its
// name, past go.exe (go run) and other programs, within MaxDepth parents;
// the walk stops at a parent that ended (not in the table), one that
// started after its child (its id reused), and a cycle of ids, without
// finding a shell beyond.
func TestWalk(t *testing.T) {
	t.Parallel()
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
		{"at the depth limit", chain(append(append([]string{"atmkit.exe"}, others(MaxDepth-1)...), "pwsh.exe")...), shellquote.PowerShell, true},
		{"beyond the depth limit", chain(append(append([]string{"atmkit.exe"}, others(MaxDepth)...), "pwsh.exe")...), shellquote.POSIX, false},
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

// Command lines of the processes in the chains of TestWalkRunners, as
// Windows hands them over (the program as started, then its arguments).
const (
	atmkit      = `atmkit serve`
	npmScript   = `C:\WINDOWS\system32\cmd.exe /d /s /c atmkit serve` // npm's, yarn 1's, pnpm's: ComSpec /d /s /c
	goScript    = `C:\WINDOWS\system32\cmd.exe /d /s /c go run ./cmd/atmkit serve`
	node        = `"C:\Program Files\nodejs\node.exe" "C:\Program Files\nodejs\node_modules\npm\bin\npm-cli.js" run mock`
	yarn        = `"C:\Program Files\nodejs\node.exe" "C:\Users\dev\AppData\Roaming\npm\node_modules\yarn\bin\yarn.js" mock`
	npmCmd      = `C:\WINDOWS\system32\cmd.exe /c ""C:\Program Files\nodejs\npm.cmd" run mock"` // PowerShell running npm.cmd
	concurrent  = `"C:\Program Files\nodejs\node.exe" C:\app\node_modules\concurrently\dist\bin\concurrently.js "atmkit serve" vite`
	powershell  = `"C:\WINDOWS\System32\WindowsPowerShell\v1.0\powershell.exe" `
	pwsh        = `"C:\Program Files\PowerShell\7\pwsh.exe"`
	vsCodePwsh  = `C:\Program Files\PowerShell\7\pwsh.exe -noexit -command "try { . \"c:\Users\dev\AppData\Local\Programs\Microsoft VS Code\resources\app\out\vs\workbench\contrib\terminal\common\scripts\shellIntegration.ps1\" } catch {}"`
	cmdPrompt   = `"C:\WINDOWS\system32\cmd.exe" `
	devCmd      = `C:\WINDOWS\system32\cmd.exe /k "C:\Program Files\Microsoft Visual Studio\2022\Community\Common7\Tools\VsDevCmd.bat"`
	gitBash     = `C:\Program Files\Git\usr\bin\bash.exe --login -i`
	npmSh       = `C:\Program Files\Git\usr\bin\bash.exe /c/Program Files/nodejs/npm run mock` // Git Bash running npm's sh script
	goRun       = `go run ./cmd/atmkit serve`
	terminal    = `"C:\Program Files\WindowsApps\Microsoft.WindowsTerminal_1.21.2361.0_x64__8wekyb3d8bbwe\WindowsTerminal.exe"`
	vsCodeTask  = `C:\Program Files\PowerShell\7\pwsh.exe -NoProfile -Command npm run mock`
	service     = `C:\WINDOWS\system32\services.exe`
	typedCmdC   = `"C:\WINDOWS\system32\cmd.exe" /c atmkit serve`
	bashC       = `C:\Program Files\Git\usr\bin\bash.exe -c "atmkit serve"`
	pwshScript  = `"C:\Program Files\PowerShell\7\pwsh.exe" -c atmkit serve` // npm with script-shell=pwsh
	devCmdRunsC = `C:\WINDOWS\system32\cmd.exe /q /d /s /c"atmkit serve"`
)

// TestWalkRunners: the shells that only run a command line for a program
// (npm's cmd.exe /d /s /c, the cmd.exe /c running npm.cmd, PowerShell
// -Command, bash -c) are walked past, read from their command lines, to
// the shell the user typed in; when no other is met, the outermost runner;
// with a command line not read, a cmd.exe started by node.exe is one.
func TestWalkRunners(t *testing.T) {
	t.Parallel()
	// run is a chain of processes by command line: pid 10+i's parent is
	// 10+i+1, its executable named by the command line's program.
	run := func(lines ...string) []Proc {
		var ps []Proc
		for i, l := range lines {
			exe := strings.TrimPrefix(l, `"`)
			if strings.HasPrefix(l, `"`) {
				exe, _, _ = strings.Cut(exe, `"`)
			} else if i := strings.Index(exe, ".exe"); i >= 0 {
				exe = exe[:i+len(".exe")]
			}
			ps = append(ps, Proc{PID: uint32(10 + i), PPID: uint32(11 + i), Exe: baseName(exe), Args: l})
		}
		ps[0].Exe = "atmkit.exe"
		return ps
	}
	for _, tc := range []struct {
		name  string
		procs []Proc
		want  shellquote.Shell
		found bool
	}{
		{"npm run in PowerShell (npm.ps1)", run(atmkit, npmScript, node, powershell, terminal), shellquote.PowerShell, true},
		{"npm run in PowerShell 7 through npm.cmd", run(atmkit, npmScript, node, npmCmd, pwsh, terminal), shellquote.PowerShell, true},
		{"npm run in VS Code's PowerShell (-NoExit -Command)", run(atmkit, npmScript, node, npmCmd, vsCodePwsh), shellquote.PowerShell, true},
		{"npm run in cmd.exe", run(atmkit, npmScript, node, cmdPrompt, terminal), shellquote.Cmd, true},
		{"npm run in a Developer Command Prompt (cmd /k)", run(atmkit, npmScript, node, devCmd), shellquote.Cmd, true},
		{"npm run in Git Bash", run(atmkit, npmScript, node, npmSh, gitBash), shellquote.POSIX, true},
		{"yarn 1 in PowerShell (yarn.ps1)", run(atmkit, npmScript, yarn, powershell), shellquote.PowerShell, true},
		{"yarn 1 in PowerShell through yarn.cmd", run(atmkit, npmScript, yarn, `C:\WINDOWS\system32\cmd.exe /c ""C:\Users\dev\AppData\Roaming\npm\yarn.cmd" mock"`, powershell), shellquote.PowerShell, true},
		{"concurrently in an npm script, npm.cmd from PowerShell", run(atmkit, npmScript, concurrent, npmScript, node, npmCmd, powershell), shellquote.PowerShell, true},
		{"go run in an npm script, npm.cmd from PowerShell", run(atmkit, "go.exe "+goRun, goScript, node, npmCmd, powershell), shellquote.PowerShell, true},
		{"go run in PowerShell", run(atmkit, "go.exe "+goRun, powershell), shellquote.PowerShell, true},
		{"cmd.exe typed in PowerShell", run(atmkit, cmdPrompt, powershell), shellquote.Cmd, true},
		{"cmd /c atmkit typed in PowerShell", run(atmkit, typedCmdC, powershell), shellquote.PowerShell, true},
		{"cmd /q /d /s /c\"...\" typed in cmd.exe", run(atmkit, devCmdRunsC, cmdPrompt), shellquote.Cmd, true},
		{"bash -c typed in cmd.exe", run(atmkit, bashC, cmdPrompt), shellquote.Cmd, true},
		{"npm's script-shell pwsh, npm run in cmd.exe", run(atmkit, pwshScript, node, cmdPrompt), shellquote.Cmd, true},
		{"only runners: a VS Code task or CI step's PowerShell, the outermost", run(atmkit, npmScript, node, vsCodeTask, `C:\Program Files\Microsoft VS Code\Code.exe`), shellquote.PowerShell, true},
		{"only runners: npm run by a service", run(atmkit, npmScript, node, service), shellquote.Cmd, true},
		{"the user's shell beyond the depth limit: the runner", run(append(append([]string{atmkit, npmScript}, others(MaxDepth-1)...), powershell)...), shellquote.Cmd, true},
		{"WSL: started from a Linux shell through wsl.exe, itself typed in PowerShell", run(atmkit, `"C:\Program Files\WSL\wsl.exe" -d Ubuntu`, `C:\WINDOWS\system32\wsl.exe -d Ubuntu`, powershell), shellquote.POSIX, true},
		{"WSL: wslhost.exe once wsl.exe ended", run(atmkit, `"C:\Program Files\WSL\wslhost.exe"`, service), shellquote.POSIX, true},
		{"WSL: cmd.exe /c typed in a Linux shell", run(atmkit, `C:\WINDOWS\system32\cmd.exe /c atmkit.exe serve`, `C:\WINDOWS\system32\wsl.exe`, cmdPrompt), shellquote.POSIX, true},
		{"command lines not read: cmd.exe under node.exe", chain("atmkit.exe", "cmd.exe", "node.exe", "powershell.exe"), shellquote.PowerShell, true},
		{"command lines not read: cmd.exe under NODE.EXE, a path", chain("atmkit.exe", "cmd.exe", `C:\Program Files\nodejs\NODE.EXE`, "pwsh.exe"), shellquote.PowerShell, true},
		{"command lines not read: cmd.exe under bun.exe, nothing above", chain("atmkit.exe", "cmd.exe", "bun.exe"), shellquote.Cmd, true},
		{"command lines not read: npm.cmd's cmd.exe under PowerShell is taken as typed in", chain("atmkit.exe", "cmd.exe", "node.exe", "cmd.exe", "powershell.exe"), shellquote.Cmd, true},
		{"command lines not read: node.exe's id reused after cmd.exe started", []Proc{
			{PID: 10, PPID: 11, Exe: "atmkit.exe", Created: at(0)},
			{PID: 11, PPID: 12, Exe: "cmd.exe", Created: at(-1)},
			{PID: 12, PPID: 13, Exe: "node.exe", Created: at(5)},
			{PID: 13, PPID: 0, Exe: "powershell.exe", Created: at(-3)},
		}, shellquote.Cmd, true},
	} {
		sh, found := Walk(tc.procs, 10)
		if sh != tc.want || found != tc.found {
			t.Errorf("%s: got %v (found %v), want %v (found %v)", tc.name, sh, found, tc.want, tc.found)
		}
	}
}

// TestIsRunner: each shell's command line is read as that shell reads its
// own: cmd.exe's switches up to /c, /r or /k; PowerShell's parameters by
// any unambiguous prefix after -, -- or /, -NoExit before a command
// keeping it interactive; a POSIX shell's -c in a cluster of options,
// bash's options with a value skipped. A shell with no command line read
// is interactive, but for a cmd.exe started by a script runner.
func TestIsRunner(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		exe, args string
		want      bool
	}{
		{"cmd.exe", `cmd.exe /d /s /c "atmkit serve"`, true},
		{"cmd.exe", `cmd /d/s/c atmkit serve`, true},
		{"cmd.exe", `CMD.EXE /C atmkit`, true},
		{"cmd.exe", `cmd.exe /cdir`, true},
		{"cmd.exe", `cmd.exe /r atmkit`, true},
		{"cmd.exe", `cmd.exe /e:on /v:off /d /s /c "x"`, true},
		{"cmd.exe", `"C:\Windows\System32\cmd.exe" /c x`, true},
		{"cmd.exe", `"C:\Windows\System32\cmd.exe"`, false},
		{"cmd.exe", `cmd.exe`, false},
		{"cmd.exe", `cmd.exe /k x.bat`, false},
		{"cmd.exe", `cmd.exe /q /K x.bat`, false},
		{"cmd.exe", `cmd.exe x /c y`, false},
		{"cmd.exe", `cmd.exe /t:0a`, false},
		{"Cmd.Exe", `"C:\my tools\cmd.exe" /c x`, true},
		{"powershell.exe", `powershell.exe`, false},
		{"powershell.exe", `powershell.exe -NoLogo`, false},
		{"powershell.exe", `powershell.exe -Command npm run mock`, true},
		{"powershell.exe", `powershell.exe -c x`, true},
		{"powershell.exe", `powershell.exe /c x`, true},
		{"powershell.exe", `powershell.exe -nop -com x`, true},
		{"powershell.exe", `powershell.exe -File x.ps1`, true},
		{"powershell.exe", `powershell.exe -f x.ps1`, true},
		{"powershell.exe", `powershell.exe -EncodedCommand ZABpAHIA`, true},
		{"powershell.exe", `powershell.exe -ec ZABpAHIA`, true},
		{"pwsh.exe", `pwsh --command x`, true},
		{"pwsh.exe", `pwsh -CommandWithArgs x`, true},
		{"pwsh.exe", `pwsh -NoExit -Command x`, false},
		{"pwsh.exe", `pwsh -noe -c x`, false},
		{"pwsh.exe", `pwsh -Command x -NoExit`, true},
		{"pwsh.exe", `pwsh -ExecutionPolicy Bypass`, false},
		{"pwsh.exe", `pwsh -ep Bypass -NoProfile`, false},
		{"pwsh.exe", `pwsh x.ps1`, false},
		{"pwsh.exe", `pwsh -nologo -co x`, false},
		{"bash.exe", `bash.exe --login -i`, false},
		{"bash.exe", `bash.exe`, false},
		{"bash.exe", `bash.exe -c "atmkit serve"`, true},
		{"bash.exe", `bash.exe -lc atmkit`, true},
		{"bash.exe", `bash.exe --init-file -c`, false},
		{"bash.exe", `bash.exe -o vi -c x`, true},
		{"bash.exe", `bash.exe -o c`, false},
		{"bash.exe", `bash.exe script.sh -c`, false},
		{"bash.exe", `bash.exe -- -c`, false},
		{"sh.exe", `sh -c x`, true},
		{"zsh.exe", `zsh -ic x`, true},
		{"fish.exe", `fish --command=x`, true},
		{"fish.exe", `fish --command x`, true},
		{"fish.exe", `fish -C "set x 1"`, false},
		{"bash.exe", `bash.exe /c x`, false},
		{"node.exe", `node.exe -c x`, false},
		{"wsl.exe", `wsl.exe -e bash -c x`, false},
		{"wslhost.exe", `wslhost.exe -c x`, false},
		{"go.exe", `go.exe /c x`, false},
		{"bash.exe", `C:\Program Files\Git\usr\bin\bash.exe -c x`, true},
		{"bash.exe", `C:\Program Files\Git\usr\bin\BASH.EXE -c x`, true},
		{"pwsh.exe", `C:\Program Files\PowerShell\7\pwsh.exe -c x`, true},
		{"cmd.exe", `C:\Program Files\cmd.exe /c x`, true},
	} {
		if got := IsRunner(Proc{Exe: tc.exe, Args: tc.args}, false); got != tc.want {
			t.Errorf("%s: %s: got %v, want %v", tc.exe, tc.args, got, tc.want)
		}
	}
	for _, tc := range []struct {
		exe             string
		startedByRunner bool
		want            bool
	}{
		{"cmd.exe", true, true},
		{"cmd.exe", false, false},
		{"powershell.exe", true, false},
		{"bash.exe", true, false},
		{"node.exe", true, false},
	} {
		if got := IsRunner(Proc{Exe: tc.exe}, tc.startedByRunner); got != tc.want {
			t.Errorf("%s, no command line, started by a runner %v: got %v, want %v", tc.exe, tc.startedByRunner, got, tc.want)
		}
	}
}

// FuzzIsRunner: any command line, of any shell, is read without a panic,
// and a walk over a chain of shells started with it ends with a shell
// found.
func FuzzIsRunner(f *testing.F) {
	for _, s := range []string{npmScript, npmCmd, vsCodePwsh, devCmd, gitBash, bashC, `"`, `cmd /`, `x.exe`, `pwsh -`, `bash -o`, "cmd.exe\t/c"} {
		f.Add("cmd.exe", s)
	}
	f.Fuzz(func(t *testing.T, exe, args string) {
		for _, name := range []string{exe, "cmd.exe", "pwsh.exe", "bash.exe", "fish.exe"} {
			IsRunner(Proc{Exe: name, Args: args}, true)
		}
		procs := []Proc{{PID: 10, PPID: 11, Exe: "atmkit.exe"}, {PID: 11, PPID: 12, Exe: "cmd.exe", Args: args}, {PID: 12, PPID: 13, Exe: "node.exe"}, {PID: 13, PPID: 0, Exe: "pwsh.exe", Args: args}}
		if _, found := Walk(procs, 10); !found {
			t.Errorf("%q: no shell found", args)
		}
	})
}
