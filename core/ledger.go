package core

import (
	"fmt"
	"io"
	"sort"
	"strings"
)

// Arms of a two-arm ledger.
const (
	ArmBaseline = "baseline"
	ArmPatched  = "patched"
)

// Ledger accumulates trials of tests in runs of two arms. Within one run of
// one arm, the last outcome recorded for a test with Add stands. Readers of
// every report format (the seed's JSONL ledger, go test -json, JUnit XML)
// feed it.
//
// A ledger keeps, per arm, the runs in order of first appearance and, per
// (run, test), the outcome that stands, any extra independent trials (from
// AddTrial) and every execution for the retry history (Flakes). Memory grows
// with runs times tests, not with the number of rows read.
type Ledger struct {
	arms     map[string]*ledgerArm
	armOrder []string
	sides    map[sideKey]*SideFailures
	notes    []string
	noted    map[string]bool
	// skippedCalls counts seed-ledger call rows whose outcome was skipped:
	// counted as failed trials, as the reference analyzer does.
	skippedCalls int64
	autoRuns     map[string]int // per arm, runs named by nextRun
}

type ledgerArm struct {
	runs    []string       // in order of first trial
	runIdx  map[string]int // run id -> index in runs
	tests   []string       // in order of first trial
	testIdx map[string]int
	cells   map[cellKey]*cell
}

type cellKey struct {
	run  int
	test int
}

// cell is one test in one run of one arm.
type cell struct {
	set         bool  // Add was called
	passed      bool  // the last outcome given to Add
	extraPassed int64 // passes among AddTrial trials
	extraTrials int64 // AddTrial trials
	execs       int64 // every execution, Add and AddTrial alike
	fails       int64 // failed executions
	sawFail     bool
	recovered   bool // a failed execution was followed by a passing one
}

func (c *cell) trials() (passed, trials int64) {
	passed, trials = c.extraPassed, c.extraTrials
	if c.set {
		trials++
		if c.passed {
			passed++
		}
	}
	return passed, trials
}

type sideKey struct{ arm, test string }

// SideFailures counts, in one arm, what is counted apart from a test's
// passes and failures. Setup and teardown failures are not trials: a test
// whose setup failed never ran, and a teardown failure follows a body that
// already reported. Errors are JUnit <error> results of the test body (an
// unexpected exception rather than a failed assertion); each of them is
// also a failed trial, so that a test that keeps erroring is not counted as
// passing.
type SideFailures struct {
	Setup    int64 `json:"setup"`    // >= 0
	Teardown int64 `json:"teardown"` // >= 0
	Errors   int64 `json:"errors"`   // >= 0, each also a failed trial
}

// NewLedger returns an empty ledger.
func NewLedger() *Ledger {
	return &Ledger{arms: map[string]*ledgerArm{}, sides: map[sideKey]*SideFailures{}, noted: map[string]bool{}}
}

func (l *Ledger) arm(name string) *ledgerArm {
	a := l.arms[name]
	if a == nil {
		a = &ledgerArm{runIdx: map[string]int{}, testIdx: map[string]int{}, cells: map[cellKey]*cell{}}
		l.arms[name] = a
		l.armOrder = append(l.armOrder, name)
	}
	return a
}

func (l *Ledger) cell(arm, run, test string) *cell {
	a := l.arm(arm)
	ri, ok := a.runIdx[run]
	if !ok {
		ri = len(a.runs)
		a.runIdx[run] = ri
		a.runs = append(a.runs, run)
	}
	ti, ok := a.testIdx[test]
	if !ok {
		ti = len(a.tests)
		a.testIdx[test] = ti
		a.tests = append(a.tests, test)
	}
	k := cellKey{ri, ti}
	c := a.cells[k]
	if c == nil {
		c = &cell{}
		a.cells[k] = c
	}
	return c
}

func (c *cell) exec(passed bool) {
	c.execs++
	if passed {
		if c.sawFail {
			c.recovered = true
		}
	} else {
		c.fails++
		c.sawFail = true
	}
}

// Add records a trial of test in run of arm; a later Add for the same
// (arm, run, test) replaces it. This is the seed ledger's rule: a test
// retried within one run counts once, with its last outcome. Every call is
// still kept in the retry history that Flakes reports.
func (l *Ledger) Add(arm, run, test string, passed bool) {
	c := l.cell(arm, run, test)
	c.set, c.passed = true, passed
	c.exec(passed)
}

// AddTrial records one more independent trial of test in run of arm, beside
// any others: each execution in a go test -count=N stream, and each attempt
// of a JUnit test that was rerun after failing, is its own trial.
func (l *Ledger) AddTrial(arm, run, test string, passed bool) {
	c := l.cell(arm, run, test)
	c.extraTrials++
	if passed {
		c.extraPassed++
	}
	c.exec(passed)
}

