package gate

import (
	"github.com/flakegate/flakegate/core"
	"github.com/flakegate/flakegate/core/stat"
)

// Arm is a Count with its observed rate and Wilson interval.
type Arm struct {
	Passed int64    `json:"passed"`
	Trials int64    `json:"trials"`
	Rate   *float64 `json:"rate"`  // Passed/Trials in [0,1]; null when Trials is 0
	Lower  float64  `json:"lower"` // Wilson lower bound in [0,1]
	Upper  float64  `json:"upper"` // Wilson upper bound in [0,1]
}

// NewArm computes the rate and Wilson interval of c at critical value z.
func NewArm(c core.Count, z float64) Arm {
	a := Arm{Passed: c.Passed, Trials: c.Trials}
	a.Lower, a.Upper = stat.Wilson(float64(c.Passed), float64(c.Trials), z)
	if c.Trials > 0 {
		r := float64(c.Passed) / float64(c.Trials)
		a.Rate = &r
	}
	return a
}

func ptr[T any](v T) *T { return &v }
