package quarantine

import (
	"fmt"
	"github.com/flakegate/flakegate/core/internal/sorts"
	"slices"
	"strings"

	"github.com/flakegate/flakegate/core"
	"github.com/flakegate/flakegate/core/gate"
	"github.com/flakegate/flakegate/core/stat"
)

// States of a quarantined test, one per test and check.
const (
	// StateStillFlaky: the claim holds (the trials since it stay inside its
	// interval, or are too few to judge it), and the clean runs do not yet
	// prove the release. Does not block.
	StateStillFlaky = "still-flaky"
	// StateStale: the confidence sequence of the pass rate since the claim
	// no longer meets the claimed interval (ClaimDrift: at most 1 − the
	// claim's confidence of claims whose rate did not leave the interval
	// are ever called stale, however many nights they are checked): the
	// claim no longer describes the test; measure it again. Blocks when the
	// rate fell below the interval (the test got worse); when it rose above
	// it (TestResult.Improving: the test got better) it does not block, and
	// the clean runs to release say when it leaves.
	StateStale = "stale"
	// StateReleased: the runs counted since the quarantine started,
	// failures included, prove the failure rate below the release rate at
	// its confidence, by the rule that holds however often it is checked
	// (ReleaseProven). The test leaves quarantine. Does not block.
	StateReleased = "released"
	// StateExpired: past the expiry date without release. Blocks until an
	// owner renews the entry or deletes the test.
	StateExpired = "expired"
	// StateMissing: the new reports do not have the test: renamed or
	// deleted. A rename silently resets the sample (docs/STATISTICS.md,
	// Frozen claims), so it blocks
	// until the rename is mapped or the entry removed.
	StateMissing = "missing"
)

// States lists the states in the order the result counts them.
var States = []string{StateStillFlaky, StateStale, StateReleased, StateExpired, StateMissing}

// Options are the settings of a check. Start from DefaultOptions.
type Options struct {
	// Today is the date of the check, YYYY-MM-DD: entries expire by it and
	// no date of the registry may be after it. The caller passes it; the
	// package never reads a clock.
	Today string
	// Renames maps a test's id in the registry to its id in the reports,
	// so that a renamed test keeps the trials already paid for. A check
	// that writes moves the entry to its new id.
	Renames map[string]string
	// Comparable is the least ratio of the trials since a claim to the
	// claim's trials at which they can overturn it, in (0,1]; as
	// gate.FreezeInput.Comparable.
	Comparable float64
	// Budget holds the target power, cap and cost of the rerun budget
	// shown for each test's claimed failure rate; its Rates and Observed
	// are ignored.
	Budget gate.BudgetInput
}

// DefaultOptions judge a claim once the trials since it reach half its
// trials, and budget reruns for 95% power with a cap of 3.
var DefaultOptions = Options{Comparable: gate.DefaultFreezeInput.Comparable, Budget: gate.DefaultBudgetInput}

// Result is a check of every quarantined test.
type Result struct {
	Today string `json:"today"` // the date of the check, YYYY-MM-DD
	// Reports is false when the check had no new reports: then no test is
	// missing and nothing new is counted; the states come from the
	// evidence the registry holds.
	Reports  bool         `json:"reports"`
	Runs     int          `json:"runs"`   // runs in the new reports
	Tests    []TestResult `json:"tests"`  // one per entry, sorted by test id
	States   StateCounts  `json:"states"` // how many tests are in each state
	Blocks   bool         `json:"blocks"` // some test is stale and worse, expired or missing
	Warnings []string     `json:"warnings"`
	// Link is the address of the calculator view that reproduces this
	// check, set by the surfaces that know where the calculator is (the
	// API, on its own origin; the CLI, given -site); absent otherwise.
	Link string `json:"link,omitempty"`
	// LinkNote says what Link leaves out (a registry too long for a link),
	// in the user's words; absent when nothing.
	LinkNote string `json:"link_note,omitempty"`
}

// StateCounts counts the tests in each state.
type StateCounts struct {
	StillFlaky int `json:"still_flaky"`
	Stale      int `json:"stale"`
	Released   int `json:"released"`
	Expired    int `json:"expired"`
	Missing    int `json:"missing"`
}

// Of is the count of tests in state.
func (s StateCounts) Of(state string) int {
	switch state {
	case StateStillFlaky:
		return s.StillFlaky
	case StateStale:
		return s.Stale
	case StateReleased:
		return s.Released
	case StateExpired:
		return s.Expired
	case StateMissing:
		return s.Missing
	}
	return 0
}

