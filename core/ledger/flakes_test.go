package ledger_test

import (
	"testing"

	"github.com/flakegate/flakegate/core"
	"github.com/flakegate/flakegate/core/gate"
	"github.com/flakegate/flakegate/core/ledger"
)

// The budget settings are checked even when no test flaked, and before a
// ledger's emptiness is.
func TestFlakeBudgetsCheckSettings(t *testing.T) {
	bad := gate.DefaultBudgetInput
	bad.Target = 1.5
	calm := ledger.New()
	calm.AddTrial(ledger.ArmBaseline, "r", "t", true)
	for name, l := range map[string]*ledger.Ledger{"no flake": calm, "no execution": ledger.New()} {
		_, err := l.FlakeBudgets(bad)
		if e, ok := err.(*core.Error); !ok || e.Kind != core.Invalid || e.Field != "target" {
			t.Errorf("%s: %v, want the target refused", name, err)
		}
	}
	if _, err := ledger.BudgetFlakes(nil, bad); err == nil {
		t.Error("BudgetFlakes of no history took a target of 1.5")
	}
}

// The budgets come costliest first: rate times the runner seconds of a
// run. Expected by exact arithmetic: b fails 3 of 4 (0.75 × 10 s = 7.5 s),
// c 1 of 2 (5 s), a 1 of 4 (2.5 s); d never fails and is no flake.
func TestFlakeBudgetsCostliestFirst(t *testing.T) {
	l := ledger.New()
	for run, outcomes := range map[string]map[string]bool{
		"r1": {"a": false, "b": false, "c": false, "d": true},
		"r2": {"a": true, "b": false, "c": true, "d": true},
		"r3": {"a": true, "b": false, "d": true},
		"r4": {"a": true, "b": true, "d": true},
	} {
		for test, pass := range outcomes {
			l.AddTrial(ledger.ArmBaseline, run, test, pass)
		}
	}
	in := gate.DefaultBudgetInput
	cost := 10.0
	in.CostSeconds = &cost
	res, err := l.FlakeBudgets(in)
	if err != nil {
		t.Fatal(err)
	}
	want := []struct {
		id   string
		cost float64
	}{{"b", 7.5}, {"c", 5}, {"a", 2.5}}
	if len(res.Flakes) != len(want) {
		t.Fatalf("%d flakes, want %d", len(res.Flakes), len(want))
	}
	for i, w := range want {
		f := res.Flakes[i]
		if f.NodeID != w.id || f.CostPerRun == nil || *f.CostPerRun != w.cost {
			t.Errorf("flake %d: %s costing %v, want %s costing %v", i, f.NodeID, f.CostPerRun, w.id, w.cost)
		}
	}
	// Without a cost the order is the rate's, and no cost is made up.
	res, err = l.FlakeBudgets(gate.DefaultBudgetInput)
	if err != nil {
		t.Fatal(err)
	}
	for i, w := range want {
		if f := res.Flakes[i]; f.NodeID != w.id || f.CostPerRun != nil {
			t.Errorf("without a cost, flake %d: %s costing %v", i, f.NodeID, f.CostPerRun)
		}
	}
}
