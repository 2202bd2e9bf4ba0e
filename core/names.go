package core

// The names of the JSON contract: values of its verdict, gate, property and
// lane fields. They are stable machine names; people read them in words
// (the words package, the CLI's text).

// Verdicts of a two-arm comparison.
const (
	VerdictUnderpowered = "underpowered"         // an arm has fewer than MinTrials trials
	VerdictImproved     = "improved"             // patched interval lies wholly above baseline's
	VerdictRegressed    = "regressed"            // patched interval lies wholly below baseline's
	VerdictNoChange     = "no-detectable-change" // the intervals overlap
)

// Verdicts of an A/A candidate against its baseline, and of the paired t-test.
const (
	VerdictRegression   = "regression"
	VerdictNoRegression = "no-regression"
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

// Lanes of the merge-gate policy, chosen by the reruns a flake needs.
const (
	LaneGate        = "gate"         // k <= 10: rerun to budget inside the merge gate
	LaneNightly     = "nightly"      // 11..60: rerun on a nightly lane, block only on nightlies
	LaneRefuseGreen = "refuse-green" // 61..300: beyond gate resolution; refuse the green, convert the test
	LaneQuarantine  = "quarantine"   // > 300: not a rerun problem; quarantine with an expiry
	LaneUnreachable = "unreachable"  // p = 0: no number of reruns ever sees a failure
)
