package gate

import (
	"fmt"
	"math"

	"github.com/flakegate/flakegate/core"
	"github.com/flakegate/flakegate/core/stat"
)

// LaneAction says, in a line, what the gate does for a lane.
func LaneAction(lane string) string { return laneActions[lane] }

// laneActions say what the gate does for each lane.
var laneActions = map[string]string{
	core.LaneGate:        "rerun to the budget inside the merge gate",
	core.LaneNightly:     "rerun on the nightly lane; block only on nightly results",
	core.LaneRefuseGreen: "refuse the green and open a task to make the test deterministic",
	core.LaneQuarantine:  "quarantine with an owner and an expiry; replace with a property check or delete",
	core.LaneUnreachable: "nothing to catch: a zero failure rate is never seen by reruns",
}

// BudgetInput describes a rerun budget question. The zero value is not
// valid; start from DefaultBudgetInput.
type BudgetInput struct {
	Target      float64     // detection power wanted, in (0,1)
	CostSeconds *float64    // runner seconds per run, >= 0; nil when unknown
	Cap         int64       // reruns the gate allows today, >= 0
	Rates       []float64   // per-run failure rates, each in [0,1]
	Observed    *core.Count // an observed history: Passed counts failures here
	Confidence  float64     // of the observed rate's Wilson interval, in (0,1)
	// Runner names the test runner whose retry setting the answer is
	// written in (a Runners name or alias); "" for none.
	Runner string
	// Setting is today's retry setting as Runner counts it (retries,
	// attempts or runs); when set it gives the cap, and Cap is ignored.
	// Nil: the cap is Cap, in reruns.
	Setting *int64
}

// DefaultBudgetInput is 95% power, a cap of 3 reruns and 95% intervals.
var DefaultBudgetInput = BudgetInput{Target: 0.95, Cap: 3, Confidence: core.DefaultConfidence}

// Observed is a failure history and its Wilson interval. The budget plans
// against Upper, the conservative end.
type Observed struct {
	Fails int64   `json:"fails"`
	Runs  int64   `json:"runs"`
	Rate  float64 `json:"rate"`  // Fails/Runs in [0,1]
	Lower float64 `json:"lower"` // Wilson lower bound in [0,1]
	Upper float64 `json:"upper"` // Wilson upper bound in [0,1]
}

// BudgetRow is the plan for one failure rate.
type BudgetRow struct {
	Rate   float64 `json:"rate"`   // per-run failure rate in [0,1]
	Source string  `json:"source"` // "observed_upper" or "given"
	// Reruns is the smallest k with power(k) >= target, decided exactly for
	// the rate and the target as given (their float64 values); null when
	// the rate is 0 (unreachable) or when k exceeds the int64 range
	// (RerunsOverflow).
	Reruns         *int64 `json:"reruns"`
	RerunsOverflow bool   `json:"reruns_overflow"` // k is beyond int64 (finite, or beyond float64 for p > 0)
	// Power is the detection power at Reruns, in [0,1], rounded to float64:
	// exactly it is >= target, but within a few units in the last place of
	// the target it can print just below it (a warning says so). Null when
	// unreachable or when k is beyond float64 (a rate as small as 5e-324).
	Power *float64 `json:"power"`
	// PowerOneShort is the power at Reruns-1, rounded as Power is: exactly
	// it is < target, but where the last rerun adds less than a few units
	// in the last place it can print as the target or just above (a warning
	// says so). Above 2^53 reruns that is always so: a rerun then adds less
	// than one unit in the last place of the target (the gain is below
	// p(1-target)/(1-p)), and PowerOneShort prints as the target and Gain
	// as 0, or within a unit or two of them. Null as Power is.
	PowerOneShort *float64 `json:"power_one_short"`
	// Gain is target - PowerOneShort: the shortfall the last rerun closes
	// (docs/STATISTICS.md, Rerun budget). Exactly it is > 0; it prints as 0, or a unit
	// or two in the last place below, where PowerOneShort does not print
	// below the target. Null as Power is.
	Gain       *float64 `json:"gain"`
	PowerAtCap float64  `json:"power_at_cap"` // detection power at the cap, in [0,1]
	// Seconds is Reruns times the cost per run; null without a cost, when
	// unreachable, or beyond the float64 range (a warning says so).
	Seconds *float64 `json:"seconds"`
	Lane    string   `json:"lane"`
	Action  string   `json:"action"`
	OverCap bool     `json:"over_cap"` // Reruns > Cap: the gate cannot see this flake
	// Runner is Reruns as the result's runner setting; absent without a
	// runner, or without a budget (unreachable, beyond int64).
	Runner *RowSetting `json:"runner,omitempty"`
}

