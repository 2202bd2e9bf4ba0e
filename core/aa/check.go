package aa

import (
	"fmt"
	"math"
	"sort"

	"github.com/flakegate/flakegate/core"
	"github.com/flakegate/flakegate/core/stat"
)

// The A/A figures follow the original A/A script the formulas were first
// written in operation by operation, so that they agree with it bit for bit
// (docs/STATISTICS.md, A/A check): every mean is statistics.fmean (an
// exactly rounded sum divided by the count, see stat.Fsum), the standard
// deviation of the run rates is exact and then rounded once, as Python's
// statistics.stdev, and each product is evaluated left to right as Python
// does. Products are wrapped in float64() where a fused multiply-add could
// otherwise change the last bit on some architectures.

// aaMinDrop is the smallest drop Check sizes runs for. Since s <= 1, it keeps
// runs_per_side below 7e12, exact in float64 and int64.
const aaMinDrop = 1e-6

// aaFewRuns is the number of baseline runs below which the measured noise is
// flagged as rough: about ten A/A runs are advised (docs/STATISTICS.md,
// A/A check).
const aaFewRuns = 10

// Check computes the A/A check of base and, when cand is not nil, compares the
// candidate with it.
//
// Figures (n scenarios, R runs, q a scenario's pass rate over its rows):
//
//	v        = mean over scenarios of len/(len-1)·q·(1-q)
//	formula  = sqrt(2v/n)
//	measured = sqrt(2)·stdev(run rates), for R >= 3
//	s        = max(formula, measured)
//	threshold at k runs per side = 1.645·s/sqrt(k)
//	runs per side to catch a drop d 80% of the time = ceil(((1.645+0.842)·s/d)²)
//
// The trend counts, over the R(R-1)/2 pairs of runs in run order, the pairs
// whose difference falls below -1.645·s with the earlier run as the baseline
// and with the later one. With s = 0 there are no thresholds, run counts or
// trend: any drop is a change.
//
// The candidate's diff is the mean over the scenarios both sides have of the
// candidate's pass rate minus the baseline's; it is a regression when it is
// below -1.645·s/√2·sqrt(1/R_base+1/R_cand). LargestDrops lists the 8 lowest
// differences, lowest first, ties by scenario id (as the reference, these are
// the 8 lowest even when some are not negative).
//
// Errors: a nil or empty baseline, a tally that does not add up (for sides
// not made by ReadCSV), and options out of range are Kind core.Invalid; a baseline
// scenario with fewer than 2 rows, or a candidate sharing no scenario with the
// baseline, is Kind core.Unusable.
func Check(base, cand *Side, opt Options) (*Result, error) {
	if err := checkAAOptions(opt); err != nil {
		return nil, err
	}
	if base == nil {
		return nil, core.FieldErrorf("baseline", "no baseline runs given")
	}
	// The scenario index only a candidate needs; without one, the check.
	var baseIdx map[string]int
	var err error
	if cand != nil {
		baseIdx, err = checkTallies("baseline", base)
	} else {
		err = checkCounts("baseline", base)
	}
	if err != nil {
		return nil, err
	}
	if len(base.Scenarios) == 0 {
		return nil, &core.Error{Kind: core.Unusable, Field: "baseline", Msg: "no rows: an A/A check needs the rows of at least two runs"}
	}
	if err := checkTwoRows(base.Scenarios); err != nil {
		return nil, err
	}

	res := &Result{
		Scenarios:  len(base.Scenarios),
		Runs:       len(base.Runs),
		Rows:       base.Rows,
		Thresholds: []Threshold{},
		RunsNeeded: []RunsNeeded{},
		RunRates:   make([]RunRate, len(base.Runs)),
		Warnings:   []string{},
	}

	for _, t := range base.Scenarios {
		if 0 < t.Passed && t.Passed < t.Total {
			res.Mixed++
		}
	}
	n := float64(len(base.Scenarios))
	res.V = unbiasedV(base)
	res.Noise.Formula = math.Sqrt(2 * res.V / n)

	rates := runRates(base)
	for i, t := range base.Runs {
		res.RunRates[i] = RunRate{Run: t.ID, Rate: rates[i]}
	}
	sRuns := 0.0
	if len(rates) >= 3 {
		m := float64(math.Sqrt(2) * stat.ExactStdev(rates))
		res.Noise.Measured = &m
		sRuns = m
	}
	s := math.Max(res.Noise.Formula, sRuns)
	res.Noise.S = s

	if s != 0 {
		for _, k := range opt.Ks {
			res.Thresholds = append(res.Thresholds, Threshold{RunsPerSide: k, Drop: alarmThreshold(s, k)})
		}
		for _, d := range opt.Drops {
			res.RunsNeeded = append(res.RunsNeeded, RunsNeeded{Drop: d, RunsPerSide: runsToCatch(s, d)})
		}
		if len(rates) >= 3 {
			early, late := aaTrend(rates, float64(ZAlarm*s))
			r := len(rates)
			res.Trend = &Trend{Pairs: r * (r - 1) / 2, FiredEarlierBaseline: early, FiredLaterBaseline: late}
		}
	}

	res.Warnings = append(res.Warnings, aaBaseWarnings(base, res)...)

	if cand != nil {
		c, warns, err := compareCandidate(base, baseIdx, cand, s)
		if err != nil {
			return nil, err
		}
		res.Candidate = c
		res.Warnings = append(res.Warnings, warns...)
	}
	if opt.Depth != (DepthOptions{}) {
		d, err := inDepth(base, cand, opt.Depth, opt.poll())
		if err != nil {
			return nil, err
		}
		res.Depth = d
		res.Warnings = append(res.Warnings, d.Warnings...)
	}
	if opt.Simulate != nil {
		so := *opt.Simulate
		if so.Interrupt == nil {
			so.Interrupt = opt.Interrupt
		}
		sim, err := Simulate(base, so)
		if err != nil {
			return nil, err
		}
		res.Simulation = sim
		for _, w := range sim.Warnings {
			res.Warnings = append(res.Warnings, "simulation: "+w)
		}
	}
	return res, nil
}

