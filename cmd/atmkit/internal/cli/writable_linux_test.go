package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
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
	base := mocktest.SharedTempDir(t, "atmkit-unwritable-", map[string]os.FileMode{"": 0o755, "ro": 0o555, "rw": 0o777})
	readOnly, writable := filepath.Join(base, "ro"), filepath.Join(base, "rw")
	bin := os.Args[0]
	var cred *syscall.Credential
	uid := os.Getuid()
	if os.Geteuid() == 0 {
		// The test binary's own directory is root's alone: a copy that
		// the other user may run.
		bin = mocktest.CopyTestBinary(t, base, "cli.test")
		cred, uid = &syscall.Credential{Uid: mocktest.Nobody, Gid: mocktest.Nobody}, mocktest.Nobody
	}
	for _, tc := range []struct {
		dir, want string
	}{
		{writable, ""},
		{filepath.Join(writable, "new", "dir"), ""},
		{readOnly, fmt.Sprintf("cannot create files in %s (permission denied) as uid %d: make the directory writable for it, or choose another", readOnly, uid)},
		{filepath.Join(readOnly, "new"), fmt.Sprintf("cannot create files in %s (permission denied) as uid %d", readOnly, uid)},
	} {
		out := mocktest.RunTest(t, fmt.Sprintf("the check as uid %d", uid), bin, "TestCheckMakeDirUnwritable", "", cred, checkDirEnv+"="+tc.dir)
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
	base := mocktest.SharedTempDir(t, "atmkit-ca-out-", map[string]os.FileMode{"": 0o755, "tmp": 0o1777 | os.ModeSticky})
	theirs := filepath.Join(base, "tmp", "ca.pem")
	if err := os.WriteFile(theirs, []byte("root's\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	bin := mocktest.CopyTestBinary(t, base, "cli.test")
	out := mocktest.RunTest(t, fmt.Sprintf("ListenTLS as uid %d", mocktest.Nobody), bin, "TestTLSCAOutOfAnotherUser", "",
		&syscall.Credential{Uid: mocktest.Nobody, Gid: mocktest.Nobody}, caOutEnv+"="+theirs)
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
	base := mocktest.SharedTempDir(t, "atmkit-replace-", map[string]os.FileMode{"": 0o755, "tmp": 0o1777 | os.ModeSticky, "open": 0o777})
	sticky, open := filepath.Join(base, "tmp"), filepath.Join(base, "open")
	theirs, notSticky, missing := filepath.Join(sticky, "report.xml"), filepath.Join(open, "report.xml"), filepath.Join(sticky, "new.xml")
	for _, path := range []string{theirs, notSticky} {
		if err := os.WriteFile(path, []byte("root's\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	bin := mocktest.CopyTestBinary(t, base, "cli.test")
	out := mocktest.RunTest(t, fmt.Sprintf("the check as uid %d", mocktest.Nobody), bin, "TestCheckReplaceOfAnotherUser", "",
		&syscall.Credential{Uid: mocktest.Nobody, Gid: mocktest.Nobody}, replaceEnv+"="+strings.Join([]string{theirs, notSticky, missing}, "\n"))
	want := fmt.Sprintf("%q\n%q\n%q\n", "cannot replace it (operation not permitted): it is likely another user's, in a directory where only a file's owner may replace it (such as /tmp); remove it, or name another file", "", "")
	if got, _, _ := strings.Cut(string(out), "PASS"); got != want {
		t.Errorf("CheckReportFile of another user's file in a sticky directory, of one in another directory, of a new file:\ngot  %s\nwant %s", got, want)
	}
}
