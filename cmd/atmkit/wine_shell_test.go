package main

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/atmkit/atmkit/mockserver"
)

// shellCopy copies the prefix's cmd.exe to C:\shells\name and returns its
// Windows path: a process of that name that runs what /c names, as a
// PowerShell or a Git Bash would, for atmkit.exe to find up its process
// tree. Wine 8's cmd.exe is one of its builtin programs, marked so in its
// DOS stub ("Wine builtin DLL"), and Wine runs its builtin of the same name
// for a file so marked (its powershell.exe is a stub that runs nothing):
// the copy's mark is overwritten, and Wine runs it as any other program.
func (w *wineRun) shellCopy(t *testing.T, name string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(w.prefix, "drive_c", "windows", "system32", "cmd.exe"))
	if err != nil {
		t.Fatal(err)
	}
	if mark := []byte("Wine builtin DLL"); len(data) > 0x40+len(mark) && bytes.Equal(data[0x40:0x40+len(mark)], mark) {
		copy(data[0x40:], "Not a builtin...")
	}
	dir := filepath.Join(w.prefix, "drive_c", "shells")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, name), data, 0o755); err != nil {
		t.Fatal(err)
	}
	return `C:\shells\` + name
}

// viaShells is the command that runs atmkit.exe args under Wine, started
// by the Windows programs chain, each starting the next with /c (cmd.exe's
// way) or with the switches given after its path ("C:\x\cmd.exe /d /s /c",
// "C:\x\cmd.exe /k"), with env added to the environment.
func (w *wineRun) viaShells(ctx context.Context, env, chain []string, args ...string) *exec.Cmd {
	var line []string
	for _, p := range chain {
		if f := strings.Fields(p); len(f) > 1 {
			line = append(line, f...)
		} else {
			line = append(line, p, "/c")
		}
	}
	line = append(append(line, winPath(w.exe)), args...)
	cmd := exec.CommandContext(ctx, "wine", line...)
	cmd.Dir, cmd.Env = w.dir, append(append([]string(nil), w.env...), env...)
	cmd.WaitDelay = 5 * time.Second
	return cmd
}

// TestShellUnderWine: the Windows binary finds the shell it was started
// from up its process tree (CreateToolhelp32Snapshot under Wine, whose
// parent ids are right) and writes its lines for it: serve's try line for
// cmd.exe (%ATMKIT_KEY%), for PowerShell ($env:ATMKIT_KEY, also with a
// go.exe between, as under go run) and for Git Bash (curl, "$ATMKIT_KEY");
// past the cmd.exe that runs a command line for a program (npm's cmd.exe
// /d /s /c under node.exe, the cmd.exe /c that runs npm.cmd from
// PowerShell, a cmd /c typed in PowerShell: read from their command lines
// through the PEB, Wine 8 lacking ProcessCommandLineInformation) to the
// shell npm was typed in, but not past a cmd.exe /k (an interactive one);
// a wsl.exe starting it (WSL's interop) is a Linux shell's (POSIX lines);
// ATMKIT_SHELL overrides what was found; conform's reproduce lines are
// cmd.exe lines from PowerShell, after a note saying so, and POSIX lines
// from Git Bash; fixtures generate's "serve it:" line names a directory
// given with a backslash at its end without it (5.1 misreads the
// other). The PowerShell and Git Bash here are Wine's cmd.exe under
// their names: what is shown is the walk, not those shells reading the
// lines (none runs here).
func TestShellUnderWine(t *testing.T) {
	t.Parallel()
	w := newWineRun(t)
	const key = "wine-shell-key"
	cmdExe := `C:\windows\system32\cmd.exe`
	powershell, goExe, bash := w.shellCopy(t, "powershell.exe"), w.shellCopy(t, "go.exe"), w.shellCopy(t, "bash.exe")
	// node.exe running a package.json script as npm, yarn 1 and pnpm do:
	// ComSpec /d /s /c "<script>".
	node, npmScript := w.shellCopy(t, "node.exe"), cmdExe+" /d /s /c"
	// wsl.exe starting a Windows program for a Linux shell (WSL's interop).
	wsl := w.shellCopy(t, "wsl.exe")
	keyEnv := []string{"ATMKIT_KEY=" + key}
	tryURL := `"http://127\.0\.0\.1:\d+/service/service\.asmx/ReturnProvinces\?strAtmServiceKey=`

	for _, tc := range []struct {
		name  string
		chain []string
		env   []string
		want  string // the try line, a regular expression
	}{
		{"cmd.exe", []string{cmdExe}, nil, `curl\.exe ` + tryURL + `%ATMKIT_KEY%"`},
		{"PowerShell", []string{powershell}, nil, `curl\.exe ` + tryURL + `\$env:ATMKIT_KEY"`},
		{"PowerShell, go.exe between", []string{powershell, goExe}, nil, `curl\.exe ` + tryURL + `\$env:ATMKIT_KEY"`},
		{"Git Bash", []string{bash}, nil, `curl ` + tryURL + `\$ATMKIT_KEY"`},
		{"cmd.exe (/k) started from PowerShell", []string{powershell, cmdExe + " /k"}, nil, `curl\.exe ` + tryURL + `%ATMKIT_KEY%"`},
		{"cmd /c atmkit typed in PowerShell", []string{powershell, cmdExe}, nil, `curl\.exe ` + tryURL + `\$env:ATMKIT_KEY"`},
		{"npm run in PowerShell (npm.ps1)", []string{powershell, node, npmScript}, nil, `curl\.exe ` + tryURL + `\$env:ATMKIT_KEY"`},
		{"npm run in PowerShell through npm.cmd", []string{powershell, cmdExe, node, npmScript}, nil, `curl\.exe ` + tryURL + `\$env:ATMKIT_KEY"`},
		{"npm run in cmd.exe (/k)", []string{cmdExe + " /k", node, npmScript}, nil, `curl\.exe ` + tryURL + `%ATMKIT_KEY%"`},
		{"npm run in Git Bash", []string{bash, node, npmScript}, nil, `curl ` + tryURL + `\$ATMKIT_KEY"`},
		{"WSL: wsl.exe (typed in PowerShell) starting it", []string{powershell, wsl}, nil, `curl ` + tryURL + `\$ATMKIT_KEY"`},
		{"npm run in PowerShell, ATMKIT_SHELL=cmd", []string{powershell, node, npmScript}, []string{"ATMKIT_SHELL=cmd"}, `curl\.exe ` + tryURL + `%ATMKIT_KEY%"`},
		{"PowerShell, ATMKIT_SHELL=cmd", []string{powershell}, []string{"ATMKIT_SHELL=cmd"}, `curl\.exe ` + tryURL + `%ATMKIT_KEY%"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			args := []string{"serve", "--addr", "127.0.0.1:0"}
			s := w.startCmd(t, w.viaShells(context.Background(), append(append([]string(nil), keyEnv...), tc.env...), tc.chain, args...), args)
			try := bannerLine(t, s.stdout.String(), "try:")
			if !regexp.MustCompile(`^` + tc.want + `$`).MatchString(try) {
				t.Errorf("try line: %s\nwant it to match %s", try, tc.want)
			}
		})
	}

	// A directory given with a backslash at its end is named without it:
	// Windows PowerShell 5.1 would hand 'C:\atmkit\my data\' to atmkit.exe
	// as C:\atmkit\my data" and the rest of the line.
	t.Run("fixtures, PowerShell, a directory ending in a backslash", func(t *testing.T) {
		args := []string{"fixtures", "generate", "--atms", "20", "--out", `C:\atmkit\ps data\`}
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		defer cancel()
		code, out, errOut := w.runCmd(t, w.viaShells(ctx, []string{"ATMKIT_SHELL=powershell"}, nil, args...), args)
		if want := `serve it: atmkit serve --fixtures 'C:\atmkit\ps data'` + "\n"; code != exitOK || !strings.Contains(out, want) {
			t.Errorf("fixtures generate --out %s: exit %d, want %q in:\n%s%s", args[len(args)-1], code, want, out, errOut)
		}
	})

	t.Run("conform", func(t *testing.T) {
		target := startMock(t, key, nil, mockserver.WithFault(mockserver.Fault{Operation: "ReturnInstitutions", Drop: true}))
		args := []string{"conform", "--target", target, "--key", key, "--label-filter", "get"}
		for _, tc := range []struct {
			shell, note, reproduce string
		}{
			{powershell, "The reproduce: lines are cmd.exe lines: in PowerShell, type cmd first", `reproduce: curl.exe -sS -i "` + target + `/service/service.asmx/ReturnInstitutions?strAtmServiceKey=%ATMKIT_KEY%"`},
			{bash, "", `reproduce: curl -sS -i '` + target + `/service/service.asmx/ReturnInstitutions?strAtmServiceKey='"$ATMKIT_KEY"`},
		} {
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			code, out, errOut := w.runCmd(t, w.viaShells(ctx, keyEnv, []string{tc.shell}, args...), args)
			cancel()
			if code != exitFailure || !strings.Contains(out, tc.reproduce) {
				t.Errorf("conform from %s: exit %d, want 1 and %s in:\n%s\n%s", tc.shell, code, tc.reproduce, out, errOut)
			}
			first := strings.Index(out, "reproduce: ")
			switch note := strings.Index(out, "The reproduce: lines are"); {
			case tc.note == "" && note >= 0:
				t.Errorf("conform from %s: a note on PowerShell:\n%s", tc.shell, out)
			case tc.note != "" && (strings.Count(out, tc.note) != 1 || note > first):
				t.Errorf("conform from %s: want %q once, before the first reproduce line:\n%s", tc.shell, tc.note, out)
			}
		}
	})
}
