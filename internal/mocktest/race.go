//go:build race

package mocktest

// Race reports whether the race detector is on: it slows everything down
// several times, so time-bound checks (a load run's window) last longer.
const Race = true
