package stat

import "math"

// Anytime-valid inference for a Bernoulli rate: Robbins' beta-binomial
// mixture martingale and the confidence sequence it gives.
//
// For k events in n independent trials of rate θ, and a mixing
// distribution Beta(A, B) over the rate, the mixture likelihood ratio
//
//	M_n(θ) = ∫ L_n(t)/L_n(θ) Beta(t; A, B) dt = B(A+k, B+n-k) / (B(A,B) · θ^k (1-θ)^(n-k))
//
// is a nonnegative martingale with M_0 = 1 when θ is the true rate, so by
// Ville's inequality P(M_n(θ) ≥ 1/α for some n) ≤ α: the sets
// {θ : M_n(θ) < 1/α} cover the true rate at every n at once with
// probability at least 1 − α, however often they are looked at and
// whenever the looking stops (Robbins 1970; Howard, Ramdas, McAuliffe and
// Sekhon 2021, section 3.5). log M_n(θ) is convex in θ with its minimum at
// k/n, so each set is an interval.
//
// Mixing over rates below p only gives a test of "the rate is at least p":
//
//	M⁻_n(p) = ∫_0^p (t/p)^k ((1-t)/(1-p))^(n-k) Beta(t; A, B) dt / I_p(A, B)
//	        = B(A+k, B+n-k) I_p(A+k, B+n-k) / (B(A,B) I_p(A,B) p^k (1-p)^(n-k)),
//
// a nonnegative supermartingale under every rate θ ≥ p (each factor
// (t/p)^x ((1-t)/(1-p))^(1-x) with t ≤ p has expectation at most 1 there),
// and so an e-process for that composite hypothesis. A trial without the
// event never lowers it and an event never raises it.

// BetaMixture is the beta-binomial mixture martingale of a Bernoulli rate
// with the mixing distribution Beta(A, B). Choose A and B before the data
// (from a plan, a target or an earlier, separate measurement): a mixing
// distribution fitted to the data it judges is not a mixture martingale.
type BetaMixture struct {
	A float64 // first shape of the mixing Beta, > 0
	B float64 // second shape of the mixing Beta, > 0
}

// logLik returns k·log θ + (n−k)·log(1−θ), with 0·log 0 = 0.
func logLik(k, n int64, theta float64) float64 {
	var l float64
	if k > 0 {
		l = float64(float64(k) * Log(theta))
	}
	if f := n - k; f > 0 {
		l += float64(float64(f) * Log1p(-theta))
	}
	return l
}

// LogE returns log M_n(θ) for k events in n trials: the log of the
// evidence against the rate being θ. It is +Inf when the data rule θ out
// (an event at θ = 0, a non-event at θ = 1) and NaN outside 0 ≤ k ≤ n or
// θ ∈ [0,1].
func (m BetaMixture) LogE(k, n int64, theta float64) float64 {
	if !(k >= 0 && k <= n && theta >= 0 && theta <= 1 && m.A > 0 && m.B > 0) {
		return math.NaN()
	}
	return Lbeta(m.A+float64(k), m.B+float64(n-k)) - Lbeta(m.A, m.B) - logLik(k, n, theta)
}

// LogEBelow returns log M⁻_n(p) for k events in n trials: the log of the
// evidence that the rate is below p, an e-process for "the rate is at
// least p" that no rate at or above p lets exceed 1/α with probability
// more than α, however many trials are looked at. A posterior tail too
// small for a float64 (far from the rates below p) counts as no
// evidence, -Inf. NaN outside 0 ≤ k ≤ n or p ∈ (0,1).
func (m BetaMixture) LogEBelow(k, n int64, p float64) float64 {
	if !(k >= 0 && k <= n && p > 0 && p < 1 && m.A > 0 && m.B > 0) {
		return math.NaN()
	}
	a, b := m.A+float64(k), m.B+float64(n-k)
	post, _ := BetaInc(a, b, p, 1-p)
	prior, _ := BetaInc(m.A, m.B, p, 1-p)
	if math.IsNaN(post) || math.IsNaN(prior) {
		return math.NaN()
	}
	return Lbeta(a, b) + Log(post) - Lbeta(m.A, m.B) - Log(prior) - logLik(k, n, p)
}

// Interval returns the confidence sequence's interval after k events in n
// trials at error rate alpha: every rate θ with M_n(θ) < 1/alpha. The
// intervals of n = 0, 1, 2, … all cover the true rate with probability at
// least 1 − alpha. The bounds are found by bisection to the float64
// next to the boundary on its outer side, so the interval returned
// contains the exact one. n = 0 gives [0, 1]; NaN pairs for k outside
// [0, n] or alpha outside (0,1).
func (m BetaMixture) Interval(k, n int64, alpha float64) (lo, hi float64) {
	if !(k >= 0 && k <= n && alpha > 0 && alpha < 1 && m.A > 0 && m.B > 0) {
		return math.NaN(), math.NaN()
	}
	if n == 0 {
		return 0, 1
	}
	thr := -Log(alpha)
	out := func(theta float64) bool { return m.LogE(k, n, theta) >= thr }
	mle := float64(k) / float64(n)
	lo, hi = 0, 1
	if out(0) {
		lo = boundary(0, mle, out)
	}
	if out(1) {
		hi = boundary(1, mle, out)
	}
	return lo, hi
}

// boundary bisects between x, where out holds, and y, where it does not
// (the interval's inside), and returns the last point found where out
// holds: the outer side of the boundary. It stops when the midpoint is
// one of the two ends or after 200 halvings.
func boundary(x, y float64, out func(float64) bool) float64 {
	for range 200 {
		mid := x + (y-x)/2
		if mid == x || mid == y {
			break
		}
		if out(mid) {
			x = mid
		} else {
			y = mid
		}
	}
	return x
}

// MeetsInterval reports whether the confidence sequence's interval after
// k events in n trials at error rate alpha shares a point with [lo, hi]
// (0 ≤ lo ≤ hi ≤ 1): whether some rate of [lo, hi] is still plausible.
// Since log M_n is convex with its minimum at k/n, it is decided at the
// point of [lo, hi] nearest k/n, without searching for the bounds. n = 0
// meets every interval.
func (m BetaMixture) MeetsInterval(k, n int64, alpha, lo, hi float64) bool {
	if n == 0 {
		return true
	}
	theta := min(max(float64(k)/float64(n), lo), hi)
	return m.LogE(k, n, theta) < -Log(alpha)
}
