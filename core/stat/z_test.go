package stat

import (
	"math"
	"math/big"
	"testing"
)

// zPrec is the working precision of the reference: the series of erf at
// x = 6 peaks near e^36 ≈ 2^52 before it cancels, so 512 bits leave more
// than 400 correct.
const zPrec = 512

func bigf() *big.Float { return new(big.Float).SetPrec(zPrec) }

// bigAtanInv is atan(1/n) by its series Σ (-1)^k / ((2k+1) n^(2k+1)).
func bigAtanInv(n int64) *big.Float {
	sum, term := bigf(), bigf().Quo(bigf().SetInt64(1), bigf().SetInt64(n))
	n2 := bigf().SetInt64(n * n)
	eps := bigf().SetMantExp(bigf().SetInt64(1), -zPrec-8)
	for k := int64(0); term.Cmp(eps) > 0; k++ {
		t := bigf().Quo(term, bigf().SetInt64(2*k+1))
		if k%2 == 0 {
			sum.Add(sum, t)
		} else {
			sum.Sub(sum, t)
		}
		term.Quo(term, n2)
	}
	return sum
}

// bigPi is π by Machin's formula, 16 atan(1/5) - 4 atan(1/239).
func bigPi() *big.Float {
	a := bigf().Mul(bigf().SetInt64(16), bigAtanInv(5))
	return a.Sub(a, bigf().Mul(bigf().SetInt64(4), bigAtanInv(239)))
}

// bigErf is erf(x) = 2/√π Σ (-1)^n x^(2n+1) / (n! (2n+1)), for 0 <= x <= 6.
func bigErf(x, sqrtPi *big.Float) *big.Float {
	x2 := bigf().Mul(x, x)
	sum, pow := bigf(), bigf().Set(x) // pow = x^(2n+1)/n!
	eps := bigf().SetMantExp(bigf().SetInt64(1), -zPrec-8)
	for n := int64(0); ; n++ {
		t := bigf().Quo(pow, bigf().SetInt64(2*n+1))
		if n%2 == 0 {
			sum.Add(sum, t)
		} else {
			sum.Sub(sum, t)
		}
		if n > 2 && t.Cmp(eps) < 0 && pow.Cmp(eps) < 0 {
			break
		}
		pow.Mul(pow, x2)
		pow.Quo(pow, bigf().SetInt64(n+1))
	}
	sum.Mul(sum, bigf().SetInt64(2))
	return sum.Quo(sum, sqrtPi)
}

// bigExpNeg is e^-y for 0 <= y <= 40 by the series of e^(y/64), squared six
// times, inverted.
func bigExpNeg(y *big.Float) *big.Float {
	u := bigf().Quo(y, bigf().SetInt64(64))
	sum, term := bigf().SetInt64(1), bigf().SetInt64(1)
	eps := bigf().SetMantExp(bigf().SetInt64(1), -zPrec-8)
	for n := int64(1); term.Cmp(eps) > 0; n++ {
		term.Mul(term, u)
		term.Quo(term, bigf().SetInt64(n))
		sum.Add(sum, term)
	}
	for range 6 {
		sum.Mul(sum, sum)
	}
	return sum.Quo(bigf().SetInt64(1), sum)
}

// refZ is the two-sided normal critical value at confidence c, computed
// independently of Z: z = √2·x where erf(x) = c exactly (c is the float64
// value), by Newton's method on the series of erf at 512 bits, started
// from math.Erfinv (Go's own, not this package's).
func refZ(c float64) float64 {
	sqrtPi := bigf().Sqrt(bigPi())
	target := bigf().SetFloat64(c)
	x := bigf().SetFloat64(math.Erfinv(c))
	twoOverSqrtPi := bigf().Quo(bigf().SetInt64(2), sqrtPi)
	for range 12 {
		f := bigErf(x, sqrtPi)
		f.Sub(f, target)
		d := bigf().Mul(twoOverSqrtPi, bigExpNeg(bigf().Mul(x, x)))
		x.Sub(x, f.Quo(f, d))
	}
	x.Mul(x, bigf().Sqrt(bigf().SetInt64(2)))
	z, _ := x.Float64()
	return z
}

// ulpsOff is how many float64 steps got is from want.
func ulpsOff(got, want float64) float64 {
	return math.Abs(got-want) / (math.Nextafter(want, math.Inf(1)) - want)
}

// Z against the 512-bit reference, over the whole of (0,1): confidences
// from 1e-300 up to 0.5 and then 1-c down to 1e-16, log-spaced, and the
// levels people use. Tolerance: 2 units in the last place.
func TestZHighPrecision(t *testing.T) {
	var cs []float64
	for e := -300.0; e < math.Log10(0.5); e += 0.25 {
		cs = append(cs, math.Pow(10, e))
	}
	for e := math.Log10(0.5); e >= -16; e -= 0.25 {
		cs = append(cs, 1-math.Pow(10, e))
	}
	cs = append(cs, 1e-4, 9.999e-5, 0.3, 0.4999999999999999, 0.5, 0.8, 0.9, 0.95, 0.99, 0.999, 0.9999999999999999)
	worst, at := 0.0, 0.0
	for _, c := range cs {
		if !(c > 0 && c < 1) {
			continue
		}
		want := refZ(c)
		got := Z(c)
		if u := ulpsOff(got, want); u > worst {
			worst, at = u, c
		}
		if u := ulpsOff(got, want); u > 2 {
			t.Errorf("Z(%v) = %.17g, want %.17g (%.0f units in the last place off)", c, got, want, u)
		}
	}
	t.Logf("%d confidences; worst %.1f units in the last place, at %v", len(cs), worst, at)
}

// The reference itself, against printed quantiles: Φ⁻¹(0.75) =
// 0.67448975019608174320… (c = 0.5 is exact), and Φ⁻¹(0.975) =
// 1.95996398454005423552… (Abramowitz and Stegun, R's qnorm). The float64
// 0.95 is 4.4e-17 below 0.95, so the exact quantile at it is 3.8e-16
// lower, 1.95996398454005385…, whose nearest float64 is
// 1.9599639845400538: one unit in the last place below Z(0.95) and R's
// qnorm(0.975), 1.959963984540054, which Z keeps.
func TestRefZ(t *testing.T) {
	if z := refZ(0.5); z != 0.6744897501960817 {
		t.Errorf("refZ(0.5) = %.17g, want 0.6744897501960817", z)
	}
	if z := refZ(0.95); z != 1.9599639845400538 {
		t.Errorf("refZ(0.95) = %.17g, want 1.9599639845400538", z)
	}
	// For a small c, z = √(π/2)·c·(1 + πc²/12 + …): at 1e-10 the second term
	// is below an ulp.
	if z, want := refZ(1e-10), math.Sqrt(math.Pi/2)*1e-10; ulpsOff(z, want) > 1 {
		t.Errorf("refZ(1e-10) = %.17g, want %.17g", z, want)
	}
}
