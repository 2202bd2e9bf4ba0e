package aa

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/flakegate/flakegate/core/stat"
)

// probSum must give stat.Sum's bits (stat.Sum is checked against Python's
// math.fsum in core/stat), after every value added, so prefix sums are
// checked too.

func checkProbSum(t *testing.T, name string, xs []float64) {
	t.Helper()
	var p probSum
	var s stat.Sum
	for i, x := range xs {
		p.Add(x)
		s.Add(x)
		got, want := p.Sum(), s.Sum()
		if math.Float64bits(got) != math.Float64bits(want) && !(math.IsNaN(got) && math.IsNaN(want)) {
			t.Fatalf("%s, after %d values (last %v): %v (%#x), stat.Sum %v (%#x)", name, i+1, x, got, math.Float64bits(got), want, math.Float64bits(want))
		}
	}
}

// TestProbSum: random values over the whole range of exponents, subnormals,
// ties at the rounding bit broken by a far smaller value or not, a Poisson
// binomial's pmf as the fixed-drop rule adds it, and values that move the
// sum to stat.Sum (negative, infinite, NaN, 2^64 and above).
func TestProbSum(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	smallest := math.SmallestNonzeroFloat64
	ulp1 := math.Nextafter(1, 2) - 1 // 2^-52
	cases := map[string][]float64{
		"empty-ish":          {0, 0},
		"subnormals":         {smallest, smallest, 3 * smallest, math.Ldexp(1, -1060), math.Ldexp(1, -1022) - smallest},
		"tie to even, down":  {1, ulp1 / 2},                    // 1 + 2^-53: halfway, 1 is even
		"tie to even, up":    {1 + ulp1, ulp1 / 2},             // halfway, rounds up to even
		"past the tie":       {1, ulp1 / 2, smallest},          // a subnormal breaks the tie
		"past the tie, late": {smallest, 1, ulp1 / 2},          // the same, added first
		"below the tie":      {1, math.Nextafter(ulp1/2, 0)},   // just under halfway
		"carry":              {1 - ulp1/2, ulp1 / 4, ulp1 / 4}, // carries into the next power of two
		"big":                {math.Ldexp(1, 63), math.Ldexp(1, 63) - 1024, 1, math.Ldexp(1, -1074)},
		"odd values":         {0.5, -0.25, 0.125},
		"infinity":           {0.3, math.Inf(1), 0.2},
		"NaN":                {0.1, math.NaN()},
		"2^64":               {0.7, math.Ldexp(1, 64), 1e-300, 3},
		"huge":               {1e-310, 1e300, 1e300},
		"negative zero":      {math.Copysign(0, -1), 0.5},
	}
	for name, xs := range cases {
		checkProbSum(t, name, xs)
	}
	for trial := range 300 {
		n := 1 + rng.IntN(300)
		xs := make([]float64, n)
		for i := range xs {
			switch rng.IntN(4) {
			case 0: // any exponent of a value below 2^64
				xs[i] = math.Ldexp(rng.Float64(), rng.IntN(1138)-1074)
			case 1: // probabilities
				xs[i] = rng.Float64()
			case 2: // the bits of the sum so far just past its rounding bit
				xs[i] = math.Ldexp(1, -53-rng.IntN(60))
			default: // subnormals
				xs[i] = math.Float64frombits(rng.Uint64N(1 << 52))
			}
		}
		checkProbSum(t, "random", xs)
		if trial%10 == 0 {
			qs := make([]float64, 1+rng.IntN(200))
			for i := range qs {
				qs[i] = rng.Float64()
			}
			checkProbSum(t, "pmf", stat.PoissonBinomial(qs))
		}
	}
}

func BenchmarkProbSum(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 1))
	qs := make([]float64, 169)
	for i := range qs {
		qs[i] = 0.5 + 0.5*rng.Float64()
	}
	pmf := stat.PoissonBinomial(qs)
	b.Run("probSum", func(b *testing.B) {
		for b.Loop() {
			var s probSum
			for _, p := range pmf {
				s.Add(p)
				s.Sum()
			}
		}
	})
	b.Run("stat.Sum", func(b *testing.B) {
		for b.Loop() {
			var s stat.Sum
			for _, p := range pmf {
				s.Add(p)
				s.Sum()
			}
		}
	})
}

// refPassK is passK as it was written before probSum, the plain way: for
// each k, C(c,k)/C(r,k) as a product afresh, added with stat.Sum.
func refPassK(s *Side, maxK int) []PassK {
	kmax := int64(maxK)
	for _, t := range s.Scenarios {
		kmax = min(kmax, t.Total)
	}
	out := make([]PassK, 0, kmax)
	for k := int64(1); k <= kmax; k++ {
		var sum stat.Sum
		for _, t := range s.Scenarios {
			p := 0.0
			if t.Passed >= k {
				p = 1.0
				for i := int64(0); i < k; i++ {
					p *= float64(t.Passed-i) / float64(t.Total-i)
				}
			}
			sum.Add(p)
		}
		out = append(out, PassK{K: int(k), Rate: sum.Sum() / float64(len(s.Scenarios))})
	}
	return out
}

// refDropRate is independentDropRate's exact method with stat.Sum.
func refDropRate(scen []Tally, d int64) float64 {
	var qs []float64
	for _, t := range scen {
		if t.Passed > 0 && t.Passed < t.Total {
			qs = append(qs, float64(t.Passed)/float64(t.Total))
		}
	}
	pmf := stat.PoissonBinomial(qs)
	cdf := make([]float64, len(pmf))
	var run stat.Sum
	for k, p := range pmf {
		run.Add(p)
		cdf[k] = run.Sum()
	}
	var tail stat.Sum
	for x := int64(len(pmf)) - 1; x-d >= 0; x-- {
		tail.Add(float64(pmf[x] * cdf[x-d]))
	}
	return math.Min(1, tail.Sum())
}

// TestProbSumInDepth: pass^k and the fixed-drop rule's independent rate,
// on random sides, have the bits of the same figures summed with stat.Sum.
func TestProbSumInDepth(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 1))
	for trial := range 200 {
		n := 1 + rng.IntN(250)
		scen := make([]Tally, n)
		for i := range scen {
			total := int64(1 + rng.IntN(30))
			if trial%3 == 0 {
				total = 20 // equal runs, as most uploads
			}
			scen[i] = Tally{ID: "s", Total: total, Passed: rng.Int64N(total + 1)}
		}
		s := &Side{Scenarios: scen}
		maxK := 1 + rng.IntN(64)
		got, want := passK(s, maxK), refPassK(s, maxK)
		if len(got) != len(want) {
			t.Fatalf("trial %d: %d values of pass^k, reference %d", trial, len(got), len(want))
		}
		for i := range got {
			if got[i].K != want[i].K || math.Float64bits(got[i].Rate) != math.Float64bits(want[i].Rate) {
				t.Fatalf("trial %d: pass^%d = %v, reference %v", trial, want[i].K, got[i].Rate, want[i].Rate)
			}
		}
		d := rng.Int64N(int64(n)/4 + 1)
		if got, _ := independentDropRate(scen, d, exactScenarioLimit); math.Float64bits(got) != math.Float64bits(refDropRate(scen, d)) {
			t.Fatalf("trial %d: independent drop rate %v, reference %v", trial, got, refDropRate(scen, d))
		}
	}
}