func (s *StateCounts) add(state string) {
	switch state {
	case StateStillFlaky:
		s.StillFlaky++
	case StateStale:
		s.Stale++
	case StateReleased:
		s.Released++
	case StateExpired:
		s.Expired++
	case StateMissing:
		s.Missing++
	}
}

// TestResult is one quarantined test's state and the evidence for it.
type TestResult struct {
	Test string `json:"test"` // its id in the reports (after a rename)
	// RenamedFrom is its id in the registry when Options.Renames mapped
	// it; "" otherwise.
	RenamedFrom string `json:"renamed_from"`
	State       string `json:"state"`  // one of States
	Blocks      bool   `json:"blocks"` // stale and not improving, expired or missing
	// Improving is whether a stale claim went stale because the test got
	// better: the pass rate since the claim is above its interval. Such a
	// test does not block; Release.Remaining says how many clean runs
	// release it. False in every other state.
	Improving bool   `json:"improving"`
	Owner     string `json:"owner"`
	Reason    string `json:"reason"`
	Opened    string `json:"opened"`
	Expires   string `json:"expires"`
	// DaysLeft is the number of days from today to the expiry date: 0 on
	// its last day, negative once expired.
	DaysLeft int64      `json:"days_left"`
	Claim    gate.Claim `json:"claim"`
	// Reported is the test's passes and trials in the new reports, over
	// all their runs; null when it is not in them or there are none.
	Reported *gate.Arm `json:"reported"`
	Runs     int       `json:"runs"` // runs of the new reports the test ran in, each one run however many executions it holds
	// Since is every trial since the claim, the new ones included, with
	// its Wilson interval at the claim's confidence.
	Since gate.Arm `json:"since"`
	// Comparable is whether Since has enough trials to overturn the claim.
	Comparable bool            `json:"comparable"`
	Release    ReleaseProgress `json:"release"`
	// Budget is the rerun budget for the claimed failure rate, planned at
	// the upper end of its Wilson interval, and its lane of the merge gate.
	Budget gate.BudgetRow `json:"budget"`
}

// ReleaseProgress is how far a test is from proving its release.
type ReleaseProgress struct {
	Below      float64 `json:"below"`      // failure rate to prove the test below, in (0,1)
	Confidence float64 `json:"confidence"` // in (0,1)
	// Needed is the clean runs a quarantine with no failure needs from its
	// start: CleanRunsChecked(Below, Confidence), at most MaxCleanRuns+1.
	Needed int64 `json:"clean_runs_needed"`
	Clean  int64 `json:"clean_runs"` // clean runs in a row so far, >= 0
	Runs   int64 `json:"runs"`       // runs counted toward the release, >= 0
	Failed int64 `json:"failed"`     // of them with a failure, in [0, Runs]
	// Remaining is the further clean runs after which the release is
	// proven if none fails (CleanRunsToRelease), 0 once proven; a failure
	// raises it.
	Remaining int64 `json:"clean_runs_remaining"`
	Proven    bool  `json:"proven"` // Remaining == 0
}

