//go:build !unix

package cli

import "os"

// ownersOnly reports whether this process may not replace file in dir;
// false where directories have no sticky bit.
func ownersOnly(dir, file os.FileInfo) bool { return false }
