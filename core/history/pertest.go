package history

import (
	"github.com/flakegate/flakegate/core"
	"github.com/flakegate/flakegate/core/gate"
	"github.com/flakegate/flakegate/core/stat"
)

// testHistory is test i's record, and whether the naive rule flags it.
func (h *History) testHistory(i int32, t *testAcc, order []int32, outage []bool, groupRuns []int32, o Options, ref func(int32) RunRef) (TestHistory, bool) {
	th := TestHistory{Test: t.name}
	if t.timed > 0 {
		v := t.seconds / float64(t.timed)
		th.RunSeconds = &v
	}
	inGroup := map[int32]bool{}
	for _, r := range groupRuns {
		inGroup[r] = true
	}
	var anyFail, anyPass bool
	counted := func(r int32) bool { return o.KeepIncidents || !(outage[r] || inGroup[r]) }
	seq := h.seq[:0] // failed, in time order, of the runs counted
	var firstF, lastF int32 = -1, -1
	for _, r := range order {
		oc := t.outcome(r)
		if oc == 0 {
			continue
		}
		failed := oc&1 != 0
		anyFail = anyFail || failed
		anyPass = anyPass || oc&2 != 0
		if failed && (outage[r] || inGroup[r]) {
			th.IncidentFailures++
		}
		if !counted(r) {
			continue
		}
		th.Runs++
		seq = append(seq, failed)
		if failed {
			th.Failures++
			if firstF < 0 {
				firstF = r
			}
			lastF = r
		}
	}
	h.seq = seq
	naive := anyFail && anyPass
	if th.Failures == 0 {
		return th, naive
	}
	th.SameCommitFlips = h.sameCommitFlips(t, order, counted)
	streaks, streak := int64(0), int64(0)
	for j, f := range seq {
		if j > 0 && f != seq[j-1] {
			th.Flips++
		}
		if f {
			streak++
			if streak == 1 {
				streaks++
			}
			th.LongestStreak = max(th.LongestStreak, streak)
		} else {
			streak = 0
		}
	}
	if th.Runs > 1 {
		th.FlipRate = float64(th.Flips) / float64(th.Runs-1)
	}
	th.Rate = float64(th.Failures) / float64(th.Runs)
	th.Lower, th.Upper = stat.Wilson(float64(th.Failures), float64(th.Runs), stat.Z(o.Confidence))
	f, l := ref(firstF), ref(lastF)
	th.FirstFailure, th.LastFailure = &f, &l
	half := int64(len(seq)) / 2
	tr := Trend{EarlierRuns: half, RecentRuns: int64(len(seq)) - half}
	for j, f := range seq {
		if f && int64(j) < half {
			tr.EarlierFailures++
		} else if f {
			tr.RecentFailures++
		}
	}
	tr.PValue = fisherTwoSided(tr.EarlierFailures, tr.EarlierRuns, tr.RecentFailures, tr.RecentRuns)
	tr.Direction = TrendSteady
	if tr.PValue < o.TrendAlpha {
		tr.Direction = TrendBetter
		if tr.RecentFailures*tr.EarlierRuns > tr.EarlierFailures*tr.RecentRuns {
			tr.Direction = TrendWorse
		}
	}
	th.Trend = tr
	switch {
	case th.Failures == th.Runs && th.SameCommitFlips == 0:
		th.Status = StatusFailing
	case streaks == 1 && th.LongestStreak >= o.BrokenStreak && th.SameCommitFlips == 0:
		th.Status = StatusBroken
	default:
		th.Status = StatusFlaky
	}
	return th, naive
}

// plan adds a flaky test's cost, budget and claim.
func (h *History) plan(th *TestHistory, o Options) error {
	in := o.Budget
	in.Rates = nil
	in.Observed = &core.Count{Passed: th.Failures, Trials: th.Runs}
	in.Confidence = o.Confidence
	b, err := gate.Budget(in)
	if err != nil {
		return err
	}
	switch {
	case th.RunSeconds != nil:
		in.CostSeconds = th.RunSeconds
		th.CostBasis = CostReported
	case in.CostSeconds != nil:
		th.CostBasis = CostGiven
	}
	if c := in.CostSeconds; c != nil {
		v := th.Rate * *c
		th.CostSeconds = &v
	}
	if len(b.Rows) > 0 {
		row := b.Rows[0]
		th.Lane, th.Reruns, th.PowerAtCap, th.OverCap = row.Lane, row.Reruns, row.PowerAtCap, row.OverCap
	}
	fr, err := gate.Freeze(gate.FreezeInput{Claim: core.Count{Passed: th.Runs - th.Failures, Trials: th.Runs},
		Date: o.Today, Confidence: o.Confidence, Comparable: gate.DefaultFreezeInput.Comparable})
	if err != nil {
		return err
	}
	th.Claim = fr.Claim
	return nil
}

// sameCommitFlips counts the commits (a run without one is its own) on
// which t both failed and passed, over the runs counted.
func (h *History) sameCommitFlips(t *testAcc, order []int32, counted func(int32) bool) int64 {
	seen := map[int64]uint64{}
	for _, r := range order {
		oc := t.outcome(r)
		if oc == 0 || !counted(r) {
			continue
		}
		key := int64(h.runs[r].commit)
		if key < 0 {
			key = -1 - int64(r)
		}
		seen[key] |= oc
	}
	var n int64
	for _, v := range seen {
		if v == 3 {
			n++
		}
	}
	return n
}
