package gate

import (
	"fmt"
	"math/rand/v2"

	"github.com/flakegate/flakegate/core"
	"github.com/flakegate/flakegate/core/stat"
)

// The plan of a sequential two-arm experiment: runs made in pairs, the
// sequential test (stat.TwoArm) looked at after every pair, stopping at
// improved, regressed, futile ("no change as large as planned") or the
// cap. Its figures sit beside the fixed-sample plan's: the runs per arm at
// which the fixed verdict (Decide's Wilson intervals) reaches the target
// power, found by exact enumeration.

// SeqPlanInput asks what a sequential experiment sized for two pass rates
// costs. Start from DefaultSeqPlanInput.
type SeqPlanInput struct {
	Baseline   float64 // planned pass rate of the baseline, in [0,1]
	Patched    float64 // planned pass rate of the patched arm, in [0,1], not Baseline
	Confidence float64 // 1 − the error rate of each sequential claim, in (0,1)
	Target     float64 // power the fixed-sample plan is sized for, in (0,1)
	// Cap is the most pairs the experiment makes (run's -n), in [1,
	// SeqPlanMaxCap]; 0 caps it at the fixed-sample plan's runs.
	Cap int64
	// Simulations is the number of seeded experiments the expected runs
	// are estimated from, in [1, SeqPlanMaxSimulations].
	Simulations int
	Seed        uint64
}

// Limits of a sequential plan: at most SeqPlanMaxWork pairs are simulated
// in all, so a plan's work is bounded before it starts.
const (
	SeqPlanMaxCap         = 100_000
	SeqPlanMaxSimulations = 10_000
	SeqPlanMaxWork        = 20_000_000
)

// DefaultSeqPlanInput plans at 95% with the fixed plan at 95% power, from
// 2,000 simulated experiments.
var DefaultSeqPlanInput = SeqPlanInput{Confidence: core.DefaultConfidence, Target: 0.95, Simulations: 2000, Seed: 1}

// SeqOutcomes are the simulated outcomes of a sequential experiment at one
// pair of true rates.
type SeqOutcomes struct {
	Baseline float64 `json:"baseline"` // true pass rate of the baseline, in [0,1]
	Patched  float64 `json:"patched"`  // true pass rate of the patched arm, in [0,1]
	// MeanPairs is the mean number of pairs (runs per arm) made before the
	// experiment stopped, in [1, cap].
	MeanPairs float64 `json:"mean_pairs"`
	Improved  float64 `json:"improved"`  // fraction that stopped improved, in [0,1]
	Regressed float64 `json:"regressed"` // fraction that stopped regressed, in [0,1]
	Futile    float64 `json:"futile"`    // fraction that stopped with no change as large as planned, in [0,1]
	AtCap     float64 `json:"at_cap"`    // fraction that reached the cap undecided, in [0,1]
}

// SeqPlan is the cost of a sequential experiment beside the fixed plan's.
type SeqPlan struct {
	Baseline   float64 `json:"baseline"`
	Patched    float64 `json:"patched"`
	Confidence float64 `json:"confidence"`
	Target     float64 `json:"target"`
	// FixedPairs is the runs per arm at which the fixed verdict (Wilson
	// intervals at Confidence) says improved with probability Target at
	// the planned rates; null when not within SeqPlanMaxCap.
	FixedPairs *int64 `json:"fixed_pairs"`
	// FixedPower is the fixed verdict's power at Cap runs per arm, in [0,1].
	FixedPower float64 `json:"fixed_power"`
	Cap        int64   `json:"cap"` // the most pairs: the worst case
	// Planned is the experiment when the rates are the planned ones; Equal
	// when both arms have the baseline's planned rate.
	Planned     SeqOutcomes `json:"planned"`
	Equal       SeqOutcomes `json:"equal"`
	Simulations int         `json:"simulations"`
	Seed        uint64      `json:"seed"`
	Warnings    []string    `json:"warnings"`
}

func (in SeqPlanInput) check() error {
	for _, f := range []struct {
		name string
		v    float64
	}{{"baseline", in.Baseline}, {"patched", in.Patched}} {
		if !(f.v >= 0 && f.v <= 1) {
			return core.FieldErrorf(f.name, "rate must be in [0,1], got %v", f.v)
		}
	}
	if in.Baseline == in.Patched {
		return core.FieldErrorf("patched", "must differ from the baseline's rate: a plan needs a change to look for")
	}
	if err := core.CheckConfidence(in.Confidence); err != nil {
		return err
	}
	if !(in.Target > 0 && in.Target < 1) {
		return core.FieldErrorf("target", "power must be in (0,1), got %v", in.Target)
	}
	if in.Cap < 0 || in.Cap > SeqPlanMaxCap {
		return core.FieldErrorf("cap", "must be in [0, %d] pairs, got %d", SeqPlanMaxCap, in.Cap)
	}
	if in.Simulations < 1 || in.Simulations > SeqPlanMaxSimulations {
		return core.FieldErrorf("simulations", "must be in [1, %d], got %d", SeqPlanMaxSimulations, in.Simulations)
	}
	return nil
}

