package stat

import "math"

// The sequential test of two pass rates from runs made in pairs (one run
// of each arm), looked at after every pair.
//
// Efficacy is the safe test for 2×2 tables with one observation of each
// arm per block (Turner, Ly and Grünwald 2024, "Generic E-variables for
// exact sequential k-sample tests that allow for optional stopping"): for
// rates (a, b) estimated from the pairs before this one, and m = (a+b)/2,
// the pair (x, y) of outcomes (1 = pass) is worth
//
//	e = a^x (1-a)^(1-x) b^y (1-b)^(1-y) / (m^(x+y) (1-m)^(2-x-y)).
//
// Under any common rate p of the two arms, E[e] = 1 − ((a−b)/2)²(u−v)² ≤ 1
// with u = p/m and v = (1−p)/(1−m) (docs/STATISTICS.md works it out): the
// running product is a test supermartingale even when p drifts from pair
// to pair, so by Ville's inequality it passes 1/α with probability at most
// α over all pairs, looked at after each. Restricting the estimates to
// b ≥ a tests "patched is no better" (the expectation only falls as the
// patched rate falls below the baseline's), b ≤ a "patched is no worse".
//
// Futility is the betting test of a mean (Waudby-Smith and Ramdas 2024,
// "Estimating means of bounded random variables by betting") on the
// pair's difference d = y − x ∈ {−1, 0, 1}, whose mean is the change Δ:
// against "Δ ≥ δ" the wealth ∏ (1 − λ(d − δ)) and against "Δ ≤ −δ" the
// wealth ∏ (1 + λ(d + δ)), with each bet λ ∈ [0, 1/2] chosen from the pairs
// before. Each is a test supermartingale under its hypothesis whatever the
// dependence between a pair's two runs; both passing 2/α says the change is
// smaller than δ either way.

// TwoArm is the plan of a sequential two-arm test: the pass rates it is
// sized for and its error rate. The plan's rates seed the running
// estimates with Weight pseudo-pairs, so the first pairs already bet on
// the planned change; they are fixed before the data, as they must be.
type TwoArm struct {
	Baseline float64 // planned pass rate of the baseline, in [0,1]
	Patched  float64 // planned pass rate of the patched arm, in [0,1], not Baseline
	Alpha    float64 // error rate of each claim (improved, regressed, no change as large), in (0,1)
	Weight   float64 // pseudo-pairs of the plan in the running estimates, >= 0
}

// DefaultPlanWeight is the weight of the plan in the running estimates:
// two pairs' worth.
const DefaultPlanWeight = 2

// TwoArmState is the evidence of a sequential two-arm test after some
// pairs. The zero value is the state before any pair.
type TwoArmState struct {
	Pairs    int64 // pairs seen, >= 0
	Baseline int64 // baseline passes, in [0, Pairs]
	Patched  int64 // patched passes, in [0, Pairs]
	Up       int64 // pairs where only the patched run passed
	Down     int64 // pairs where only the baseline run passed
	// LogImproved is the log of the evidence that the patched rate is
	// higher (against "patched is no better"); LogRegressed the same for
	// lower.
	LogImproved  float64
	LogRegressed float64
	// LogNotAbove and LogNotBelow are the logs of the evidence that the
	// change is smaller than the planned one, upwards and downwards.
	LogNotAbove float64
	LogNotBelow float64
}

// Sequential verdicts of a two-arm test.
const (
	SeqContinue  = ""          // no answer yet
	SeqImproved  = "improved"  // the patched rate is higher
	SeqRegressed = "regressed" // the patched rate is lower
	SeqFutile    = "futile"    // no change as large as the planned one, either way
)

// Effect is the planned change |Patched − Baseline|.
func (t TwoArm) Effect() float64 { return math.Abs(t.Patched - t.Baseline) }

// estimate is the running estimate of an arm's rate: the passes plus the
// plan's pseudo-passes plus one half, over the pairs plus the weight plus
// one (the Krichevsky–Trofimov estimate with the plan added); always in
// (0,1).
func (t TwoArm) estimate(passes, pairs int64, plan float64) float64 {
	return (float64(passes) + float64(t.Weight*plan) + 0.5) / (float64(pairs) + t.Weight + 1)
}

// logPair is log e of one pair (x, y) at the estimates (a, b).
func logPair(a, b float64, x, y bool) float64 {
	m := a/2 + b/2
	l := func(r float64, pass bool) float64 {
		if pass {
			return Log(r / m)
		}
		return Log((1 - r) / (1 - m))
	}
	return l(a, x) + l(b, y)
}

// bet is the futility bet against a change of delta in the direction the
// discordant pairs would have to go: the growth-optimal fraction for the
// pairs seen (a smoothed (n₋ − n₊)/(n₋ + n₊) shifted by the planned
// change), clipped to [0, 1/2].
func bet(against, toward, pairs int64, delta float64) float64 {
	n := float64(pairs) + 1
	mu := (float64(toward) - float64(against)) / n // running mean of the signed difference, smoothed toward 0
	v := (float64(toward)+float64(against))/n + 0.25
	lam := (delta - mu) / (v + float64((delta-mu)*(delta-mu)))
	return min(max(lam, 0), 0.5)
}

// Add returns the state after one more pair: baseline and patched say
// whether each run passed.
func (t TwoArm) Add(s TwoArmState, baseline, patched bool) TwoArmState {
	a := t.estimate(s.Baseline, s.Pairs, t.Baseline)
	b := t.estimate(s.Patched, s.Pairs, t.Patched)
	if b > a {
		s.LogImproved += logPair(a, b, baseline, patched)
	} else if b < a {
		s.LogRegressed += logPair(a, b, baseline, patched)
	}
	delta := t.Effect()
	d := 0.0
	switch {
	case patched && !baseline:
		d = 1
	case baseline && !patched:
		d = -1
	}
	s.LogNotAbove += Log1p(-float64(bet(s.Down, s.Up, s.Pairs, delta) * (d - delta)))
	s.LogNotBelow += Log1p(float64(bet(s.Up, s.Down, s.Pairs, delta) * (d + delta)))
	s.Pairs++
	if baseline {
		s.Baseline++
	}
	if patched {
		s.Patched++
	}
	switch d {
	case 1:
		s.Up++
	case -1:
		s.Down++
	}
	return s
}

// Verdict is the answer so far: improved or regressed once its evidence
// passes 2/Alpha (half the error rate for each direction), futile once
// both futility evidences do, else SeqContinue. An effect claim wins over
// futility when both are reached at the same pair.
func (t TwoArm) Verdict(s TwoArmState) string {
	thr := Log(2 / t.Alpha)
	switch {
	case s.LogImproved >= thr:
		return SeqImproved
	case s.LogRegressed >= thr:
		return SeqRegressed
	case s.LogNotAbove >= thr && s.LogNotBelow >= thr:
		return SeqFutile
	}
	return SeqContinue
}
