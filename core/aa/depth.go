package aa

import (
	"fmt"

	"github.com/flakegate/flakegate/core"
)

// Depth holds the A/A analyses that go beyond thresholds: is the run-to-run
// spread what independent coin flips would give (VarianceRatio), do the runs
// drift in run order (TrendTest), how often a fixed "drop of δ or more" rule
// fires between two unchanged runs (FixedDrop), how often a scenario passes k
// attempts in a row (PassK), what an all-pass history still allows
// (AllPassBound), which scenarios went both ways (Flaky), and, for a
// candidate, a paired t-test by scenario (PairedT).
//
// Its JSON fields are meant to sit at the top level of an A/A result, beside
// the thresholds. A field is null when its analysis needs more than the input
// has; Warnings say why.
type Depth struct {
	VarianceRatio *VarianceRatio  `json:"variance_ratio"` // null below 3 runs or when v = 0
	TrendTest     *TrendTest      `json:"trend_test"`     // null below 3 runs
	FixedDrop     *FixedDrop      `json:"fixed_drop"`
	PassK         []PassK         `json:"pass_k"` // k = 1 … min(MaxK, fewest runs of a scenario)
	AllPassBound  AllPassBound    `json:"all_pass_bound"`
	Flaky         []FlakyScenario `json:"flaky"`    // noisiest first, ties by scenario id
	PairedT       *PairedT        `json:"paired_t"` // null without a candidate
	// Warnings are caveats for the A/A result's own warnings list.
	Warnings []string `json:"-"`
}

// DepthOptions are the settings of InDepth. The zero value is not usable; start
// from DefaultDepthOptions.
type DepthOptions struct {
	Drop         float64 // the fixed-drop rule's δ, a fraction in (0,1]
	Level        float64 // of the variance-ratio range and the all-pass bound, in (0,1)
	Alpha        float64 // one-sided level of the paired t-test and of the trend warning, in (0,1)
	Permutations int     // random permutations for the trend test when R > ExactUpTo, in [1, 1e6]
	ExactUpTo    int     // enumerate all R! run orders when R <= ExactUpTo, in [0, 9]
	MaxK         int     // largest k of pass^k, in [1, 64]
	Seed         uint64  // seeds the trend test's random permutations
}

// DefaultDepthOptions: a 2-point rule, 95% ranges and bounds, a 5% one-sided
// t-test, 9,999 permutations (exact up to 8 runs), pass^k up to k = 8.
var DefaultDepthOptions = DepthOptions{
	Drop:         0.02,
	Level:        0.95,
	Alpha:        0.05,
	Permutations: 9999,
	ExactUpTo:    8,
	MaxK:         8,
	Seed:         1,
}

func (o DepthOptions) check() error {
	switch {
	case !(o.Drop > 0 && o.Drop <= 1):
		return core.FieldErrorf("drop", "must be in (0,1], got %v", o.Drop)
	case !(o.Level > 0 && o.Level < 1):
		return core.FieldErrorf("level", "must be in (0,1), got %v", o.Level)
	case !(o.Alpha > 0 && o.Alpha < 1):
		return core.FieldErrorf("alpha", "must be in (0,1), got %v", o.Alpha)
	case o.Permutations < 1 || o.Permutations > 1_000_000:
		return core.FieldErrorf("permutations", "must be in [1, 1000000], got %d", o.Permutations)
	case o.ExactUpTo < 0 || o.ExactUpTo > 9:
		return core.FieldErrorf("exact_up_to", "must be in [0, 9], got %d", o.ExactUpTo)
	case o.MaxK < 1 || o.MaxK > 64:
		return core.FieldErrorf("max_k", "must be in [1, 64], got %d", o.MaxK)
	}
	return nil
}

// CheckDepth returns the error InDepth would return for these inputs, or nil
// when InDepth will succeed, without running the analyses: a page can show
// the A/A headline figures first, knowing the in-depth ones will follow.
func CheckDepth(base, cand *Side, opt DepthOptions) error {
	if err := opt.check(); err != nil {
		return err
	}
	if err := checkSide("baseline", base, true); err != nil {
		return err
	}
	if cand != nil {
		if err := checkSide("candidate", cand, false); err != nil {
			return err
		}
	}
	return nil
}

// InDepth runs the in-depth A/A analyses on base and, when cand is not nil,
// the paired t-test of cand against base. It is deterministic: the trend
// test's random orders come from a PCG seeded with opt.Seed.
//
// Errors: options out of range and tallies that do not add up are Kind
// core.Invalid (Field names the option or the side); a baseline with a single run,
// or a scenario with fewer than two rows, is Kind core.Unusable. A candidate may
// have a single run.
func InDepth(base, cand *Side, opt DepthOptions) (*Depth, error) {
	return inDepth(base, cand, opt, nil)
}

// inDepth is InDepth, calling poll (when not nil) now and then and stopping
// with its error; see Options.Pause and Options.Interrupt.
func inDepth(base, cand *Side, opt DepthOptions, poll func() error) (*Depth, error) {
	if err := CheckDepth(base, cand, opt); err != nil {
		return nil, err
	}
	d := &Depth{PassK: []PassK{}, Flaky: []FlakyScenario{}}
	rates := runRates(base)
	v := unbiasedV(base)
	n := len(base.Scenarios)
	if len(rates) < 3 {
		d.warn("the variance ratio and the trend test need 3 or more runs, found %d", len(rates))
	} else {
		var err error
		if d.TrendTest, err = trendTest(base, opt, poll); err != nil {
			return nil, err
		}
		if v == 0 {
			d.warn("no scenario went both ways, so the formula variance is 0 and the variance ratio is undefined")
		} else {
			d.VarianceRatio = varianceRatio(rates, v, n, opt.Level)
		}
	}
	if d.VarianceRatio != nil && !d.VarianceRatio.Inside {
		d.warn("the run pass rates vary %.2f times as much as independent runs would: outside the %g%% range [%.3f, %.3f]",
			d.VarianceRatio.MeasuredOverFormula, 100*opt.Level, d.VarianceRatio.RangeLower, d.VarianceRatio.RangeUpper)
	}
	if d.TrendTest != nil && d.TrendTest.PValue < opt.Alpha {
		d.warn("the pass rate trends in run order (%+.2f points per run, permutation p = %.3g): thresholds will fire mostly one way",
			100*d.TrendTest.SlopePerRun, d.TrendTest.PValue)
	}
	d.FixedDrop = fixedDrop(base, opt.Drop, unequalPairLimit)
	if !equalRunSizes(base) {
		d.warn("runs hold different numbers of scenarios; the fixed-drop rule compares their rates exactly, but the independent rate assumes every scenario in every run")
	}
	d.PassK = passK(base, opt.MaxK)
	if len(d.PassK) < opt.MaxK {
		d.warn("pass^k stops at k = %d: a scenario seen in %d runs cannot estimate more", len(d.PassK), len(d.PassK))
	}
	d.AllPassBound = allPassBound(base, opt.Level)
	d.Flaky = flakyScenarios(base)
	if cand != nil {
		p, warns := pairedT(base, cand, opt.Alpha)
		d.PairedT = p
		d.Warnings = append(d.Warnings, warns...)
	}
	return d, nil
}

func (d *Depth) warn(format string, args ...any) {
	d.Warnings = append(d.Warnings, fmt.Sprintf(format, args...))
}
