package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/atmkit/atmkit/internal/mocktest"
)

// checkDirEnv, set in the environment of this test binary, makes
// TestCheckMakeDirUnwritable print CheckMakeDir of its value and stop: the
// check as another user than root, who may write anywhere.
const checkDirEnv = "ATMKIT_CLI_TEST_CHECK_DIR"

// nobody is the user the check runs as when the tests run as root.
const nobody = 65534

// TestCheckMakeDirUnwritable: a directory this process cannot create files
// in (a host directory mounted into the image, which runs as uid 65532) is
// refused at the start, naming the directory and the user, and so is a
// directory still to be made under it; a writable one is not. The check
// runs in a child process of this test binary, as uid 65534 when the tests
// run as root.
func TestCheckMakeDirUnwritable(t *testing.T) {
	if dir := os.Getenv(checkDirEnv); dir != "" {
		fmt.Printf("%q\n", CheckMakeDir(dir))
		return
	}
	t.Parallel()
	base, err := os.MkdirTemp("", "atmkit-unwritable-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.RemoveAll(base) })
	readOnly, writable := filepath.Join(base, "ro"), filepath.Join(base, "rw")
	for dir, mode := range map[string]os.FileMode{base: 0o755, readOnly: 0o555, writable: 0o777} {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(dir, mode); err != nil {
			t.Fatal(err)
		}
	}
	bin := os.Args[0]
	var cred *syscall.Credential
	uid := os.Getuid()
	if os.Geteuid() == 0 {
		// The test binary's own directory is root's alone: a copy that
		// the other user may run.
		bin = filepath.Join(base, "cli.test")
		copyFile(t, os.Args[0], bin)
		cred, uid = &syscall.Credential{Uid: nobody, Gid: nobody}, nobody
	}
	for _, tc := range []struct {
		dir, want string
	}{
		{writable, ""},
		{filepath.Join(writable, "new", "dir"), ""},
		{readOnly, fmt.Sprintf("cannot create files in %s (permission denied) as uid %d: make the directory writable for it, or choose another", readOnly, uid)},
		{filepath.Join(readOnly, "new"), fmt.Sprintf("cannot create files in %s (permission denied) as uid %d", readOnly, uid)},
	} {
		out, err := mocktest.OutputBusyRetried(func() *exec.Cmd {
			cmd := exec.Command(bin, "-test.run=^TestCheckMakeDirUnwritable$")
			cmd.Env = append(os.Environ(), checkDirEnv+"="+tc.dir)
			cmd.SysProcAttr = &syscall.SysProcAttr{Credential: cred}
			return cmd
		})
		if err != nil {
			t.Fatalf("the check as uid %d: %v\n%s", uid, err, out)
		}
		got := string(out)
		if i := strings.Index(got, "\n"); i >= 0 {
			got = got[:i] // the test binary's own PASS follows
		}
		if tc.want == "" && got != `""` || tc.want != "" && !strings.Contains(got, tc.want) {
			t.Errorf("CheckMakeDir(%s) as uid %d: got %s, want %q", tc.dir, uid, got, tc.want)
		}
	}
	if entries, err := os.ReadDir(writable); err != nil || len(entries) != 0 {
		t.Errorf("the check left files in %s: %v %v", writable, entries, err)
	}
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	src, err := os.Open(from)
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	dst, err := os.OpenFile(to, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o755)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(dst, src); err != nil {
		t.Fatal(err)
	}
	if err := dst.Close(); err != nil {
		t.Fatal(err)
	}
}

// caOutEnv, set in the environment of this test binary, makes
// TestTLSCAOutOfAnotherUser run ListenTLS with --tls-self-signed and
// --tls-ca-out of its value, print its error and stop.
const caOutEnv = "ATMKIT_CLI_TEST_CA_OUT"

// TestTLSCAOutOfAnotherUser: --tls-ca-out naming a file another user owns
// in a sticky directory (as /tmp is), which its directory check passes but
// no other user may replace, is a wrong setting naming --tls-ca-out and
// why, not a failure showing atomicfile's temporary name. It needs root,
// to make a file another user (uid 65534) cannot replace.
func TestTLSCAOutOfAnotherUser(t *testing.T) {
	if path := os.Getenv(caOutEnv); path != "" {
		var f ListenTLSFlags
		fset := flag.NewFlagSet("serve", flag.ContinueOnError)
		f.Register(fset)
		if err := fset.Parse([]string{"--tls-self-signed", "--tls-ca-out", path}); err != nil {
			t.Fatal(err)
		}
		_, err := (&Env{Stderr: io.Discard, Getenv: func(string) string { return "" }}).ListenTLS(fset, &f, "127.0.0.1:0")
		var ue *UsageError
		fmt.Printf("usage error %v: %q\n", errors.As(err, &ue), fmt.Sprint(err))
		return
	}
	if os.Geteuid() != 0 {
		t.Skip("needs root, to make a file another user cannot replace")
	}
	t.Parallel()
	base, err := os.MkdirTemp("", "atmkit-ca-out-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.RemoveAll(base) })
	sticky := filepath.Join(base, "tmp")
	if err := os.Mkdir(sticky, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(base, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(sticky, 0o1777|os.ModeSticky); err != nil {
		t.Fatal(err)
	}
	theirs := filepath.Join(sticky, "ca.pem")
	if err := os.WriteFile(theirs, []byte("root's\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(base, "cli.test")
	copyFile(t, os.Args[0], bin)
	out, err := mocktest.OutputBusyRetried(func() *exec.Cmd {
		cmd := exec.Command(bin, "-test.run=^TestTLSCAOutOfAnotherUser$")
		cmd.Env = append(os.Environ(), caOutEnv+"="+theirs)
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: nobody, Gid: nobody}}
		return cmd
	})
	if err != nil {
		t.Fatalf("ListenTLS as uid %d: %v\n%s", nobody, err, out)
	}
	got, _, _ := strings.Cut(string(out), "\n")
	want := "--tls-ca-out " + theirs + ": cannot replace it (operation not permitted): it is likely another user's, in a directory where only a file's owner may replace it (such as /tmp); remove it, or name another file"
	if !strings.HasPrefix(got, "usage error true: ") || !strings.Contains(got, want) || strings.Contains(got, ".tmp") {
		t.Errorf("got %s, want a usage error (exit 2) with %q, and no temporary file's name", got, want)
	}
}

// replaceEnv, set in the environment of this test binary, makes
// TestCheckReplaceOfAnotherUser print CheckReportFile of each line of its
// value and stop.
const replaceEnv = "ATMKIT_CLI_TEST_REPLACE"

// TestCheckReplaceOfAnotherUser: a report file another user owns in a
// sticky directory (as /tmp is), which the directory check passes but an
// atomic write cannot rename over, is refused at the start, saying why;
// such a file in a directory without the sticky bit, and a file still to
// be made in a sticky one, are not. It needs root, to run the check as
// uid 65534 on root's files.
func TestCheckReplaceOfAnotherUser(t *testing.T) {
	if paths := os.Getenv(replaceEnv); paths != "" {
		for _, path := range strings.Split(paths, "\n") {
			fmt.Printf("%q\n", CheckReportFile(path))
		}
		return
	}
	if os.Geteuid() != 0 {
		t.Skip("needs root, to make a file another user cannot replace")
	}
	t.Parallel()
	base, err := os.MkdirTemp("", "atmkit-replace-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.RemoveAll(base) })
	sticky, open := filepath.Join(base, "tmp"), filepath.Join(base, "open")
	for dir, mode := range map[string]os.FileMode{base: 0o755, sticky: 0o1777 | os.ModeSticky, open: 0o777} {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(dir, mode); err != nil {
			t.Fatal(err)
		}
	}
	theirs, notSticky, missing := filepath.Join(sticky, "report.xml"), filepath.Join(open, "report.xml"), filepath.Join(sticky, "new.xml")
	for _, path := range []string{theirs, notSticky} {
		if err := os.WriteFile(path, []byte("root's\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	bin := filepath.Join(base, "cli.test")
	copyFile(t, os.Args[0], bin)
	out, err := mocktest.OutputBusyRetried(func() *exec.Cmd {
		cmd := exec.Command(bin, "-test.run=^TestCheckReplaceOfAnotherUser$")
		cmd.Env = append(os.Environ(), replaceEnv+"="+strings.Join([]string{theirs, notSticky, missing}, "\n"))
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: nobody, Gid: nobody}}
		return cmd
	})
	if err != nil {
		t.Fatalf("the check as uid %d: %v\n%s", nobody, err, out)
	}
	want := fmt.Sprintf("%q\n%q\n%q\n", "cannot replace it (operation not permitted): it is likely another user's, in a directory where only a file's owner may replace it (such as /tmp); remove it, or name another file", "", "")
	if got, _, _ := strings.Cut(string(out), "PASS"); got != want {
		t.Errorf("CheckReportFile of another user's file in a sticky directory, of one in another directory, of a new file:\ngot  %s\nwant %s", got, want)
	}
}
