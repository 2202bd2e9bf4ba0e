package triage

import (
	"cmp"
	"github.com/flakegate/flakegate/core/internal/sorts"
	"slices"
	"strconv"
	"time"

	"github.com/flakegate/flakegate/core"
	"github.com/flakegate/flakegate/core/gate"
	"github.com/flakegate/flakegate/core/history"
	"github.com/flakegate/flakegate/core/quarantine"
	"github.com/flakegate/flakegate/core/stat"
)

// Classes of a failure, in the order they are decided.
const (
	ClassQuarantined = "quarantined" // the registry holds it, unexpired
	ClassOutage      = "outage"      // part of too many tests failing at once in this run
	ClassBroken      = "broken"      // failing in every run since a commit
	ClassNew         = "new"         // never, or almost never, failed before
	ClassFlake       = "known-flake" // fails now and then, as its record says
)

// classOrder is the order failures are listed in: what blocks first.
var classOrder = map[string]int{ClassNew: 0, ClassBroken: 1, ClassFlake: 2, ClassOutage: 3, ClassQuarantined: 4}

// Options say how Triage decides. The zero value is not valid: start from
// DefaultOptions.
type Options struct {
	// History says how the past is read: outages (Alpha, MinOutageTests,
	// also this run's outage rule), groups, BrokenStreak (the fewest
	// failing runs in a row, this one included, that make a test broken),
	// Confidence of the flakes' intervals and Budget's Target for the
	// reruns that confirm one.
	History history.Options
	// MinRate is the rarest failure rate counted as a flake, in (0,1): a
	// failure of a test whose record bounds its rate below MinRate is new.
	MinRate float64
	// Alpha is the chance, in one run, of calling a failure of a flake at
	// rate MinRate or more new or broken, over all the run's failures
	// judged together, in (0,1).
	Alpha float64
	// BlockFlakes makes known flakes block too.
	BlockFlakes bool
	// Quarantine is the registry's entries; nil for none.
	Quarantine []quarantine.Entry
	// Today dates the quarantine entries' expiry, YYYY-MM-DD; empty: the
	// history's Today rule (the day of the last run with a time).
	Today string
}

// DefaultOptions: history's defaults, flakes from 1%, 1% chance per run of
// blocking on a flake of 1% or more.
var DefaultOptions = Options{History: history.DefaultOptions, MinRate: 0.01, Alpha: 0.01}

// Check validates o: a *core.Error naming the setting at fault.
func (o Options) Check() error {
	if err := o.History.Check(); err != nil {
		return err
	}
	if !(o.MinRate > 0 && o.MinRate < 1) {
		return core.FieldErrorf("min_rate", "must be in (0,1), got %v", o.MinRate)
	}
	if !(o.Alpha > 0 && o.Alpha < 1) {
		return core.FieldErrorf("new_alpha", "must be in (0,1), got %v", o.Alpha)
	}
	if o.Today != "" {
		if _, err := time.Parse(time.DateOnly, o.Today); err != nil {
			return core.FieldErrorf("today", "must be YYYY-MM-DD, got %q", o.Today)
		}
	}
	return nil
}

// Failure is one failed test of the run and its class, with the evidence.
type Failure struct {
	Test   string `json:"test"`
	Class  string `json:"class"` // one of the Class constants
	Blocks bool   `json:"blocks"`
	// Retried says a retry of it passed in this run (it failed and passed
	// on this commit).
	Retried bool `json:"retried"`
	// PassedOn is a past run on this run's commit in which it passed: it
	// failed and passed on the same code; nil when there is none.
	PassedOn *history.RunRef `json:"passed_on"`
	// Past is its record in the history (zero runs: a test the history
	// never saw).
	Past history.Past `json:"past"`
	// Rate is Past.Failures/Past.Runs, in [0,1]; Lower and Upper its
	// Wilson interval at Confidence (0 and 1 without runs).
	Rate  float64 `json:"rate"`
	Lower float64 `json:"lower"`
	Upper float64 `json:"upper"`
	// Bound is the one-sided Clopper–Pearson upper bound on its rate as a
	// flake at confidence 1 − Level: a flake that rare fails in one run
	// with chance at most Bound, in [0,1]. Level is Alpha over the
	// failures judged in the run.
	Bound float64 `json:"bound"`
	Level float64 `json:"level"`
	// Proven says, for a new failure, that Bound is below MinRate: the
	// history is long enough to rule out a flake of MinRate or more.
	Proven bool `json:"proven"`
	// SameCommitFlips counts the commits of the history on which it
	// failed and passed (a known flake's proof); this run's retry adds one.
	SameCommitFlips int64 `json:"same_commit_flips"`
	// Confirm is the reruns that would confirm a known flake: a flake at
	// rate Upper passes at least one of them with chance at least the
	// budget's target, so failing every one says it is broken after all.
	// Null for other classes.
	Confirm *int64 `json:"confirm"`
	// StreakChance is, for a broken test, the chance that a flake at its
	// earlier record's upper bound failed every run of its streak and
	// this one, in [0,1].
	StreakChance float64 `json:"streak_chance"`
	// Quarantine is the registry's entry for it, and Expired whether the
	// entry has ended (an expired entry no longer shields it).
	Quarantine *quarantine.Entry `json:"quarantine,omitempty"`
	Expired    bool              `json:"expired"`
}

