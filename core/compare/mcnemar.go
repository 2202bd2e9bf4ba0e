package compare

import (
	"math/big"

	"github.com/flakegate/flakegate/core/stat"
)

// McNemar is McNemar's exact test of B against A on questions answered
// once by each: only the discordant pairs count. Under "no difference" each
// of the N = WrongToRight + RightToWrong discordant questions is equally
// likely to have gone either way, so the smaller count m is Binomial(N, ½):
//
//	p     = min(1, 2·P(X <= m))             (exact conditional, two-sided)
//	mid-p = 2·(P(X <= m) − ½·P(X = m))      = P(X <= m) + P(X <= m−1)
//
// as statsmodels' mcnemar(exact=True) and Fagerland, Lydersen and Laake
// (2013), who recommend the mid-p for its closer-to-nominal error rate.
type McNemar struct {
	WrongToRight int64   `json:"wrong_to_right"` // A failed, B passed
	RightToWrong int64   `json:"right_to_wrong"` // A passed, B failed
	PValue       float64 `json:"p_value"`        // exact, two-sided, in [0,1]
	MidP         float64 `json:"mid_p"`          // in [0,1]
}

// mcnemarOf runs the test when every pair has one trial on each side.
func mcnemarOf(pairs []pair) *McNemar {
	var m McNemar
	for _, p := range pairs {
		if p.a.Total != 1 || p.b.Total != 1 {
			return nil
		}
		switch {
		case p.a.Passed == 0 && p.b.Passed == 1:
			m.WrongToRight++
		case p.a.Passed == 1 && p.b.Passed == 0:
			m.RightToWrong++
		}
	}
	m.PValue, m.MidP = McNemarP(m.WrongToRight, m.RightToWrong)
	return &m
}

// exactUpTo is the most discordant pairs whose p-values McNemarP sums
// exactly: m+1 binomial coefficients of up to n bits, about 3 ms at the
// bound (BenchmarkMcNemarExact: 50 ms at 20,000 pairs, growing as n²).
const exactUpTo = 5000

// McNemarP returns the exact two-sided p-value and the mid-p of McNemar's
// test for b and c discordant pairs (b, c >= 0). Up to exactUpTo pairs the
// binomial sums are exact integers (math/big) and each result is the
// correctly rounded float64 of its exact rational. Beyond, P(X <= m) for X
// ~ Binomial(N, ½) is the regularized incomplete beta I_½(N−m, m+1), with a
// relative error below N·1e-15. With b = c (or no discordant pair) both are
// exactly 1.
func McNemarP(b, c int64) (p, midP float64) {
	m, n := min(b, c), b+c
	if b == c {
		return 1, 1
	}
	if n <= exactUpTo {
		coef, le := big.NewInt(1), big.NewInt(1) // C(n,k), Σ_{j<=k} C(n,j)
		for k := int64(1); k <= m; k++ {
			coef.Mul(coef, big.NewInt(n-k+1))
			coef.Quo(coef, big.NewInt(k))
			le.Add(le, coef)
		}
		den := new(big.Int).Lsh(big.NewInt(1), uint(n))
		twice := new(big.Int).Lsh(le, 1)
		p, _ = new(big.Rat).SetFrac(twice, den).Float64()
		midP, _ = new(big.Rat).SetFrac(twice.Sub(twice, coef), den).Float64()
		return min(1, p), min(1, midP)
	}
	cdf := func(k int64) float64 { // P(X <= k), k < n
		if k < 0 {
			return 0
		}
		ix, _ := stat.BetaInc(float64(n-k), float64(k+1), 0.5, 0.5)
		return ix
	}
	le := cdf(m)
	return min(1, 2*le), min(1, le+cdf(m-1))
}
