package stat

import "math"

// SnapCeil is the least integer >= x, where x within a relative 1e-9 of an
// integer counts as that integer: 0.02·200 is 4 scenarios even when the
// product of the floats is a hair above 4. It is at least 1, for x > 0 is a
// drop of at least one scenario.
func SnapCeil(x float64) int64 {
	r := math.Round(x)
	if math.Abs(x-r) <= 1e-9*math.Max(1, math.Abs(x)) {
		return max(1, int64(r))
	}
	return max(1, int64(math.Ceil(x)))
}
