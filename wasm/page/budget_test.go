package page

import (
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/flakegate/flakegate/core"
	"github.com/flakegate/flakegate/core/gate"
	"github.com/flakegate/flakegate/wasm/page/fieldcheck"
	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

func TestBudgetPageShowsEveryFigure(t *testing.T) {
	c, e := newPage[budgetT](t)
	// The defaults: 95% target, cap 3, rates 0.05,0.02,0.01.
	want, err := gate.Budget(gate.BudgetInput{Target: 0.95, Cap: 3, Confidence: 0.95, Rates: []float64{0.05, 0.02, 0.01}})
	if err != nil {
		t.Fatal(err)
	}
	page := checkPage(t, c, "", want)
	// docs/STATISTICS.md's reruns for 95% detection: 0.05 → 59, 0.02 → 149, 0.01 → 299.
	for i, k := range []string{"59", "149", "299"} {
		if got := page["rows."+string(rune('0'+i))+".reruns"]; got != k {
			t.Errorf("row %d reruns = %q, want %s", i, got, k)
		}
	}

	// Typing: an observed history, a cost and a new cap.
	typeInto(t, e, c, "observe", "1/120", "cost", "8", "cap", "5")
	cost := 8.0
	want, err = gate.Budget(gate.BudgetInput{Target: 0.95, Cap: 5, Confidence: 0.95, CostSeconds: &cost,
		Rates: []float64{0.05, 0.02, 0.01}, Observed: &core.Count{Passed: 1, Trials: 120}})
	if err != nil {
		t.Fatal(err)
	}
	page = checkPage(t, c, "", want)
	// docs/STATISTICS.md: the Wilson upper bound of 1/120 is 0.04570 (4 significant
	// digits, so a tolerance of 5e-6).
	if u, err := strconv.ParseFloat(page["observed.upper"], 64); err != nil || math.Abs(u-0.04570) > 5e-6 {
		t.Errorf("observed upper = %s, want 0.04570 ± 5e-6", page["observed.upper"])
	}
	// The URL holds the state, in the fragment only.
	u := c.ctx.Page().URL()
	if u.RawQuery != "" || !strings.Contains(u.Fragment, "observe=1/120") || !strings.Contains(u.Fragment, "cap=5") {
		t.Errorf("URL after typing = %s", u)
	}
}

func TestBudgetErrorAtField(t *testing.T) {
	c, e := newPage[budgetT](t)
	for _, tc := range []struct{ key, value, msg string }{
		{"target", "1.5", "must be in (0,1)"},
		{"target", "9x", `&#34;9x&#34; is not a number: write a number such as 0.05 or 5e-2, with nothing after it`}, // a single value: no column
		{"cap", "-1", "must not be negative"},
		{"rates", "0.05,abc", "column"},
		{"observe", "130/120", "observe"},
	} {
		typeInto(t, e, c, "target", "0.95", "cap", "3", "rates", "0.05", "observe", "", tc.key, tc.value)
		if c.Result() != nil {
			t.Errorf("%s=%q: a result is shown for invalid input", tc.key, tc.value)
		}
		html := app.HTMLString(c)
		page, _ := fieldcheck.FromHTML(html)
		if len(page) != 0 {
			t.Errorf("%s=%q: stale figures on the page: %v", tc.key, tc.value, page)
		}
		if !strings.Contains(html, `data-error="`+tc.key+`"`) {
			t.Errorf("%s=%q: no error at the field in\n%s", tc.key, tc.value, html)
		}
		if !strings.Contains(html, `id="in-`+tc.key+`"`) || !strings.Contains(html, `aria-invalid`) {
			t.Errorf("%s=%q: input not marked invalid", tc.key, tc.value)
		}
		idx := strings.Index(html, `data-error="`+tc.key+`"`)
		if idx >= 0 && !strings.Contains(html[idx:min(len(html), idx+300)], tc.msg) {
			t.Errorf("%s=%q: error does not say %q: %s", tc.key, tc.value, tc.msg, html[idx:min(len(html), idx+300)])
		}
	}
}

func TestBudgetShareLinkRestoresState(t *testing.T) {
	c, e := newPage[budgetT](t)
	u := mustURL(t, "/#cap=10&cost=2.5&observe=0%2F10&rates=0.001&target=0.99")
	follow(e, c.ctx, c, u)
	cost := 2.5
	want, err := gate.Budget(gate.BudgetInput{Target: 0.99, Cap: 10, Confidence: 0.95, CostSeconds: &cost,
		Rates: []float64{0.001}, Observed: &core.Count{Passed: 0, Trials: 10}})
	if err != nil {
		t.Fatal(err)
	}
	checkPage(t, c, "", want)
	// The inputs show the link's text, and app.TestMatch finds the form.
	html := app.HTMLString(c)
	if !strings.Contains(html, `id="in-target"`) || !strings.Contains(html, `value="0.99"`) {
		t.Errorf("target input does not show the link's value")
	}
	if err := app.TestMatch(c, app.TestUIDescriptor{Path: app.TestPath(0), Expected: app.Div().Class("page")}); err != nil {
		t.Error(err)
	}
}

// The budget in a test runner's own setting: the page shows every figure
// of gate.Budget's result for the same runner and setting (its runner
// block and each row's setting), and a bad setting is marked at its field.
func TestBudgetRunnerSetting(t *testing.T) {
	c, e := newPage[budgetT](t)
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
