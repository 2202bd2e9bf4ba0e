package gate

import (
	"math"
	"math/big"
	"testing"

	"github.com/flakegate/flakegate/core"
)

// FixedPower against a plain double loop over both arms' counts, each
// pair judged by Decide itself and weighted by exact binomial
// probabilities in rational arithmetic (tolerance 1e-12).
func TestFixedPowerExact(t *testing.T) {
	for _, c := range []struct {
		a, b *big.Rat
		n    int64
	}{{big.NewRat(1, 2), big.NewRat(17, 20), 28}, {big.NewRat(9, 10), big.NewRat(19, 20), 40}, {big.NewRat(17, 20), big.NewRat(1, 2), 25}} {
		pmf := func(p *big.Rat) []*big.Rat {
			q := new(big.Rat).Sub(big.NewRat(1, 1), p)
			out := make([]*big.Rat, c.n+1)
			for k := int64(0); k <= c.n; k++ {
				r := new(big.Rat).SetInt(new(big.Int).Binomial(c.n, k))
				for range k {
					r.Mul(r, p)
				}
				for range c.n - k {
					r.Mul(r, q)
				}
				out[k] = r
			}
			return out
		}
		fa, fb := pmf(c.a), pmf(c.b)
		want := new(big.Rat)
		for i := int64(0); i <= c.n; i++ {
			for j := int64(0); j <= c.n; j++ {
				in := DefaultDecideInput
				in.Baseline, in.Patched, in.MinTrials = core.Count{Passed: i, Trials: c.n}, core.Count{Passed: j, Trials: c.n}, 1
				res := mustDecide(t, in)
				if res.Verdict == core.VerdictImproved {
					want.Add(want, new(big.Rat).Mul(fa[i], fb[j]))
				}
			}
		}
		a, _ := c.a.Float64()
		b, _ := c.b.Float64()
		w, _ := want.Float64()
		if got := FixedPower(a, b, c.n, 0.95); math.Abs(got-w) > 1e-12 {
			t.Errorf("%v→%v at %d: power %.15g, exact %.15g", a, b, c.n, got, w)
		}
	}
}

// seqCases are the plans the simulations check: the sizing pairs of docs/STATISTICS.md, Trials
// per arm to separate two rates,
// and a rarer flake.
var seqCases = [][2]float64{{0.50, 0.85}, {0.90, 0.95}, {0.95, 0.99}}

// With the planned change, the sequential experiment capped at the fixed
// plan's runs (those that reach 95% power) stops on average within 60% of
// them and finds the change about as often; with equal arms it claims a
// change in at most 5% (and its sampling error) of experiments, looked at
// after every pair. 400 seeded experiments each; BenchmarkSequentialPlan
// runs 2,000.
func TestSequentialPlan(t *testing.T) {
	for _, c := range seqCases {
		in := DefaultSeqPlanInput
		in.Baseline, in.Patched, in.Simulations = c[0], c[1], 400
		p, err := SequentialPlan(in)
		if err != nil {
			t.Fatal(err)
		}
		if p.FixedPairs == nil || p.Cap != *p.FixedPairs || p.FixedPower < 0.95 {
			t.Fatalf("%v: the fixed plan %v (power %v) must be the cap %d", c, p.FixedPairs, p.FixedPower, p.Cap)
		}
		if ratio := p.Planned.MeanPairs / float64(p.Cap); ratio > 0.6 {
			t.Errorf("%v: the sequential experiment stops after %.1f pairs on average, %.2f of the fixed plan's %d", c, p.Planned.MeanPairs, ratio, p.Cap)
		}
		if p.Planned.Improved < 0.85 {
			t.Errorf("%v: the sequential experiment finds the planned change in %.3f, want at least 0.85", c, p.Planned.Improved)
		}
		if bad := p.Equal.Improved + p.Equal.Regressed; bad > 0.05+2*math.Sqrt(0.05*0.95/400) {
			t.Errorf("%v: equal arms claimed a change in %.3f of experiments", c, bad)
		}
	}
}

func TestSequentialPlanErrors(t *testing.T) {
	for _, c := range []struct {
		mod   func(*SeqPlanInput)
		field string
	}{
		{func(in *SeqPlanInput) { in.Patched = in.Baseline }, "patched"},
		{func(in *SeqPlanInput) { in.Baseline = 1.5 }, "baseline"},
		{func(in *SeqPlanInput) { in.Cap = -1 }, "cap"},
		{func(in *SeqPlanInput) { in.Simulations = 0 }, "simulations"},
		{func(in *SeqPlanInput) { in.Cap, in.Simulations = SeqPlanMaxCap, SeqPlanMaxSimulations }, "simulations"},
		{func(in *SeqPlanInput) { in.Target = 1 }, "target"},
	} {
		in := DefaultSeqPlanInput
		in.Baseline, in.Patched = 0.5, 0.85
		c.mod(&in)
		_, err := SequentialPlan(in)
		if e, ok := err.(*core.Error); !ok || e.Field != c.field {
			t.Errorf("%+v: error %v, want one naming %s", in, err, c.field)
		}
	}
}

// BenchmarkSequentialPlan is the run simulation at full size: 2,000
// experiments per plan at the planned change and at equal arms, capped at
// the fixed plan's runs (make bench-anytime).
func BenchmarkSequentialPlan(b *testing.B) {
	for range b.N {
		for _, c := range seqCases {
			in := DefaultSeqPlanInput
			in.Baseline, in.Patched = c[0], c[1]
			p, err := SequentialPlan(in)
			if err != nil {
				b.Fatal(err)
			}
			name := func(s string) string { return s + "@" + formatPair(c) }
			b.ReportMetric(float64(*p.FixedPairs), name("fixed-pairs"))
			b.ReportMetric(p.Planned.MeanPairs/float64(p.Cap), name("mean-stop/fixed"))
			b.ReportMetric(p.Planned.Improved, name("found"))
			b.ReportMetric(p.Equal.Improved+p.Equal.Regressed, name("false-claims"))
			b.ReportMetric(p.Equal.MeanPairs/float64(p.Cap), name("equal-stop/fixed"))
		}
	}
}

func formatPair(c [2]float64) string {
	return big.NewFloat(c[0]).Text('g', 3) + "-" + big.NewFloat(c[1]).Text('g', 3)
}
