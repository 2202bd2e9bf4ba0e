package proc

import (
	"os"
	"testing"
	"time"
)

// CPUTicks reads this process's own CPU time, and it grows with work (on a
// busy machine a tick of CPU can take a while to come: up to 30 s allowed).
func TestCPUTicks(t *testing.T) {
	before, err := CPUTicks(os.Getpid())
	if err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); {
		now, err := CPUTicks(os.Getpid())
		if err != nil {
			t.Fatal(err)
		}
		if now > before {
			return
		}
	}
	t.Errorf("CPU ticks stayed at %d through 30 s of work", before)
}