// AddSideFailure records a failure outside the test body (when is "setup" or
// "teardown"); these are counted apart from trials, per test and arm. When
// is "error" counts a JUnit <error> apart: the reader records its failed
// trial separately. Other values of when are counted as setup failures.
func (l *Ledger) AddSideFailure(arm, run, test, when string) {
	k := sideKey{arm, test}
	s := l.sides[k]
	if s == nil {
		s = &SideFailures{}
		l.sides[k] = s
	}
	switch when {
	case "teardown":
		s.Teardown++
	case "error":
		s.Errors++
	default:
		s.Setup++
	}
}

// nextRun names the next unnamed run of arm: "baseline-1", "baseline-2", ...
func (l *Ledger) nextRun(arm string) string {
	if l.autoRuns == nil {
		l.autoRuns = map[string]int{}
	}
	for {
		l.autoRuns[arm]++
		name := fmt.Sprintf("%s-%d", arm, l.autoRuns[arm])
		if a := l.arms[arm]; a == nil || !a.hasRun(name) {
			return name
		}
	}
}

func (a *ledgerArm) hasRun(name string) bool { _, ok := a.runIdx[name]; return ok }

// Warn adds a caveat that Result reports; a repeated message is kept once.
// Readers use it for what they noticed but could still count.
func (l *Ledger) Warn(msg string) {
	if !l.noted[msg] {
		l.noted[msg] = true
		l.notes = append(l.notes, msg)
	}
}

// Runs returns the runs of arm with at least one trial, in order of first
// appearance.
func (l *Ledger) Runs(arm string) []string {
	a := l.arms[arm]
	if a == nil {
		return []string{}
	}
	return append([]string{}, a.runs...)
}

// ReadLedger reads the seed's per-trial JSONL (fields run, arm, nodeid, when,
// outcome) into l. Errors carry line and column.
func ReadLedger(r io.Reader, l *Ledger) error { return readLedgerJSONL(r, l) }

// LedgerOptions are the settings of each test's two-arm verdict.
type LedgerOptions struct {
	MinTrials  int64   // fewest trials an arm needs for a verdict, >= 1
	Confidence float64 // of the Wilson intervals, in (0,1)
	Property   string  // PropertyPassed, PropertyFailed or PropertyUnknown, for every test
}

// DefaultLedgerOptions match DefaultDecideInput.
var DefaultLedgerOptions = LedgerOptions{MinTrials: 20, Confidence: DefaultConfidence, Property: PropertyUnknown}

