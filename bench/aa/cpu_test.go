//go:build unix

package aabench

import (
	"syscall"
	"testing"
)

// cpuTime is the CPU time the process has used, user and system, in ns.
func cpuTime() int64 {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return ru.Utime.Nano() + ru.Stime.Nano()
}

// reportCPU adds the CPU time per operation since start to b's results:
// on a shared machine the wall time per operation counts the time other
// processes ran, the CPU time does not.
func reportCPU(b *testing.B, start int64) {
	b.ReportMetric(float64(cpuTime()-start)/float64(b.N), "cpu-ns/op")
}
