package core

import "fmt"

// AASide turns one arm of the ledger into the A/A calculator's input: each
// test is a scenario and each run (for go test -json and JUnit, each file)
// is a run. Every trial is a row, so a test with several trials in a run
// (go test -count, reruns) gives several rows of that (scenario, run),
// counted in Duplicates as the CSV reader counts repeated pairs. Scenarios
// and runs are in order of first appearance. An arm without trials is
// Unusable.
func (l *Ledger) AASide(arm string) (*AASide, error) {
	a := l.arms[arm]
	if a == nil || len(a.cells) == 0 {
		return nil, &Error{Kind: Unusable, Field: "arm", Msg: fmt.Sprintf("no trials in the %s arm", arm)}
	}
	side := &AASide{Scenarios: make([]Tally, len(a.tests)), Runs: make([]Tally, len(a.runs))}
	for i, name := range a.tests {
		side.Scenarios[i].ID = name
	}
	for i, name := range a.runs {
		side.Runs[i].ID = name
	}
	for k, c := range a.cells {
		p, n := c.trials()
		side.Scenarios[k.test].Passed += p
		side.Scenarios[k.test].Total += n
		side.Runs[k.run].Passed += p
		side.Runs[k.run].Total += n
		side.Rows += n
		if n > 1 {
			side.Duplicates += n - 1
		}
	}
	return side, nil
}

// AA runs the A/A check on the baseline arm and, when the patched arm has
// trials, compares it as the candidate: "flakegate aa" over report files,
// with each file a run and each test a scenario.
func (l *Ledger) AA(opt AAOptions) (*AAResult, error) {
	base, err := l.AASide(ArmBaseline)
	if err != nil {
		return nil, err
	}
	var cand *AASide
	if a := l.arms[ArmPatched]; a != nil && len(a.cells) > 0 {
		if cand, err = l.AASide(ArmPatched); err != nil {
			return nil, err
		}
	}
	res, err := AA(base, cand, opt)
	if err != nil {
		return nil, err
	}
	res.Warnings = append(res.Warnings, l.notes...)
	return res, nil
}
