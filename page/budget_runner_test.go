package page

import (
	"strings"
	"testing"

	"github.com/flakegate/flakegate/core/gate"
	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// The budget in a test runner's own setting: the page shows every figure
// of gate.Budget's result for the same runner and setting (its runner
// block and each row's setting), and a bad setting is marked at its field.
func TestBudgetRunnerSetting(t *testing.T) {
	c := &budgetT{}
	e := load(t, c)
	typeInto(t, e, c, "runner", "gotestsum", "setting", "2")
	two := int64(2)
	want, err := gate.Budget(gate.BudgetInput{Target: 0.95, Cap: 3, Confidence: 0.95, Rates: []float64{0.05, 0.02, 0.01}, Runner: "gotestsum", Setting: &two})
	if err != nil {
		t.Fatal(err)
	}
	page := checkPage(t, c, "", want)
	// gotestsum counts retries: --rerun-fails=N is N reruns, so the 59
	// reruns a 5% flake needs (docs/STATISTICS.md) are --rerun-fails=59.
	if page["runner.written"] != "--rerun-fails=2" || page["rows.0.runner.written"] != "--rerun-fails=59" {
		t.Errorf("runner %q, row 0 %q", page["runner.written"], page["rows.0.runner.written"])
	}
	if !strings.Contains(c.ctx.Page().URL().Fragment, "runner=gotestsum") {
		t.Errorf("the link lacks the runner: %s", c.ctx.Page().URL())
	}

	typeInto(t, e, c, "setting", "two")
	html := app.HTMLString(c)
	expectMarked(t, html, "setting", `"two" is not a whole number`)
	expectNoFigures(t, html)
}
