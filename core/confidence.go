package core

// DefaultConfidence is the two-sided confidence level used when none is given.
const DefaultConfidence = 0.95

// CheckConfidence returns an Invalid *Error for the field "confidence"
// unless c is in (0,1).
func CheckConfidence(c float64) error {
	if !(c > 0 && c < 1) {
		return FieldErrorf("confidence", "must be in (0,1), got %v", c)
	}
	return nil
}
