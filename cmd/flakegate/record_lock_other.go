//go:build !unix

package main

import "os"

// lockFile is a no-op where flock is not there: appends there are not
// safe against a second appender at the same time.
func lockFile(f *os.File, exclusive bool) error { return nil }
