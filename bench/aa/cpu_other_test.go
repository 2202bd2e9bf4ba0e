//go:build !unix

package aabench

import "testing"

func cpuTime() int64 { return 0 }

// reportCPU reports nothing where the CPU time is not at hand.
func reportCPU(*testing.B, int64) {}