// RowSetting is a budget row's reruns as a runner's setting.
type RowSetting struct {
	Setting int64  `json:"setting"` // as the runner counts it: Reruns, or Reruns+1 for attempts and runs
	Written string `json:"written"` // as the runner spells it: "--rerun-fails=149"
	// OverMax is true when the runner refuses so large a setting (Bazel
	// takes at most 10 flaky test attempts).
	OverMax bool `json:"over_max"`
}

// BudgetResult is the answer to a BudgetInput.
type BudgetResult struct {
	Target      float64     `json:"target"`
	Cap         int64       `json:"cap"`
	CostSeconds *float64    `json:"cost_seconds"`
	Confidence  float64     `json:"confidence"`
	Observed    *Observed   `json:"observed"`
	Rows        []BudgetRow `json:"rows"`
	Warnings    []string    `json:"warnings"`
	// Runner is the test runner the answer is written for, with today's
	// setting as it counts it (Cap is that setting in reruns); absent
	// without one.
	Runner *RunnerSetting `json:"runner,omitempty"`
	// Link is the address of the calculator view that reproduces this
	// result, set by the surfaces that know where the calculator is (the
	// API, on its own origin; the CLI, given -site); absent otherwise.
	Link string `json:"link,omitempty"`
	// LinkNote says in words what the link leaves out, or why there is
	// none (a state past the 8 KiB a link holds); absent when nothing.
	LinkNote string `json:"link_note,omitempty"`
}

// Blocks reports whether any row needs more reruns than the cap allows.
func (r *BudgetResult) Blocks() bool {
	for _, row := range r.Rows {
		if row.OverCap {
			return true
		}
	}
	return false
}

// Power is the probability that k independent runs of a test that fails with
// probability p show at least one failure: 1-(1-p)^k. It is computed as
// -expm1(k·log1p(-p)) so that tiny rates keep their digits, with
// portable expm1 and log1p so that every platform gives the same bits.
func Power(p, k float64) float64 {
	if p <= 0 || k <= 0 {
		return 0
	}
	if p >= 1 {
		return 1
	}
	return -stat.Expm1(float64(k * stat.Log1p(-p)))
}

// RerunsFor returns the smallest whole k >= 1 with (1-p)^k <= 1-target,
// where p and target are the exact values of the float64 inputs (see
// reruns.go): the exact minimum, which Power, a rounded value, can miss by
// an ulp. It is a float64 so that budgets beyond the int64 range are still
// reported: those are the ratio of logarithms, and a k above 2^53 is
// rounded to a float64. It is +Inf when p = 0 and 1 when p = 1. target
// must be in (0,1).
func RerunsFor(p, target float64) float64 {
	_, kf, _ := budgetReruns(p, target)
	return kf
}

// budgetReruns is RerunsFor's k, and the same k as an int64 when it fits
// one (ok): exact above 2^53 too.
func budgetReruns(p, target float64) (k int64, kf float64, ok bool) {
	switch {
	case p <= 0:
		return 0, math.Inf(1), false
	case p >= 1:
		return 1, 1, true
	}
	k, est, ok := reruns(p, target)
	if !ok {
		return 0, est, false
	}
	return k, float64(k), true
}

// Lane returns the merge-gate lane for a budget of k reruns.
func Lane(k float64) string {
	switch {
	case math.IsInf(k, 1):
		return core.LaneUnreachable
	case k <= 10:
		return core.LaneGate
	case k <= 60:
		return core.LaneNightly
	case k <= 300:
		return core.LaneRefuseGreen
	}
	return core.LaneQuarantine
}

