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
