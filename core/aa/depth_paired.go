package aa

import (
	"fmt"
	"math"
	"math/big"

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
	var exact []*big.Rat // the same differences, exactly, to tell when they are all equal
	for _, b := range base.Scenarios {
		i, ok := idx[b.ID]
		if !ok {
			continue
		}
		c := cand.Scenarios[i]
		d = append(d, float64(c.Passed)/float64(c.Total)-float64(b.Passed)/float64(b.Total))
		exact = append(exact, new(big.Rat).Sub(big.NewRat(c.Passed, c.Total), big.NewRat(b.Passed, b.Total)))
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
	same := true
	for _, x := range exact[1:] {
		same = same && x.Cmp(exact[0]) == 0
	}
	if !same { // rounding alone must not make a spread out of equal differences
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
