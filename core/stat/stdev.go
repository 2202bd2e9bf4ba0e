package stat

import (
	"math"
	"math/big"
)

// ExactStdev is the sample standard deviation of xs (len >= 2), computed
// exactly and rounded once to the nearest float64, as Python's
// statistics.stdev (3.11 and later) returns it.
func ExactStdev(xs []float64) float64 {
	// Every finite float64 is m·2^e with an integer m; scale all of them to
	// the smallest exponent so that the sums are exact integers.
	minExp := math.MaxInt
	for _, x := range xs {
		if x == 0 {
			continue
		}
		_, e := math.Frexp(x) // x = f·2^e, f in [0.5,1): m = f·2^53, exponent e-53
		if e-53 < minExp {
			minExp = e - 53
		}
	}
	if minExp == math.MaxInt {
		return 0
	}
	var sx, sxx, m, t big.Int
	for _, x := range xs {
		if x == 0 {
			continue
		}
		f, e := math.Frexp(x)
		mant := int64(math.Ldexp(f, 53)) // exact
		m.SetInt64(mant)
		m.Lsh(&m, uint(e-53-minExp))
		sx.Add(&sx, &m)
		t.Mul(&m, &m)
		sxx.Add(&sxx, &t)
	}
	// variance = (n·Σx² - (Σx)²) / (n(n-1)), all in units of 2^(2·minExp).
	n := big.NewInt(int64(len(xs)))
	var num, den big.Int
	num.Mul(n, &sxx)
	t.Mul(&sx, &sx)
	num.Sub(&num, &t)
	den.Mul(n, big.NewInt(int64(len(xs)-1)))
	// Fold the scale into the fraction: 2^(2·minExp) multiplies num or
	// divides den.
	if minExp >= 0 {
		num.Lsh(&num, uint(2*minExp))
	} else {
		den.Lsh(&den, uint(-2*minExp))
	}
	return sqrtFrac(&num, &den)
}

// sqrtFrac returns sqrt(n/m) for n >= 0, m > 0 correctly rounded to float64,
// by CPython's statistics._float_sqrt_of_frac: an integer square root with
// round-to-odd at 109 bits, then one rounding to 53 bits.
func sqrtFrac(n, m *big.Int) float64 {
	if n.Sign() == 0 {
		return 0
	}
	const width = 2*53 + 3
	q := (n.BitLen() - m.BitLen() - width)
	q = floorDiv2(q)
	var num, den big.Int
	if q >= 0 {
		var mm big.Int
		mm.Lsh(m, uint(2*q))
		isqrtFracRTO(&num, n, &mm)
		num.Lsh(&num, uint(q))
		den.SetInt64(1)
	} else {
		var nn big.Int
		nn.Lsh(n, uint(-2*q))
		isqrtFracRTO(&num, &nn, m)
		den.Lsh(big.NewInt(1), uint(-q))
	}
	f, _ := new(big.Rat).SetFrac(&num, &den).Float64()
	return f
}

// floorDiv2 is x // 2 rounded toward minus infinity, as Python's //.
func floorDiv2(x int) int {
	if x >= 0 {
		return x / 2
	}
	return -((-x + 1) / 2)
}

// isqrtFracRTO sets z to sqrt(n/m) rounded to an integer with round-to-odd:
// a = isqrt(n div m), and a|1 when a² ≠ n/m.
func isqrtFracRTO(z, n, m *big.Int) {
	var d, chk big.Int
	d.Quo(n, m)
	z.Sqrt(&d)
	chk.Mul(z, z)
	chk.Mul(&chk, m)
	if chk.Cmp(n) != 0 {
		z.SetBit(z, 0, 1)
	}
}

// SampleVariance is the variance of xs with n-1 in the denominator, the
// deviations summed exactly around the exactly rounded mean.
func SampleVariance(xs []float64) float64 {
	m := Fmean(xs)
	var s Sum
	for _, x := range xs {
		d := x - m
		s.Add(float64(d * d))
	}
	return s.Sum() / float64(len(xs)-1)
}
