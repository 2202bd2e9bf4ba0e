package aa

import (
	"cmp"
	"github.com/flakegate/flakegate/core/internal/sorts"
	"math/bits"
	"strings"

	"github.com/flakegate/flakegate/core/stat"
)

// PassK is pass^k (τ-bench): the chance that a scenario drawn from the suite
// passes k attempts in a row. For a scenario that passed c of r runs the
// unbiased estimate is C(c,k)/C(r,k), the share of its k-run subsets that
// passed throughout; Rate averages it over scenarios.
type PassK struct {
	K    int     `json:"k"`    // attempts, >= 1
	Rate float64 `json:"rate"` // in [0,1]; at k = 1 the mean pass rate
}

// passK lists k = 1 … min(maxK, fewest runs of any scenario).
func passK(s *Side, maxK int) []PassK {
	kmax := int64(maxK)
	for _, t := range s.Scenarios {
		kmax = min(kmax, t.Total)
	}
	// A scenario's C(c,k)/C(r,k) = Π_{i<k} (c-i)/(r-i) (0 when c < k) is a
	// running product over k, factor by factor in the same order as the
	// product written afresh for each k, so the same bits.
	sums := make([]probSum, kmax) // stat.Sum's bits
	for _, t := range s.Scenarios {
		p := 1.0
		for k := int64(1); k <= kmax; k++ {
			if t.Passed < k {
				break // C(c,k) = 0 from here on
			}
			i := k - 1
			p *= float64(t.Passed-i) / float64(t.Total-i)
			sums[k-1].Add(p)
		}
	}
	out := make([]PassK, 0, kmax)
	for k := range sums {
		out = append(out, PassK{K: k + 1, Rate: sums[k].Sum() / float64(len(s.Scenarios))})
	}
	return out
}

// AllPassBound is the exact one-sided upper confidence bound on a failure
// rate p that a history of Runs runs without a failure still allows: the p at
// which Runs clean runs have chance 1-Confidence, 1-(1-Confidence)^(1/Runs).
// Ten clean runs at 95% allow up to 25.9%.
type AllPassBound struct {
	Runs       int     `json:"runs"`       // R, the runs of the baseline
	Confidence float64 `json:"confidence"` // in (0,1)
	Upper      float64 `json:"upper"`      // failure rate in (0,1)
	Scenarios  int     `json:"scenarios"`  // scenarios that passed every run they were in
}

func allPassBound(s *Side, level float64) AllPassBound {
	b := AllPassBound{Runs: len(s.Runs), Confidence: level, Upper: clearBound(len(s.Runs), level)}
	for _, t := range s.Scenarios {
		if t.Passed == t.Total {
			b.Scenarios++
		}
	}
	return b
}

// clearBound is 1-(1-level)^(1/runs), written with Expm1 and Log so that it
// stays accurate when the bound is small.
func clearBound(runs int, level float64) float64 {
	return -stat.Expm1(stat.Log1p(-level) / float64(runs))
}

// FlakyScenario is a scenario that both passed and failed in the baseline.
type FlakyScenario struct {
	Scenario string  `json:"scenario"`
	Passed   int64   `json:"passed"` // runs passed
	Runs     int64   `json:"runs"`   // runs seen
	Rate     float64 `json:"rate"`   // Passed/Runs in (0,1)
	Noise    float64 `json:"noise"`  // q(1-q) with q = Rate, in (0, 0.25]
}

// flakyScenarios lists the scenarios that went both ways, noisiest first
// (compared exactly as fractions), ties by id.
func flakyScenarios(s *Side) []FlakyScenario {
	// Sort the flaky scenarios' positions in s.Scenarios, then write their
	// rows once, in order.
	order := make([]int32, 0, len(s.Scenarios))
	for i, t := range s.Scenarios {
		if t.Passed > 0 && t.Passed < t.Total {
			order = append(order, int32(i))
		}
	}
	sorts.Func(order, func(i, j int32) int {
		a, b := &s.Scenarios[i], &s.Scenarios[j]
		if c := cmpNoise(b.Passed, b.Total, a.Passed, a.Total); c != 0 {
			return c
		}
		return strings.Compare(a.ID, b.ID) // one comparison; cmp.Compare makes up to three
	})
	out := make([]FlakyScenario, len(order))
	for k, i := range order {
		t := s.Scenarios[i]
		c, r := float64(t.Passed), float64(t.Total)
		out[k] = FlakyScenario{Scenario: t.ID, Passed: t.Passed, Runs: t.Total, Rate: c / r,
			Noise: float64(c*(r-c)) / float64(r*r)}
	}
	return out
}

// cmpNoise compares c_a(r_a-c_a)/r_a² with c_b(r_b-c_b)/r_b² exactly, by
// cross-multiplying in 128 bits.
func cmpNoise(ca, ra, cb, rb int64) int {
	na := uint64(ca) * uint64(ra-ca) // < 2^52 by maxTally
	nb := uint64(cb) * uint64(rb-cb)
	da := uint64(ra) * uint64(ra)
	db := uint64(rb) * uint64(rb)
	h1, l1 := bits.Mul64(na, db)
	h2, l2 := bits.Mul64(nb, da)
	if c := cmp.Compare(h1, h2); c != 0 {
		return c
	}
	return cmp.Compare(l1, l2)
}
