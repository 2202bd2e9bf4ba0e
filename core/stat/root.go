package stat

import "math"

// solveIncreasing returns the x > 0 at which f, an increasing function with
// derivative df, is 0, starting from the estimate x. It runs Newton steps
// inside the bracket [lo, hi] that the signs of f have shown so far,
// bisecting whenever a step would leave it or df is 0 or infinite; while f
// has not yet been positive (hi is +Inf) it goes to grow(x) instead. It
// stops at an exact zero, when a step moves x by less than 4e-16 of itself,
// or when a step lands on the bracket. A NaN from f, or 400 steps without
// converging, give NaN: no approximate answer. StudentQuantile and
// GammaQuantile (and so ChiSquareQuantile) both solve through it.
func solveIncreasing(x float64, f, df, grow func(x float64) float64) float64 {
	lo, hi := 0.0, math.Inf(1)
	for range 400 {
		fx := f(x)
		if math.IsNaN(fx) {
			return math.NaN()
		}
		if fx == 0 {
			return x
		}
		if fx < 0 {
			lo = x
		} else {
			hi = x
		}
		d := df(x)
		next := x - fx/d
		if !(next > lo && next < hi) || d == 0 || math.IsInf(d, 0) {
			if math.IsInf(hi, 1) {
				next = grow(x)
			} else {
				next = lo + (hi-lo)/2
			}
		}
		if math.Abs(next-x) <= float64(4e-16*x) || next == lo || next == hi {
			return next
		}
		x = next
	}
	return math.NaN() // not converged: no approximate answer
}
