package ledger

import (
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"testing"
)

// TestCellWideCounters: a cell whose counts outgrow 32 bits keeps counting
// exactly. Expected values are hand sums of the calls.
func TestCellWideCounters(t *testing.T) {
	l := New()
	l.AddCounts(ArmBaseline, "r", "t", 3_000_000_000, 4_000_000_000)
	l.AddTrial(ArmBaseline, "r", "t", true)
	l.AddTrial(ArmBaseline, "r", "t", false)
	l.Add(ArmBaseline, "r", "t", true)
	// A cell that crosses the 32-bit limit by one trial.
	l.AddCounts(ArmBaseline, "r", "u", math.MaxInt32, math.MaxInt32)
	l.AddTrial(ArmBaseline, "r", "u", false)
	got := l.Cells(ArmBaseline)
	want := []Cell{
		{Test: 0, Run: 0, Passed: 3_000_000_002, Trials: 4_000_000_003},
		{Test: 1, Run: 0, Passed: math.MaxInt32, Trials: math.MaxInt32 + 1},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("cells %+v, want %+v", got, want)
	}
	fl := l.Flakes()
	if len(fl) != 2 {
		t.Fatalf("%d flakes, want 2", len(fl))
	}
	// t: 4e9 + 3 executions of which 1e9 (AddCounts) + 1 failed; u: one failure.
	if h := fl[0]; h.NodeID != "t" || h.Executions != 4_000_000_003 || h.Fails != 1_000_000_001 || h.RecoveredRuns != 1 {
		t.Errorf("t: %+v", h)
	}
	if h := fl[1]; h.NodeID != "u" || h.Executions != math.MaxInt32+1 || h.Fails != 1 || h.RecoveredRuns != 0 {
		t.Errorf("u: %+v", h)
	}
}

// TestCellsAnyOrder feeds trials whose runs come back and forth, with more
// tests than a block holds, and compares every cell and retry history with
// a plain map of (run, test) kept by the test itself.
func TestCellsAnyOrder(t *testing.T) {
	type model struct {
		set, passed, sawFail, recovered bool
		extraPassed, extraTrials        int64
		execs, fails                    int64
	}
	rng := rand.New(rand.NewPCG(26, 7))
	l := New()
	want := map[[2]int]*model{}
	var runs, tests []string
	runIdx, testIdx := map[string]int{}, map[string]int{}
	for range 60_000 {
		// Runs in order most of the time, sometimes an earlier one.
		r := rng.IntN(5)
		if rng.IntN(10) == 0 {
			r = rng.IntN(40)
		}
		run, test := fmt.Sprint("r", r), fmt.Sprint("t", rng.IntN(6000))
		passed := rng.IntN(3) != 0
		if _, ok := runIdx[run]; !ok {
			runIdx[run] = len(runs)
			runs = append(runs, run)
		}
		if _, ok := testIdx[test]; !ok {
			testIdx[test] = len(tests)
			tests = append(tests, test)
		}
		k := [2]int{runIdx[run], testIdx[test]}
		m := want[k]
		if m == nil {
			m = &model{}
			want[k] = m
		}
		if rng.IntN(2) == 0 {
			l.Add(ArmBaseline, run, test, passed)
			m.set, m.passed = true, passed
		} else {
			l.AddTrial(ArmBaseline, run, test, passed)
			m.extraTrials++
			if passed {
				m.extraPassed++
			}
		}
		m.execs++
		if !passed {
			m.fails++
			m.sawFail = true
		} else if m.sawFail {
			m.recovered = true
		}
	}
	if got := l.Runs(ArmBaseline); !reflect.DeepEqual(got, runs) {
		t.Fatalf("runs %v, want %v", got, runs)
	}
	if got := l.Tests(ArmBaseline); !reflect.DeepEqual(got, tests) {
		t.Fatalf("%d tests, want %d in order of first trial", len(got), len(tests))
	}
	cells := l.Cells(ArmBaseline)
	if len(cells) != len(want) {
		t.Fatalf("%d cells, want %d", len(cells), len(want))
	}
	hist := map[string]FlakeHistory{}
	for _, c := range cells {
		m := want[[2]int{c.Run, c.Test}]
		if m == nil {
			t.Fatalf("cell %+v that no trial made", c)
		}
		p, n := m.extraPassed, m.extraTrials
		if m.set {
			n++
			if m.passed {
				p++
			}
		}
		if c.Passed != p || c.Trials != n {
			t.Fatalf("cell %+v, want %d of %d", c, p, n)
		}
		h := hist[tests[c.Test]]
		h.Runs++
		h.Executions += m.execs
		h.Fails += m.fails
		if m.recovered {
			h.RecoveredRuns++
		}
		hist[tests[c.Test]] = h
	}
	flakes := 0
	for _, h := range hist {
		if h.Fails > 0 && h.Fails < h.Executions {
			flakes++
		}
	}
	got := l.Flakes()
	if len(got) != flakes {
		t.Fatalf("%d flakes, want %d", len(got), flakes)
	}
	for _, f := range got {
		h := hist[f.NodeID]
		h.NodeID, h.Arm = f.NodeID, ArmBaseline
		if f != h {
			t.Fatalf("flake %+v, want %+v", f, h)
		}
	}
}