// binomialPMF is P(K = k), k = 0…n, for K ~ Binomial(n, p), from the
// portable log-gamma.
func binomialPMF(n int64, p float64) []float64 {
	out := make([]float64, n+1)
	for k := int64(0); k <= n; k++ {
		switch {
		case p == 0:
			if k == 0 {
				out[k] = 1
			}
		case p == 1:
			if k == n {
				out[k] = 1
			}
		default:
			out[k] = stat.Exp(stat.Lgamma(float64(n+1)) - stat.Lgamma(float64(k+1)) - stat.Lgamma(float64(n-k+1)) +
				float64(float64(k)*stat.Log(p)) + float64(float64(n-k)*stat.Log1p(-p)))
		}
	}
	return out
}

// FixedPower is the probability that the fixed verdict at n trials per arm
// (Decide: the Wilson intervals at confidence apart, patched above) says
// improved when the true rates are baseline and patched, by exact
// enumeration of the two binomial counts: O(n) Wilson intervals and O(n)
// sums with a running tail.
func FixedPower(baseline, patched float64, n int64, confidence float64) float64 {
	if n < 1 {
		return 0
	}
	z := stat.Z(confidence)
	fa, fb := binomialPMF(n, baseline), binomialPMF(n, patched)
	lo, up := make([]float64, n+1), make([]float64, n+1)
	for k := int64(0); k <= n; k++ {
		lo[k], up[k] = stat.Wilson(float64(k), float64(n), z)
	}
	// tail[j] = P(patched count >= j); the lower bounds rise with j, so the
	// patched counts that clear baseline count i are a tail.
	tail := make([]float64, n+2)
	for j := n; j >= 0; j-- {
		tail[j] = tail[j+1] + fb[j]
	}
	var s stat.Sum
	j := int64(0)
	for i := int64(0); i <= n; i++ {
		for j <= n && !(up[i] < lo[j]) {
			j++
		}
		s.Add(float64(fa[i] * tail[j]))
	}
	return s.Sum()
}

// FixedPairsFor is the smallest runs per arm, found by galloping and
// bisection, at which FixedPower reaches target; 0 when not within
// SeqPlanMaxCap. The power of a discrete test is not exactly monotone in
// n, so a slightly smaller n may reach it too.
func FixedPairsFor(baseline, patched, confidence, target float64) int64 {
	ok := func(n int64) bool { return FixedPower(baseline, patched, n, confidence) >= target }
	n, _ := stat.FirstTrue(0, SeqPlanMaxCap, ok)
	return n
}

// simulate runs sims seeded experiments at the true rates (pa, pb) with
// the plan tw and cap, each looked at after every pair.
func simulate(tw stat.TwoArm, pa, pb float64, cap int64, sims int, seed uint64) SeqOutcomes {
	r := rand.New(rand.NewPCG(seed, 0x5e9))
	o := SeqOutcomes{Baseline: pa, Patched: pb}
	var pairs int64
	for range sims {
		var s stat.TwoArmState
		v := stat.SeqContinue
		for s.Pairs < cap && v == stat.SeqContinue {
			s = tw.Add(s, r.Float64() < pa, r.Float64() < pb)
			v = tw.Verdict(s)
		}
		pairs += s.Pairs
		switch v {
		case stat.SeqImproved:
			o.Improved++
		case stat.SeqRegressed:
			o.Regressed++
		case stat.SeqFutile:
			o.Futile++
		default:
			o.AtCap++
		}
	}
	n := float64(sims)
	o.MeanPairs = float64(pairs) / n
	o.Improved, o.Regressed, o.Futile, o.AtCap = o.Improved/n, o.Regressed/n, o.Futile/n, o.AtCap/n
	return o
}

// SequentialPlan sizes a sequential experiment: the fixed plan's runs per
// arm, and the sequential test's expected and worst-case runs at the
// planned rates and at equal rates, from seeded simulations (the same
// seed gives the same figures on every platform).
func SequentialPlan(in SeqPlanInput) (*SeqPlan, error) {
	if err := in.check(); err != nil {
		return nil, err
	}
	res := &SeqPlan{Baseline: in.Baseline, Patched: in.Patched, Confidence: in.Confidence, Target: in.Target,
		Cap: in.Cap, Simulations: in.Simulations, Seed: in.Seed, Warnings: []string{}}
	if n := FixedPairsFor(in.Baseline, in.Patched, in.Confidence, in.Target); n > 0 {
		res.FixedPairs = &n
		if res.Cap == 0 {
			res.Cap = n
		}
	} else if res.Cap == 0 {
		res.Cap = SeqPlanMaxCap
		res.Warnings = append(res.Warnings, fmt.Sprintf("the fixed verdict does not reach %v power within %d runs per arm: the plan is capped there", in.Target, SeqPlanMaxCap))
	}
	if work := 2 * res.Cap * int64(in.Simulations); work > SeqPlanMaxWork {
		return nil, core.FieldErrorf("simulations", "%d simulations of up to %d pairs exceed the %d pairs a plan may simulate: ask for fewer", in.Simulations, res.Cap, SeqPlanMaxWork/2)
	}
	res.FixedPower = FixedPower(in.Baseline, in.Patched, res.Cap, in.Confidence)
	tw := stat.TwoArm{Baseline: in.Baseline, Patched: in.Patched, Alpha: 1 - in.Confidence, Weight: stat.DefaultPlanWeight}
	res.Planned = simulate(tw, in.Baseline, in.Patched, res.Cap, in.Simulations, in.Seed)
	res.Equal = simulate(tw, in.Baseline, in.Baseline, res.Cap, in.Simulations, in.Seed+1)
	return res, nil
}