// Outage is this run, or a suite of it, judged as an outage.
type Outage struct {
	// Suite is the suite (the test names' part before their last "." or
	// "/") whose tests failed at once; "" for the whole run.
	Suite       string  `json:"suite"`
	Outage      bool    `json:"outage"`
	FailedTests int64   `json:"failed_tests"` // tests with a failed attempt in the run
	RunTests    int64   `json:"run_tests"`
	Expected    float64 `json:"expected"`  // failed tests a healthy run of this size has on average
	PValue      float64 `json:"p_value"`   // binomial upper tail of FailedTests, in [0,1]
	Threshold   float64 `json:"threshold"` // the p-value below which it is an outage
}

// Release is a quarantined test whose runs since its quarantine opened,
// in the history and this run, prove its failure rate below the entry's
// target (quarantine.ReleaseProven: the rule that holds however often it
// is checked): its entry can be removed.
type Release struct {
	Test       string  `json:"test"`
	Opened     string  `json:"opened"`     // the entry's day, YYYY-MM-DD
	Runs       int64   `json:"runs"`       // its runs since, with a time, this one included
	Failed     int64   `json:"failed"`     // of them with a failure, in [0, Runs]
	Below      float64 `json:"below"`      // the failure rate proven below, in (0,1)
	Confidence float64 `json:"confidence"` // of the proof, in (0,1)
}

// Result is a run's triage.
type Result struct {
	Run    string `json:"run"`
	Commit string `json:"commit,omitempty"`
	// PastRuns is the runs of the history; PastTests its tests.
	PastRuns  int `json:"past_runs"`
	PastTests int `json:"past_tests"`
	// Suites are the suites found to be outages in the run, and Outage the
	// rest of the run judged (the whole run when Suites is empty): a
	// failure outside them is judged on its own record.
	Outage  Outage   `json:"outage"`
	Suites  []Outage `json:"suites"`
	MinRate float64  `json:"min_rate"`
	Alpha   float64  `json:"alpha"`
	// Confidence of the intervals; Target of the reruns that confirm.
	Confidence float64 `json:"confidence"`
	Target     float64 `json:"target"`
	// Counts per class, and whether the run blocks.
	New         int       `json:"new"`
	Broken      int       `json:"broken"`
	Flakes      int       `json:"flakes"`
	Outages     int       `json:"outages"`
	Quarantined int       `json:"quarantined"`
	Blocks      bool      `json:"blocks"`
	Failures    []Failure `json:"failures"` // by class (new, broken, known-flake, outage, quarantined), then test
	// Releases are the registry's entries whose release is proven, by
	// test.
	Releases []Release `json:"releases"`
	// History is the past's Result: its flakes, incidents and broken
	// tests.
	History  *history.Result `json:"-"`
	Warnings []string        `json:"warnings"`
}

