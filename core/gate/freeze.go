package gate

import (
	"fmt"
	"time"

	"github.com/flakegate/flakegate/core"
	"github.com/flakegate/flakegate/core/stat"
)

// Freeze statuses.
const (
	FreezeRecorded      = "recorded"       // a new claim, nothing to check it against yet
	FreezeValid         = "valid"          // the newer rate falls inside the claim's interval
	FreezeStale         = "stale"          // the newer rate falls outside it at a comparable n
	FreezeNotComparable = "not-comparable" // the newer count is too small to judge the claim
)

// FreezeInput is a frozen rate claim and, optionally, a newer count to check
// it against. A claim is a stored statement: this test passed Claim.Passed of
// Claim.Trials runs, measured on Date, with its Wilson interval.
type FreezeInput struct {
	Claim      core.Count
	Date       string      // the claim's measurement date, YYYY-MM-DD; may be empty
	Newer      *core.Count // a later count of the same test; nil to only record
	Confidence float64     // of the claim's interval, in (0,1)
	// Comparable is the least ratio of newer trials to claim trials at which
	// the newer count can overturn the claim, in (0,1].
	Comparable float64
}

// DefaultFreezeInput records at 95% and judges newer counts of at least half
// the claim's trials.
var DefaultFreezeInput = FreezeInput{Confidence: core.DefaultConfidence, Comparable: 0.5}

// Claim is a frozen rate: the record to store beside a quarantined test.
type Claim struct {
	Passed     int64   `json:"passed"`
	Trials     int64   `json:"trials"`
	Rate       float64 `json:"rate"`  // Passed/Trials in [0,1]
	Lower      float64 `json:"lower"` // Wilson lower bound in [0,1]
	Upper      float64 `json:"upper"` // Wilson upper bound in [0,1]
	Confidence float64 `json:"confidence"`
	Date       string  `json:"date"`
}

// FreezeResult says whether a claim still holds.
type FreezeResult struct {
	Claim      Claim    `json:"claim"`
	Newer      *Arm     `json:"newer"`
	Status     string   `json:"status"`
	Comparable bool     `json:"comparable"` // the newer count is large enough to judge
	Blocks     bool     `json:"blocks"`     // the claim is stale: measure the test again
	Warnings   []string `json:"warnings"`
	// Link is the address of the calculator view that reproduces this
	// result, set by the surfaces that know where the calculator is (the
	// API, on its own origin; the CLI, given -site); absent otherwise.
	Link string `json:"link,omitempty"`
	// LinkNote says in words what the link leaves out, or why there is
	// none (a state past the 8 KiB a link holds); absent when nothing.
	LinkNote string `json:"link_note,omitempty"`
}

// Freeze records a claim and, given a newer count, reports it valid while the
// newer rate stays inside the claim's interval and stale once it leaves it at
// a comparable number of trials.
func Freeze(in FreezeInput) (*FreezeResult, error) {
	if err := in.Claim.Check("claim"); err != nil {
		return nil, err
	}
	if in.Claim.Trials == 0 {
		return nil, core.FieldErrorf("claim", "needs at least one trial")
	}
	if err := core.CheckConfidence(in.Confidence); err != nil {
		return nil, err
	}
	if !(in.Comparable > 0 && in.Comparable <= 1) {
		return nil, core.FieldErrorf("comparable", "must be in (0,1], got %v", in.Comparable)
	}
	if in.Date != "" {
		if _, err := time.Parse(time.DateOnly, in.Date); err != nil {
			return nil, core.FieldErrorf("date", "must be YYYY-MM-DD, got %q", in.Date)
		}
	}
	z := stat.Z(in.Confidence)
	a := NewArm(in.Claim, z)
	res := &FreezeResult{
		Claim: Claim{Passed: a.Passed, Trials: a.Trials, Rate: *a.Rate, Lower: a.Lower, Upper: a.Upper,
			Confidence: in.Confidence, Date: in.Date},
		Status:   FreezeRecorded,
		Warnings: []string{},
	}
	if in.Newer == nil {
		return res, nil
	}
	if err := in.Newer.Check("newer"); err != nil {
		return nil, err
	}
	if in.Newer.Trials == 0 {
		return nil, core.FieldErrorf("newer", "needs at least one trial")
	}
	n := NewArm(*in.Newer, z)
	res.Newer = &n
	res.Comparable = float64(in.Newer.Trials) >= in.Comparable*float64(in.Claim.Trials)
	outside := *n.Rate < res.Claim.Lower || *n.Rate > res.Claim.Upper
	switch {
	case !res.Comparable:
		res.Status = FreezeNotComparable
		res.Warnings = append(res.Warnings, fmt.Sprintf(
			"%d newer trials against a claim of %d: run at least %.0f before judging the claim",
			in.Newer.Trials, in.Claim.Trials, ceilInt(in.Comparable*float64(in.Claim.Trials))))
	case outside:
		res.Status, res.Blocks = FreezeStale, true
	default:
		res.Status = FreezeValid
	}
	return res, nil
}

func ceilInt(x float64) float64 {
	c := float64(int64(x))
	if c < x {
		c++
	}
	return c
}
