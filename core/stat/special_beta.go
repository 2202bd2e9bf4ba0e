package stat

import (
	"math"
)

// The beta family: log-beta, the regularized incomplete beta function and
// Student's t distribution, built on Exp/Log/Log1p only.

// Lbeta returns log B(a,b) = log Γ(a) + log Γ(b) - log Γ(a+b) for a, b > 0.
// With the larger argument above 10 it cancels the large terms analytically
// (as R's lbeta does), leaving the Stirling errors, so that log B(ν/2, ½)
// keeps its relative accuracy for large ν.
func Lbeta(a, b float64) float64 {
	p, q := min(a, b), max(a, b)
	switch {
	case math.IsNaN(p) || math.IsNaN(q) || p < 0:
		return math.NaN()
	case p == 0:
		return math.Inf(1)
	case math.IsInf(q, 1):
		return math.Inf(-1)
	}
	s := p + q
	switch {
	case p >= 10:
		corr := stirlerr(p) + stirlerr(q) - stirlerr(s)
		return -float64(0.5*Log(q)) + lnSqrt2Pi + corr + float64((p-0.5)*Log(p/s)) + float64(q*Log1p(-p/s))
	case q >= 10:
		corr := stirlerr(q) - stirlerr(s)
		return Lgamma(p) + corr + p - float64(p*Log(s)) + float64((q-0.5)*Log1p(-p/s))
	}
	return Lgamma(p) + Lgamma(q) - Lgamma(s)
}

// BetaInc returns the regularized incomplete beta function I_x(a,b) for
// a, b > 0 and x in [0,1], given x and y = 1-x separately so that a y
// computed without cancellation (such as t²/(ν+t²)) keeps its digits. It
// evaluates the continued fraction (Lentz's method) on whichever side
// converges fast, and the symmetry I_x(a,b) = 1 - I_y(b,a) on the other;
// the second result is 1 - I_x(a,b), each accurate in relative terms.
func BetaInc(a, b, x, y float64) (ix, iy float64) {
	switch {
	case math.IsNaN(a) || math.IsNaN(b) || math.IsNaN(x) || math.IsNaN(y) || a <= 0 || b <= 0 || x < 0 || y < 0:
		return math.NaN(), math.NaN()
	case x == 0:
		return 0, 1
	case y == 0:
		return 1, 0
	}
	if x > (a+1)/(a+b+2) {
		iy, ix = BetaInc(b, a, y, x)
		return ix, iy
	}
	// xᵃyᵇ/(a·B(a,b)), logs of x and y taken on the smaller of the pair.
	lx, ly := Log(x), Log(y)
	if x > 0.5 {
		lx = Log1p(-y)
	} else {
		ly = Log1p(-x)
	}
	front := Exp(float64(a*lx)+float64(b*ly)-Lbeta(a, b)) / a
	ix = float64(front * betaFraction(a, b, x))
	return ix, 1 - ix
}

// betaFraction evaluates the continued fraction of I_x(a,b) (Numerical
// Recipes' betacf) by Lentz's method; it converges fast for x < (a+1)/(a+b+2).
func betaFraction(a, b, x float64) float64 {
	const eps = 1e-17
	const fpmin = 1e-300
	qab, qap, qam := a+b, a+1, a-1
	c := 1.0
	d := 1 - float64(qab*x)/qap
	if math.Abs(d) < fpmin {
		d = fpmin
	}
	d = 1 / d
	h := d
	for m := 1; ; m++ {
		if m == 1<<20 {
			return math.NaN() // not converged: no truncated answer
		}
		fm := float64(m)
		m2 := 2 * fm
		aa := float64(float64(fm*(b-fm))*x) / float64((qam+m2)*(a+m2))
		h = float64(h * lentz(aa, 1, &c, &d))
		aa = -float64(float64((a+fm)*(qab+fm))*x) / float64((a+m2)*(qap+m2))
		del := lentz(aa, 1, &c, &d)
		h = float64(h * del)
		if math.Abs(del-1) < eps {
			break
		}
	}
	return h
}

// StudentTail returns P(T > |t|) for Student's t with nu > 0 degrees of
// freedom: I_x(ν/2, ½)/2 with x = ν/(ν+t²).
func StudentTail(t, nu float64) float64 {
	t2 := float64(t * t)
	s := nu + t2
	ix, _ := BetaInc(nu/2, 0.5, nu/s, t2/s)
	return 0.5 * ix
}

// StudentCDF returns P(T <= t) for Student's t with nu > 0 degrees of
// freedom; NaN for NaN input or nu <= 0.
func StudentCDF(t, nu float64) float64 {
	switch {
	case math.IsNaN(t) || math.IsNaN(nu) || nu <= 0:
		return math.NaN()
	case math.IsInf(t, 1):
		return 1
	case math.IsInf(t, -1):
		return 0
	}
	if t < 0 {
		return StudentTail(t, nu)
	}
	return 1 - StudentTail(t, nu)
}

// StudentDensity returns the t density (1+t²/ν)^(-(ν+1)/2) / (√ν·B(ν/2,½)).
func StudentDensity(t, nu float64) float64 {
	return Exp(-float64((nu+1)/2*Log1p(float64(t*t)/nu))-Lbeta(nu/2, 0.5)) / math.Sqrt(nu)
}

// StudentQuantile returns t with P(T <= t) = p for Student's t with nu > 0
// degrees of freedom: NaN outside p in [0,1], ∓Inf at 0 and 1, and NaN where
// |t| would pass 1e154 (t² overflows; with ν = 1 that is a tail below 2e-155). It runs
// safeguarded Newton steps on the tail P(T > |t|) from the normal quantile,
// bisecting whenever a step leaves the bracket.
func StudentQuantile(p, nu float64) float64 {
	switch {
	case math.IsNaN(p) || math.IsNaN(nu) || nu <= 0 || p < 0 || p > 1:
		return math.NaN()
	case p == 0:
		return math.Inf(-1)
	case p == 1:
		return math.Inf(1)
	case p == 0.5:
		return 0
	}
	// Solve tail(t) = target for t > 0, then set the sign.
	target, sign := 1-p, 1.0
	if p < 0.5 {
		target, sign = p, -1
	}
	t := float64(math.Sqrt2 * Erfcinv(2*target)) // normal quantile of 1-target
	if !(t > 0) {
		t = 1
	}
	var tail float64
	t = solveIncreasing(t,
		func(t float64) float64 { tail = StudentTail(t, nu); return target - tail },
		func(t float64) float64 { return StudentDensity(t, nu) },
		func(t float64) float64 {
			// Far out the tail falls as a power, C·t^-ν: jump to where
			// that power reaches the target (at least doubling t).
			return math.Min(math.MaxFloat64, t*math.Max(2, Exp(Log(tail/target)/nu)))
		})
	return sign * t
}

// lentz is one step of Lentz's method for a continued fraction (Numerical
// Recipes 5.2): with the next partial numerator an and denominator bn it
// moves C and D on, each kept away from 0, and returns the factor C·D by
// which the fraction's value changes.
func lentz(an, bn float64, c, d *float64) float64 {
	const fpmin = 1e-300
	*d = bn + float64(an**d)
	if math.Abs(*d) < fpmin {
		*d = fpmin
	}
	*c = bn + an/(*c)
	if math.Abs(*c) < fpmin {
		*c = fpmin
	}
	*d = 1 / *d
	return float64(*d * *c)
}
