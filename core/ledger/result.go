package ledger

import (
	"fmt"
	"sort"

	"github.com/flakegate/flakegate/core"
	"github.com/flakegate/flakegate/core/gate"
)

// Options are the settings of each test's two-arm verdict.
type Options struct {
	MinTrials  int64   // fewest trials an arm needs for a verdict, >= 1
	Confidence float64 // of the Wilson intervals, in (0,1)
	Property   string  // core.PropertyPassed, core.PropertyFailed or core.PropertyUnknown, for every test
	// Answers are verdicts a sequential test already gave, by test id:
	// core.VerdictImproved, core.VerdictRegressed or
	// core.VerdictNoChange (no change as large as planned). Such a test's
	// verdict is the answer, with the gate GateOf gives it, whatever its
	// trials per arm; nil for none.
	Answers map[string]string
}

// DefaultOptions match gate.DefaultDecideInput.
var DefaultOptions = Options{MinTrials: 20, Confidence: core.DefaultConfidence, Property: core.PropertyUnknown}

// Test is one test's two arms and verdict.
type Test struct {
	NodeID   string   `json:"nodeid"`
	Verdict  string   `json:"verdict"`
	Gate     string   `json:"gate"`
	Action   string   `json:"action"`
	Blocks   bool     `json:"blocks"`
	Baseline gate.Arm `json:"baseline"`
	Patched  gate.Arm `json:"patched"`
	// SetupFailures and TeardownFailures are totals over both arms;
	// SideFailures splits them by arm.
	SetupFailures    int64    `json:"setup_failures"`
	TeardownFailures int64    `json:"teardown_failures"`
	SideFailures     ArmSides `json:"side_failures"`
	Warnings         []string `json:"warnings"` // this test's caveats, from Decide and the ledger
}

// ArmSides is a test's side failures in each arm.
type ArmSides struct {
	Baseline SideFailures `json:"baseline"`
	Patched  SideFailures `json:"patched"`
}

// RunCounts counts the runs of each arm.
type RunCounts struct {
	Baseline int `json:"baseline"`
	Patched  int `json:"patched"`
}

// Result is every test's verdict, sorted by nodeid.
type Result struct {
	Runs       RunCounts `json:"runs"`
	MinTrials  int64     `json:"min_trials"`
	Confidence float64   `json:"confidence"`
	Property   string    `json:"property"`
	Tests      []Test    `json:"tests"`
	Blocks     bool      `json:"blocks"` // some test's gate blocks
	Warnings   []string  `json:"warnings"`
	// Link is the address of the calculator view that reproduces this
	// result, set by the surfaces that know where the calculator is (the
	// API, on its own origin; the CLI, given -site); absent otherwise.
	Link string `json:"link,omitempty"`
	// LinkNote says in words what the link leaves out, or why there is
	// none (a state past the 8 KiB a link holds); absent when nothing.
	LinkNote string `json:"link_note,omitempty"`
}

// counts sums each test's trials in arm.
func (l *Ledger) counts(arm string) map[string]*core.Count {
	out := map[string]*core.Count{}
	a := l.arms[arm]
	if a == nil {
		return out
	}
	a.cells.all(func(i int, c *cell) {
		p, n := a.trials(i, c)
		name := *a.tests.at(int(c.test))
		t := out[name]
		if t == nil {
			t = &core.Count{}
			out[name] = t
		}
		t.Passed += p
		t.Trials += n
	})
	return out
}

// Summary is all that Result reads of a ledger: each test's trials
// and side failures in the two arms, the runs of each arm, and the caveats
// of reading it. It is the ledger's sufficient statistics for its verdicts
// (a share link carries it instead of the trials); Result of the summary
// is Result of the ledger, figure for figure.
type Summary struct {
	Runs         RunCounts    `json:"runs"`
	Tests        []TestCounts `json:"tests"`         // sorted by nodeid (byte order), each once
	SkippedCalls int64        `json:"skipped_calls"` // >= 0; call rows whose outcome was skipped, counted as failed trials
	OtherArms    []string     `json:"other_arms"`    // arms besides baseline and patched, in order of first trial
	Notes        []string     `json:"notes"`         // the readers' caveats (Warn)
}

// TestCounts is one test's trials and side failures in each arm.
type TestCounts struct {
	NodeID   string     `json:"nodeid"` // not empty
	Baseline core.Count `json:"baseline"`
	Patched  core.Count `json:"patched"`
	Sides    ArmSides   `json:"sides"`
}