// LedgerTest is one test's two arms and verdict.
type LedgerTest struct {
	NodeID   string `json:"nodeid"`
	Verdict  string `json:"verdict"`
	Gate     string `json:"gate"`
	Action   string `json:"action"`
	Blocks   bool   `json:"blocks"`
	Baseline Arm    `json:"baseline"`
	Patched  Arm    `json:"patched"`
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

// LedgerRuns counts the runs of each arm.
type LedgerRuns struct {
	Baseline int `json:"baseline"`
	Patched  int `json:"patched"`
}

// LedgerResult is every test's verdict, sorted by nodeid.
type LedgerResult struct {
	Runs       LedgerRuns   `json:"runs"`
	MinTrials  int64        `json:"min_trials"`
	Confidence float64      `json:"confidence"`
	Property   string       `json:"property"`
	Tests      []LedgerTest `json:"tests"`
	Blocks     bool         `json:"blocks"` // some test's gate blocks
	Warnings   []string     `json:"warnings"`
}

// listNames shows up to four names and how many more there are.
func listNames(names []string) string {
	const show = 4
	if len(names) <= show {
		return strings.Join(names, ", ")
	}
	return fmt.Sprintf("%s and %d more", strings.Join(names[:show], ", "), len(names)-show)
}

// counts sums each test's trials in arm.
func (l *Ledger) counts(arm string) map[string]*Count {
	out := map[string]*Count{}
	a := l.arms[arm]
	if a == nil {
		return out
	}
	for k, c := range a.cells {
		p, n := c.trials()
		name := a.tests[k.test]
		t := out[name]
		if t == nil {
			t = &Count{}
			out[name] = t
		}
		t.Passed += p
		t.Trials += n
	}
	return out
}

// LedgerSummary is all that Result reads of a ledger: each test's trials
// and side failures in the two arms, the runs of each arm, and the caveats
// of reading it. It is the ledger's sufficient statistics for its verdicts
// (a share link carries it instead of the trials); Result of the summary
// is Result of the ledger, figure for figure.
type LedgerSummary struct {
	Runs         LedgerRuns         `json:"runs"`
	Tests        []LedgerTestCounts `json:"tests"`         // sorted by nodeid (byte order), each once
	SkippedCalls int64              `json:"skipped_calls"` // >= 0; call rows whose outcome was skipped, counted as failed trials
	OtherArms    []string           `json:"other_arms"`    // arms besides baseline and patched, in order of first trial
	Notes        []string           `json:"notes"`         // the readers' caveats (Warn)
}

// LedgerTestCounts is one test's trials and side failures in each arm.
type LedgerTestCounts struct {
	NodeID   string   `json:"nodeid"` // not empty
	Baseline Count    `json:"baseline"`
	Patched  Count    `json:"patched"`
	Sides    ArmSides `json:"sides"`
}

// Summary returns the ledger's LedgerSummary.
func (l *Ledger) Summary() *LedgerSummary {
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
	s := &LedgerSummary{Tests: make([]LedgerTestCounts, 0, len(sorted)), SkippedCalls: l.skippedCalls,
		OtherArms: []string{}, Notes: append([]string{}, l.notes...)}
	if a := l.arms[ArmBaseline]; a != nil {
		s.Runs.Baseline = len(a.runs)
	}
	if a := l.arms[ArmPatched]; a != nil {
		s.Runs.Patched = len(a.runs)
	}
	for _, name := range sorted {
		t := LedgerTestCounts{NodeID: name}
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
func (s *LedgerSummary) Check() error {
	bad := func(format string, args ...any) error {
		return &Error{Kind: Invalid, Field: "ledger", Msg: fmt.Sprintf(format, args...)}
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
		for _, c := range []Count{t.Baseline, t.Patched} {
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
// ledger without any test is Unusable.
func (l *Ledger) Result(opt LedgerOptions) (*LedgerResult, error) {
	return l.Summary().Result(opt)
}

// Result computes each test's verdict as Ledger.Result does.
func (s *LedgerSummary) Result(opt LedgerOptions) (*LedgerResult, error) {
	// Check the options once, before any test, so that an empty ledger
	// with bad options reports the options.
	if _, err := Decide(DecideInput{MinTrials: opt.MinTrials, Confidence: opt.Confidence, Property: opt.Property}); err != nil {
		return nil, err
	}
	if err := s.Check(); err != nil {
		return nil, err
	}
	if len(s.Tests) == 0 {
		return nil, &Error{Kind: Unusable, Msg: "no trials of any test in the baseline or patched arm"}
	}
	res := &LedgerResult{Runs: s.Runs, MinTrials: opt.MinTrials, Confidence: opt.Confidence, Property: opt.Property,
		Tests: make([]LedgerTest, 0, len(s.Tests)), Warnings: []string{}}
	var oneArm, sideTests, underpowered, errTests []string
	var setups, teardowns, errCount int64
	for _, tc := range s.Tests {
		name := tc.NodeID
		in := DecideInput{MinTrials: opt.MinTrials, Confidence: opt.Confidence, Property: opt.Property,
			Baseline: tc.Baseline, Patched: tc.Patched}
		d, err := Decide(in)
		if err != nil {
			return nil, err
		}
		t := LedgerTest{NodeID: name, Verdict: d.Verdict, Gate: d.Gate, Action: d.Action, Blocks: d.Blocks,
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
		if d.Verdict == VerdictUnderpowered {
			underpowered = append(underpowered, name)
		}
		res.Blocks = res.Blocks || t.Blocks
		res.Tests = append(res.Tests, t)
	}
	if len(sideTests) > 0 {
		res.Warnings = append(res.Warnings, fmt.Sprintf(
			"setup and teardown failures (%d and %d, in %s: %s) were counted apart from trials: a failing fixture hides trials",
			setups, teardowns, Nouns(len(sideTests), "test"), listNames(sideTests)))
	}
	if len(errTests) > 0 {
		res.Warnings = append(res.Warnings, fmt.Sprintf(
			"errors (%s in %s: %s) were counted as failed trials and apart, as errors", Nouns(errCount, "error"), Nouns(len(errTests), "test"), listNames(errTests)))
	}
	if len(oneArm) > 0 {
		res.Warnings = append(res.Warnings, fmt.Sprintf(
			"%s seen in one arm only (%s): renamed or new tests split the ledger", Nouns(len(oneArm), "test"), listNames(oneArm)))
	}
	if len(underpowered) > 0 {
		res.Warnings = append(res.Warnings, fmt.Sprintf(
			"tests with an arm of fewer than %s: %d of %d (%s)", Nouns(opt.MinTrials, "trial"), len(underpowered), len(s.Tests), listNames(underpowered)))
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
		res.Warnings = append(res.Warnings, fmt.Sprintf("trials of arms other than baseline and patched were left out: %s", listNames(others)))
	}
	res.Warnings = append(res.Warnings, s.Notes...)
	return res, nil
}
