package gate

import "math"

// closeRel reports whether got is within rel of want, relatively, or within
// 1e-15 absolutely: where a Wilson bound is exactly 0 or 1, the reference
// listings leave rounding residues such as 6.9e-18, and Wilson returns the
// exact bound.
func closeRel(got, want float64, rel float64) bool {
	d := math.Abs(got - want)
	return d <= rel*math.Abs(want) || d <= 1e-15
}
