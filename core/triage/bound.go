package triage

import "github.com/flakegate/flakegate/core/stat"

// upperBound is the one-sided Clopper–Pearson upper confidence bound on a
// rate from k failures in n runs at confidence 1-a: the rate u at which
// P(Binomial(n, u) <= k) = a, so that a rate above u shows k or fewer
// failures with chance below a. It is 1 when n is 0 or k is n.
func upperBound(k, n int64, a float64) float64 {
	switch {
	case n <= 0 || k >= n:
		return 1
	case k == 0:
		// (1-u)^n = a.
		return -stat.Expm1(stat.Log(a) / float64(n))
	}
	// P(Binomial(n, u) <= k) = 1 - I_u(k+1, n-k), decreasing in u:
	// bisection to the last bit.
	lo, hi := 0.0, 1.0
	for range 200 {
		mid := (lo + hi) / 2
		if mid <= lo || mid >= hi {
			break
		}
		_, iy := stat.BetaInc(float64(k+1), float64(n-k), mid, 1-mid)
		if iy > a {
			lo = mid
		} else {
			hi = mid
		}
	}
	return hi
}