// Triage classifies each failure of run (its meta and results) against
// past, whose Result under o.History is res (nil: Triage computes it).
func Triage(past *history.History, res *history.Result, meta history.RunMeta, run []history.TestResult, o Options) (*Result, error) {
	if err := o.Check(); err != nil {
		return nil, err
	}
	if len(run) == 0 {
		return nil, &core.Error{Kind: core.Unusable, File: meta.File, Msg: "the run has no test results to triage"}
	}
	if res == nil {
		var err error
		if res, err = past.Result(o.History); err != nil {
			return nil, err
		}
	}
	today := o.Today
	if today == "" {
		today = o.History.Today
	}
	if today == "" && !meta.Time.IsZero() {
		today = meta.Time.UTC().Format(time.DateOnly)
	}
	out := &Result{Run: meta.Name, Commit: meta.Commit, PastRuns: res.Runs, PastTests: res.Tests, MinRate: o.MinRate, Alpha: o.Alpha,
		Confidence: o.History.Confidence, Target: o.History.Budget.Target, Failures: []Failure{}, History: res,
		Warnings: slices.Clone(res.Warnings)}
	// One outcome per test: attempts of a test named twice are merged.
	byTest := map[string]*outcome{}
	var names []string
	for _, tr := range run {
		if tr.Trials < 1 || tr.Passed < 0 || tr.Passed > tr.Trials {
			return nil, &core.Error{Kind: core.Invalid, File: meta.File, Msg: tr.Test + ": passed must be in [0, trials] and trials at least 1"}
		}
		oc := byTest[tr.Test]
		if oc == nil {
			oc = &outcome{}
			byTest[tr.Test] = oc
			names = append(names, tr.Test)
		}
		oc.failed = oc.failed || tr.Passed < tr.Trials
		oc.passed = oc.passed || tr.Passed > 0
	}
	slices.Sort(names)
	var failed []string
	for _, n := range names {
		if byTest[n].failed {
			failed = append(failed, n)
		}
	}
	inOutage := outages(out, res, names, failed, o)
	entries := map[string]*quarantine.Entry{}
	for i := range o.Quarantine {
		entries[o.Quarantine[i].Test] = &o.Quarantine[i]
	}
	flakes := map[string]*history.TestHistory{}
	for i := range res.Flakes {
		flakes[res.Flakes[i].Test] = &res.Flakes[i]
	}
	z := stat.Z(o.History.Confidence)
	// A breakage older than the outage stays a breakage; judged at Alpha
	// over the run's failures.
	broken := func(p history.Past) bool {
		_, ok := brokenSince(p, o.Alpha/float64(len(failed)), o)
		return ok
	}
	// First the classes that need no judging of the record; the rest are
	// the m failures judged, each at level Alpha/m.
	var judged []*Failure
	for _, name := range failed {
		f := Failure{Test: name, Retried: byTest[name].passed, Lower: 0, Upper: 1}
		if p, ok := past.Past(res, name); ok {
			f.Past = p
		} else {
			f.Past = history.Past{Test: name}
		}
		if f.Past.Runs > 0 {
			f.Rate = float64(f.Past.Failures) / float64(f.Past.Runs)
			f.Lower, f.Upper = stat.Wilson(float64(f.Past.Failures), float64(f.Past.Runs), z)
		}
		if th := flakes[name]; th != nil {
			f.SameCommitFlips = th.SameCommitFlips
		}
		if e := entries[name]; e != nil {
			f.Quarantine = e
			f.Expired = today != "" && e.Expires < today
		}
		switch {
		case f.Quarantine != nil && !f.Expired:
			f.Class = ClassQuarantined
		case f.Retried:
			f.Class = ClassFlake
			f.SameCommitFlips++
		case passedOn(past, res, name, meta.Commit, &f):
			f.Class = ClassFlake
			f.SameCommitFlips++
		case inOutage(name) && !broken(f.Past):
			f.Class = ClassOutage
		}
		out.Failures = append(out.Failures, f)
	}
	for i := range out.Failures {
		if out.Failures[i].Class == "" {
			judged = append(judged, &out.Failures[i])
		}
	}
	level := o.Alpha / float64(max(1, len(judged)))
	for _, f := range judged {
		judge(f, level, o)
	}
	for i := range out.Failures {
		f := &out.Failures[i]
		if f.Class == ClassFlake && f.Upper < 1 {
			k := confirmReruns(f.Upper, o.History.Budget.Target)
			f.Confirm = &k
		}
		f.Blocks = f.Class == ClassNew || f.Class == ClassBroken || (o.BlockFlakes && f.Class == ClassFlake)
		out.Blocks = out.Blocks || f.Blocks
		switch f.Class {
		case ClassNew:
			out.New++
		case ClassBroken:
			out.Broken++
		case ClassFlake:
			out.Flakes++
		case ClassOutage:
			out.Outages++
		case ClassQuarantined:
			out.Quarantined++
		}
	}
	var partial []string
	out.Releases, partial = releases(past, o.Quarantine, byTest, meta)
	if len(partial) > 0 {
		out.Warnings = append(out.Warnings, partialWarning(partial))
	}
	sorts.Stable(out.Failures, func(a, b Failure) int {
		if c := cmp.Compare(classOrder[a.Class], classOrder[b.Class]); c != 0 {
			return c
		}
		return cmp.Compare(a.Test, b.Test)
	})
	unproven := 0
	for _, f := range out.Failures {
		if f.Class == ClassNew && !f.Proven {
			unproven++
		}
	}
	if unproven > 0 {
		out.Warnings = append(out.Warnings, unprovenWarning(unproven, o.MinRate))
	}
	return out, nil
}

