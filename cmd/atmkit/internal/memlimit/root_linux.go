package memlimit

import (
	"io/fs"
	"os"
)

// systemRoot is the file system the cgroup files are read from.
func systemRoot() fs.FS { return os.DirFS("/") }
