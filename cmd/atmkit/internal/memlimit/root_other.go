//go:build !linux

package memlimit

import "io/fs"

// systemRoot is nil: containers' memory limits are read on Linux only.
func systemRoot() fs.FS { return nil }
