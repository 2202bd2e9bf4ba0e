package gate

import (
	"fmt"
	"math"

	"github.com/flakegate/flakegate/core"
	"github.com/flakegate/flakegate/core/stat"
)

// LaneAction says, in a line, what the gate does for a lane.
func LaneAction(lane string) string {
	switch lane {
	case core.LaneGate:
		return "rerun to the budget inside the merge gate"
	case core.LaneNightly:
		return "rerun on the nightly lane; block only on nightly results"
	case core.LaneRefuseGreen:
		return "refuse the green and open a task to make the test deterministic"
	case core.LaneQuarantine:
		return "quarantine with an owner and an expiry; replace with a property check or delete"
	case core.LaneUnreachable:
		return "nothing to catch: a zero failure rate is never seen by reruns"
	}
	return ""
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
	// Reruns is the smallest k with power(k) >= target; null when the rate is
	// 0 (unreachable) or when k exceeds the int64 range (RerunsOverflow).
	Reruns         *int64 `json:"reruns"`
	RerunsOverflow bool   `json:"reruns_overflow"` // k is beyond int64 (finite, or beyond float64 for p > 0)
	// Power is the detection power at Reruns, >= target; null when unreachable
	// or when k is beyond float64 (a rate as small as 5e-324).
	Power *float64 `json:"power"`
	// PowerOneShort is the power at Reruns-1, < target; null as Power is.
	PowerOneShort *float64 `json:"power_one_short"`
	// Gain is target - PowerOneShort: the shortfall the last rerun closes
	// (seed 003's definition); null as Power is.
	Gain       *float64 `json:"gain"`
	PowerAtCap float64  `json:"power_at_cap"` // detection power at the cap, in [0,1]
	// Seconds is Reruns times the cost per run; null without a cost, when
	// unreachable, or beyond the float64 range (a warning says so).
	Seconds *float64 `json:"seconds"`
	Lane    string   `json:"lane"`
	Action  string   `json:"action"`
	OverCap bool     `json:"over_cap"` // Reruns > Cap: the gate cannot see this flake
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

// RerunsFor returns the smallest k >= 1 with Power(p, k) >= target, as a
// float64 so that budgets beyond the int64 range are still reported. It is
// +Inf when p = 0 and 1 when p = 1. target must be in (0,1).
func RerunsFor(p, target float64) float64 {
	if p <= 0 {
		return math.Inf(1)
	}
	if p >= 1 {
		return 1
	}
	k := math.Ceil(stat.Log1p(-target) / stat.Log1p(-p))
	if k < 1 {
		k = 1
	}
	if k > 1<<52 {
		return k // beyond exact integers; the ratio is all we have
	}
	// The ratio of logarithms can land off an integer; settle k so that it
	// is minimal under Power itself, which is monotone in k. Near 1, Power
	// moves in steps of 2^-53 while k moves by 1, so for a tiny p the true
	// k can be far from the estimate (1.79e8 reruns for p 2.26e-9 and the
	// largest target below 1): gallop out from the estimate, then bisect.
	lo, hi := k-1, k // Power(lo) < target <= Power(hi), once settled
	if Power(p, hi) < target {
		for step := 1.0; Power(p, hi) < target; step *= 2 {
			lo, hi = hi, k+step
			if hi > 1<<53 {
				return hi
			}
		}
	} else {
		for step := 2.0; lo >= 1 && Power(p, lo) >= target; step *= 2 {
			hi, lo = lo, math.Max(k-step, 0)
		}
	}
	for hi-lo > 1 {
		mid := math.Floor(lo + (hi-lo)/2)
		if Power(p, mid) >= target {
			hi = mid
		} else {
			lo = mid
		}
	}
	return hi
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
// Wilson bound of in.Observed when it is set.
func Budget(in BudgetInput) (*BudgetResult, error) {
	if !(in.Target > 0 && in.Target < 1) {
		return nil, core.FieldErrorf("target", "must be in (0,1), got %v", in.Target)
	}
	if in.Cap < 0 {
		return nil, core.FieldErrorf("cap", "must not be negative, got %d", in.Cap)
	}
	if c := in.CostSeconds; c != nil && !(*c >= 0 && !math.IsInf(*c, 1)) {
		return nil, core.FieldErrorf("cost", "must be a finite number of seconds >= 0, got %v", *c)
	}
	if err := core.CheckConfidence(in.Confidence); err != nil {
		return nil, err
	}
	for i, p := range in.Rates {
		if !(p >= 0 && p <= 1) {
			return nil, core.FieldErrorf("rates", "rate %d must be in [0,1], got %v", i+1, p)
		}
	}
	res := &BudgetResult{Target: in.Target, Cap: in.Cap, CostSeconds: in.CostSeconds,
		Confidence: in.Confidence, Rows: []BudgetRow{}, Warnings: []string{}}
	if o := in.Observed; o != nil {
		if o.Trials <= 0 {
			return nil, core.FieldErrorf("observe", "needs at least one run, got %d/%d", o.Passed, o.Trials)
		}
		if o.Passed < 0 || o.Passed > o.Trials {
			return nil, core.FieldErrorf("observe", "failures must be in [0, %d], got %d", o.Trials, o.Passed)
		}
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
	if len(res.Rows) == 0 {
		return nil, core.FieldErrorf("rates", "give at least one rate or an observed fails/runs")
	}
	for _, row := range res.Rows {
		if row.RerunsOverflow {
			res.Warnings = append(res.Warnings, fmt.Sprintf(
				"rate %v needs more reruns than an int64 holds: no rerun budget can see it", row.Rate))
		}
		if in.CostSeconds != nil && row.Seconds == nil && row.Lane != core.LaneUnreachable {
			res.Warnings = append(res.Warnings, fmt.Sprintf(
				"rate %v: the runner time of its reruns at %v s each is beyond the float64 range", row.Rate, *in.CostSeconds))
		}
	}
	return res, nil
}

func budgetRow(p float64, source string, in BudgetInput) BudgetRow {
	row := BudgetRow{Rate: p, Source: source, PowerAtCap: Power(p, float64(in.Cap))}
	k := RerunsFor(p, in.Target)
	row.Lane = Lane(k)
	if math.IsInf(k, 1) && p > 0 {
		// A rate so small (5e-324) that k is beyond float64 itself: a flake
		// no budget sees, not a zero rate.
		row.Lane, row.RerunsOverflow, row.OverCap = core.LaneQuarantine, true, true
	}
	row.Action = LaneAction(row.Lane)
	if math.IsInf(k, 1) {
		return row
	}
	if k >= 1<<63 {
		row.RerunsOverflow = true
	} else {
		row.Reruns = ptr(int64(k))
	}
	row.OverCap = k > float64(in.Cap)
	row.Power = ptr(Power(p, k))
	short := Power(p, k-1)
	row.PowerOneShort = ptr(short)
	row.Gain = ptr(in.Target - short)
	if in.CostSeconds != nil {
		if t := k * *in.CostSeconds; !math.IsInf(t, 1) {
			row.Seconds = ptr(t)
		}
	}
	return row
}
