package core

import (
	"math"
)

// DefaultConfidence is the two-sided confidence level used when none is given.
const DefaultConfidence = 0.95

// Z returns the two-sided normal critical value for a confidence level in
// (0,1): the standard normal quantile at 1-(1-confidence)/2. Z(0.95) is
// 1.959963984540054. Outside (0,1) it returns NaN.
//
// The estimate from the inverse complementary error function is polished by
// two Newton steps on the upper tail, where the residual can still be
// resolved in float64. It uses the deterministic special functions of
// special_normal.go, so Z has the same bits on every platform.
func Z(confidence float64) float64 {
	if !(confidence > 0 && confidence < 1) {
		return math.NaN()
	}
	tail := (1 - confidence) / 2
	z := math.Sqrt2 * perfcinv(2*tail)
	for range 2 {
		q := float64(0.5 * perfc(z/math.Sqrt2))
		z += (q - tail) / normalDensity(z)
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

// Count is a number of successes out of a number of trials.
type Count struct {
	Passed int64 `json:"passed"` // in [0, Trials]
	Trials int64 `json:"trials"` // >= 0
}

// Arm is a Count with its observed rate and Wilson interval.
type Arm struct {
	Passed int64    `json:"passed"`
	Trials int64    `json:"trials"`
	Rate   *float64 `json:"rate"`  // Passed/Trials in [0,1]; null when Trials is 0
	Lower  float64  `json:"lower"` // Wilson lower bound in [0,1]
	Upper  float64  `json:"upper"` // Wilson upper bound in [0,1]
}

// NewArm computes the rate and Wilson interval of c at critical value z.
func NewArm(c Count, z float64) Arm {
	a := Arm{Passed: c.Passed, Trials: c.Trials}
	a.Lower, a.Upper = Wilson(float64(c.Passed), float64(c.Trials), z)
	if c.Trials > 0 {
		r := float64(c.Passed) / float64(c.Trials)
		a.Rate = &r
	}
	return a
}

func (c Count) check(field string) error {
	if c.Trials < 0 {
		return fieldErr(field, "trials must not be negative, got %d", c.Trials)
	}
	if c.Passed < 0 || c.Passed > c.Trials {
		return fieldErr(field, "passed must be in [0, %d], got %d", c.Trials, c.Passed)
	}
	return nil
}

func checkConfidence(c float64) error {
	if !(c > 0 && c < 1) {
		return fieldErr("confidence", "must be in (0,1), got %v", c)
	}
	return nil
}

func ptr[T any](v T) *T { return &v }