// Summary returns the ledger's Summary.
func (l *Ledger) Summary() *Summary {
	base, patch := l.counts(ArmBaseline), l.counts(ArmPatched)
	names := map[string]bool{}
	for n := range base {
		names[n] = true
	}
	for n := range patch {
		names[n] = true
	}
	for k := range l.sides {
		if k.arm == ArmBaseline || k.arm == ArmPatched {
			names[k.test] = true
		}
	}
	sorted := make([]string, 0, len(names))
	for n := range names {
		sorted = append(sorted, n)
	}
	sort.Strings(sorted)
	s := &Summary{Tests: make([]TestCounts, 0, len(sorted)), SkippedCalls: l.skippedCalls,
		OtherArms: []string{}, Notes: append([]string{}, l.notes...)}
	if a := l.arms[ArmBaseline]; a != nil {
		s.Runs.Baseline = len(a.runs)
	}
	if a := l.arms[ArmPatched]; a != nil {
		s.Runs.Patched = len(a.runs)
	}
	for _, name := range sorted {
		t := TestCounts{NodeID: name}
		if c := base[name]; c != nil {
			t.Baseline = *c
		}
		if c := patch[name]; c != nil {
			t.Patched = *c
		}
		if f := l.sides[sideKey{ArmBaseline, name}]; f != nil {
			t.Sides.Baseline = *f
		}
		if f := l.sides[sideKey{ArmPatched, name}]; f != nil {
			t.Sides.Patched = *f
		}
		s.Tests = append(s.Tests, t)
	}
	for _, a := range l.armOrder {
		if a != ArmBaseline && a != ArmPatched {
			s.OtherArms = append(s.OtherArms, a)
		}
	}
	return s
}

// Check reports the first way s could not have come from a ledger: a
// negative count, more passes than trials, an empty or repeated nodeid, or
// tests out of order. Result checks it first, so a summary read from a
// damaged link gives an error, never a wrong figure.
func (s *Summary) Check() error {
	bad := func(format string, args ...any) error {
		return &core.Error{Kind: core.Invalid, Field: "ledger", Msg: fmt.Sprintf(format, args...)}
	}
	if s.Runs.Baseline < 0 || s.Runs.Patched < 0 || s.SkippedCalls < 0 {
		return bad("negative run or call count")
	}
	for i, t := range s.Tests {
		switch {
		case t.NodeID == "":
			return bad("test %d has no nodeid", i+1)
		case i > 0 && s.Tests[i-1].NodeID >= t.NodeID:
			return bad("tests out of order or repeated at %q", t.NodeID)
		}
		for _, c := range []core.Count{t.Baseline, t.Patched} {
			if c.Trials < 0 || c.Passed < 0 || c.Passed > c.Trials {
				return bad("test %q: %d passed of %d trials", t.NodeID, c.Passed, c.Trials)
			}
		}
		for _, f := range []SideFailures{t.Sides.Baseline, t.Sides.Patched} {
			if f.Setup < 0 || f.Teardown < 0 || f.Errors < 0 {
				return bad("test %q: negative side failures", t.NodeID)
			}
		}
	}
	return nil
}

// Result computes each test's verdict with Decide. Tests are sorted by nodeid
// (byte order); a test seen in one arm only, or only in setup or teardown
// failures, has zero trials in the other arm and so is underpowered. A
// ledger without any test is core.Unusable.
func (l *Ledger) Result(opt Options) (*Result, error) {
	return l.Summary().Result(opt)
}

