package ledger

import (
	"cmp"
	"fmt"
	"github.com/flakegate/flakegate/core/internal/sorts"
)

// Arms of a two-arm ledger.
const (
	ArmBaseline = "baseline"
	ArmPatched  = "patched"
)

// Ledger accumulates trials of tests in runs of two arms. Within one run of
// one arm, the last outcome recorded for a test with Add stands. Readers of
// every report format (the JSONL trial ledger, go test -json, JUnit XML)
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
	autoRuns     map[string]int // per arm, runs named by NextRun
	cap          cellCap
}

type ledgerArm struct {
	runs    []string            // in order of first trial
	runIdx  map[string]int32    // run id -> index in runs
	tests   blockList[string]   // in order of first trial
	testIdx nameIndex           // test name -> index in tests
	cells   blockList[cell]     // in order of first trial
	latest  []int32             // per test, the index of its cell of the latest run
	index   map[uint64]int32    // cellKey -> index in cells; nil until needed
	wide    map[int32]*counters // counters of the cells marked cellWide
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

// New returns an empty ledger.
func New() *Ledger {
	return &Ledger{arms: map[string]*ledgerArm{}, sides: map[sideKey]*SideFailures{}, noted: map[string]bool{}}
}

func (l *Ledger) arm(name string) *ledgerArm {
	a := l.arms[name]
	if a == nil {
		a = &ledgerArm{runIdx: map[string]int32{}}
		l.arms[name] = a
		l.armOrder = append(l.armOrder, name)
	}
	return a
}

// cell returns the arm of arm and the index in it of the cell of (run,
// test), or -1 when the cell cap leaves it out.
func (l *Ledger) cell(arm, run, test string) (*ledgerArm, int) {
	a := l.arm(arm)
	if l.cap.full() {
		ri, rok := a.runIdx[run]
		ti, tok := a.testIdx.lookup(&a.tests, test)
		if rok && tok {
			if i := a.find(ri, ti); i >= 0 {
				return a, i
			}
		}
		l.cap.spill()
		return a, -1
	}
	ri, ok := a.runIdx[run]
	if !ok {
		ri = int32(len(a.runs))
		a.runIdx[run] = ri
		a.runs = append(a.runs, run)
	}
	ti, ok := a.testIdx.lookup(&a.tests, test)
	if !ok {
		ti = int32(a.tests.add(test))
		a.testIdx.insert(&a.tests, ti)
	}
	i := a.find(ri, ti)
	if i < 0 {
		i = a.newCell(ri, ti)
		l.cap.used++
	}
	return a, i
}

// exec records an execution of cell i, c, beside its counters' d.
func (a *ledgerArm) exec(i int, c *cell, passed bool, d counters) {
	d.execs++
	if passed {
		if c.flags&cellSawFail != 0 {
			c.flags |= cellRecovered
		}
	} else {
		d.fails++
		c.flags |= cellSawFail
	}
	a.add(i, c, d)
}

// Add records a trial of test in run of arm; a later Add for the same
// (arm, run, test) replaces it. This is the JSONL trial ledger's rule: a test
// retried within one run counts once, with its last outcome. Every call is
// still kept in the retry history that Flakes reports.
func (l *Ledger) Add(arm, run, test string, passed bool) {
	a, i := l.cell(arm, run, test)
	if i < 0 {
		return
	}
	c := a.cells.at(i)
	c.flags |= cellSet
	c.flags &^= cellPassed
	if passed {
		c.flags |= cellPassed
	}
	a.exec(i, c, passed, counters{})
}

// AddTrial records one more independent trial of test in run of arm, beside
// any others: each execution in a go test -count=N stream, and each attempt
// of a JUnit test that was rerun after failing, is its own trial.
func (l *Ledger) AddTrial(arm, run, test string, passed bool) {
	a, i := l.cell(arm, run, test)
	if i < 0 {
		return
	}
	d := counters{extraTrials: 1}
	if passed {
		d.extraPassed = 1
	}
	a.exec(i, a.cells.at(i), passed, d)
}

// AddCounts records passed trials out of trials of test in run of arm at
// once, as sums from a warehouse arrive (a GROUP BY of one row per
// execution): the same as that many AddTrial calls, without the order of
// passes and failures, so no run counts as recovered. It panics unless
// 0 <= passed <= trials; readers check their input first.
func (l *Ledger) AddCounts(arm, run, test string, passed, trials int64) {
	if passed < 0 || passed > trials {
		panic("ledger: AddCounts needs 0 <= passed <= trials")
	}
	if trials == 0 {
		return
	}
	a, i := l.cell(arm, run, test)
	if i < 0 {
		return
	}
	c := a.cells.at(i)
	a.add(i, c, counters{extraPassed: passed, extraTrials: trials, execs: trials, fails: trials - passed})
	if passed < trials {
		c.flags |= cellSawFail
	}
}

// AddSideFailure records a failure outside the test body (when is "setup" or
// "teardown"); these are counted apart from trials, per test and arm. When
// is "error" counts a JUnit <error> apart: the reader records its failed
// trial separately. Other values of when are counted as setup failures.
func (l *Ledger) AddSideFailure(arm, run, test, when string) {
	k := sideKey{arm, test}
	s := l.sides[k]
	if s == nil {
		if l.cap.full() {
			l.cap.spill()
			return
		}
		s = &SideFailures{}
		l.sides[k] = s
		l.cap.used++
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

// NextRun names the next unnamed run of arm, one not used yet:
// "baseline-1", "baseline-2", ... Readers of formats whose files do not name
// their run (go test -json, JUnit) name each file's run with it.
func (l *Ledger) NextRun(arm string) string {
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

// AddSkippedCall counts a seed-ledger call row whose outcome was skipped.
// The reader records it with Add as a failed trial, as the reference
// analyzer counts it; Result reports how many there were.
func (l *Ledger) AddSkippedCall() { l.skippedCalls++ }

// Notes returns the caveats added with Warn, in the order first added.
func (l *Ledger) Notes() []string { return append([]string{}, l.notes...) }

// Runs returns the runs of arm with at least one trial, in order of first
// appearance.
func (l *Ledger) Runs(arm string) []string {
	a := l.arms[arm]
	if a == nil {
		return []string{}
	}
	return append([]string{}, a.runs...)
}

// Tests returns the tests of arm with at least one trial, in order of first
// appearance.
func (l *Ledger) Tests(arm string) []string {
	a := l.arms[arm]
	if a == nil {
		return []string{}
	}
	out := make([]string, 0, a.tests.len())
	a.tests.all(func(_ int, t *string) { out = append(out, *t) })
	return out
}

// Cell is the trials of one test in one run of an arm: the outcome that
// stands (Add) and the extra independent trials (AddTrial).
type Cell struct {
	Test   int   // index in Tests(arm)
	Run    int   // index in Runs(arm)
	Passed int64 // in [0, Trials]
	Trials int64 // >= 1
}

// Cells returns every (test, run) of arm that has trials, ordered by run
// and then by test.
func (l *Ledger) Cells(arm string) []Cell {
	a := l.arms[arm]
	if a == nil {
		return []Cell{}
	}
	out := make([]Cell, 0, a.cells.len())
	a.cells.all(func(i int, c *cell) {
		p, n := a.trials(i, c)
		out = append(out, Cell{Test: int(c.test), Run: int(c.run), Passed: p, Trials: n})
	})
	sorts.Func(out, func(x, y Cell) int {
		if x.Run != y.Run {
			return cmp.Compare(x.Run, y.Run)
		}
		return cmp.Compare(x.Test, y.Test)
	})
	return out
}
