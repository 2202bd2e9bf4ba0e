package aa

import (
	"math"
	"slices"
	"sort"

	"github.com/flakegate/flakegate/core/stat"
)

// Methods of FixedDrop.IndependentMethod.
const (
	// MethodExact convolves the fitted per-scenario Bernoulli(q) of two
	// independent runs exactly.
	MethodExact = "exact"
	// MethodNormal approximates the difference of two independent runs'
	// pass counts by a normal with variance 2·Σq(1-q) and a continuity
	// correction; used above exactScenarioLimit scenarios that went both ways.
	MethodNormal = "normal"
)

// exactScenarioLimit bounds the exact convolution, whose cost grows with the
// square of the scenarios that went both ways.
const exactScenarioLimit = 20000

// unequalPairLimit bounds the runs whose pairs are compared one by one when
// runs differ in size.
const unequalPairLimit = 3000

// FixedDrop is the rule "flag a drop of Drop or more" applied to every
// ordered pair of A/A runs, one as baseline and the other as candidate.
// Drops are compared in whole scenarios: with n scenarios per run a drop of δ
// fires when the candidate passed at least ⌈δ·n⌉ fewer (0.88 against 0.86 on
// 200 scenarios is a drop of 4, which is 2 points). Runs of different sizes
// are compared as exact fractions (past 3,000 such runs, on a 2^-40 grid).
type FixedDrop struct {
	Drop                 float64 `json:"drop"`                   // δ, a fraction in (0,1]
	DropScenarios        int64   `json:"drop_scenarios"`         // ⌈δ·n⌉, the smallest drop in scenarios that fires
	Pairs                int64   `json:"pairs"`                  // ordered pairs of runs, R(R-1)
	Fired                int64   `json:"fired"`                  // pairs on which the rule fired
	FiredEarlierBaseline int64   `json:"fired_earlier_baseline"` // of Fired, those whose baseline ran first
	FiredLaterBaseline   int64   `json:"fired_later_baseline"`   // of Fired, those whose baseline ran second
	Rate                 float64 `json:"rate"`                   // Fired/Pairs
	// IndependentRate is the chance the rule fires between two independent
	// runs in which scenario s passes with its fitted rate q_s = passed/total.
	IndependentRate   float64 `json:"independent_rate"`
	IndependentMethod string  `json:"independent_method"` // MethodExact or MethodNormal
}

// fixedDrop needs a checked side. Runs of different sizes are compared pair
// by pair up to pairLimit runs.
func fixedDrop(s *Side, drop float64, pairLimit int) *FixedDrop {
	n := len(s.Scenarios)
	r := int64(len(s.Runs))
	f := &FixedDrop{Drop: drop, DropScenarios: stat.SnapCeil(drop * float64(n)), Pairs: r * (r - 1)}
	if equalRunSizes(s) {
		d := stat.SnapCeil(drop * float64(s.Runs[0].Total))
		f.FiredEarlierBaseline, f.FiredLaterBaseline = firedEqual(s.Runs, d)
	} else if len(s.Runs) <= pairLimit {
		f.FiredEarlierBaseline, f.FiredLaterBaseline = firedUnequal(s.Runs, drop)
	} else {
		// Counted from the rates on a 2^40 scale, each rounded, with one unit
		// of slack so that exact ties still fire: pairs less than 2^-40 short
		// of δ count as fired.
		f.FiredEarlierBaseline, f.FiredLaterBaseline = firedEqual(scaledRuns(s.Runs), stat.SnapCeil(drop*(1<<40))-1)
	}
	f.Fired = f.FiredEarlierBaseline + f.FiredLaterBaseline
	f.Rate = float64(f.Fired) / float64(f.Pairs)
	f.IndependentRate, f.IndependentMethod = independentDropRate(s.Scenarios, f.DropScenarios, exactScenarioLimit)
	return f
}