// Result computes each test's verdict as Ledger.Result does.
func (s *Summary) Result(opt Options) (*Result, error) {
	// Check the options once, before any test, so that an empty ledger
	// with bad options reports the options.
	if _, err := gate.Decide(gate.DecideInput{MinTrials: opt.MinTrials, Confidence: opt.Confidence, Property: opt.Property}); err != nil {
		return nil, err
	}
	if err := s.Check(); err != nil {
		return nil, err
	}
	if len(s.Tests) == 0 {
		return nil, &core.Error{Kind: core.Unusable, Msg: "no trials of any test in the baseline or patched arm"}
	}
	res := &Result{Runs: s.Runs, MinTrials: opt.MinTrials, Confidence: opt.Confidence, Property: opt.Property,
		Tests: make([]Test, 0, len(s.Tests)), Warnings: []string{}}
	var oneArm, sideTests, underpowered, errTests []string
	var setups, teardowns, errCount int64
	for _, tc := range s.Tests {
		name := tc.NodeID
		in := gate.DecideInput{MinTrials: opt.MinTrials, Confidence: opt.Confidence, Property: opt.Property,
			Baseline: tc.Baseline, Patched: tc.Patched, SkipAnytime: true}
		d, err := gate.Decide(in)
		if err != nil {
			return nil, err
		}
		if v, ok := opt.Answers[name]; ok {
			d.Verdict = v
			d.Gate, d.Warnings = gate.GateOf(v, opt.Property)
			d.Action, d.Blocks = gate.Action(d.Gate), gate.Blocks(d.Gate)
			d.Warnings = append([]string{"answered by the sequential test, looked at after every pair of runs"}, d.Warnings...)
		}
		t := Test{NodeID: name, Verdict: d.Verdict, Gate: d.Gate, Action: d.Action, Blocks: d.Blocks,
			Baseline: d.Baseline, Patched: d.Patched, Warnings: d.Warnings, SideFailures: tc.Sides}
		t.SetupFailures = t.SideFailures.Baseline.Setup + t.SideFailures.Patched.Setup
		t.TeardownFailures = t.SideFailures.Baseline.Teardown + t.SideFailures.Patched.Teardown
		errs := t.SideFailures.Baseline.Errors + t.SideFailures.Patched.Errors
		if errs > 0 {
			errTests = append(errTests, name)
			errCount += errs
			t.Warnings = append(t.Warnings, fmt.Sprintf(
				"errors (not assertion failures), each counted as a failed trial: %d baseline, %d patched",
				t.SideFailures.Baseline.Errors, t.SideFailures.Patched.Errors))
		}
		if t.SetupFailures+t.TeardownFailures > 0 {
			sideTests = append(sideTests, name)
			setups += t.SetupFailures
			teardowns += t.TeardownFailures
			t.Warnings = append(t.Warnings, fmt.Sprintf(
				"failures outside the test body, not counted as trials: setup %d baseline, %d patched; teardown %d baseline, %d patched",
				t.SideFailures.Baseline.Setup, t.SideFailures.Patched.Setup,
				t.SideFailures.Baseline.Teardown, t.SideFailures.Patched.Teardown))
		}
		switch {
		case in.Baseline.Trials == 0 && in.Patched.Trials > 0:
			oneArm = append(oneArm, name)
			t.Warnings = append(t.Warnings, "seen in the patched arm only")
		case in.Patched.Trials == 0 && in.Baseline.Trials > 0:
			oneArm = append(oneArm, name)
			t.Warnings = append(t.Warnings, "seen in the baseline arm only")
		}
		if d.Verdict == core.VerdictUnderpowered {
			underpowered = append(underpowered, name)
		}
		res.Blocks = res.Blocks || t.Blocks
		res.Tests = append(res.Tests, t)
	}
	if len(sideTests) > 0 {
		res.Warnings = append(res.Warnings, fmt.Sprintf(
			"setup and teardown failures (%d and %d, in %s: %s) were counted apart from trials: a failing fixture hides trials",
			setups, teardowns, core.Nouns(len(sideTests), "test"), core.ListNames(sideTests)))
	}
	if len(errTests) > 0 {
		res.Warnings = append(res.Warnings, fmt.Sprintf(
			"errors (%s in %s: %s) were counted as failed trials and apart, as errors", core.Nouns(errCount, "error"), core.Nouns(len(errTests), "test"), core.ListNames(errTests)))
	}
	if len(oneArm) > 0 {
		res.Warnings = append(res.Warnings, fmt.Sprintf(
			"%s seen in one arm only (%s): renamed or new tests split the ledger", core.Nouns(len(oneArm), "test"), core.ListNames(oneArm)))
	}
	if len(underpowered) > 0 {
		res.Warnings = append(res.Warnings, fmt.Sprintf(
			"tests with an arm of fewer than %s: %d of %d (%s)", core.Nouns(opt.MinTrials, "trial"), len(underpowered), len(s.Tests), core.ListNames(underpowered)))
	}
	if s.SkippedCalls > 0 {
		res.Warnings = append(res.Warnings, fmt.Sprintf(
			"%d call rows with outcome skipped were counted as failed trials (only passed counts as a pass)", s.SkippedCalls))
	}
	if len(s.OtherArms) > 0 {
		others := make([]string, len(s.OtherArms))
		for i, a := range s.OtherArms {
			others[i] = fmt.Sprintf("%q", a)
		}
		res.Warnings = append(res.Warnings, fmt.Sprintf("trials of arms other than baseline and patched were left out: %s", core.ListNames(others)))
	}
	res.Warnings = append(res.Warnings, s.Notes...)
	return res, nil
}
