package aa

import (
	"fmt"
	"math"
	"math/big"
	"math/bits"

	"github.com/flakegate/flakegate/core"
	"github.com/flakegate/flakegate/core/stat"
)

// PairedT is a one-sided paired t-test of a candidate against the baseline,
// paired by scenario: d_s is the candidate's pass rate on scenario s minus
// the baseline's, t = mean(d)/(sd(d)/√n) on n-1 degrees of freedom, and the
// p-value is P(T <= t), small when the candidate is worse. Pairing keeps the
// difference between easy and hard scenarios out of the comparison; a few
// scenarios that break outright inflate sd(d) and weaken it.
type PairedT struct {
	Scenarios int      `json:"scenarios"` // n, the scenarios both sides have
	Diff      float64  `json:"diff"`      // mean d_s, a fraction in [-1,1]
	SE        float64  `json:"se"`        // sd(d)/√n, a fraction
	T         *float64 `json:"t"`         // Diff/SE; null when SE = 0
	DF        int      `json:"df"`        // n-1
	PValue    float64  `json:"p_value"`   // one-sided, in [0,1]
	Alpha     float64  `json:"alpha"`     // in (0,1)
	Verdict   string   `json:"verdict"`   // VerdictRegression when PValue < Alpha
}

// pairedT compares the scenarios both sides have, in the baseline's order.
func pairedT(base, cand *Side, alpha float64) (*PairedT, []string) {
	var warns []string
	idx := make(map[string]int, len(cand.Scenarios))
	for i, t := range cand.Scenarios {
		idx[t.ID] = i
	}
	var d []float64
	var pairs [][2]Tally // the tallies behind each difference: candidate, baseline
	for _, b := range base.Scenarios {
		i, ok := idx[b.ID]
		if !ok {
			continue
		}
		c := cand.Scenarios[i]
		d = append(d, float64(c.Passed)/float64(c.Total)-float64(b.Passed)/float64(b.Total))
		pairs = append(pairs, [2]Tally{c, b})
	}
	if only := len(base.Scenarios) - len(d); only > 0 {
		warns = append(warns, fmt.Sprintf("the paired t-test leaves out %d baseline scenario(s) the candidate does not have", only))
	}
	if only := len(cand.Scenarios) - len(d); only > 0 {
		warns = append(warns, fmt.Sprintf("the paired t-test leaves out %d candidate scenario(s) the baseline does not have", only))
	}
	if len(d) < 2 {
		return nil, append(warns, fmt.Sprintf("the paired t-test needs 2 or more scenarios on both sides, found %d", len(d)))
	}
	n := len(d)
	p := &PairedT{Scenarios: n, Diff: stat.Fmean(d), DF: n - 1, Alpha: alpha}
	if !equalDiffs(d, pairs) { // rounding alone must not make a spread out of equal differences
		p.SE = math.Sqrt(stat.SampleVariance(d) / float64(n))
	}
	switch {
	case p.SE > 0:
		t := p.Diff / p.SE
		p.T = &t
		p.PValue = stat.StudentCDF(t, float64(n-1))
	case p.Diff < 0:
		p.PValue = 0 // every scenario dropped by the same amount: no doubt left
		warns = append(warns, fmt.Sprintf("every scenario's difference is %+.4f, so the t statistic is undefined", p.Diff))
	default:
		p.PValue = 1
		warns = append(warns, fmt.Sprintf("every scenario's difference is %+.4f, so the t statistic is undefined", p.Diff))
	}
	p.Verdict = core.VerdictNoRegression
	if p.PValue < alpha {
		p.Verdict = core.VerdictRegression
	}
	return p, warns
}

// equalDiffs reports whether the differences d, of the pass rates of pairs
// (candidate minus baseline), are all equal in exact arithmetic. Each d is
// within 4e-16 of its exact value (two quotients in [0,1] and a difference,
// each rounded once), so two that are more than 1e-12 apart differ exactly;
// only when none is does it compare the fractions exactly: in 128-bit
// integers when every total is below 2^31, else with math/big. Either way a
// list of differences costs no allocation per scenario.
func equalDiffs(d []float64, pairs [][2]Tally) bool {
	for _, x := range d[1:] {
		if math.Abs(x-d[0]) > 1e-12 {
			return false
		}
	}
	small := true
	for _, p := range pairs {
		small = small && p[0].Total < 1<<31 && p[1].Total < 1<<31
	}
	if small {
		// cP/cT - bP/bT = (cP·bT - bP·cT)/(cT·bT): both below 2^62, so the
		// cross products below compare exactly in 128 bits.
		frac := func(p [2]Tally) (int64, uint64) {
			return p[0].Passed*p[1].Total - p[1].Passed*p[0].Total, uint64(p[0].Total * p[1].Total)
		}
		n0, d0 := frac(pairs[0])
		for _, p := range pairs[1:] {
			n, dn := frac(p)
			if (n < 0) != (n0 < 0) {
				return false
			}
			h1, l1 := bits.Mul64(uint64(abs64(n)), d0)
			h2, l2 := bits.Mul64(uint64(abs64(n0)), dn)
			if h1 != h2 || l1 != l2 {
				return false
			}
		}
		return true
	}
	diff := func(p [2]Tally) *big.Rat {
		return new(big.Rat).Sub(big.NewRat(p[0].Passed, p[0].Total), big.NewRat(p[1].Passed, p[1].Total))
	}
	first := diff(pairs[0])
	for _, p := range pairs[1:] {
		if diff(p).Cmp(first) != 0 {
			return false
		}
	}
	return true
}

func abs64(x int64) int64 {
	if x < 0 {
		return -x
	}
	return x
}