// firedEqual counts, over pairs i < j of runs, the pairs where the later run
// passed at least d fewer (earlier run as baseline) and where the earlier run
// did (later run as baseline). It runs in O(R log R) with a Fenwick tree over
// the distinct pass counts.
func firedEqual(runs []Tally, d int64) (earlier, later int64) {
	vals := make([]int64, len(runs))
	for i, t := range runs {
		vals[i] = t.Passed
	}
	slices.Sort(vals)
	vals = slices.Compact(vals)
	// upTo returns how many distinct values are <= x.
	upTo := func(x int64) int { return sort.Search(len(vals), func(k int) bool { return vals[k] > x }) }
	tree := make([]int64, len(vals)+1)
	add := func(k int) {
		for k++; k < len(tree); k += k & -k {
			tree[k]++
		}
	}
	// count returns how many runs added so far have one of the first k values.
	count := func(k int) int64 {
		var c int64
		for ; k > 0; k -= k & -k {
			c += tree[k]
		}
		return c
	}
	for j, t := range runs {
		p := t.Passed
		earlier += int64(j) - count(upTo(p+d-1)) // earlier runs with passed >= p+d
		later += count(upTo(p - d))              // earlier runs with passed <= p-d
		add(upTo(p) - 1)
	}
	return earlier, later
}

// firedUnequal is firedEqual for runs of different sizes, pair by pair, in
// exact integer arithmetic: baseline i fires against candidate j when
// P_i/T_i - P_j/T_j >= δ, that is P_i·T_j - P_j·T_i >= ⌈δ·T_i·T_j⌉.
func firedUnequal(runs []Tally, drop float64) (earlier, later int64) {
	fires := func(b, c Tally) bool {
		return b.Passed*c.Total-c.Passed*b.Total >= stat.SnapCeil(drop*float64(b.Total)*float64(c.Total))
	}
	for i := range runs {
		for j := i + 1; j < len(runs); j++ {
			if fires(runs[i], runs[j]) {
				earlier++
			}
			if fires(runs[j], runs[i]) {
				later++
			}
		}
	}
	return earlier, later
}

// scaledRuns puts runs of different sizes on one scale, 2^40 for a rate of
// 1, for counting pairs of very many runs.
func scaledRuns(runs []Tally) []Tally {
	out := make([]Tally, len(runs))
	for i, t := range runs {
		out[i] = Tally{ID: t.ID, Passed: int64(math.Round(float64(t.Passed) / float64(t.Total) * (1 << 40))), Total: 1 << 40}
	}
	return out
}

// independentDropRate is P(X - Y >= d) for X, Y the pass counts of two
// independent runs, each scenario passing with its fitted rate. Scenarios at
// rate 0 or 1 add the same constant to X and Y and drop out. Above limit
// mixed scenarios it uses the normal approximation.
func independentDropRate(scen []Tally, d int64, limit int) (float64, string) {
	var qs []float64
	for _, t := range scen {
		if t.Passed > 0 && t.Passed < t.Total {
			qs = append(qs, float64(t.Passed)/float64(t.Total))
		}
	}
	if len(qs) > limit {
		var v stat.Sum
		for _, q := range qs {
			v.Add(float64(q * (1 - q)))
		}
		sd := math.Sqrt(2 * v.Sum())
		return stat.NormalSurvival((float64(d) - 0.5) / sd), MethodNormal
	}
	pmf := stat.PoissonBinomial(qs)
	// P(X - Y >= d) = Σ_x P(X = x)·P(Y <= x - d).
	cdf := make([]float64, len(pmf))
	var run probSum // stat.Sum's bits
	for k, p := range pmf {
		run.Add(p)
		cdf[k] = run.Sum()
	}
	var tail probSum
	for x := int64(len(pmf)) - 1; x-d >= 0; x-- {
		tail.Add(float64(pmf[x] * cdf[x-d]))
	}
	return math.Min(1, tail.Sum()), MethodExact
}
