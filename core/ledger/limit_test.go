package ledger

import (
	"errors"
	"fmt"
	"reflect"
	"testing"

	"github.com/flakegate/flakegate/core"
)

// TestCellLimit: a ledger capped at n cells keeps the first n and reports
// the rest as too large; at the cap its result is the uncapped one's.
func TestCellLimit(t *testing.T) {
	fill := func(l *Ledger, tests int) {
		for _, arm := range []string{ArmBaseline, ArmPatched} {
			for run := range 3 {
				for i := range tests {
					l.Add(arm, fmt.Sprint("r", run), fmt.Sprint("t", i), (i+run)%4 != 0)
				}
			}
		}
		l.AddSideFailure(ArmBaseline, "r0", "t0", "setup")
	}
	free := New()
	fill(free, 10) // 2 arms × 3 runs × 10 tests + 1 side counter = 61 cells
	capped := New()
	capped.SetCellLimit(61)
	fill(capped, 10)
	if err := capped.Overflow(); err != nil {
		t.Fatalf("at the cap: %v", err)
	}
	want, _ := free.Result(DefaultOptions)
	got, _ := capped.Result(DefaultOptions)
	if !reflect.DeepEqual(got, want) {
		t.Error("a cap that is not reached changed the result")
	}
	over := New()
	over.SetCellLimit(60)
	fill(over, 10)
	var e *core.Error
	if err := over.Overflow(); !errors.As(err, &e) || e.Kind != core.TooLarge {
		t.Errorf("one cell over: %v", err)
	}
	// Trials of cells already kept still count past the cap.
	over = New()
	over.SetCellLimit(1)
	over.Add(ArmBaseline, "r", "t", true)
	over.Add(ArmBaseline, "r", "t", false)
	if err := over.Overflow(); err != nil {
		t.Errorf("a kept cell's second trial: %v", err)
	}
	if len(over.Tests(ArmBaseline)) != 1 {
		t.Error("the kept cell is gone")
	}
}
