package gate

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/flakegate/flakegate/core"
)

// The anytime verdict follows its intervals, needs no minimum of trials,
// and is more careful than the fixed one: 10/20 against 19/20 is a fixed
// improvement (Wilson [29.9%, 70.1%] against [76.4%, 99.1%]) but not yet
// an anytime one, which 10/50 against 45/50 is.
func TestAnytimeVerdict(t *testing.T) {
	for _, c := range []struct {
		b, p         core.Count
		fixed, after string
	}{
		{core.Count{Passed: 10, Trials: 20}, core.Count{Passed: 19, Trials: 20}, core.VerdictImproved, core.VerdictNoChange},
		{core.Count{Passed: 10, Trials: 50}, core.Count{Passed: 45, Trials: 50}, core.VerdictImproved, core.VerdictImproved},
		{core.Count{Passed: 45, Trials: 50}, core.Count{Passed: 10, Trials: 50}, core.VerdictRegressed, core.VerdictRegressed},
		{core.Count{Passed: 0, Trials: 8}, core.Count{Passed: 8, Trials: 8}, core.VerdictUnderpowered, core.VerdictImproved},
	} {
		res := decideCounts(t, c.b, c.p)
		a := res.Anytime
		if res.Verdict != c.fixed || a.Verdict != c.after {
			t.Errorf("%v against %v: fixed %s, anytime %s (%+v); want %s and %s", c.b, c.p, res.Verdict, a.Verdict, a, c.fixed, c.after)
		}
		if !(a.Baseline.Lower <= a.Baseline.Upper && a.Patched.Lower <= a.Patched.Upper) {
			t.Errorf("%v against %v: intervals %+v", c.b, c.p, a)
		}
	}
	in := DefaultDecideInput
	in.Baseline, in.Patched, in.SkipAnytime = core.Count{Passed: 1, Trials: 2}, core.Count{Passed: 2, Trials: 2}, true
	if res, _ := Decide(in); res.Anytime != (Anytime{}) {
		t.Errorf("SkipAnytime: %+v", res.Anytime)
	}
}

// Watched after every pair of trials, equal arms get an anytime verdict
// (improved or regressed) at some look in at most 5% of 80 seeded
// experiments of 200 pairs, at rates 50% and 90%, and its sampling error
// (two standard errors, 4.9 points). With -short (WebAssembly, arm64
// under emulation) 20 experiments a rate, and their sampling error.
func TestAnytimeWatched(t *testing.T) {
	r := rand.New(rand.NewPCG(41, 41))
	n := 80
	if testing.Short() {
		n = 20
	}
	bar := 0.05 + 2*math.Sqrt(0.05*0.95/float64(n))
	for _, rate := range []float64{0.5, 0.9} {
		wrong := 0
		for range n {
			var b, p core.Count
			for range 200 {
				b.Trials++
				p.Trials++
				if r.Float64() < rate {
					b.Passed++
				}
				if r.Float64() < rate {
					p.Passed++
				}
				if AnytimeOf(b, p, 0.95).Verdict != core.VerdictNoChange {
					wrong++
					break
				}
			}
		}
		if got := float64(wrong) / float64(n); got > bar {
			t.Errorf("rate %v: a change claimed in %.3f of experiments", rate, got)
		}
	}
}
