//go:build !windows

package atomicfile

import (
	"errors"
	"os"
	"syscall"
)

// syncDir makes a rename in dir durable: on Unix a rename is written to
// disk with the directory. File systems that cannot sync a directory
// (EINVAL, ENOTSUP) are left as they are.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	if err := d.Sync(); err != nil && !errors.Is(err, syscall.EINVAL) && !errors.Is(err, syscall.ENOTSUP) {
		return err
	}
	return nil
}