// Budget plans reruns for each rate in in.Rates, and first for the upper
// Wilson bound of in.Observed when it is set. It refuses what in.Check
// refuses, with the same error.
func Budget(in BudgetInput) (*BudgetResult, error) {
	if err := in.Check(); err != nil {
		return nil, err
	}
	runner, cap := in.runnerSetting()
	in.Cap = cap
	res := &BudgetResult{Target: in.Target, Cap: in.Cap, CostSeconds: in.CostSeconds,
		Confidence: in.Confidence, Rows: []BudgetRow{}, Warnings: []string{}, Runner: runner}
	if o := in.Observed; o != nil {
		lo, hi := stat.Wilson(float64(o.Passed), float64(o.Trials), stat.Z(in.Confidence))
		res.Observed = &Observed{Fails: o.Passed, Runs: o.Trials,
			Rate: float64(o.Passed) / float64(o.Trials), Lower: lo, Upper: hi}
		res.Rows = append(res.Rows, budgetRow(hi, "observed_upper", in))
		if o.Trials < 50 {
			res.Warnings = append(res.Warnings, fmt.Sprintf(
				"only %d observed runs: the interval is wide, so the budget is a rough guide; collect more history", o.Trials))
		}
	}
	for _, p := range in.Rates {
		res.Rows = append(res.Rows, budgetRow(p, "given", in))
	}
	if runner != nil {
		for i := range res.Rows {
			res.Rows[i].Runner = in.rowSetting(res.Rows[i])
		}
		if c := RunnerCaveat(runner.Name); c != "" {
			res.Warnings = append(res.Warnings, c)
		}
	}
	for _, row := range res.Rows {
		if row.RerunsOverflow {
			res.Warnings = append(res.Warnings, fmt.Sprintf(
				"rate %v needs more reruns than an int64 holds: no rerun budget can see it", row.Rate))
		}
		if row.Power != nil && !(*row.PowerOneShort < in.Target && *row.Power >= in.Target) {
			res.Warnings = append(res.Warnings, fmt.Sprintf(
				"rate %v: one rerun more or less changes its detection power by less than a float64 shows near the target, "+
					"so power and power_one_short are rounded onto it: exactly, power_one_short is below the target and power at or above it", row.Rate))
		}
		if in.CostSeconds != nil && row.Seconds == nil && row.Lane != core.LaneUnreachable {
			res.Warnings = append(res.Warnings, fmt.Sprintf(
				"rate %v: the runner time of its reruns at %v s each is beyond the float64 range", row.Rate, *in.CostSeconds))
		}
	}
	return res, nil
}

// rowSetting is a row's reruns as the setting of the runner of a checked
// input; nil without a budget.
func (in BudgetInput) rowSetting(row BudgetRow) *RowSetting {
	r, _ := LookupRunner(in.Runner)
	if row.Reruns == nil {
		return nil
	}
	n, ok := r.SettingFor(*row.Reruns)
	if !ok {
		return nil
	}
	return &RowSetting{Setting: n, Written: r.Write(n), OverMax: r.Max > 0 && n > r.Max}
}

func budgetRow(p float64, source string, in BudgetInput) BudgetRow {
	row := BudgetRow{Rate: p, Source: source, PowerAtCap: Power(p, float64(in.Cap))}
	k, kf, ok := budgetReruns(p, in.Target)
	row.Lane = Lane(kf)
	if math.IsInf(kf, 1) && p > 0 {
		// A rate so small (5e-324) that k is beyond float64 itself: a flake
		// no budget sees, not a zero rate.
		row.Lane, row.RerunsOverflow, row.OverCap = core.LaneQuarantine, true, true
	}
	row.Action = LaneAction(row.Lane)
	if math.IsInf(kf, 1) {
		return row
	}
	short := kf - 1
	if ok {
		row.Reruns = ptr(k)
		row.OverCap = k > in.Cap
		short = float64(k - 1)
	} else {
		row.RerunsOverflow, row.OverCap = true, true
	}
	row.Power = ptr(Power(p, kf))
	row.PowerOneShort = ptr(Power(p, short))
	row.Gain = ptr(in.Target - *row.PowerOneShort)
	if in.CostSeconds != nil {
		if t := kf * *in.CostSeconds; !math.IsInf(t, 1) {
			row.Seconds = ptr(t)
		}
	}
	return row
}
