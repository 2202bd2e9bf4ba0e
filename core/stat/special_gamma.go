package stat

import (
	"math"
)

// The gamma family: log-gamma, the regularized incomplete gamma functions
// and the chi-square quantile, built on Exp/Log/Log1p only.
//
// Densities and prefactors such as xᵃe⁻ˣ/Γ(a+1) follow Loader's saddle-point
// form (C. Loader, "Fast and accurate computation of binomial
// probabilities", 2000, as used by R's dpois_raw): the exponent is split into
// the Stirling error of a and the deviance bd0(a, x), which keeps full
// relative accuracy when a is large and x is near a, where a direct
// a·log(x) - x - Lgamma(a+1) loses digits to cancellation.

// lnSqrt2Pi is log(√(2π)).
const lnSqrt2Pi = 0.91893853320467274178032973640562

// stirlerrHalves[i] is the Stirling error of i/2 for i = 1 … 30,
// log Γ(n+1) - (n+½)·log n + n - log √(2π), computed with mpmath at 50
// digits and rounded to float64 (the same table as R's stirlerr.c).
var stirlerrHalves = [31]float64{
	0,                     // unused: n = 0
	0.15342640972002736,   // 0.5
	0.08106146679532726,   // 1.0
	0.05481412105191765,   // 1.5
	0.0413406959554093,    // 2.0
	0.03316287351993629,   // 2.5
	0.02767792568499834,   // 3.0
	0.023746163656297496,  // 3.5
	0.020790672103765093,  // 4.0
	0.018488450532673187,  // 4.5
	0.016644691189821193,  // 5.0
	0.015134973221917378,  // 5.5
	0.013876128823070748,  // 6.0
	0.012810465242920227,  // 6.5
	0.01189670994589177,   // 7.0
	0.011104559758206917,  // 7.5
	0.010411265261972096,  // 8.0
	0.009799416126158804,  // 8.5
	0.009255462182712733,  // 9.0
	0.008768700134139386,  // 9.5
	0.00833056343336287,   // 10.0
	0.00793411456431402,   // 10.5
	0.007573675487951841,  // 11.0
	0.007244554301320383,  // 11.5
	0.00694284010720953,   // 12.0
	0.006665247032707682,  // 12.5
	0.006408994188004207,  // 13.0
	0.006171712263039458,  // 13.5
	0.0059513701127588475, // 14.0
	0.0057462165130101155, // 14.5
	0.005554733551962801,  // 15.0
}

// stirlerr returns the Stirling error log Γ(n+1) - (n+½)·log n + n - log √(2π)
// for n > 0: from the table when 2n is an integer up to 30, from the
// asymptotic series 1/12n - 1/360n³ + 1/1260n⁵ - … above 15, and from
// lgammaSmall otherwise.
func stirlerr(n float64) float64 {
	const (
		s0 = 1.0 / 12
		s1 = 1.0 / 360
		s2 = 1.0 / 1260
		s3 = 1.0 / 1680
		s4 = 1.0 / 1188
	)
	if n <= 15 {
		if h := 2 * n; h == math.Floor(h) && h >= 1 {
			return stirlerrHalves[int(h)]
		}
		return lgammaSmall(n) - float64((n-0.5)*Log(n)) + n - lnSqrt2Pi
	}
	nn := float64(n * n)
	switch {
	case n > 500:
		return (s0 - s1/nn) / n
	case n > 80:
		return (s0 - (s1-s2/nn)/nn) / n
	case n > 35:
		return (s0 - (s1-(s2-s3/nn)/nn)/nn) / n
	}
	return (s0 - (s1-(s2-(s3-s4/nn)/nn)/nn)/nn) / n
}

// Lgamma returns log Γ(x) for x > 0 (NaN otherwise; +Inf at 0).
func Lgamma(x float64) float64 {
	switch {
	case math.IsNaN(x) || x < 0:
		return math.NaN()
	case x == 0:
		return math.Inf(1)
	case math.IsInf(x, 1):
		return x
	}
	if h := 2 * x; x > 15 || (h == math.Floor(h)) {
		// log Γ(x) = log Γ(x+1) - log x
		return stirlerr(x) + float64((x-0.5)*Log(x)) - x + lnSqrt2Pi
	}
	return lgammaSmall(x)
}

// lgammaSmall returns log Γ(x) for 0 < x <= 15 with 2x not an integer, by
// the recurrence Γ(x) = Γ(x+k)/(x(x+1)…(x+k-1)) from x+k > 15. The product
// has at most 16 factors, each rounded once: a few ulps.
func lgammaSmall(x float64) float64 {
	prod := 1.0
	for x <= 15 {
		prod = float64(prod * x)
		x++
	}
	return stirlerr(x) + float64((x-0.5)*Log(x)) - x + lnSqrt2Pi - Log(prod)
}

// bd0 returns the deviance term x·log(x/m) + m - x for x, m > 0, by a series
// in v = (x-m)/(x+m) when x is near m.
func bd0(x, m float64) float64 {
	if math.Abs(x-m) < float64(0.1*(x+m)) {
		v := (x - m) / (x + m)
		s := float64((x - m) * v)
		ej := float64(float64(2*x) * v)
		v = float64(v * v)
		for j := 1; j < 1000; j++ {
			ej = float64(ej * v)
			s1 := s + ej/float64(2*j+1)
			if s1 == s {
				return s1
			}
			s = s1
		}
		return s
	}
	return float64(x*Log(x/m)) + m - x
}

