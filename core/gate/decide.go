package gate

import (
	"fmt"
	"strings"

	"github.com/flakegate/flakegate/core"
	"github.com/flakegate/flakegate/core/stat"
)

// Action says, in a line, what a gate does.
func Action(gate string) string { return actions[gate] }

// actions say what each gate does.
var actions = map[string]string{
	core.GateQuarantine: "too few trials: quarantine the test and attribute nothing to the patch",
	core.GateNoClaim:    "the intervals overlap: the patch may merge on other evidence but cannot claim a flake fix",
	core.GateBlock:      "block the patch",
	core.GateAccept:     "accept: the rate moved and the property check passed",
	core.GateOwed:       "the rate moved up; accept only once a deterministic property check passes",
}

// Blocks reports whether a gate action stops a merge.
func Blocks(gate string) bool { return gate == core.GateQuarantine || gate == core.GateBlock }

// DecideInput is a two-arm experiment: passes out of trials before and after
// a patch. Start from DefaultDecideInput.
type DecideInput struct {
	Baseline   core.Count
	Patched    core.Count
	MinTrials  int64   // fewest trials an arm needs for a verdict, >= 1
	Confidence float64 // of both Wilson intervals, in (0,1)
	Property   string  // core.PropertyPassed, core.PropertyFailed or core.PropertyUnknown
	// SkipAnytime leaves the result's Anytime empty: for a caller judging
	// many tests that shows only the fixed verdicts (a ledger).
	SkipAnytime bool
}

// DefaultDecideInput asks for 20 trials an arm at 95% with the property check unknown.
var DefaultDecideInput = DecideInput{MinTrials: 20, Confidence: core.DefaultConfidence, Property: core.PropertyUnknown}

// DecideResult is the verdict of a two-arm experiment and what the gate does.
type DecideResult struct {
	Verdict    string  `json:"verdict"`
	Gate       string  `json:"gate"`
	Action     string  `json:"action"`
	Blocks     bool    `json:"blocks"` // the gate stops the merge
	Property   string  `json:"property"`
	MinTrials  int64   `json:"min_trials"`
	Confidence float64 `json:"confidence"`
	Baseline   Arm     `json:"baseline"`
	Patched    Arm     `json:"patched"`
	// Anytime is the verdict the same counts give had they been looked at
	// after every trial: the sequential figures beside the fixed ones.
	Anytime  Anytime  `json:"anytime"`
	Warnings []string `json:"warnings"`
	// Link is the address of the calculator view that reproduces this
	// result, set by the surfaces that know where the calculator is (the
	// API, on its own origin; the CLI, given -site); absent otherwise.
	Link string `json:"link,omitempty"`
	// LinkNote says in words what the link leaves out, or why there is
	// none (a state past the 8 KiB a link holds); absent when nothing.
	LinkNote string `json:"link_note,omitempty"`
}

func (in DecideInput) check() error {
	if err := in.Baseline.Check("baseline"); err != nil {
		return err
	}
	if err := in.Patched.Check("patched"); err != nil {
		return err
	}
	if in.MinTrials < 1 {
		return core.FieldErrorf("min_trials", "must be at least 1, got %d", in.MinTrials)
	}
	switch in.Property {
	case core.PropertyPassed, core.PropertyFailed, core.PropertyUnknown:
	default:
		return core.FieldErrorf("property", "must be passed, failed or unknown, got %q", in.Property)
	}
	return core.CheckConfidence(in.Confidence)
}

// Decide compares the arms' Wilson intervals. The verdict is underpowered
// when either arm has fewer than MinTrials trials, improved or regressed when
// the intervals do not overlap, and no-detectable-change otherwise. An
// improvement is accepted only when the property check passed.
func Decide(in DecideInput) (*DecideResult, error) {
	if err := in.check(); err != nil {
		return nil, err
	}
	z := stat.Z(in.Confidence)
	res := &DecideResult{Property: in.Property, MinTrials: in.MinTrials, Confidence: in.Confidence,
		Baseline: NewArm(in.Baseline, z), Patched: NewArm(in.Patched, z), Warnings: []string{}}
	if !in.SkipAnytime {
		res.Anytime = AnytimeOf(in.Baseline, in.Patched, in.Confidence)
	}
	b, p := res.Baseline, res.Patched
	switch {
	case in.Baseline.Trials < in.MinTrials || in.Patched.Trials < in.MinTrials:
		res.Verdict, res.Gate = core.VerdictUnderpowered, core.GateQuarantine
		res.Warnings = append(res.Warnings, fmt.Sprintf(
			"an arm has fewer than %d trials (baseline %d, patched %d)", in.MinTrials, in.Baseline.Trials, in.Patched.Trials))
	case b.Upper < p.Lower:
		res.Verdict = core.VerdictImproved
	case p.Upper < b.Lower:
		res.Verdict = core.VerdictRegressed
	default:
		res.Verdict = core.VerdictNoChange
	}
	if res.Gate == "" {
		var warns []string
		res.Gate, warns = GateOf(res.Verdict, in.Property)
		res.Warnings = append(res.Warnings, warns...)
	}
	res.Action = Action(res.Gate)
	res.Blocks = Blocks(res.Gate)
	return res, nil
}

// GateOf is what the gate does with a verdict of improved, regressed or
// no-detectable-change, given the property check: an improvement is
// accepted only when the check passed. The warnings say what is owed.
func GateOf(verdict, property string) (string, []string) {
	switch verdict {
	case core.VerdictImproved:
		switch property {
		case core.PropertyPassed:
			return core.GateAccept, nil
		case core.PropertyFailed:
			return core.GateBlock, []string{"the pass rate rose but the property check failed: the patch may have loosened the test"}
		default:
			return core.GateOwed, []string{"the property check is still owed: a higher pass rate does not say why it rose"}
		}
	case core.VerdictRegressed:
		return core.GateBlock, nil
	}
	return core.GateNoClaim, nil
}

// TrialsShort says how many more trials each arm needs before a verdict is
// possible, at least minTrials each: "a verdict needs 18 more baseline
// trials and 18 more patched trials" (an arm that has enough is not
// named). "" when both have enough.
func TrialsShort(minTrials, baseline, patched int64) string {
	var parts []string
	for _, a := range []struct {
		name string
		n    int64
	}{{"baseline", baseline}, {"patched", patched}} {
		if more := minTrials - a.n; more > 0 {
			parts = append(parts, core.Nouns(more, "more "+a.name+" trial"))
		}
	}
	if len(parts) == 0 {
		return ""
	}
	return "a verdict needs " + strings.Join(parts, " and ")
}
