package atomicfile

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

func TestWriteReplacesTheFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "rec.yaml")
	if err := os.WriteFile(path, []byte("old"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := Write(path, []byte("new content"), 0o644); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(path)
	if err != nil || string(got) != "new content" {
		t.Fatalf("got %q, %v; want %q", got, err, "new content")
	}
	if runtime.GOOS != "windows" { // Windows has no Unix modes
		st, err := os.Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		if st.Mode().Perm() != 0o600 { // the existing file's (TestWriteModes)
			t.Errorf("mode: got %v, want %v", st.Mode().Perm(), os.FileMode(0o600))
		}
	}
	assertOnly(t, dir, "rec.yaml")
}

func TestWriteFuncFailureLeavesTheFileAlone(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "atms.json")
	if err := os.WriteFile(path, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	boom := errors.New("boom")
	err := WriteFunc(path, 0o644, func(w io.Writer) error {
		_, _ = io.WriteString(w, "half")
		return boom
	})
	if !errors.Is(err, boom) || !strings.Contains(err.Error(), path) {
		t.Errorf("got %v, want the write's error wrapped with the path", err)
	}
	if got, _ := os.ReadFile(path); string(got) != "old" {
		t.Errorf("the file: got %q, want the old content", got)
	}
	assertOnly(t, dir, "atms.json")
}

func TestWriteNewFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "shape.yaml")
	if err := Write(path, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if st, err := os.Stat(path); err != nil || st.Size() != 0 {
		t.Errorf("got %v, %v; want an empty file", st, err)
	}
}

func TestWriteMissingDirectory(t *testing.T) {
	path := filepath.Join(t.TempDir(), "no-such-dir", "rec.yaml")
	err := Write(path, []byte("x"), 0o644)
	if !errors.Is(err, os.ErrNotExist) || !strings.Contains(err.Error(), path) {
		t.Errorf("got %v, want a not-exist error naming %s", err, path)
	}
}

func TestReplace(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "report.xml")
	tmp := filepath.Join(dir, ".report.xml.1.tmp")
	for _, content := range []string{"first", "second"} {
		if err := os.WriteFile(tmp, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := Replace(tmp, path); err != nil {
			t.Fatal(err)
		}
		if got, _ := os.ReadFile(path); string(got) != content {
			t.Errorf("got %q, want %q", got, content)
		}
	}
	assertOnly(t, dir, "report.xml")
	// A failed rename removes the temporary file.
	if err := os.WriteFile(tmp, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := Replace(tmp, filepath.Join(dir, "missing", "report.xml")); err == nil {
		t.Error("a rename into a missing directory succeeded")
	}
	assertOnly(t, dir, "report.xml")
}

// assertOnly checks that dir holds exactly the named files: no temporary
// file was left behind.
func assertOnly(t *testing.T, dir string, names ...string) {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range ents {
		got = append(got, e.Name())
	}
	if strings.Join(got, ",") != strings.Join(names, ",") {
		t.Errorf("%s holds %q, want %q", dir, got, names)
	}
}

// TestWriteThroughSymlink: a path that is a symbolic link (relative, to
// another directory, through another link, or dangling) is written
// through: the file it names gets the content and the link stays a link.
// Renamed over, the link would become a file and the file keep its old
// content (a cassette scrubbed through a link would keep the key).
func TestWriteThroughSymlink(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("symbolic links need privileges on Windows")
	}
	root := t.TempDir()
	real, links := filepath.Join(root, "real"), filepath.Join(root, "links")
	for _, d := range []string{real, links} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	target := filepath.Join(real, "rec.yaml")
	if err := os.WriteFile(target, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	link, chain, dangling := filepath.Join(links, "rec.yaml"), filepath.Join(links, "chain.yaml"), filepath.Join(links, "new.yaml")
	for from, to := range map[string]string{link: "../real/rec.yaml", chain: "rec.yaml", dangling: filepath.Join(real, "new.yaml")} {
		if err := os.Symlink(to, from); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct{ path, file, content string }{
		{link, target, "through the link"},
		{chain, target, "through two links"},
		{dangling, filepath.Join(real, "new.yaml"), "created through a dangling link"},
	} {
		if err := Write(tc.path, []byte(tc.content), 0o644); err != nil {
			t.Fatal(err)
		}
		if got, err := os.ReadFile(tc.file); err != nil || string(got) != tc.content {
			t.Errorf("%s: %s holds %q (%v), want %q", tc.path, tc.file, got, err, tc.content)
		}
		if fi, err := os.Lstat(tc.path); err != nil || fi.Mode()&os.ModeSymlink == 0 {
			t.Errorf("%s is no longer a symbolic link (%v)", tc.path, err)
		}
	}
	assertOnly(t, real, "new.yaml", "rec.yaml")
	assertOnly(t, links, "chain.yaml", "new.yaml", "rec.yaml")
}

// TestTemps: Temps lists the temporary file a write in progress has made
// (what a process killed at that moment leaves), and nothing that only
// looks like one: another file's, a name without digits, a directory.
func TestTemps(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "atms.jsonl")
	for _, name := range []string{".cities.json.123.tmp", ".atms.jsonl.x1.tmp", ".atms.jsonl..tmp", "atms.jsonl.123.tmp"} {
		if err := os.WriteFile(filepath.Join(dir, name), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Mkdir(filepath.Join(dir, ".atms.jsonl.456.tmp"), 0o755); err != nil {
		t.Fatal(err)
	}
	var during []string
	err := WriteFunc(path, 0o644, func(w io.Writer) error {
		var err error
		during, err = Temps(path)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(during) != 1 || !strings.HasPrefix(filepath.Base(during[0]), ".atms.jsonl.") {
		t.Errorf("while writing: got %q, want the write's one temporary file", during)
	}
	if after, err := Temps(path); err != nil || len(after) != 0 {
		t.Errorf("after the write: got %q, %v; want none", after, err)
	}
	if none, err := Temps(filepath.Join(dir, "missing", "atms.jsonl")); err != nil || none != nil {
		t.Errorf("in a directory that does not exist: got %q, %v; want none and no error", none, err)
	}
}
