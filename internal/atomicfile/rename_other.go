//go:build !windows

package atomicfile

import "os"

// rename renames tmp over path: on Unix at once, whoever has path open.
func rename(tmp, path string) error { return os.Rename(tmp, path) }
