//go:build unix

package cli

import (
	"os"
	"syscall"
)

// ownersOnly reports whether this process may not replace file in dir:
// dir is sticky (only a file's owner, the directory's or root may rename
// over a file there), and neither the file nor dir is this user's.
func ownersOnly(dir, file os.FileInfo) bool {
	euid := os.Geteuid()
	d, ok1 := dir.Sys().(*syscall.Stat_t)
	f, ok2 := file.Sys().(*syscall.Stat_t)
	if !ok1 || !ok2 || euid == 0 || dir.Mode()&os.ModeSticky == 0 {
		return false
	}
	return int(d.Uid) != euid && int(f.Uid) != euid
}