// Check judges every entry of reg against new reports (nil when there are
// none: then the registry's own evidence is judged and no test is missing)
// and returns the result and the registry a check that writes stores:
//
//   - a released test leaves it;
//   - a stale claim is replaced by the measurement since it, dated today,
//     once that has at least as many trials as the claim: the test was
//     measured again. Until then the trials since the claim keep adding
//     up, and the test stays stale (and blocks) only while their rate
//     stays outside the claim's interval: a stale state at half the
//     claim's trials that was noise clears itself;
//   - every other test that ran has the new trials added to its evidence
//     since the claim and its run of clean trials, checked today;
//   - a missing test is left as it was;
//   - a renamed test moves to its new id.
//
// reg is not changed. An invalid registry or setting is a *core.Error.
func Check(reg *Registry, rep *Reports, opt Options) (*Result, *Registry, error) {
	if err := Validate(reg, opt.Today); err != nil {
		return nil, nil, err
	}
	if !(opt.Comparable > 0 && opt.Comparable <= 1) {
		return nil, nil, core.FieldErrorf("comparable", "must be in (0,1], got %v", opt.Comparable)
	}
	if err := opt.Budget.CheckSettings(); err != nil {
		return nil, nil, err
	}
	res := &Result{Today: opt.Today, Tests: []TestResult{}, Warnings: []string{}}
	if rep != nil {
		res.Reports, res.Runs = true, rep.Runs
		res.Warnings = append(res.Warnings, rep.Warnings...)
	}
	warns, err := checkRenames(reg, opt.Renames)
	if err != nil {
		return nil, nil, err
	}
	res.Warnings = append(res.Warnings, warns...)
	next := &Registry{Version: Version, Tests: []Entry{}, Counted: slices.Clone(reg.Counted)}
	if rep != nil && len(rep.IDs) > 0 {
		if len(rep.IDs) != rep.Runs {
			return nil, nil, core.FieldErrorf("reports.ids", "%d identities for %d runs: give one per run or none", len(rep.IDs), rep.Runs)
		}
		counted := map[string]string{}
		for _, c := range reg.Counted {
			counted[c.Run] = c.Date
		}
		for i, id := range rep.IDs {
			if err := checkRunID(fmt.Sprintf("reports.ids[%d]", i), id); err != nil {
				return nil, nil, err
			}
			if date, done := counted[id]; done {
				return nil, nil, core.FieldErrorf(fmt.Sprintf("reports.ids[%d]", i), "run %s was counted on %s: a run is never counted twice", id, date)
			}
			counted[id] = opt.Today
			next.Counted = append(next.Counted, CountedRun{Run: id, Date: opt.Today})
		}
	}
	var legacy []string
	for _, e := range reg.Tests {
		if e.Since.Trials > 0 && e.Since.Runs == 0 && e.Since.Clean > 0 {
			// Written before runs were counted: its clean count counted
			// executions, which overstate the runs (go test -count=20 is
			// one run). The runs it stands for are unknown, so they are
			// not counted: the streak starts again.
			legacy = append(legacy, e.Test)
			e.Since.Clean = 0
		}
		t, kept, err := checkEntry(e, rep, opt)
		if err != nil {
			return nil, nil, err
		}
		res.Tests = append(res.Tests, t)
		res.States.add(t.State)
		res.Blocks = res.Blocks || t.Blocks
		if kept != nil {
			next.Tests = append(next.Tests, *kept)
		}
	}
	sorts.Func(res.Tests, func(a, b TestResult) int { return strings.Compare(a.Test, b.Test) })
	if len(legacy) > 0 {
		slices.Sort(legacy)
		res.Warnings = append(res.Warnings, fmt.Sprintf(
			"%s recorded clean executions before runs were counted (%s): executions in one run are not independent runs, so their clean runs start again at 0",
			core.Nouns(len(legacy), "test"), core.ListNames(legacy)))
	}
	return res, Canonical(next), nil
}

// checkRenames checks the renames against the registry: each new id is a
// test id, names one entry at most, and is not the id of an entry that
// stays. A rename of a test the registry does not have is a warning (it
// may have been written already).
func checkRenames(reg *Registry, renames map[string]string) ([]string, error) {
	ids := map[string]bool{}
	for _, e := range reg.Tests {
		ids[e.Test] = true
	}
	var warns []string
	target := map[string]string{}
	for _, old := range sortedKeys(renames) {
		nw := renames[old]
		field := "rename " + old + "=" + nw
		if err := checkText("rename", old, MaxIDBytes, "the test's old id"); err != nil {
			return nil, core.FieldErrorf(field, "the old id: %s", err.(*pathError).msg)
		}
		if err := checkText("rename", nw, MaxIDBytes, "the test's new id"); err != nil {
			return nil, core.FieldErrorf(field, "the new id: %s", err.(*pathError).msg)
		}
		if old == nw {
			return nil, core.FieldErrorf(field, "renames a test to itself")
		}
		if prev, dup := target[nw]; dup {
			return nil, core.FieldErrorf(field, "%s is also the new id of %s: two entries cannot become one test", nw, prev)
		}
		target[nw] = old
		if !ids[old] {
			warns = append(warns, fmt.Sprintf("rename %s=%s: the registry has no test %s (renamed already?)", old, nw, old))
		}
	}
	for _, nw := range sortedKeys(target) {
		old := target[nw]
		if _, moves := renames[nw]; ids[nw] && !moves && ids[old] {
			return nil, core.FieldErrorf("rename "+old+"="+nw, "%s is already quarantined: remove one of the two entries first", nw)
		}
	}
	slices.Sort(warns)
	return warns, nil
}

