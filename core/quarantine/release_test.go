package quarantine

import (
	"math"
	"math/big"
	"math/rand/v2"
	"testing"

	"github.com/flakegate/flakegate/core/gate"
)

// exactCleanRuns is the definition of the release rule in exact rational
// arithmetic, independent of the code under test: the smallest m with
// (1 − below)^m ≤ 1 − confidence, below and confidence taken exactly as
// the float64 values they are (big.Rat.SetFloat64 is exact).
func exactCleanRunsRat(below, confidence float64) int64 {
	one := big.NewRat(1, 1)
	q := new(big.Rat).Sub(one, new(big.Rat).SetFloat64(below))
	bound := new(big.Rat).Sub(one, new(big.Rat).SetFloat64(confidence))
	// (a/b)^m <= c/d  <=>  a^m·d <= c·b^m, all positive integers, tried
	// for m = 1, 2, ... in turn (m = 0 gives 1 > bound): no search to trust.
	am, bm := new(big.Int).Set(q.Num()), new(big.Int).Set(q.Denom())
	lhs, rhs := new(big.Int), new(big.Int)
	for m := int64(1); ; m++ {
		if lhs.Mul(am, bound.Denom()).Cmp(rhs.Mul(bound.Num(), bm)) <= 0 {
			return m
		}
		am.Mul(am, q.Num())
		bm.Mul(bm, q.Denom())
	}
}

// The figures of docs/STATISTICS.md, Quarantine's release count: below 1% at 95% takes 299 clean runs
// (1 − 0.99^299 ≥ 0.95), below 0.1% 2,995; the budget table gives 59, 149
// and 598 for 5%, 2% and 0.5%.
func TestCleanRunsSeed(t *testing.T) {
	for _, c := range []struct {
		below float64
		want  float64
	}{{0.05, 59}, {0.02, 149}, {0.01, 299}, {0.005, 598}, {0.001, 2995}} {
		if got := CleanRuns(c.below, 0.95); got != c.want {
			t.Errorf("CleanRuns(%v, 0.95) = %v, want %v", c.below, got, c.want)
		}
	}
}

// TestCleanRunsExact holds CleanRuns to the exact definition: on a grid of
// usual settings, on random ones, and on knife edges, where the confidence
// is the float64 value of 1 − (1 − below)^m itself or its neighbours, so
// that float64 rounding alone would decide the answer.
func TestCleanRunsExact(t *testing.T) {
	type pair struct{ below, confidence float64 }
	var cases []pair
	for _, b := range []float64{0.3, 0.1, 0.05, 0.02, 0.01, 0.005, 0.002, 0.001} {
		for _, c := range []float64{0.5, 0.8, 0.9, 0.95, 0.975, 0.99, 0.999} {
			cases = append(cases, pair{b, c})
		}
	}
	r := rand.New(rand.NewPCG(16, 3))
	for range 300 {
		cases = append(cases, pair{0.002 + 0.4*r.Float64(), 0.01 + 0.98*r.Float64()})
	}
	edges := 0
	for _, b := range []float64{0.3, 0.1, 0.05, 0.02, 0.01, 0.001} {
		for m := 1.0; m <= 4000; m = math.Ceil(m * 1.6) {
			c := gate.Power(b, m)
			if !(c > 0 && c < 1) {
				continue
			}
			for _, cc := range []float64{math.Nextafter(c, 0), c, math.Nextafter(c, 1)} {
				if cc >= 1 {
					continue
				}
				cases = append(cases, pair{b, cc})
				edges++
			}
		}
	}
	if edges < 60 {
		t.Fatalf("only %d knife-edge cases", edges)
	}
	for _, c := range cases {
		want := exactCleanRunsRat(c.below, c.confidence)
		if got := CleanRuns(c.below, c.confidence); got != float64(want) {
			t.Errorf("CleanRuns(%v, %v) = %v, exact %d", c.below, c.confidence, got, want)
		}
	}
}

// Below 0 nothing is ever proven: +Inf, which the registry refuses.
func TestCleanRunsLimits(t *testing.T) {
	if got := CleanRuns(0, 0.95); !math.IsInf(got, 1) {
		t.Errorf("CleanRuns(0, 0.95) = %v, want +Inf", got)
	}
	// At 1e-17 the answer (about 3e17) is beyond MaxCleanRuns.
	if got := CleanRuns(1e-17, 0.95); got <= MaxCleanRuns {
		t.Errorf("CleanRuns(1e-17, 0.95) = %v, want beyond 2^53", got)
	}
}
