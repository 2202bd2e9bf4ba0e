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
	Runs     int                     `json:"runs"`  // runs read, >= 0
	Tests    map[string][]core.Count `json:"tests"` // per test id, one count per run it ran in, in run order
	Warnings []string                `json:"warnings"`
}

// FromLedger collects the baseline arm of l, where the report readers put
// every go test -json and JUnit file, each file a run in the order read.
// A seed JSONL ledger's patched arm is a different version of the code: its
// trials are left out, with a warning.
func FromLedger(l *ledger.Ledger) *Reports {
	rep := &Reports{Tests: map[string][]core.Count{}, Warnings: append([]string{}, l.Notes()...)}
	runs, tests := l.Runs(ledger.ArmBaseline), l.Tests(ledger.ArmBaseline)
	rep.Runs = len(runs)
	for _, c := range l.Cells(ledger.ArmBaseline) { // ordered by run, then test
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
