//go:build !unix

package proc

import "testing"

// CPUTime is 0 where getrusage is not to be had.
func CPUTime() int64 { return 0 }

// ReportCPU reports nothing where CPUTime is not to be had.
func ReportCPU(*testing.B, int64) {}
