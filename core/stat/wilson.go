package stat

import (
	"math"
)

// Z returns the two-sided normal critical value for a confidence level in
// (0,1): the standard normal quantile at 1/2 + confidence/2, √2·erfinv(c).
// Z(0.95) is 1.959963984540054. Outside (0,1) it returns NaN. It is within
// 2 units in the last place of the exact quantile at the float64 value of
// confidence, over the whole range (TestZHighPrecision).
//
// From 0.5 up, the upper tail (1-confidence)/2 is exact in float64: the
// estimate from the inverse complementary error function is polished by
// two Newton steps on that tail, where the residual can still be resolved.
// Below 0.5, 1-confidence would round away the digits of a small
// confidence (Z(1e-4) lost nine of them): z is √2·erfinv(c) from c itself,
// whose rational form keeps c's relative precision down to the smallest
// confidences, polished by a Newton step on erf. It uses the deterministic
// special functions of this package, so Z has the same bits on every
// platform.
func Z(confidence float64) float64 {
	if !(confidence > 0 && confidence < 1) {
		return math.NaN()
	}
	if confidence < 0.5 {
		z := float64(math.Sqrt2 * Erfinv(confidence))
		return z + (confidence-erfSmall(z/math.Sqrt2))/(2*NormalDensity(z))
	}
	tail := (1 - confidence) / 2
	z := math.Sqrt2 * Erfcinv(2*tail)
	for range 2 {
		q := float64(0.5 * Erfc(z/math.Sqrt2))
		z += (q - tail) / NormalDensity(z)
	}
	return z
}

// Wilson returns the Wilson score interval for successes out of n trials at
// critical value z, clamped to [0,1]. successes may be fractional (an exact
// rate times n). With n = 0 nothing is known and the interval is [0,1].
// The interval always holds p: at k = 0 and k = n rounding would otherwise
// leave residues such as 3.5e-18 or 0.9999999999999999 where the bound is
// exactly 0 or 1.
//
//	p = successes/n, d = 1 + z²/n
//	centre = (p + z²/2n) / d
//	half = (z/d)·sqrt(p(1-p)/n + z²/4n²)
func Wilson(successes, n, z float64) (lower, upper float64) {
	if n <= 0 {
		return 0, 1
	}
	p := successes / n
	denom := 1 + z*z/n
	centre := (p + z*z/(2*n)) / denom
	// float64(): rounded before centre ± half, or arm64 fuses the product
	// into a multiply-add and the bounds move by an ulp.
	half := float64((z / denom) * math.Sqrt(p*(1-p)/n+z*z/(4*n*n)))
	return max(0, min(centre-half, p)), min(1, max(centre+half, p))
}