// alarmThreshold is the drop a comparison at k runs per side must exceed:
// 1.645·s/sqrt(k).
func alarmThreshold(s float64, k int) float64 {
	return float64(ZAlarm*s) / math.Sqrt(float64(k))
}

// runsToCatch is the runs per side that catch a drop d 80% of the time:
// ceil(((1.645+0.842)·s/d)²). The z sum is rounded as Python rounds it (two
// float64 values added), not exactly as Go's constant arithmetic would.
func runsToCatch(s, d float64) int64 {
	za, zp := float64(ZAlarm), float64(ZPower)
	z := za + zp
	x := float64(z*s) / d
	return int64(math.Ceil(float64(x * x)))
}

// poll is what the long loops call now and then: Pause, then Interrupt.
func (opt Options) poll() func() error {
	if opt.Pause == nil && opt.Interrupt == nil {
		return nil
	}
	return func() error {
		if opt.Pause != nil {
			opt.Pause()
		}
		if opt.Interrupt != nil {
			return opt.Interrupt()
		}
		return nil
	}
}

func checkAAOptions(opt Options) error {
	for _, k := range opt.Ks {
		if k < 1 {
			return core.FieldErrorf("ks", "runs per side must be 1 or more, got %d", k)
		}
	}
	for _, d := range opt.Drops {
		if !(d >= aaMinDrop && d <= 1) { // also false for NaN
			if d > 0 && d < aaMinDrop {
				return core.FieldErrorf("drops", "a drop of %g is too small to size runs for (the smallest is %g)", d, aaMinDrop)
			}
			return core.FieldErrorf("drops", "a drop must be a fraction in (0,1], got %g", d)
		}
	}
	return nil
}

func aaBaseWarnings(base *Side, res *Result) []string {
	w := []string{}
	r := len(base.Runs)
	switch {
	case r < 3:
		w = append(w, fmt.Sprintf("only %s: the noise between runs cannot be measured (it needs 3 or more), so s comes from the formula alone and there is no trend check", core.Nouns(r, "run")))
	case r < aaFewRuns:
		w = append(w, fmt.Sprintf("only %d runs: the measured noise is itself rough; about %d A/A runs are advised", r, aaFewRuns))
	}
	if res.Noise.S == 0 {
		w = append(w, "no noise in these runs: every scenario passed every time or failed every time, so any drop is a change; no thresholds or run counts are listed")
	}
	if base.Duplicates > 0 {
		w = append(w, fmt.Sprintf("baseline: %s repeat a (scenario, run) pair seen before; they are counted again, as extra trials", core.Nouns(base.Duplicates, "row")))
	}
	short := 0
	for _, t := range base.Scenarios {
		if t.Total < int64(r) {
			short++
		}
	}
	if short > 0 {
		verb := "have"
		if short == 1 {
			verb = "has"
		}
		w = append(w, fmt.Sprintf("baseline: %s %s fewer rows than there are runs: runs that skipped scenarios make the run rates less comparable", core.Nouns(short, "scenario"), verb))
	}
	return w
}

// aaTrend counts the pairs i < j of rates (in run order) with
// rates[j]-rates[i] < -t (the earlier run as baseline, the later dropped) and
// with rates[i]-rates[j] < -t, each difference rounded to float64 as Python
// computes it. It runs in O(R log R): for a fixed a, the rounded difference
// b-a is monotone in b, so the b that fire form a prefix (or suffix) of the
// sorted distinct rates, found by binary search with the very same test.
func aaTrend(rates []float64, t float64) (early, late int) {
	if len(rates) <= 64 {
		return aaTrendPairs(rates, t)
	}
	vals := append([]float64(nil), rates...)
	sort.Float64s(vals)
	u := vals[:1]
	for _, v := range vals[1:] {
		if v != u[len(u)-1] {
			u = append(u, v)
		}
	}
	vals = u
	tree := make([]int, len(vals)+1) // Fenwick tree of counts by rank
	prefix := func(k int) int {      // count of inserted values with rank < k
		c := 0
		for ; k > 0; k -= k & -k {
			c += tree[k]
		}
		return c
	}
	inserted := 0
	for i := len(rates) - 1; i >= 0; i-- {
		a := rates[i]
		kE := sort.Search(len(vals), func(x int) bool { return !(vals[x]-a < -t) })
		early += prefix(kE)
		kL := sort.Search(len(vals), func(x int) bool { return a-vals[x] < -t })
		late += inserted - prefix(kL)
		r := sort.SearchFloat64s(vals, a) + 1
		for ; r < len(tree); r += r & -r {
			tree[r]++
		}
		inserted++
	}
	return early, late
}

// aaTrendPairs is aaTrend by looking at every pair, as the reference.
func aaTrendPairs(rates []float64, t float64) (early, late int) {
	for i := range rates {
		for j := i + 1; j < len(rates); j++ {
			if rates[j]-rates[i] < -t {
				early++
			}
			if rates[i]-rates[j] < -t {
				late++
			}
		}
	}
	return early, late
}
