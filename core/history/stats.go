package history

import (
	"math"

	"github.com/flakegate/flakegate/core/stat"
)

// binomialTail is P(X >= k) for X ~ Binomial(n, p): the regularized
// incomplete beta function I_p(k, n-k+1).
func binomialTail(k, n int64, p float64) float64 {
	switch {
	case k <= 0:
		return 1
	case k > n:
		return 0
	case p <= 0:
		return 0
	case p >= 1:
		return 1
	}
	ix, _ := stat.BetaInc(float64(k), float64(n-k+1), p, 1-p)
	return ix
}

// logChoose is log C(n, k) for 0 <= k <= n.
func logChoose(n, k int64) float64 {
	return -stat.Log(float64(n+1)) - stat.Lbeta(float64(n-k+1), float64(k+1))
}

// fisherTwoSided is the two-sided p-value of Fisher's exact test of a
// failures of n1 runs against b failures of n2 runs: the probability, with
// a+b failures spread at random over the n1+n2 runs, of a split no more
// likely than the one seen (hypergeometric, with a relative tolerance of
// 1e-7 for ties, as R's fisher.test).
func fisherTwoSided(a, n1, b, n2 int64) float64 {
	f, n := a+b, n1+n2
	if n1 == 0 || n2 == 0 || f == 0 || f == n {
		return 1
	}
	lo, hi := max(0, f-n2), min(f, n1)
	den := logChoose(n, f)
	logp := func(x int64) float64 { return logChoose(n1, x) + logChoose(n2, f-x) - den }
	obs := logp(a)
	var terms []float64
	for x := lo; x <= hi; x++ {
		if lp := logp(x); lp <= obs+1e-7 {
			terms = append(terms, stat.Exp(lp))
		}
	}
	if int64(len(terms)) == hi-lo+1 {
		return 1 // every split is as likely or less: exactly 1, not a rounded sum
	}
	return math.Min(1, stat.Fsum(terms))
}
