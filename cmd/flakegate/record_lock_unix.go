//go:build unix

package main

import (
	"os"
	"syscall"
)

// lockFile takes an advisory lock on f (exclusive, or shared for a
// reader), waiting for it; closing f releases it.
func lockFile(f *os.File, exclusive bool) error {
	how := syscall.LOCK_SH
	if exclusive {
		how = syscall.LOCK_EX
	}
	for {
		err := syscall.Flock(int(f.Fd()), how)
		if err != syscall.EINTR {
			return err
		}
	}
}

// mapFile maps the first size bytes of f read-only, so that scanning a
// store costs no copy of it; unmap releases them. The caller holds the
// store's lock and truncates nothing it still reads.
func mapFile(f *os.File, size int64) (data []byte, unmap func(), err error) {
	if size == 0 {
		return nil, func() {}, nil
	}
	data, err = syscall.Mmap(int(f.Fd()), 0, int(size), syscall.PROT_READ, syscall.MAP_SHARED|mapPopulate)
	if err != nil {
		return readWhole(f, size)
	}
	return data, func() { syscall.Munmap(data) }, nil
}
