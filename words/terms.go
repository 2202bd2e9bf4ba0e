package words

import (
	"github.com/flakegate/flakegate/core"
	"github.com/flakegate/flakegate/core/gate"
)

// A Term is a word a reader may not know and what it means here, in a
// sentence or two: the page prints it where the word appears, and the CLI's
// text may print it the same.
type Term struct {
	Word    string // as the page shows it: "detection power", "nightly lane"
	Meaning string // a plain sentence, ending in a full stop
}

// Terms of the rerun budget.
var (
	TermPower = Term{"detection power", "the chance that the reruns see at least one failure of a flake " +
		"that fails a run at rate p: with k reruns it is 1 − (1 − p)^k. A rerun that passes proves nothing; one that fails shows the flake."}
	TermCap   = Term{"rerun cap", "how many times your merge gate reruns a failing test today before it reports the test failed."}
	TermUpper = Term{"upper end of the interval", "the highest failure rate your observed history is consistent with, " +
		"at the confidence you chose (the Wilson interval's upper end). Planning for it covers the worst flake the history allows."}
)

// Terms of the two-arm verdict.
var (
	TermWilson = Term{"Wilson interval", "the range of pass rates that these passes out of these trials are consistent with, " +
		"at the confidence you chose. Two arms differ only when their intervals do not overlap."}
	TermProperty = Term{"property check", "a deterministic test of what the patch fixes, run once rather than rerun: " +
		"it shows the fix works, where a higher pass rate can still be chance. An improvement is accepted only once it passed."}
)

// LaneTerm explains a lane of the merge gate, named as LaneWords names it.
func LaneTerm(lane string) Term {
	m := ""
	switch lane {
	case core.LaneGate:
		m = "10 reruns or fewer catch the flake: cheap enough to rerun before every merge."
	case core.LaneNightly:
		m = "11 to 60 reruns catch the flake: too many for every merge, so rerun it on a nightly lane and block only on nightly results."
	case core.LaneRefuseGreen:
		m = "61 to 300 reruns catch the flake, more than any gate reruns: a green run says nothing, so do not trust it, and make the test deterministic."
	case core.LaneQuarantine:
		m = "more than 300 reruns: reruns will not find this flake. Quarantine the test with an owner and an expiry, then replace it with a property check or delete it."
	case core.LaneUnreachable:
		m = "a test that never fails has no flake for reruns to catch."
	}
	return Term{LaneWords(lane), m}
}

// VerdictTerm explains a two-arm verdict, named as VerdictWords names it.
func VerdictTerm(verdict string) Term {
	m := ""
	switch verdict {
	case core.VerdictImproved:
		m = "the patched arm's interval lies wholly above the baseline's: the pass rate rose beyond chance."
	case core.VerdictRegressed:
		m = "the patched arm's interval lies wholly below the baseline's: the pass rate fell beyond chance."
	case core.VerdictNoChange:
		m = "the two intervals overlap, so these counts cannot tell the arms apart. It does not show that the patch changed nothing: more trials may."
	case core.VerdictUnderpowered:
		m = "an arm has fewer trials than the minimum you set, so no verdict is drawn."
	}
	return Term{VerdictWords(verdict), m}
}

// GateTerm explains what the gate does, named as GateWords names it.
func GateTerm(g string) Term {
	m := ""
	switch g {
	case core.GateBlock:
		m = "the gate stops the merge: the pass rate fell, or it rose while the property check failed."
	case core.GateQuarantine:
		m = "the gate stops the merge and quarantines the test: too few trials to attribute anything to the patch."
	case core.GateNoClaim:
		m = "the patch may merge on other evidence, but it cannot claim that it fixed a flake."
	case core.GateAccept:
		m = "the pass rate rose beyond chance and the property check passed: the patch may claim the fix."
	case core.GateOwed:
		m = "the pass rate rose, but the fix is accepted only once a deterministic property check passes."
	}
	return Term{GateWords(g), m}
}

// DecideAnswer is a two-arm verdict's answer in one sentence: what the
// gate does, and why, from the two arms.
func DecideAnswer(r *gate.DecideResult) string {
	return GateSentence(r.Gate) + ": " + VerdictClause(r.Verdict, r.Baseline, r.Patched, r.MinTrials, r.Confidence) + "."
}
