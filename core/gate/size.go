package gate

import (
	"fmt"

	"github.com/flakegate/flakegate/core"
	"github.com/flakegate/flakegate/core/stat"
)

// SizeInput asks how many trials per arm separate two pass rates.
type SizeInput struct {
	Baseline   float64 // pass rate in [0,1]
	Patched    float64 // pass rate in [0,1]
	Confidence float64 // in (0,1)
	// MinTrials is the fewest trials per arm the plan may ask for, >= 0:
	// a decision gives no verdict on fewer (DecideInput.MinTrials). 0 for
	// no floor.
	MinTrials int64
}

// DefaultSizeInput sizes at 95% intervals; the two rates have no default.
var DefaultSizeInput = SizeInput{Confidence: core.DefaultConfidence}

// SizeLimit is the largest trials per arm Size searches.
const SizeLimit = 10_000_000

// SizeResult is the answer to a SizeInput.
type SizeResult struct {
	Baseline   float64 `json:"baseline"`
	Patched    float64 `json:"patched"`
	Confidence float64 `json:"confidence"`
	// TrialsPerArm is the smallest n at which the Wilson intervals of the two
	// rates, observed exactly at n trials, do not overlap; null when not
	// reached by SizeLimit.
	TrialsPerArm *int64   `json:"trials_per_arm"`
	Warnings     []string `json:"warnings"`
	// Link is the address of the calculator view that reproduces this
	// result, set by the surfaces that know where the calculator is (the
	// API, on its own origin; the CLI, given -site); absent otherwise.
	Link string `json:"link,omitempty"`
	// LinkNote says in words what the link leaves out, or why there is
	// none (a state past the 8 KiB a link holds); absent when nothing.
	LinkNote string `json:"link_note,omitempty"`
}

// separated reports whether the intervals of rates a and b at n trials are apart.
func separated(a, b, n, z float64) bool {
	loA, hiA := stat.Wilson(a*n, n, z)
	loB, hiB := stat.Wilson(b*n, n, z)
	return hiA < loB || hiB < loA
}

// Size finds the trials per arm at which two exact rates separate. The
// search gallops then bisects, which relies on separation persisting as n
// grows; a test checks that against a plain scan.
func Size(in SizeInput) (*SizeResult, error) {
	for _, f := range []struct {
		name string
		v    float64
	}{{"baseline", in.Baseline}, {"patched", in.Patched}} {
		if !(f.v >= 0 && f.v <= 1) {
			return nil, core.FieldErrorf(f.name, "rate must be in [0,1], got %v", f.v)
		}
	}
	if err := core.CheckConfidence(in.Confidence); err != nil {
		return nil, err
	}
	if in.MinTrials < 0 {
		return nil, core.FieldErrorf("min_trials", "must not be negative, got %d", in.MinTrials)
	}
	res := &SizeResult{Baseline: in.Baseline, Patched: in.Patched, Confidence: in.Confidence, Warnings: []string{}}
	z := stat.Z(in.Confidence)
	n := sizeSearch(in.Baseline, in.Patched, z)
	if n == 0 {
		res.Warnings = append(res.Warnings, fmt.Sprintf("the rates do not separate within %d trials per arm", SizeLimit))
		return res, nil
	}
	if n < in.MinTrials {
		res.Warnings = append(res.Warnings, fmt.Sprintf("%d trials per arm separate the intervals; the plan asks for the %d a decision needs (min_trials)", n, in.MinTrials))
		n = in.MinTrials
	}
	res.TrialsPerArm = &n
	return res, nil
}

func sizeSearch(a, b, z float64) int64 {
	if a == b || !separated(a, b, SizeLimit, z) {
		return 0
	}
	hi := int64(1)
	for !separated(a, b, float64(hi), z) {
		hi *= 2
		if hi > SizeLimit {
			hi = SizeLimit
			break
		}
	}
	lo := hi / 2 // not separated (or 0)
	for hi-lo > 1 {
		mid := lo + (hi-lo)/2
		if separated(a, b, float64(mid), z) {
			hi = mid
		} else {
			lo = mid
		}
	}
	return hi
}

// Sizing is the sizing question a decision raises: the trials per arm at
// which the two observed pass rates, Passed/Trials of each arm, would
// separate at the decision's confidence. ok is false when an arm has no
// trials (no rate to size for).
func Sizing(in DecideInput) (s SizeInput, ok bool) {
	if in.Baseline.Trials == 0 || in.Patched.Trials == 0 {
		return SizeInput{}, false
	}
	return SizeInput{
		Baseline:   float64(in.Baseline.Passed) / float64(in.Baseline.Trials),
		Patched:    float64(in.Patched.Passed) / float64(in.Patched.Trials),
		Confidence: in.Confidence,
	}, true
}
