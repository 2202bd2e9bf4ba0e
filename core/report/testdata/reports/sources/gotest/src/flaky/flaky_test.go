package flaky

import "testing"

var attempt int

// TestFlaky fails on its 1st and 3rd attempt in one process (go test -count=N).
func TestFlaky(t *testing.T) {
	attempt++
	if attempt == 1 || attempt == 3 {
		t.Fatalf("attempt %d failed", attempt)
	}
}

func TestSteady(t *testing.T) {}
