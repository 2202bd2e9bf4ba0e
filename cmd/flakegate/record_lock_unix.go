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
