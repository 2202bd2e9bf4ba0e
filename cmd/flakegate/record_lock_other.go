//go:build !unix

package main

import "os"

// lockFile is a no-op where flock is not there: appends there are not
// safe against a second appender at the same time.
func lockFile(f *os.File, exclusive bool) error { return nil }

// mapFile reads the first size bytes of f where files are not mapped.
func mapFile(f *os.File, size int64) ([]byte, func(), error) { return readWhole(f, size) }
