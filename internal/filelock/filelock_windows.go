package filelock

import (
	"errors"
	"syscall"
)

type handle = *syscall.Handle

// errSharingViolation is ERROR_SHARING_VIOLATION, which package syscall
// does not name.
const errSharingViolation = syscall.Errno(32)

// tryLock opens name without sharing: while this process keeps it open,
// another's open fails with a sharing violation. The file is deleted when
// it is closed, by Unlock or by the process's end.
func tryLock(name string) (handle, string, error) {
	p, err := syscall.UTF16PtrFromString(name)
	if err != nil {
		return nil, "", err
	}
	const fileFlagDeleteOnClose = 0x04000000
	h, err := syscall.CreateFile(p, syscall.GENERIC_READ|syscall.GENERIC_WRITE, 0, nil,
		syscall.OPEN_ALWAYS, syscall.FILE_ATTRIBUTE_HIDDEN|fileFlagDeleteOnClose, 0)
	if err != nil {
		if errors.Is(err, errSharingViolation) || errors.Is(err, syscall.ERROR_ACCESS_DENIED) {
			return nil, "", ErrLocked
		}
		return nil, "", err
	}
	return &h, "", nil
}

func unlock(_ string, h handle) error {
	return syscall.CloseHandle(*h)
}
