package memlimit

import (
	"math"
	"os"
	"runtime/debug"
	"testing"
)

// env is a getenv of the given variables.
func env(vars map[string]string) func(string) string {
	return func(k string) string { return vars[k] }
}

// restoreLimit puts the process's Go memory limit and Applied back as they
// were when the test ends.
func restoreLimit(t *testing.T) {
	t.Helper()
	was, wasApplied := debug.SetMemoryLimit(-1), Applied()
	t.Cleanup(func() {
		debug.SetMemoryLimit(was)
		mu.Lock()
		applied = wasApplied
		mu.Unlock()
	})
}

// TestApply sets the process's memory limit: its cases do not run in
// parallel, with each other or with other tests.
func TestApply(t *testing.T) {
	container := writeFiles(t, map[string]string{
		"proc/self/cgroup":         "0::/\n",
		"proc/self/mountinfo":      mountV2,
		"sys/fs/cgroup/memory.max": "805306368\n",
	})
	noContainer := writeFiles(t, map[string]string{
		"proc/self/cgroup":         "0::/\n",
		"proc/self/mountinfo":      mountV2,
		"sys/fs/cgroup/memory.max": "max\n",
	})
	limit := share(mib768) // 691 MiB and a bit
	for _, tc := range []struct {
		name      string
		env       map[string]string
		root      string
		runtime   int64 // the limit the runtime holds before (from GOMEMLIMIT)
		want      Limit
		wantLimit int64 // the runtime's limit after
	}{
		{"a container's limit", nil, container, math.MaxInt64, Limit{Bytes: limit, Container: mib768}, limit},
		{"no container limit", nil, noContainer, math.MaxInt64, Limit{}, math.MaxInt64},
		{"GOMEMLIMIT wins", map[string]string{"GOMEMLIMIT": "500MiB"}, container, 500 << 20, Limit{Bytes: 500 << 20}, 500 << 20},
		{"GOMEMLIMIT=off wins", map[string]string{"GOMEMLIMIT": "off"}, container, math.MaxInt64, Limit{}, math.MaxInt64},
	} {
		t.Run(tc.name, func(t *testing.T) {
			restoreLimit(t)
			debug.SetMemoryLimit(tc.runtime)
			got := apply(env(tc.env), os.DirFS(tc.root))
			if got != tc.want {
				t.Errorf("apply: got %+v, want %+v", got, tc.want)
			}
			if got := Applied(); got != tc.want {
				t.Errorf("Applied: got %+v, want %+v", got, tc.want)
			}
			if got := debug.SetMemoryLimit(-1); got != tc.wantLimit {
				t.Errorf("the runtime's memory limit: got %d, want %d", got, tc.wantLimit)
			}
		})
	}
}

func TestLimitString(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		l    Limit
		want string
	}{
		{Limit{}, "none"},
		{Limit{Bytes: share(mib768), Container: mib768}, "691 MiB, 90 % of the container's 768 MiB (GOMEMLIMIT overrides)"},
		{Limit{Bytes: share(2 << 30), Container: 2 << 30}, "1.8 GiB, 90 % of the container's 2 GiB (GOMEMLIMIT overrides)"},
		{Limit{Bytes: 500 << 20}, "500 MiB, from GOMEMLIMIT"},
	} {
		if got := tc.l.String(); got != tc.want {
			t.Errorf("%+v.String(): got %q, want %q", tc.l, got, tc.want)
		}
	}
}

func TestSize(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		n    int64
		want string
	}{
		{0, "0 bytes"},
		{1023, "1023 bytes"},
		{512 << 10, "512 KiB"},
		{64 << 20, "64 MiB"},
		{60397977, "57.6 MiB"},
		{724775731, "691 MiB"},
		{1536 << 20, "1.5 GiB"},
		{16 << 30, "16 GiB"},
	} {
		if got := Size(tc.n); got != tc.want {
			t.Errorf("Size(%d): got %q, want %q", tc.n, got, tc.want)
		}
	}
}
