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
func LaneTerm(lane string) Term { return Term{LaneWords(lane), lanes[lane].meaning} }

// VerdictTerm explains a two-arm verdict, named as VerdictWords names it.
func VerdictTerm(verdict string) Term { return Term{VerdictWords(verdict), verdicts[verdict].meaning} }

// GateTerm explains what the gate does, named as GateWords names it.
func GateTerm(g string) Term { return Term{GateWords(g), gates[g].meaning} }

// DecideAnswer is a two-arm verdict's answer in one sentence: what the
// gate does, and why, from the two arms.
func DecideAnswer(r *gate.DecideResult) string {
	return GateSentence(r.Gate) + ": " + VerdictClause(r.Verdict, r.Baseline, r.Patched, r.MinTrials, r.Confidence) + "."
}

// named is what a machine name says to people: its name in a few words
// (a table cell), the start of the sentence that says it (gates only) and
// what it means.
type named struct{ words, sentence, meaning string }

// lanes are the lanes of the merge gate, named and explained.
var lanes = map[string]named{
	core.LaneGate:        {words: "rerun in the gate", meaning: "10 reruns or fewer catch the flake: cheap enough to rerun before every merge."},
	core.LaneNightly:     {words: "nightly lane", meaning: "11 to 60 reruns catch the flake: too many for every merge, so rerun it on a nightly lane and block only on nightly results."},
	core.LaneRefuseGreen: {words: "refuse the green", meaning: "61 to 300 reruns catch the flake, more than any gate reruns: a green run says nothing, so do not trust it, and make the test deterministic."},
	core.LaneQuarantine:  {words: "quarantine", meaning: "more than 300 reruns: reruns will not find this flake. Quarantine the test with an owner and an expiry, then replace it with a property check or delete it."},
	core.LaneUnreachable: {words: "nothing to catch", meaning: "a test that never fails has no flake for reruns to catch."},
}

// verdicts are the two-arm verdicts, named and explained.
var verdicts = map[string]named{
	core.VerdictImproved:     {words: "rose", meaning: "the patched arm's interval lies wholly above the baseline's: the pass rate rose beyond chance."},
	core.VerdictRegressed:    {words: "fell", meaning: "the patched arm's interval lies wholly below the baseline's: the pass rate fell beyond chance."},
	core.VerdictNoChange:     {words: "no change shown", meaning: "the two intervals overlap, so these counts cannot tell the arms apart. It does not show that the patch changed nothing: more trials may."},
	core.VerdictUnderpowered: {words: "too few trials", meaning: "an arm has fewer trials than the minimum you set, so no verdict is drawn."},
}

// gates are the gate actions, named, said and explained.
var gates = map[string]named{
	core.GateBlock: {
		words:    "blocks",
		sentence: "The gate blocks the patch",
		meaning:  "the gate stops the merge: the pass rate fell, or it rose while the property check failed.",
	},
	core.GateQuarantine: {
		words:    "blocks: quarantine",
		sentence: "The gate blocks and quarantines the test, attributing nothing to the patch",
		meaning:  "the gate stops the merge and quarantines the test: too few trials to attribute anything to the patch.",
	},
	core.GateNoClaim: {
		words:    "passes, no claim",
		sentence: "The gate does not block, but the patch cannot claim a flake fix",
		meaning:  "the patch may merge on other evidence, but it cannot claim that it fixed a flake.",
	},
	core.GateAccept: {
		words:    "accepts",
		sentence: "The gate accepts the patch",
		meaning:  "the pass rate rose beyond chance and the property check passed: the patch may claim the fix.",
	},
	core.GateOwed: {
		words:    "passes, check owed",
		sentence: "The gate does not block yet: accept the improvement only once a deterministic property check passes",
		meaning:  "the pass rate rose, but the fix is accepted only once a deterministic property check passes.",
	},
}
