package ledger

import (
	"fmt"
	"sort"

	"github.com/flakegate/flakegate/core"
	"github.com/flakegate/flakegate/core/gate"
)

// FlakeHistory is what the retry history of one test in one arm says about
// its per-run failure rate. Every execution counts: a failed attempt that a
// rerun then passed, each -count iteration, each JUnit rerun record.
//
// Fails/Executions estimates the per-execution failure rate p. Reruns that
// happen only after a failure do not bias it: the stopping rule does not
// enter the likelihood of independent trials. Independence is the caveat,
// as for every budget.
type FlakeHistory struct {
	NodeID string `json:"nodeid"`
	Arm    string `json:"arm"`
	Runs   int64  `json:"runs"` // runs in which the test executed
	// RecoveredRuns counts runs in which a failed execution was followed by
	// a passing one: the flake a retry hides.
	RecoveredRuns int64 `json:"recovered_runs"`
	Executions    int64 `json:"executions"` // >= 1
	Fails         int64 `json:"fails"`      // in [1, Executions)
}

// Observed is the history as the budget's observed fails/runs.
func (h FlakeHistory) Observed() core.Count { return core.Count{Passed: h.Fails, Trials: h.Executions} }

// Flakes lists the tests whose history shows both a failed and a passing
// execution in one arm, sorted by nodeid and then arm (baseline, patched,
// then any other arm by name). Tests that always passed or always failed
// are left out: the first have no flake to size, the second are broken,
// not flaky.
func (l *Ledger) Flakes() []FlakeHistory {
	out := []FlakeHistory{}
	for _, arm := range l.armOrder {
		a := l.arms[arm]
		byTest := make([]FlakeHistory, a.tests.len())
		a.cells.all(func(i int, c *cell) {
			h := &byTest[c.test]
			n := a.counts(i, c)
			h.Runs++
			h.Executions += n.execs
			h.Fails += n.fails
			if c.flags&cellRecovered != 0 {
				h.RecoveredRuns++
			}
		})
		for i, h := range byTest {
			if h.Fails > 0 && h.Fails < h.Executions {
				h.NodeID, h.Arm = *a.tests.at(i), arm
				out = append(out, h)
			}
		}
	}
	rank := func(arm string) int {
		switch arm {
		case ArmBaseline:
			return 0
		case ArmPatched:
			return 1
		}
		return 2
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.NodeID != b.NodeID {
			return a.NodeID < b.NodeID
		}
		if ra, rb := rank(a.Arm), rank(b.Arm); ra != rb {
			return ra < rb
		}
		return a.Arm < b.Arm
	})
	return out
}

// FlakeBudget is one flaky test's history and the rerun budget planned
// against the upper Wilson bound of its observed failure rate.
type FlakeBudget struct {
	FlakeHistory
	// CostPerRun is what the flake costs a run of the suite on average,
	// in runner seconds: its observed rate Fails/Executions (the point
	// estimate, which forecasts cost) times the runner
	// seconds of a run. Null without a cost per run.
	CostPerRun *float64           `json:"cost_per_run"`
	Budget     *gate.BudgetResult `json:"budget"`
}

// BudgetFlakes plans a budget for each history with in's target, cap, cost,
// confidence and runner, which it checks first (in.CheckSettings), even for
// no history; in.Rates and in.Observed are replaced by each history's
// observed fails/executions. The budgets come costliest first: by observed
// rate times the runner seconds of a run (CostPerRun), highest first, ties
// in the order of flakes.
func BudgetFlakes(flakes []FlakeHistory, in gate.BudgetInput) ([]FlakeBudget, error) {
	if err := in.CheckSettings(); err != nil {
		return nil, err
	}
	out := make([]FlakeBudget, 0, len(flakes))
	for _, h := range flakes {
		in.Rates = nil
		c := h.Observed()
		in.Observed = &c
		res, err := gate.Budget(in)
		if err != nil {
			return nil, err
		}
		fb := FlakeBudget{FlakeHistory: h, Budget: res}
		if c := in.CostSeconds; c != nil {
			v := float64(h.Fails) / float64(h.Executions) * *c
			fb.CostPerRun = &v
		}
		out = append(out, fb)
	}
	// The costliest flake first: rate times runner time, which with one
	// cost per run for all is the observed rate. Ties keep Flakes' order.
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i].FlakeHistory, out[j].FlakeHistory
		return float64(a.Fails)*float64(b.Executions) > float64(b.Fails)*float64(a.Executions)
	})
	return out, nil
}

// FlakesResult is the budget of every flaky test a ledger's retry history
// shows: the answer to "flakegate budget -from FILE...".
type FlakesResult struct {
	Runs     int           `json:"runs"`   // runs read, over all arms
	Tests    int           `json:"tests"`  // distinct tests that executed
	Flakes   []FlakeBudget `json:"flakes"` // costliest first, as BudgetFlakes sorts them
	Blocks   bool          `json:"blocks"` // some flake needs more reruns than the cap
	Warnings []string      `json:"warnings"`
	// Link is the address of the calculator view that reproduces this
	// result, set by the surfaces that know where the calculator is (the
	// API, on its own origin; the CLI, given -site); absent otherwise.
	Link string `json:"link,omitempty"`
	// LinkNote says in words what the link leaves out, or why there is
	// none (a state past the 8 KiB a link holds); absent when nothing.
	LinkNote string `json:"link_note,omitempty"`
}

// FlakeBudgets plans a rerun budget for each flaky test in l (see Flakes and
// BudgetFlakes) with in's target, cap, cost and confidence, checked first. A
// ledger without any execution is core.Unusable; one without flaky tests
// gives an empty list and a warning.
func (l *Ledger) FlakeBudgets(in gate.BudgetInput) (*FlakesResult, error) {
	if err := in.CheckSettings(); err != nil {
		return nil, err
	}
	res := &FlakesResult{Flakes: []FlakeBudget{}, Warnings: []string{}}
	tests := map[string]bool{}
	for _, arm := range l.armOrder {
		a := l.arms[arm]
		res.Runs += len(a.runs)
		a.tests.all(func(_ int, t *string) { tests[*t] = true })
	}
	res.Tests = len(tests)
	if res.Tests == 0 {
		return nil, &core.Error{Kind: core.Unusable, Msg: "no test executions in the reports"}
	}
	fl, err := BudgetFlakes(l.Flakes(), in)
	if err != nil {
		return nil, err
	}
	res.Flakes = fl
	for _, f := range fl {
		res.Blocks = res.Blocks || f.Budget.Blocks()
	}
	if len(fl) == 0 {
		res.Warnings = append(res.Warnings, fmt.Sprintf(
			"no test both failed and passed in %s of %s: no flake to size (a flake rarer than the runs can show may still be there)", core.Nouns(res.Runs, "run"), core.Nouns(res.Tests, "test")))
	}
	if c := gate.RunnerCaveat(in.Runner); c != "" && len(fl) > 0 {
		res.Warnings = append(res.Warnings, c)
	}
	res.Warnings = append(res.Warnings, l.notes...)
	return res, nil
}
