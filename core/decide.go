package core

import "fmt"

// Verdicts of a two-arm comparison.
const (
	VerdictUnderpowered = "underpowered"         // an arm has fewer than MinTrials trials
	VerdictImproved     = "improved"             // patched interval lies wholly above baseline's
	VerdictRegressed    = "regressed"            // patched interval lies wholly below baseline's
	VerdictNoChange     = "no-detectable-change" // the intervals overlap
)

// Property check states for an improvement.
const (
	PropertyPassed  = "passed"
	PropertyFailed  = "failed"
	PropertyUnknown = "unknown"
)

// Gate actions, one per verdict (and property state for an improvement).
const (
	GateQuarantine = "quarantine" // underpowered: quarantine the test, attribute nothing to the patch
	GateNoClaim    = "no-claim"   // no change: merge on other evidence, but claim no flake fix
	GateBlock      = "block"      // regressed, or improved while the property check failed
	GateAccept     = "accept"     // improved and the property check passed
	GateOwed       = "property-check-owed"
)

// GateAction says, in a line, what a gate does.
func GateAction(gate string) string {
	switch gate {
	case GateQuarantine:
		return "too few trials: quarantine the test and attribute nothing to the patch"
	case GateNoClaim:
		return "the intervals overlap: the patch may merge on other evidence but cannot claim a flake fix"
	case GateBlock:
		return "block the patch"
	case GateAccept:
		return "accept: the rate moved and the property check passed"
	case GateOwed:
		return "the rate moved up; accept only once a deterministic property check passes"
	}
	return ""
}

// GateBlocks reports whether a gate action stops a merge.
func GateBlocks(gate string) bool { return gate == GateQuarantine || gate == GateBlock }

// DecideInput is a two-arm experiment: passes out of trials before and after
// a patch. Start from DefaultDecideInput.
type DecideInput struct {
	Baseline   Count
	Patched    Count
	MinTrials  int64   // fewest trials an arm needs for a verdict, >= 1
	Confidence float64 // of both Wilson intervals, in (0,1)
	Property   string  // PropertyPassed, PropertyFailed or PropertyUnknown
}

// DefaultDecideInput asks for 20 trials an arm at 95% with the property check unknown.
var DefaultDecideInput = DecideInput{MinTrials: 20, Confidence: DefaultConfidence, Property: PropertyUnknown}

// DecideResult is the verdict of a two-arm experiment and what the gate does.
type DecideResult struct {
	Verdict    string   `json:"verdict"`
	Gate       string   `json:"gate"`
	Action     string   `json:"action"`
	Blocks     bool     `json:"blocks"` // the gate stops the merge
	Property   string   `json:"property"`
	MinTrials  int64    `json:"min_trials"`
	Confidence float64  `json:"confidence"`
	Baseline   Arm      `json:"baseline"`
	Patched    Arm      `json:"patched"`
	Warnings   []string `json:"warnings"`
}

func (in DecideInput) check() error {
	if err := in.Baseline.check("baseline"); err != nil {
		return err
	}
	if err := in.Patched.check("patched"); err != nil {
		return err
	}
	if in.MinTrials < 1 {
		return fieldErr("min_trials", "must be at least 1, got %d", in.MinTrials)
	}
	switch in.Property {
	case PropertyPassed, PropertyFailed, PropertyUnknown:
	default:
		return fieldErr("property", "must be passed, failed or unknown, got %q", in.Property)
	}
	return checkConfidence(in.Confidence)
}

// Decide compares the arms' Wilson intervals. The verdict is underpowered
// when either arm has fewer than MinTrials trials, improved or regressed when
// the intervals do not overlap, and no-detectable-change otherwise. An
// improvement is accepted only when the property check passed.
func Decide(in DecideInput) (*DecideResult, error) {
	if err := in.check(); err != nil {
		return nil, err
	}
	z := Z(in.Confidence)
	res := &DecideResult{Property: in.Property, MinTrials: in.MinTrials, Confidence: in.Confidence,
		Baseline: NewArm(in.Baseline, z), Patched: NewArm(in.Patched, z), Warnings: []string{}}
	b, p := res.Baseline, res.Patched
	switch {
	case in.Baseline.Trials < in.MinTrials || in.Patched.Trials < in.MinTrials:
		res.Verdict, res.Gate = VerdictUnderpowered, GateQuarantine
		res.Warnings = append(res.Warnings, fmt.Sprintf(
			"an arm has fewer than %d trials (baseline %d, patched %d)", in.MinTrials, in.Baseline.Trials, in.Patched.Trials))
	case b.Upper < p.Lower:
		res.Verdict = VerdictImproved
		switch in.Property {
		case PropertyPassed:
			res.Gate = GateAccept
		case PropertyFailed:
			res.Gate = GateBlock
			res.Warnings = append(res.Warnings, "the pass rate rose but the property check failed: the patch may have loosened the test")
		default:
			res.Gate = GateOwed
			res.Warnings = append(res.Warnings, "the property check is still owed: a higher pass rate does not say why it rose")
		}
	case p.Upper < b.Lower:
		res.Verdict, res.Gate = VerdictRegressed, GateBlock
	default:
		res.Verdict, res.Gate = VerdictNoChange, GateNoClaim
	}
	res.Action = GateAction(res.Gate)
	res.Blocks = GateBlocks(res.Gate)
	return res, nil
}

// SizeInput asks how many trials per arm separate two pass rates.
type SizeInput struct {
	Baseline   float64 // pass rate in [0,1]
	Patched    float64 // pass rate in [0,1]
	Confidence float64 // in (0,1)
}

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
}

// separated reports whether the intervals of rates a and b at n trials are apart.
func separated(a, b, n, z float64) bool {
	loA, hiA := Wilson(a*n, n, z)
	loB, hiB := Wilson(b*n, n, z)
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
			return nil, fieldErr(f.name, "rate must be in [0,1], got %v", f.v)
		}
	}
	if err := checkConfidence(in.Confidence); err != nil {
		return nil, err
	}
	res := &SizeResult{Baseline: in.Baseline, Patched: in.Patched, Confidence: in.Confidence, Warnings: []string{}}
	z := Z(in.Confidence)
	n := sizeSearch(in.Baseline, in.Patched, z)
	if n == 0 {
		res.Warnings = append(res.Warnings, fmt.Sprintf("the rates do not separate within %d trials per arm", SizeLimit))
		return res, nil
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