func sortedKeys(m map[string]string) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	slices.Sort(ks)
	return ks
}

// checkEntry judges one entry and returns its result and what a write
// keeps of it (nil once released).
func checkEntry(e Entry, rep *Reports, opt Options) (TestResult, *Entry, error) {
	t := TestResult{Test: e.Test, Owner: e.Owner, Reason: e.Reason, Opened: e.Opened, Expires: e.Expires,
		Claim: claimOf(e.Claim.Passed, e.Claim.Trials, e.Claim.Confidence, e.Claim.Date)}
	if nw, ok := opt.Renames[e.Test]; ok {
		t.Test, t.RenamedFrom = nw, e.Test
	}
	today, _ := parseDate(opt.Today)
	expires, _ := parseDate(e.Expires)
	t.DaysLeft = int64(expires.Sub(today).Hours() / 24)

	since, rel := e.Since, e.Release
	var runs []core.Count
	missing := false
	if rep != nil && rep.Runs > 0 { // reports whose every run was counted already have nothing to say
		runs, missing = rep.Tests[t.Test], len(rep.Tests[t.Test]) == 0
	}
	var reported core.Count
	for _, r := range runs {
		if r.Trials <= 0 {
			continue
		}
		t.Runs++
		since.Runs++
		rel.Runs++
		if r.Passed < r.Trials {
			rel.Failed++
		}
		reported.Passed += r.Passed
		reported.Trials += r.Trials
		if r.Passed == r.Trials {
			since.Clean++ // one run, however many executions it holds
		} else {
			since.Clean = 0
		}
	}
	since.Passed += reported.Passed
	since.Trials += reported.Trials
	z := t.Claim
	if reported.Trials > 0 {
		a := gate.NewArm(reported, stat.Z(z.Confidence))
		t.Reported = &a
		since.Checked = opt.Today
	}

	in := gate.FreezeInput{Claim: core.Count{Passed: z.Passed, Trials: z.Trials}, Date: z.Date,
		Confidence: z.Confidence, Comparable: opt.Comparable}
	if since.Trials > 0 {
		in.Newer = &core.Count{Passed: since.Passed, Trials: since.Trials}
	}
	fr, err := gate.Freeze(in)
	if err != nil {
		return t, nil, err
	}
	t.Since = gate.NewArm(core.Count{Passed: since.Passed, Trials: since.Trials}, stat.Z(z.Confidence))
	t.Comparable = fr.Comparable

	remaining := CleanRunsToRelease(rel.Below, rel.Confidence, rel.Runs, rel.Failed)
	t.Release = ReleaseProgress{Below: rel.Below, Confidence: rel.Confidence,
		Needed: CleanRunsChecked(rel.Below, rel.Confidence), Clean: since.Clean, Runs: rel.Runs, Failed: rel.Failed,
		Remaining: remaining, Proven: remaining == 0}

	bin := opt.Budget
	bin.Rates, bin.Observed = nil, &core.Count{Passed: z.Trials - z.Passed, Trials: z.Trials}
	br, err := gate.Budget(bin)
	if err != nil {
		return t, nil, err
	}
	t.Budget = br.Rows[0]

	switch {
	case t.Release.Proven:
		t.State = StateReleased
	case missing:
		t.State = StateMissing
	case t.DaysLeft < 0:
		t.State = StateExpired
	case ClaimDrift(z, since.Passed, since.Trials) != DriftNone:
		t.State = StateStale
		t.Improving = ClaimDrift(z, since.Passed, since.Trials) == DriftUp
	default:
		t.State = StateStillFlaky
	}
	t.Blocks = t.State == StateStale && !t.Improving || t.State == StateExpired || t.State == StateMissing

	kept := e
	kept.Test, kept.Release = t.Test, rel
	switch t.State {
	case StateReleased:
		return t, nil, nil
	case StateMissing:
	case StateStale:
		kept.Since = since
		if since.Trials >= z.Trials { // a full measurement again: it is the claim now
			kept.Claim = claimOf(since.Passed, since.Trials, z.Confidence, opt.Today)
			// The carried clean runs are among the new claim's passes, and
			// never more (Validate bounds Clean by Runs plus them): a
			// streak longer than that is cut, which only delays a release.
			kept.Since = Since{Clean: min(since.Clean, since.Passed), Checked: opt.Today}
		}
	default:
		kept.Since = since
	}
	return t, &kept, nil
}
