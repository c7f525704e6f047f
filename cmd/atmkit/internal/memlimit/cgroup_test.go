package memlimit

import (
	"os"
	"path/filepath"
	"testing"
)

// The lines of /proc/self/mountinfo the cases use.
const (
	mountV2       = "30 23 0:26 / /sys/fs/cgroup rw,nosuid,nodev,noexec,relatime - cgroup2 cgroup2 rw,nsdelegate\n"
	mountV1Memory = "35 31 0:32 / /sys/fs/cgroup/memory rw,relatime - cgroup cgroup rw,memory\n"
	mountV1CPU    = "32 31 0:29 / /sys/fs/cgroup/cpu rw,relatime - cgroup cgroup rw,cpu\n"
	mountOther    = "22 1 259:1 / / rw,relatime shared:1 - ext4 /dev/root rw\n"
	// Docker on cgroup v1 mounts the container's own cgroup at the
	// hierarchy's place, its root /docker/<id>.
	mountV1Docker = "40 31 0:32 /docker/abc /sys/fs/cgroup/memory ro,nosuid master:17 - cgroup cgroup rw,memory\n"
)

const (
	mib768 = 768 << 20
	mib512 = 512 << 20
)

// writeFiles writes files (unrooted paths: contents) under a new
// directory and returns it.
func writeFiles(t *testing.T, files map[string]string) string {
	t.Helper()
	root := t.TempDir()
	for name, data := range files {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

func TestCgroupLimit(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name  string
		files map[string]string
		want  int64 // 0: no limit
	}{
		{"v2, the container's limit", map[string]string{
			"proc/self/cgroup":           "0::/\n",
			"proc/self/mountinfo":        mountOther + mountV2,
			"sys/fs/cgroup/memory.max":   "805306368\n",
			"sys/fs/cgroup/memory.high":  "max\n",
			"sys/fs/cgroup/cpu.max":      "max 100000\n",
			"sys/fs/cgroup/cgroup.procs": "1\n",
		}, mib768},
		{"v2, max", map[string]string{
			"proc/self/cgroup":         "0::/\n",
			"proc/self/mountinfo":      mountOther + mountV2,
			"sys/fs/cgroup/memory.max": "max\n",
		}, 0},
		{"v2, nested: the pod's limit above the container's max", map[string]string{
			"proc/self/cgroup":    "0::/kubepods/burstable/pod1/ctr\n",
			"proc/self/mountinfo": mountOther + mountV2,
			"sys/fs/cgroup/kubepods/burstable/pod1/ctr/memory.max": "max\n",
			"sys/fs/cgroup/kubepods/burstable/pod1/memory.max":     "805306368\n",
			"sys/fs/cgroup/kubepods/burstable/memory.max":          "max\n",
			"sys/fs/cgroup/kubepods/memory.max":                    "25000000000\n",
		}, mib768},
		{"v2, nested: the lowest of the cgroup and its parents", map[string]string{
			"proc/self/cgroup":                           "0::/kubepods/pod1/ctr\n",
			"proc/self/mountinfo":                        mountOther + mountV2,
			"sys/fs/cgroup/kubepods/pod1/ctr/memory.max": "536870912\n",
			"sys/fs/cgroup/kubepods/pod1/memory.max":     "805306368\n",
		}, mib512},
		{"v2, the cgroup namespace's root at a nested mount root", map[string]string{
			"proc/self/cgroup":             "0::/ctr/sub\n",
			"proc/self/mountinfo":          "30 23 0:26 /ctr /sys/fs/cgroup rw - cgroup2 cgroup2 rw\n",
			"sys/fs/cgroup/memory.max":     "805306368\n",
			"sys/fs/cgroup/sub/memory.max": "max\n",
		}, mib768},
		{"v2, outside the cgroup namespace", map[string]string{
			"proc/self/cgroup":         "0::/../../init\n",
			"proc/self/mountinfo":      mountV2,
			"sys/fs/cgroup/memory.max": "805306368\n",
		}, 0},
		{"v2, a mount point with a space", map[string]string{
			"proc/self/cgroup":         "0::/\n",
			"proc/self/mountinfo":      `30 23 0:26 / /sys/fs/cg\040x rw - cgroup2 cgroup2 rw` + "\n",
			"sys/fs/cg x/memory.max":   "805306368\n",
			"sys/fs/cgroup/memory.max": "536870912\n",
		}, mib768},
		{"v1, Docker: the container's cgroup mounted at the hierarchy's place", map[string]string{
			"proc/self/cgroup":                           "12:pids:/docker/abc\n4:memory:/docker/abc\n3:cpu,cpuacct:/docker/abc\n0::/docker/abc\n",
			"proc/self/mountinfo":                        mountOther + mountV1CPU + mountV1Docker,
			"sys/fs/cgroup/memory/memory.limit_in_bytes": "805306368\n",
		}, mib768},
		{"v1, nested, the host's view", map[string]string{
			"proc/self/cgroup":    "4:memory:/kubepods/pod1/ctr\n",
			"proc/self/mountinfo": mountOther + mountV1Memory,
			"sys/fs/cgroup/memory/kubepods/pod1/ctr/memory.limit_in_bytes": "805306368\n",
			"sys/fs/cgroup/memory/kubepods/pod1/memory.limit_in_bytes":     "9223372036854771712\n",
			"sys/fs/cgroup/memory/memory.limit_in_bytes":                   "9223372036854771712\n",
		}, mib768},
		{"v1, unlimited: a huge value", map[string]string{
			"proc/self/cgroup":                           "4:memory:/docker/abc\n",
			"proc/self/mountinfo":                        mountV1Docker,
			"sys/fs/cgroup/memory/memory.limit_in_bytes": "9223372036854771712\n",
		}, 0},
		{"v1 and v2 both (hybrid): the memory controller is v1's", map[string]string{
			"proc/self/cgroup":    "0::/user.slice\n4:memory:/user.slice\n",
			"proc/self/mountinfo": mountV2 + mountV1Memory,
			"sys/fs/cgroup/memory/user.slice/memory.limit_in_bytes": "805306368\n",
			"sys/fs/cgroup/user.slice/memory.max":                   "536870912\n",
		}, mib768},
		{"v1, the memory hierarchy not mounted", map[string]string{
			"proc/self/cgroup":                           "4:memory:/docker/abc\n",
			"proc/self/mountinfo":                        mountOther + mountV1CPU,
			"sys/fs/cgroup/memory/memory.limit_in_bytes": "805306368\n",
		}, 0},
		{"no /proc/self/cgroup (not Linux, or no /proc)", map[string]string{
			"proc/self/mountinfo":      mountV2,
			"sys/fs/cgroup/memory.max": "805306368\n",
		}, 0},
		{"no /proc/self/mountinfo", map[string]string{
			"proc/self/cgroup":         "0::/\n",
			"sys/fs/cgroup/memory.max": "805306368\n",
		}, 0},
		{"no memory.max", map[string]string{
			"proc/self/cgroup":    "0::/\n",
			"proc/self/mountinfo": mountV2,
		}, 0},
		{"memory.max not a number", map[string]string{
			"proc/self/cgroup":         "0::/\n",
			"proc/self/mountinfo":      mountV2,
			"sys/fs/cgroup/memory.max": "768M\n",
		}, 0},
		{"memory.max a directory (unreadable)", map[string]string{
			"proc/self/cgroup":               "0::/\n",
			"proc/self/mountinfo":            mountV2,
			"sys/fs/cgroup/memory.max/inner": "805306368\n",
		}, 0},
		{"garbage in /proc/self/cgroup and mountinfo", map[string]string{
			"proc/self/cgroup":         "nonsense\n0:\n::\n",
			"proc/self/mountinfo":      "nonsense - \n1 2 3\n",
			"sys/fs/cgroup/memory.max": "805306368\n",
		}, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got, ok := cgroupLimit(os.DirFS(writeFiles(t, tc.files)))
			if ok != (tc.want != 0) || got != tc.want {
				t.Errorf("cgroupLimit: got %d, %v, want %d, %v", got, ok, tc.want, tc.want != 0)
			}
		})
	}
}

// TestCgroupLimitUnreadable: a limit file the process may not read is no
// limit, not an error.
func TestCgroupLimitUnreadable(t *testing.T) {
	t.Parallel()
	root := writeFiles(t, map[string]string{
		"proc/self/cgroup":         "0::/\n",
		"proc/self/mountinfo":      mountV2,
		"sys/fs/cgroup/memory.max": "805306368\n",
	})
	file := filepath.Join(root, "sys", "fs", "cgroup", "memory.max")
	if err := os.Chmod(file, 0); err != nil {
		t.Fatal(err)
	}
	if _, err := os.ReadFile(file); err == nil {
		t.Skip("a file of mode 0 is readable here (root, or Windows)")
	}
	if got, ok := cgroupLimit(os.DirFS(root)); ok {
		t.Errorf("cgroupLimit: got %d, true, want no limit", got)
	}
}

func TestCgroupLimitNoRoot(t *testing.T) {
	t.Parallel()
	if got, ok := cgroupLimit(nil); ok {
		t.Errorf("cgroupLimit(nil): got %d, true, want no limit", got)
	}
}