// releases are the entries of reg whose runs since they opened, in the
// history and in this run (outcomes by test), prove their release. The
// rule counts every run since the opening, failures included: an entry
// whose test has no run in the history from before its opening day may
// have lost runs since (a store trimmed by record -keep, or started after
// the quarantine), and counting what is left would restart the count, so
// it is not released; partial names those the runs left would release.
func releases(past *history.History, reg []quarantine.Entry, outcomes map[string]*outcome, meta history.RunMeta) (out []Release, partial []string) {
	out = []Release{}
	for _, e := range reg {
		runs, failed := past.RunsSince(e.Test, e.Opened)
		all, _ := past.RunsSince(e.Test, "")
		covered := all > runs
		if oc := outcomes[e.Test]; oc != nil && !meta.Time.IsZero() && meta.Time.UTC().Format(time.DateOnly) >= e.Opened {
			runs++
			if oc.failed {
				failed++
			}
		}
		switch {
		case runs == 0 || !quarantine.ReleaseProven(e.Release.Below, e.Release.Confidence, runs, failed):
		case !covered:
			partial = append(partial, e.Test)
		default:
			out = append(out, Release{Test: e.Test, Opened: e.Opened, Runs: runs, Failed: failed, Below: e.Release.Below, Confidence: e.Release.Confidence})
		}
	}
	sorts.Func(out, func(a, b Release) int { return cmp.Compare(a.Test, b.Test) })
	slices.Sort(partial)
	return out, partial
}

// partialWarning says that the tests' runs since their quarantine may not
// all be in the history, so their release is not proposed.
func partialWarning(tests []string) string {
	what := tests[0] + " has"
	if len(tests) > 1 {
		what = strconv.Itoa(len(tests)) + " quarantined tests (" + tests[0] + ", …) have"
	}
	return what + " no run in the history from before its quarantine opened, so its runs since may not all be there (a store trimmed by -keep, or begun after the quarantine): " +
		"its release is not proposed, since counting only the runs left would restart the release rule's count; flakegate quarantine check, which counts every run it is given, can release it"
}

// passedOn sets f.PassedOn when test passed on commit in the past, and
// says so.
func passedOn(past *history.History, res *history.Result, test, commit string, f *Failure) bool {
	ref, ok := past.PassedOn(res, test, commit)
	if ok {
		f.PassedOn = &ref
	}
	return ok
}

// outcome is a test's outcome in the run: it failed, it passed (both: a
// retry flipped).
type outcome struct{ failed, passed bool }

// judge decides between broken, new and known-flake for a failure the
// registry, a retry and an outage did not explain, at level a.
func judge(f *Failure, a float64, o Options) {
	p := f.Past
	f.Level = a
	f.Bound = upperBound(p.Failures, p.Runs, a)
	if chance, ok := brokenSince(p, a, o); ok {
		f.Class, f.StreakChance = ClassBroken, chance
		return
	}
	if p.Failures == 0 || f.Bound < o.MinRate {
		f.Class = ClassNew
		f.Proven = f.Bound < o.MinRate
		return
	}
	f.Class = ClassFlake
}

// brokenSince says whether a test that failed now and in every one of
// its last p.Streak runs is broken since the first of them, judged at
// level a: it never passed, or the streak with this run is BrokenStreak
// runs or more and a flake at its earlier record's upper bound would fail
// so many in a row with chance below a. It returns that chance.
func brokenSince(p history.Past, a float64, o Options) (float64, bool) {
	if p.Streak == 0 {
		return 0, false
	}
	// The earlier record bounds the rate of a flake it could be.
	before := upperBound(p.Failures-p.Streak, p.Runs-p.Streak, a)
	chance := stat.Exp(float64(p.Streak+1) * stat.Log(before))
	return chance, !p.PassedBefore || (p.Streak+1 >= o.History.BrokenStreak && chance < a)
}

// confirmReruns is the smallest k >= 1 with upper^k <= 1-target: a flake
// at rate upper passes at least one of k reruns with chance >= target.
func confirmReruns(upper, target float64) int64 {
	return int64(gate.RerunsFor(1-upper, target))
}

// unprovenWarning says that n new failures come from histories too short
// to rule out a flake of minRate.
func unprovenWarning(n int, minRate float64) string {
	what := "1 failure called new has"
	if n > 1 {
		what = strconv.Itoa(n) + " failures called new have"
	}
	return what + " too short a record to rule out a flake failing " + strconv.FormatFloat(100*minRate, 'g', 4, 64) +
		"% of the time: a flake that has not failed yet looks new on one run; rerun them to tell"
}
