package memlimit

import (
	"io/fs"
	"path"
	"strconv"
	"strings"
	"testing"
)

// fuzzRoot is a file system of /proc/self/cgroup, /proc/self/mountinfo and
// a memory limit file of the same text wherever cgroupLimit looks for one.
// It fails the test on a name fs.FS refuses, and lists the limit files read.
type fuzzRoot struct {
	t               *testing.T
	cgroups, mounts string
	limit           string
	limitsRead      []string
}

func (r *fuzzRoot) Open(name string) (fs.File, error) {
	return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
}

func (r *fuzzRoot) ReadFile(name string) ([]byte, error) {
	if !fs.ValidPath(name) {
		r.t.Fatalf("cgroupLimit read %q, a name no fs.FS takes", name)
	}
	switch base := path.Base(name); {
	case name == "proc/self/cgroup":
		return []byte(r.cgroups), nil
	case name == "proc/self/mountinfo":
		return []byte(r.mounts), nil
	case strings.HasPrefix(name, "proc/"):
	case base == "memory.max" || base == "memory.limit_in_bytes":
		r.limitsRead = append(r.limitsRead, name)
		return []byte(r.limit), nil
	}
	return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
}

// FuzzCgroupLimit reads any /proc/self/cgroup and /proc/self/mountinfo,
// files the kernel writes but a container runtime shapes (mount roots and
// points, escaped names, hybrid hierarchies): cgroupLimit must end, read
// only names fs.FS takes, one limit file per directory from the cgroup's
// up, all of one kind, and return a limit exactly when it read a limit
// file holding one (a positive number below v1's "none").
func FuzzCgroupLimit(f *testing.F) {
	f.Add("0::/\n", mountOther+mountV2, "805306368\n")
	f.Add("0::/kubepods/burstable/pod1/ctr\n", mountOther+mountV2, "max\n")
	f.Add("0::/ctr/sub\n", "30 23 0:26 /ctr /sys/fs/cgroup rw - cgroup2 cgroup2 rw\n", "536870912")
	f.Add("0::/../../init\n", mountV2, "805306368\n")
	f.Add("0::/\n", `30 23 0:26 / /sys/fs/cg\040x rw - cgroup2 cgroup2 rw`+"\n", "805306368\n")
	f.Add("12:pids:/docker/abc\n4:memory:/docker/abc\n0::/docker/abc\n", mountOther+mountV1CPU+mountV1Docker, "805306368\n")
	f.Add("4:memory:/kubepods/pod1/ctr\n", mountOther+mountV1Memory, "9223372036854771712\n")
	f.Add("0::/user.slice\n4:memory:/user.slice\n", mountV2+mountV1Memory, " 1 ")
	f.Add("nonsense\n0:\n::\n", "nonsense - \n1 2 3\n", "-1")
	f.Add("0::/a\n", "30 23 0:26 / / rw - cgroup2 cgroup2 rw\n", "1")
	f.Add("0::/\n", "30 23 0:26 / /.. rw - cgroup2 cgroup2 rw\n", "1")
	f.Fuzz(func(t *testing.T, cgroups, mounts, limit string) {
		root := &fuzzRoot{t: t, cgroups: cgroups, mounts: mounts, limit: limit}
		got, ok := cgroupLimit(root)
		n, err := strconv.ParseInt(strings.TrimSpace(limit), 10, 64)
		holds := err == nil && n > 0 && n < noLimit
		switch {
		case ok != (holds && len(root.limitsRead) > 0):
			t.Fatalf("cgroupLimit: %d, %v after reading %q of %q", got, ok, root.limitsRead, limit)
		case ok && got != n:
			t.Fatalf("cgroupLimit: %d, want %d, the limit files' %q", got, n, limit)
		case !ok && got != 0:
			t.Fatalf("cgroupLimit: %d with no limit", got)
		}
		for i, name := range root.limitsRead {
			if i > 0 && (path.Dir(root.limitsRead[i-1]) == "." || path.Dir(path.Dir(root.limitsRead[i-1])) != path.Dir(name) ||
				path.Base(name) != path.Base(root.limitsRead[0])) {
				t.Fatalf("limit files read: %q, not one kind from a directory up", root.limitsRead)
			}
		}
	})
}

// escapeMount escapes a path as mountinfo writes it: space, tab, newline
// and backslash as a backslash and three octal digits.
func escapeMount(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case ' ', '\t', '\n', '\\':
			b.WriteString(`\` + strconv.FormatInt(int64(c)+01000, 8)[1:])
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// FuzzUnescape undoes mountinfo's escapes of any path: unescape gives back
// the path the kernel escaped, and leaves a path with no escape as it is.
func FuzzUnescape(f *testing.F) {
	for _, s := range []string{"/sys/fs/cgroup", "/sys/fs/cg x", `a\b`, "\\", "tab\there", `\040`, "\n", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, p string) {
		if got := unescape(escapeMount(p)); got != p {
			t.Fatalf("unescape(%q) = %q, want %q", escapeMount(p), got, p)
		}
		if !strings.Contains(p, `\`) && unescape(p) != p {
			t.Fatalf("unescape(%q) = %q, changed a path with no escape", p, unescape(p))
		}
	})
}
