// Package memlimit gives atmkit's Go memory limit (runtime/debug.SetMemoryLimit)
// the memory limit of the container it runs in. Go sizes GOMAXPROCS from a
// container's CPU limit by itself, but nothing sizes its heap: by default
// the collector lets the heap grow to twice what is live, and a process
// that would fit its container's limit is killed for exceeding it. Told the
// limit, the collector works harder as the heap nears it instead.
//
// The container's limit is its cgroup's (Linux; none elsewhere): memory.max
// under cgroup v2, memory.limit_in_bytes under v1, of the cgroup
// /proc/self/cgroup names, as /proc/self/mountinfo says where it is
// mounted, and of its parents there; the lowest one counts. A GOMEMLIMIT
// variable set by the user always wins, GOMEMLIMIT=off included (Go's own
// word for no limit).
package memlimit

import (
	"fmt"
	"io/fs"
	"math"
	"runtime/debug"
	"strings"
	"sync"
)

// Share is the part of the container's memory limit taken as the Go memory
// limit. The rest is for what the container counts and Go's limit does
// not (the kernel's memory for the process, the page cache of the binary
// and of the files read), and for Go overshooting its limit, which is
// soft. Measured with 1,000,000 ATMs under dense load in a 768 MiB
// container (docs/performance.md, "Memory under load"), that rest was
// 59 MiB at the peak (57 MiB page cache, under 3 MiB the kernel's), within the
// 77 MiB left at 90 %; Go's resident memory stayed within 2 % under its
// limit.
const Share = 0.9

// Limit is the Go memory limit atmkit runs with and where it came from.
type Limit struct {
	// Bytes is the Go memory limit; 0 when there is none.
	Bytes int64
	// Container is the container's memory limit Bytes was taken from; 0
	// when Bytes is the user's GOMEMLIMIT, or there is no limit.
	Container int64
}

// String says the limit and where it came from, as atmkit serve's banner
// shows it: "691 MiB, 90 % of the container's 768 MiB (GOMEMLIMIT
// overrides)", "500 MiB, from GOMEMLIMIT" or "none".
func (l Limit) String() string {
	switch {
	case l.Bytes == 0:
		return "none"
	case l.Container == 0:
		return Size(l.Bytes) + ", from GOMEMLIMIT"
	}
	return fmt.Sprintf("%s, %.0f %% of the container's %s (GOMEMLIMIT overrides)",
		Size(l.Bytes), Share*100, Size(l.Container))
}

// applied is what Apply did; mu guards it.
var (
	mu      sync.Mutex
	applied Limit
)

// Apply sets the Go memory limit to Share of the container's memory limit,
// unless getenv (os.Getenv) shows a GOMEMLIMIT, which the Go runtime has
// applied already. It returns the limit in force, which Applied returns
// from then on. A limit that cannot be read is no limit: atmkit runs as Go
// would without this package.
func Apply(getenv func(string) string) Limit {
	return apply(getenv, systemRoot())
}

// apply is Apply reading the cgroup files from root.
func apply(getenv func(string) string, root fs.FS) Limit {
	var l Limit
	if v := getenv("GOMEMLIMIT"); v != "" {
		if cur := debug.SetMemoryLimit(-1); cur < math.MaxInt64 {
			l.Bytes = cur
		}
	} else if c, ok := cgroupLimit(root); ok {
		l = Limit{Bytes: share(c), Container: c}
		debug.SetMemoryLimit(l.Bytes)
	}
	mu.Lock()
	defer mu.Unlock()
	applied = l
	return l
}

// share is Share of n bytes.
func share(n int64) int64 { return int64(float64(n) * Share) }

// Applied returns the limit Apply set; the zero Limit before Apply.
func Applied() Limit {
	mu.Lock()
	defer mu.Unlock()
	return applied
}

// Size writes a number of bytes in binary units, as container limits are
// given: "768 MiB", "1.5 GiB", "512 KiB".
func Size(n int64) string {
	const kib, mib, gib = 1 << 10, 1 << 20, 1 << 30
	unit := func(v float64, name string) string {
		s := fmt.Sprintf("%.1f", v)
		if v >= 100 {
			s = fmt.Sprintf("%.0f", v)
		}
		return strings.TrimSuffix(s, ".0") + " " + name
	}
	switch {
	case n >= gib:
		return unit(float64(n)/gib, "GiB")
	case n >= mib:
		return unit(float64(n)/mib, "MiB")
	case n >= kib:
		return unit(float64(n)/kib, "KiB")
	}
	return fmt.Sprintf("%d bytes", n)
}
