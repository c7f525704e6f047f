package cassettes

import (
	"runtime"
	"strconv"
	"strings"

	"gopkg.in/dnaeon/go-vcr.v3/cassette"
)

// This file holds how the Recorder runs the BeforeSave hooks (join calls
// beforeSave) and tells their goroutine, whose Stop must not wait for
// them (Stop, ErrStopInHook).

// beforeSave runs the BeforeSave hooks on cp, and reports whether any
// ran. The caller holds joinMu; Stop, which waits for it, refuses to be
// called from these hooks (hooking).
func (r *Recorder) beforeSave(cp *cassette.Interaction) (bool, error) {
	hooked := false
	for _, h := range r.cfg.hooks {
		if h.stage != BeforeSave {
			continue
		}
		if !hooked {
			hooked = true
			r.hooking.Store(goroutineID())
			defer r.hooking.Store(0)
		}
		if err := h.fn(cp); err != nil {
			return hooked, err
		}
	}
	return hooked, nil
}

// goroutineID is the id of the goroutine calling it, as the header of
// its stack trace names it ("goroutine 18 [running]:"); 0 if it cannot be
// read. Go gives no other way to know that Stop is called from a hook
// that join, which Stop waits for, is running (a hook is a plain func),
// and only that goroutine's Stop must not wait.
func goroutineID() uint64 {
	var buf [64]byte
	s := strings.TrimPrefix(string(buf[:runtime.Stack(buf[:], false)]), "goroutine ")
	id, _, _ := strings.Cut(s, " ")
	n, err := strconv.ParseUint(id, 10, 64)
	if err != nil {
		return 0
	}
	return n
}
