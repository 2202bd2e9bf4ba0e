package quarantine

import (
	"fmt"
	"slices"

	"github.com/flakegate/flakegate/core"
	"github.com/flakegate/flakegate/core/ledger"
)

// Reports is what new test reports say about the tests: for each test id,
// its passes and trials in every run it ran in, in the order of the runs.
// A run with a failure ends a test's clean run of trials; a run of passes
// extends it.
type Reports struct {
	Runs  int                     `json:"runs"`  // runs read, >= 0
	Tests map[string][]core.Count `json:"tests"` // per test id, one count per run it ran in, in run order
	// IDs are the identities (RunID) of the Runs, in order, when the
	// caller knows them (FromLedgerRuns): a writing check remembers them
	// as counted. Empty otherwise.
	IDs      []string `json:"ids,omitempty"`
	Warnings []string `json:"warnings"`
}

// FromLedger collects the baseline arm of l, where the report readers put
// every go test -json and JUnit file, each file a run in the order read.
// A seed JSONL ledger's patched arm is a different version of the code: its
// trials are left out, with a warning.
func FromLedger(l *ledger.Ledger) *Reports {
	return fromLedger(l, nil)
}

// FromLedgerRuns is FromLedger with the identity of each baseline run of l
// (ids, keyed by run name; RunID, LedgerRunIDs): a run that reg has
// counted already, or that is the same run as an earlier one of l, is left
// out, and a warning says so, naming it. The identities of the runs kept
// are the result's IDs. A run without an identity in ids is counted and
// not remembered.
func FromLedgerRuns(l *ledger.Ledger, ids map[string]string, reg *Registry) *Reports {
	counted := map[string]string{}
	for _, c := range reg.Counted {
		counted[c.Run] = c.Date
	}
	seen := map[string]string{}
	skip := map[int]bool{}
	var warns, kept []string
	for i, run := range l.Runs(ledger.ArmBaseline) {
		id := ids[run]
		switch date, done := counted[id]; {
		case id == "":
		case done:
			skip[i] = true
			warns = append(warns, fmt.Sprintf("%s is a run counted already, on %s: not counted again", run, date))
		case seen[id] != "":
			skip[i] = true
			warns = append(warns, fmt.Sprintf("%s is the same run as %s: counted once", run, seen[id]))
		default:
			seen[id] = run
			kept = append(kept, id)
		}
	}
	rep := fromLedger(l, skip)
	rep.IDs = kept
	rep.Warnings = append(rep.Warnings, warns...)
	return rep
}

// fromLedger collects l's baseline runs but those in skip.
func fromLedger(l *ledger.Ledger, skip map[int]bool) *Reports {
	rep := &Reports{Tests: map[string][]core.Count{}, Warnings: append([]string{}, l.Notes()...)}
	runs, tests := l.Runs(ledger.ArmBaseline), l.Tests(ledger.ArmBaseline)
	rep.Runs = len(runs) - len(skip)
	for _, c := range l.Cells(ledger.ArmBaseline) { // ordered by run, then test
		if skip[c.Run] {
			continue
		}
		id := tests[c.Test]
		rep.Tests[id] = append(rep.Tests[id], core.Count{Passed: c.Passed, Trials: c.Trials})
	}
	if n := len(l.Runs(ledger.ArmPatched)); n > 0 {
		rep.Warnings = append(rep.Warnings, fmt.Sprintf(
			"the reports' patched arm (%s) is another version of the code: only the baseline arm is counted", core.Nouns(n, "run")))
	}
	return rep
}

// Count is the passes and trials of test over every run of the reports,
// and whether the test ran at all.
func (rep *Reports) Count(test string) (core.Count, bool) {
	var c core.Count
	for _, r := range rep.Tests[test] {
		c.Passed += r.Passed
		c.Trials += r.Trials
	}
	return c, c.Trials > 0
}

// Flaky lists, sorted, the tests that both passed and failed in the
// reports: the ones to quarantine when none are named.
func (rep *Reports) Flaky() []string {
	var out []string
	for id := range rep.Tests {
		if c, _ := rep.Count(id); c.Passed > 0 && c.Passed < c.Trials {
			out = append(out, id)
		}
	}
	slices.Sort(out)
	return out
}
