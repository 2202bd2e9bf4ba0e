package quarantine

import (
	"github.com/flakegate/flakegate/core/gate"
	"github.com/flakegate/flakegate/core/stat"
)

// The release and staleness rules that keep their error rates however
// often a registry is checked (docs/STATISTICS.md, "Anytime-valid rules",
// and docs/QUARANTINE.md).
//
// Release. A test is released once the runs counted since its quarantine
// started — every one, failures included, never restarted — prove its
// failure rate below the target: the evidence M⁻ of the beta-binomial
// mixture over failure rates below the target (stat.BetaMixture.LogEBelow,
// mixing Beta(1, 4/below), whose mean, about below/5, is where a fixed test
// ends up) reaches 1/(1 − confidence). If the test still fails at the
// target rate or more, that happens at any check, over the whole life of
// the entry, with probability at most 1 − confidence. A clean run never
// lowers the evidence and a failed run never raises it, so "clean runs to
// release" — the clean runs after which the rule releases if none fails —
// is a plain number, recomputed after each failure.
//
// Staleness. A claim is stale once the confidence sequence of the pass
// rate since it (the mixture Beta(½, ½), Jeffreys', at error rate 1 − the
// claim's confidence) no longer meets
// the claim's interval. If the test's rate is still inside the claimed
// interval, that happens at any check, over the whole life of the claim,
// with probability at most 1 − the claim's confidence.

// ReleaseShape is the mixing distribution's second shape times the target
// rate: Beta(1, ReleaseShape/below).
const ReleaseShape = 4

// releaseMixture is the release rule's mixing distribution for a target
// failure rate below.
func releaseMixture(below float64) stat.BetaMixture {
	return stat.BetaMixture{A: 1, B: ReleaseShape / below}
}

// ReleaseProven reports whether runs counted since the quarantine started,
// failed of them with a failure, prove the failure rate below `below` at
// `confidence`, by the rule that holds however often it is checked. below
// and confidence in (0,1), 0 <= failed <= runs (the registry reader checks
// them).
func ReleaseProven(below, confidence float64, runs, failed int64) bool {
	return releaseMixture(below).LogEBelow(failed, runs, below) >= -stat.Log1p(-confidence)
}

// CleanRunsToRelease is the number of further clean runs after which the
// release rule proves the failure rate below `below` at `confidence`,
// given runs counted so far of which failed failed: 0 once proven. Each
// clean run raises the evidence, so the answer is found by galloping and
// bisection. It is MaxCleanRuns+1 when more than MaxCleanRuns would be
// needed (or the arithmetic cannot tell).
func CleanRunsToRelease(below, confidence float64, runs, failed int64) int64 {
	proven := func(m int64) bool { return ReleaseProven(below, confidence, runs+m, failed) }
	if proven(0) {
		return 0
	}
	if m, ok := stat.FirstTrue(0, MaxCleanRuns, proven); ok {
		return m
	}
	return MaxCleanRuns + 1
}

// CleanRunsChecked is the number of clean runs in a row from the start of
// a quarantine that release a test by the rule checked after every run:
// CleanRunsToRelease(below, confidence, 0, 0). Below 1% at 95% takes 361
// (the one-look CleanRuns: 299); below 10%, 35 (29).
func CleanRunsChecked(below, confidence float64) int64 {
	return CleanRunsToRelease(below, confidence, 0, 0)
}

// driftMixture is the staleness rule's mixing distribution, Jeffreys'
// Beta(½, ½): no rate is favoured, so a drift either way is found at about
// the pace of the fixed-sample test of the same size (a claim of 57/60 at
// 95% is found stale after about 56 nights of one run when the rate fell
// to 70%, 360 when it fell to 80%).
var driftMixture = stat.BetaMixture{A: 0.5, B: 0.5}

// Drift directions of a claim's rate.
const (
	DriftNone = 0  // the claim's interval is still plausible
	DriftDown = -1 // the rate since the claim is below the claim's interval
	DriftUp   = 1  // the rate since the claim is above the claim's interval
)

// ClaimDrift judges a claim against the passes and trials since it by the
// rule that holds however often it is checked: DriftNone while the
// confidence sequence of the rate since the claim meets the claim's
// interval, else the side the rate left it by. No trials since is
// DriftNone.
func ClaimDrift(c gate.Claim, passed, trials int64) int {
	if driftMixture.MeetsInterval(passed, trials, 1-c.Confidence, c.Lower, c.Upper) {
		return DriftNone
	}
	if float64(passed) < float64(float64(trials)*c.Lower) {
		return DriftDown
	}
	return DriftUp
}