// poissonRaw returns mˣe⁻ᵐ/Γ(x+1) for real x >= 0 and m >= 0.
func poissonRaw(x, m float64) float64 {
	switch {
	case m == 0:
		if x == 0 {
			return 1
		}
		return 0
	case x == 0:
		return Exp(-m)
	case math.IsInf(m, 1):
		return 0
	}
	return Exp(-stirlerr(x)-bd0(x, m)) / math.Sqrt(float64(2*math.Pi)*x)
}

// GammaInc returns the regularized incomplete gamma functions
// P(a,x) = γ(a,x)/Γ(a) and Q(a,x) = 1 - P(a,x) for a > 0, x >= 0, each
// accurate in relative terms (the smaller one is not 1 minus the other).
// Below x = a+1 it sums the series P = xᵃe⁻ˣ/Γ(a+1)·Σ xⁿ/((a+1)…(a+n));
// above, it evaluates the continued fraction of Q by Lentz's method.
func GammaInc(a, x float64) (p, q float64) {
	switch {
	case math.IsNaN(a) || math.IsNaN(x) || a <= 0 || x < 0:
		return math.NaN(), math.NaN()
	case x == 0:
		return 0, 1
	case math.IsInf(x, 1):
		return 1, 0
	}
	// Both methods need O(√a) steps near x = a (about 9·√a): the cap allows
	// a up to about 1e10. Past it the result is NaN rather than a truncated
	// sum.
	const eps = 1e-17
	const maxIter = 1 << 20
	if x < a+1 {
		sum, term := 1.0, 1.0
		for n := 1; ; n++ {
			if n == maxIter {
				return math.NaN(), math.NaN()
			}
			term = float64(term * (x / (a + float64(n))))
			sum += term
			if term < float64(sum*eps) {
				break
			}
		}
		p = float64(poissonRaw(a, x) * sum)
		return p, 1 - p
	}
	const fpmin = 1e-300
	b := x + 1 - a
	c := 1 / fpmin
	d := 1 / b
	h := d
	for i := 1; ; i++ {
		if i == maxIter {
			return math.NaN(), math.NaN()
		}
		fi := float64(i)
		an := -float64(fi * (fi - a))
		b += 2
		del := lentz(an, b, &c, &d)
		h = float64(h * del)
		if math.Abs(del-1) < eps {
			break
		}
	}
	// xᵃe⁻ˣ/Γ(a) = a/x · xᵃ⁺¹… : a·poissonRaw(a,x) is xᵃe⁻ˣ/Γ(a).
	q = float64(float64(a*poissonRaw(a, x)) * h)
	return 1 - q, q
}

// GammaDensity returns the Gamma(a, 1) density xᵃ⁻¹e⁻ˣ/Γ(a) for x > 0.
func GammaDensity(a, x float64) float64 {
	return float64(a*poissonRaw(a, x)) / x
}

// GammaQuantile returns x with P(a,x) = p for a > 0 and p in [0,1]: NaN
// outside, 0 at p = 0, +Inf at p = 1. It starts from the Wilson-Hilferty
// approximation (or the small-x series when that is not positive) and runs
// safeguarded Newton steps on P - p, or on q - Q with q = 1-p in the upper
// half so that small upper tails keep their digits.
func GammaQuantile(a, p float64) float64 {
	switch {
	case math.IsNaN(a) || math.IsNaN(p) || a <= 0 || p < 0 || p > 1:
		return math.NaN()
	case p == 0:
		return 0
	case p == 1:
		return math.Inf(1)
	}
	upper := p > 0.5
	q := 1 - p
	// Wilson-Hilferty: χ²(2a)/(2a) ≈ (1 - 1/9a + z/(3√a))³.
	z := -float64(math.Sqrt2 * Erfcinv(2*p))
	w := 1 - 1/float64(9*a) + float64(z/float64(3*math.Sqrt(a)))
	x := float64(float64(a*w)*w) * w
	if w <= 0 || x < float64(0.1*a) && a < 1 || x <= 0 {
		// P ≈ xᵃ/Γ(a+1) for small x.
		x = Exp((Log(p) + Lgamma(a+1)) / a)
	}
	return solveIncreasing(x,
		func(x float64) float64 {
			P, Q := GammaInc(a, x)
			if upper {
				return q - Q
			}
			return P - p
		},
		func(x float64) float64 { return GammaDensity(a, x) },
		func(x float64) float64 { return 2 * x })
}

// ChiSquareQuantile returns the p quantile of the chi-square distribution
// with k > 0 degrees of freedom: 2·GammaQuantile(k/2, p).
func ChiSquareQuantile(k, p float64) float64 {
	return 2 * GammaQuantile(k/2, p)
}

// VarianceRatioRange is the central level range of χ²(df)/df, the
// distribution of a sample variance with df degrees of freedom over the
// true variance of normal data: a measured variance over a predicted one
// outside it is unusual at that level.
func VarianceRatioRange(df int, level float64) (lo, hi float64) {
	k := float64(df)
	return ChiSquareQuantile(k, (1-level)/2) / k, ChiSquareQuantile(k, (1+level)/2) / k
}
