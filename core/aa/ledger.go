package aa

import (
	"fmt"

	"github.com/flakegate/flakegate/core"
	"github.com/flakegate/flakegate/core/ledger"
)

// FromLedger turns one arm of the ledger into the A/A calculator's input:
// each test is a scenario and each run (for go test -json and JUnit, each
// file) is a run. Every trial is a row, so a test with several trials in a
// run (go test -count, reruns) gives several rows of that (scenario, run),
// counted in Duplicates as the CSV reader counts repeated pairs. Scenarios
// and runs are in order of first appearance. An arm without trials is
// core.Unusable.
func FromLedger(l *ledger.Ledger, arm string) (*Side, error) {
	tests, runs := l.Tests(arm), l.Runs(arm)
	if len(tests) == 0 {
		return nil, &core.Error{Kind: core.Unusable, Field: "arm", Msg: fmt.Sprintf("no trials in the %s arm", arm)}
	}
	side := &Side{Scenarios: make([]Tally, len(tests)), Runs: make([]Tally, len(runs))}
	for i, name := range tests {
		side.Scenarios[i].ID = name
	}
	for i, name := range runs {
		side.Runs[i].ID = name
	}
	for _, c := range l.Cells(arm) {
		side.Scenarios[c.Test].Passed += c.Passed
		side.Scenarios[c.Test].Total += c.Trials
		side.Runs[c.Run].Passed += c.Passed
		side.Runs[c.Run].Total += c.Trials
		side.Rows += c.Trials
		if c.Trials > 1 {
			side.Duplicates += c.Trials - 1
		}
	}
	return side, nil
}

// CheckLedger runs the A/A check on the baseline arm and, when the patched
// arm has trials, compares it as the candidate: "flakegate aa" over report
// files, with each file a run and each test a scenario. The ledger's notes
// follow the check's warnings.
func CheckLedger(l *ledger.Ledger, opt Options) (*Result, error) {
	base, err := FromLedger(l, ledger.ArmBaseline)
	if err != nil {
		return nil, err
	}
	var cand *Side
	if len(l.Tests(ledger.ArmPatched)) > 0 {
		if cand, err = FromLedger(l, ledger.ArmPatched); err != nil {
			return nil, err
		}
	}
	res, err := Check(base, cand, opt)
	if err != nil {
		return nil, err
	}
	res.Warnings = append(res.Warnings, l.Notes()...)
	return res, nil
}
