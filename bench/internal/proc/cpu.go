//go:build unix

package proc

import (
	"syscall"
	"testing"
)

// CPUTime is the CPU time this process has used, user and system, in ns.
func CPUTime() int64 {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return ru.Utime.Nano() + ru.Stime.Nano()
}

// ReportCPU adds the CPU time per operation since start (a CPUTime) to b's
// results as cpu-ns/op: on a shared machine the wall time per operation
// counts the time other processes ran, the CPU time does not.
func ReportCPU(b *testing.B, start int64) {
	b.ReportMetric(float64(CPUTime()-start)/float64(b.N), "cpu-ns/op")
}
