package triage

import (
	"fmt"
	"testing"

	"github.com/flakegate/flakegate/core/history"
)

// FuzzTriage builds a past and a run from the bytes (each byte one test's
// outcome in one run: failed, passed, both, or absent) and checks what
// holds for any input: no panic, every failure of the run listed once
// with one class, the counts add up, and the run blocks exactly when a
// new or broken failure does.
func FuzzTriage(f *testing.F) {
	f.Add([]byte{0, 1, 1, 1, 2, 1, 1, 1, 1, 0, 1, 1}, uint8(4))
	f.Add([]byte{1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0}, uint8(5))
	f.Fuzz(func(t *testing.T, data []byte, width uint8) {
		w := int(width%12) + 1
		if len(data) < 2*w || len(data) > 4000 {
			return
		}
		row := func(r []byte) []history.TestResult {
			var rs []history.TestResult
			for i, b := range r {
				name := fmt.Sprintf("s%d/T%d", i%3, i)
				switch b % 4 {
				case 0:
					rs = append(rs, history.TestResult{Test: name, Passed: 0, Trials: 1})
				case 1:
					rs = append(rs, history.TestResult{Test: name, Passed: 1, Trials: 1})
				case 2:
					rs = append(rs, history.TestResult{Test: name, Passed: 1, Trials: 2})
				}
			}
			return rs
		}
		h := history.New()
		n := len(data)/w - 1
		for r := range n {
			rs := row(data[r*w : (r+1)*w])
			if len(rs) == 0 {
				continue
			}
			if err := h.AddRun(history.RunMeta{Name: fmt.Sprint("r", r), Commit: fmt.Sprint("c", r/2)}, rs); err != nil {
				t.Fatal(err)
			}
		}
		run := row(data[n*w : (n+1)*w])
		if h.Runs() == 0 || len(run) == 0 {
			return
		}
		res, err := Triage(h, nil, history.RunMeta{Name: "pr", Commit: fmt.Sprint("c", n/2)}, run, DefaultOptions)
		if err != nil {
			t.Fatal(err)
		}
		failed := 0
		for _, r := range run {
			if r.Passed < r.Trials {
				failed++
			}
		}
		if len(res.Failures) != failed || res.New+res.Broken+res.Flakes+res.Outages+res.Quarantined != failed {
			t.Fatalf("%d failures, counts %+v, want %d", len(res.Failures), res, failed)
		}
		blocks := false
		for _, f := range res.Failures {
			if _, ok := classOrder[f.Class]; !ok {
				t.Fatalf("%s: class %q", f.Test, f.Class)
			}
			if f.Blocks != (f.Class == ClassNew || f.Class == ClassBroken) {
				t.Fatalf("%s: %s blocks %v", f.Test, f.Class, f.Blocks)
			}
			blocks = blocks || f.Blocks
			if !(f.Bound >= 0 && f.Bound <= 1 && f.Lower <= f.Rate && f.Rate <= f.Upper) {
				t.Fatalf("%s: bound %v, rate %v in [%v, %v]", f.Test, f.Bound, f.Rate, f.Lower, f.Upper)
			}
		}
		if blocks != res.Blocks {
			t.Fatalf("blocks %v, failures say %v", res.Blocks, blocks)
		}
	})
}
