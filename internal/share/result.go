package share

import (
	"github.com/flakegate/flakegate/core"
	"github.com/flakegate/flakegate/core/gate"
	"github.com/flakegate/flakegate/core/ledger"
)

// The views of results: a budget, decide, sizing or freeze result echoes
// every input it was computed from, so its view is built from the result
// alone, the same wherever it was computed.

// BudgetOf is the budget view of a budget result: its target, cap, cost
// and confidence, its observed history, and the rates it was given.
func BudgetOf(r *gate.BudgetResult) View {
	in := gate.BudgetInput{Target: r.Target, Cap: r.Cap, CostSeconds: r.CostSeconds, Confidence: r.Confidence}
	if rs := r.Runner; rs != nil {
		in.Runner, in.Setting = rs.Name, &rs.Setting
	}
	if o := r.Observed; o != nil {
		in.Observed = &core.Count{Passed: o.Fails, Trials: o.Runs}
	}
	for _, row := range r.Rows {
		if row.Source != "observed_upper" {
			in.Rates = append(in.Rates, row.Rate)
		}
	}
	return Budget(in)
}

// DecideOf is the decide view of a two-arm verdict.
func DecideOf(r *gate.DecideResult) View {
	v, _ := Decide(gate.DecideInput{Baseline: core.Count{Passed: r.Baseline.Passed, Trials: r.Baseline.Trials},
		Patched: core.Count{Passed: r.Patched.Passed, Trials: r.Patched.Trials}, MinTrials: r.MinTrials,
		Confidence: r.Confidence, Property: r.Property}, nil) // without a ledger Decide does not fail
	return v
}

// SizeOf is the view of a sizing (Size).
func SizeOf(r *gate.SizeResult) View {
	return Size(gate.SizeInput{Baseline: r.Baseline, Patched: r.Patched, Confidence: r.Confidence})
}

// FreezeOf is the view of a frozen claim's check (Freeze).
func FreezeOf(r *gate.FreezeResult) View {
	in := gate.FreezeInput{Claim: core.Count{Passed: r.Claim.Passed, Trials: r.Claim.Trials}, Confidence: r.Claim.Confidence}
	if n := r.Newer; n != nil {
		in.Newer = &core.Count{Passed: n.Passed, Trials: n.Trials}
	}
	return Freeze(in)
}

// FlakesOf is the budget view of every flaky test at once: the upper end
// of each one's observed rate, the rate its budget plans for, as a given
// rate, with the budgets' settings. ok is false without a flaky test (a
// budget needs a rate). Each flake's own budget has its own view
// (BudgetOf), observed history included.
func FlakesOf(r *ledger.FlakesResult) (v View, ok bool) {
	if len(r.Flakes) == 0 {
		return View{}, false
	}
	b := r.Flakes[0].Budget
	in := gate.BudgetInput{Target: b.Target, Cap: b.Cap, CostSeconds: b.CostSeconds, Confidence: b.Confidence}
	if rs := b.Runner; rs != nil {
		in.Runner, in.Setting = rs.Name, &rs.Setting
	}
	for _, f := range r.Flakes {
		in.Rates = append(in.Rates, f.Budget.Rows[0].Rate)
	}
	return Budget(in), true
}
