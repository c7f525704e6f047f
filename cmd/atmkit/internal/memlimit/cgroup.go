package memlimit

import (
	"io/fs"
	"path"
	"slices"
	"strconv"
	"strings"
)

// noLimit is where a cgroup v1 limit stops being one: v1 writes "none" as
// the largest multiple of the page size an int64 holds (9223372036854771712
// with 4 KiB pages).
const noLimit = 1 << 62

// cgroupLimit returns the memory limit of the process's cgroup, read from
// root (the file system's root, "/"): the lowest of the limits of its
// cgroup and of the cgroup's parents up to where the hierarchy is mounted.
// ok is false when there is none, or none could be read (no cgroup, the
// files missing, unreadable or not as the kernel writes them).
func cgroupLimit(root fs.FS) (limit int64, ok bool) {
	if root == nil {
		return 0, false
	}
	cgroups, err := fs.ReadFile(root, "proc/self/cgroup")
	if err != nil {
		return 0, false
	}
	group, v2, found := memoryCgroup(string(cgroups))
	if !found {
		return 0, false
	}
	mounts, err := fs.ReadFile(root, "proc/self/mountinfo")
	if err != nil {
		return 0, false
	}
	dir, top, found := cgroupDir(string(mounts), group, v2)
	if !found {
		return 0, false
	}
	file := "memory.limit_in_bytes"
	if v2 {
		file = "memory.max"
	}
	for {
		if n, ok := readLimit(root, path.Join(dir, file)); ok && (limit == 0 || n < limit) {
			limit = n
		}
		if dir == top {
			break
		}
		dir = path.Dir(dir)
	}
	return limit, limit > 0
}

// memoryCgroup finds the process's memory cgroup in /proc/self/cgroup,
// whose lines are hierarchy-ID:controllers:path: a cgroup v1 hierarchy
// with the memory controller if there is one, else the v2 hierarchy (ID 0).
func memoryCgroup(cgroups string) (group string, v2, ok bool) {
	for line := range strings.Lines(cgroups) {
		id, rest, found := strings.Cut(strings.TrimRight(line, "\n"), ":")
		controllers, p, found2 := strings.Cut(rest, ":")
		if !found || !found2 || !strings.HasPrefix(p, "/") {
			continue
		}
		switch {
		case slices.Contains(strings.Split(controllers, ","), "memory"):
			return p, false, true
		case id == "0":
			group, v2, ok = p, true, true
		}
	}
	return group, v2, ok
}

// cgroupDir finds where the cgroup group is in the file system from
// /proc/self/mountinfo: the mount point of its hierarchy (cgroup2, or
// cgroup with the memory option) whose root holds it, and the cgroup's
// path below. It returns both unrooted, as fs.FS names files.
func cgroupDir(mounts, group string, v2 bool) (dir, top string, ok bool) {
	for line := range strings.Lines(mounts) {
		// ID parent major:minor root mount-point options [optional...] - type source super-options
		pre, post, found := strings.Cut(strings.TrimRight(line, "\n"), " - ")
		fields, after := strings.Fields(pre), strings.Fields(post)
		if !found || len(fields) < 5 || len(after) < 1 {
			continue
		}
		switch {
		case v2 && after[0] == "cgroup2":
		case !v2 && after[0] == "cgroup" && len(after) >= 3 && slices.Contains(strings.Split(after[2], ","), "memory"):
		default:
			continue
		}
		mroot, mpoint := unescape(fields[3]), unescape(fields[4])
		rel, found := strings.CutPrefix(group, mroot)
		if mroot == "/" {
			rel, found = group, true
		}
		// Outside the mount's root, or above the cgroup namespace's
		// (/proc/self/cgroup shows /../..): not reachable from here.
		if !found || (rel != "" && !strings.HasPrefix(rel, "/")) || rel == "/.." || strings.HasPrefix(rel, "/../") {
			continue
		}
		top = strings.TrimPrefix(path.Clean(mpoint), "/")
		dir = strings.TrimPrefix(path.Join(mpoint, rel), "/")
		if top == "" || (dir != top && !strings.HasPrefix(dir, top+"/")) || !fs.ValidPath(dir) {
			continue
		}
		return dir, top, true
	}
	return "", "", false
}

// unescape undoes mountinfo's escapes of a path: space, tab, newline and
// backslash as a backslash and three octal digits.
func unescape(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+3 < len(s) {
			if n, err := strconv.ParseUint(s[i+1:i+4], 8, 8); err == nil {
				b.WriteByte(byte(n))
				i += 3
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// readLimit reads a memory.max (v2) or memory.limit_in_bytes (v1) file:
// a number of bytes, or "max" (v2) or a huge number (v1) for none.
func readLimit(root fs.FS, name string) (int64, bool) {
	b, err := fs.ReadFile(root, name)
	if err != nil {
		return 0, false
	}
	n, err := strconv.ParseInt(strings.TrimSpace(string(b)), 10, 64)
	if err != nil || n <= 0 || n >= noLimit {
		return 0, false
	}
	return n, true
}
