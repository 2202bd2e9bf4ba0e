package sim

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/flakegate/flakegate/core"
	"github.com/flakegate/flakegate/core/stat"
)

// The four regression shapes the simulator plants, in column order.
const (
	// ShapeFlakyWorse scales the pass probability of every scenario that went
	// both ways by one factor, so that the expected pass rate falls by Drop.
	ShapeFlakyWorse = "flaky-worse"
	// ShapeStableBreak makes Broken scenarios that passed every run fail
	// every run.
	ShapeStableBreak = "stable-break"
	// ShapeStableHalf makes Halved scenarios that passed every run pass half
	// the time.
	ShapeStableHalf = "stable-half"
	// ShapeAllWorse scales every scenario's pass probability by one factor,
	// so that the expected pass rate falls by Drop.
	ShapeAllWorse = "all-worse"
)

// The four gates the simulator scores, in row order. Each compares k runs
// per side.
const (
	// GateFixedDrop fires when the candidate's mean pass rate is RuleDrop
	// or more below the baseline's, counted in whole scenarios.
	GateFixedDrop = "fixed-drop"
	// GatePairedT fires when the one-sided paired t-test by scenario has
	// p < Alpha.
	GatePairedT = "paired-t"
	// GateFormula fires when the drop of the mean pass rate exceeds
	// 1.645·s/√k with s = √(2v/n), the noise from the formula.
	GateFormula = "formula-threshold"
	// GateMeasured fires when the drop exceeds 1.645·s/√k with s = √2 times
	// the standard deviation of the baseline's run pass rates.
	GateMeasured = "measured-threshold"
)

// Options are the settings of a simulation. The zero value is not usable;
// start from DefaultOptions.
type Options struct {
	Sets        int     // N, simulated comparisons per shape and for no change, in [1, 1000000]
	RunsPerSide int     // k, runs on each side of a comparison, in [1, 64]
	Drop        float64 // δ planted by flaky-worse and all-worse, a fraction in (0,1)
	RuleDrop    float64 // the fixed-drop gate's δ, in (0,1]; 0 means Drop
	Broken      int     // m, scenarios stable-break breaks, >= 0; 0 means round(Drop·n), at least 1
	Halved      int     // scenarios stable-half halves, >= 0; 0 means 2m, which plants the same expected drop
	Alpha       float64 // one-sided level of the paired t-test, in (0,1)
	Seed        uint64  // seeds every draw; in [0, 2^53) so that JSON readers keep it exact
	// Interrupt is not a setting: when not nil, Run calls it between
	// slices of the simulated sets and stops with its error, if any.
	Interrupt func() error
}

// DefaultOptions: 4,000 sets of 4 runs per side, a 2-point regression,
// a 2-point rule and a 5% t-test: the settings of the published A/A
// suite (docs/STATISTICS.md, A/A check).
var DefaultOptions = Options{Sets: 4000, RunsPerSide: 4, Drop: 0.02, Alpha: 0.05, Seed: 1}

// pollEvery is about how many draws Run makes between calls of
// Options.Interrupt: a millisecond or so.
const pollEvery = 1 << 17

// maxSimDraws caps Sets·2k·n, the Bernoulli draws of a simulation (the
// benchmark's 4,000 sets of 4 runs on 200 scenarios take 6.4 million).
const maxSimDraws = 200_000_000

// Result is the gate-by-shape table of a simulation: for each gate, how
// often it fired with no change (FalseAlarm) and with each planted shape
// (Detection, in the order of Shapes). Rates are fired/Sets; their Monte
// Carlo standard error is at most 0.5/√Sets.
type Result struct {
	Scenarios   int         `json:"scenarios"` // n, from the baseline
	Sets        int         `json:"sets"`
	RunsPerSide int         `json:"runs_per_side"`
	Drop        float64     `json:"drop"`
	RuleDrop    float64     `json:"rule_drop"`
	Broken      int         `json:"broken"`
	Halved      int         `json:"halved"`
	Alpha       float64     `json:"alpha"`
	TCritical   float64     `json:"t_critical"` // the paired t-test fires at t < -TCritical, n-1 df
	Seed        uint64      `json:"seed"`
	Shapes      []Shape     `json:"shapes"`
	Gates       []Gate      `json:"gates"`
	Warnings    []string    `json:"warnings"`
	planted     [][]float64 // per shape, the candidate's pass probabilities
}

// Shape is one planted regression.
type Shape struct {
	Shape   string `json:"shape"`
	Changed int    `json:"changed"` // scenarios whose pass probability changed
	// PlantedDrop is the expected fall of the pass rate, a fraction; null
	// when the shape does not fit this suite (Note says why).
	PlantedDrop *float64 `json:"planted_drop"`
	Note        string   `json:"note,omitempty"`
}

// Gate is one gate's row of the table.
type Gate struct {
	Gate string `json:"gate"`
	// Threshold is the drop of the k-run mean pass rate the gate needs, a
	// fraction (RuleDrop, or 1.645·s/√k); null for the paired t-test, which
	// has TCritical instead, and for a gate this baseline cannot set.
	Threshold  *float64   `json:"threshold"`
	FalseAlarm *float64   `json:"false_alarm"` // fired/Sets with no change; null when the gate is unavailable
	Detection  []*float64 `json:"detection"`   // fired/Sets per shape; null where the shape or gate is unavailable
}

// Check returns the core.Invalid *Error, naming the setting, of the first
// setting out of its range.
func (o Options) Check() error {
	switch {
	case o.Sets < 1 || o.Sets > 1_000_000:
		return core.FieldErrorf("sets", "must be in [1, 1000000], got %d", o.Sets)
	case o.RunsPerSide < 1 || o.RunsPerSide > 64:
		return core.FieldErrorf("runs_per_side", "must be in [1, 64], got %d", o.RunsPerSide)
	case !(o.Drop > 0 && o.Drop < 1):
		return core.FieldErrorf("drop", "must be in (0,1), got %v", o.Drop)
	case o.RuleDrop != 0 && !(o.RuleDrop > 0 && o.RuleDrop <= 1):
		return core.FieldErrorf("rule_drop", "must be in (0,1] (or 0 for drop), got %v", o.RuleDrop)
	case o.Broken < 0:
		return core.FieldErrorf("broken", "must be >= 0, got %d", o.Broken)
	case o.Halved < 0:
		return core.FieldErrorf("halved", "must be >= 0, got %d", o.Halved)
	case !(o.Alpha > 0 && o.Alpha < 1):
		return core.FieldErrorf("alpha", "must be in (0,1), got %v", o.Alpha)
	case o.Seed >= 1<<53:
		return core.FieldErrorf("seed", "must be below 2^53, got %d", o.Seed)
	}
	return nil
}

// simStream is the PCG stream of the simulator; the seed comes from the
// caller.
const simStream = 0x73696d756c617465 // "simulate"

// Model is the suite a simulation plants regressions in: scenario s passes
// each run with probability Pass[s], independently, as fitted to a
// baseline's runs, and the threshold gates fire where the A/A check of that
// baseline sets them.
type Model struct {
	Pass []float64 // per scenario, the chance of passing a run, in [0,1]; at least one scenario
	Runs int       // the baseline's runs the model was fitted to, >= 2
	// FormulaDrop and MeasuredDrop are the drops of the k-run mean pass rate
	// (k = Options.RunsPerSide) past which the formula-threshold and the
	// measured-threshold gates fire, 1.645·s/√k with the A/A check's s from
	// the formula and the measured one; MeasuredDrop is nil when the
	// baseline has fewer than 3 runs.
	FormulaDrop  float64
	MeasuredDrop *float64
}

// Run plants each regression shape in the model and measures, over
// opt.Sets simulated comparisons of k runs per side, how often each gate
// fires: with no change (false alarms) and with each shape (detection).
//
// The result depends only on m and opt: the draws come from a PCG seeded
// with opt.Seed in a fixed order, and every gate decides from integer counts,
// so each platform gives the same table. The baseline's runs of a set are
// shared by all conditions and so are the candidate's uniform draws (common
// random numbers), which sharpens the comparison between shapes without
// changing any one rate's distribution.
//
// Errors: a setting out of range is core.Invalid; more than 2e8 draws
// (Sets·2k·scenarios) is core.TooLarge.
func Run(m Model, opt Options) (*Result, error) {
	if err := opt.Check(); err != nil {
		return nil, err
	}
	n := len(m.Pass)
	k := opt.RunsPerSide
	if draws := float64(opt.Sets) * float64(2*k) * float64(n); draws > maxSimDraws {
		return nil, &core.Error{Kind: core.TooLarge, Field: "sets",
			Msg: fmt.Sprintf("%d sets × %d runs per side × %d scenarios need %.3g draws, over the limit of %d; lower sets or runs_per_side",
				opt.Sets, k, n, draws, maxSimDraws)}
	}
	res := &Result{Scenarios: n, Sets: opt.Sets, RunsPerSide: k, Drop: opt.Drop, RuleDrop: opt.RuleDrop,
		Broken: opt.Broken, Halved: opt.Halved, Alpha: opt.Alpha, Seed: opt.Seed, Warnings: []string{}}
	if res.RuleDrop == 0 {
		res.RuleDrop = opt.Drop
	}
	if res.Broken == 0 {
		res.Broken = max(1, int(math.Round(opt.Drop*float64(n))))
	}
	if res.Halved == 0 {
		res.Halved = 2 * res.Broken
	}
	if n >= 2 {
		res.TCritical = stat.StudentQuantile(1-opt.Alpha, float64(n-1))
	}

	q := m.Pass
	res.plantShapes(q)

	formulaDrop, measuredDrop := m.FormulaDrop, m.MeasuredDrop
	if measuredDrop == nil {
		res.Warnings = append(res.Warnings, fmt.Sprintf(
			"the measured-threshold gate needs 3 or more baseline runs, found %d", m.Runs))
	}
	if n < 2 {
		res.Warnings = append(res.Warnings, "the paired t-test needs 2 or more scenarios")
	}
	fixedLimit := stat.SnapCeil(res.RuleDrop * float64(n) * float64(k))
	// The thresholds apply to the drop of the k-run mean pass rate,
	// (sumB-sumC)/(n·k), as a user would compute it.
	nk := float64(n) * float64(k)
	measuredLimit := math.Inf(1)
	if measuredDrop != nil {
		measuredLimit = *measuredDrop
	}
	tc2 := res.TCritical * res.TCritical

	// Condition 0 is no change; 1… are the feasible shapes.
	conds := [][]float64{q}
	condShape := []int{-1}
	for i, p := range res.planted {
		if p != nil {
			conds = append(conds, p)
			condShape = append(condShape, i)
		}
	}
	const one = 1 << 53
	th := make([][]uint64, len(conds)) // pass when the top 53 bits of a draw are below th
	for c, p := range conds {
		th[c] = make([]uint64, n)
		for s, x := range p {
			th[c][s] = uint64(math.Round(x * one))
		}
	}
	// Only scenarios that are random in some condition need draws.
	var random []int
	for s := range n {
		for c := range conds {
			if th[c][s] != 0 && th[c][s] != one {
				random = append(random, s)
				break
			}
		}
	}

	fired := make([][4]int, len(conds))
	rng := rand.New(rand.NewPCG(opt.Seed, simStream))
	b := make([]int64, n)
	cnt := make([][]int64, len(conds))
	for c := range cnt {
		cnt[c] = make([]int64, n)
	}
	slice := max(1, pollEvery/max(1, 2*k*len(random)))
	for set := range opt.Sets {
		if opt.Interrupt != nil && set > 0 && set%slice == 0 {
			if err := opt.Interrupt(); err != nil {
				return nil, err
			}
		}
		for s := range n {
			b[s] = int64(k) * int64(th[0][s]/one) // 0 or k for stable scenarios
		}
		for _, s := range random {
			var x int64
			for range k {
				if rng.Uint64()>>11 < th[0][s] {
					x++
				}
			}
			b[s] = x
		}
		for c := range conds {
			for s := range n {
				cnt[c][s] = int64(k) * int64(th[c][s]/one)
			}
		}
		for _, s := range random {
			for c := range conds {
				cnt[c][s] = 0
			}
			for range k {
				u := rng.Uint64() >> 11
				for c := range conds {
					if u < th[c][s] {
						cnt[c][s]++
					}
				}
			}
		}
		for c := range conds {
			var sumB, sumC, sd, sq int64
			for s := range n {
				d := cnt[c][s] - b[s]
				sumB += b[s]
				sumC += cnt[c][s]
				sd += d
				sq += d * d
			}
			drop := sumB - sumC
			if drop >= fixedLimit {
				fired[c][0]++
			}
			if n >= 2 && pairedFires(sd, sq, n, tc2) {
				fired[c][1]++
			}
			rateDrop := float64(drop) / nk
			if rateDrop > formulaDrop {
				fired[c][2]++
			}
			if rateDrop > measuredLimit {
				fired[c][3]++
			}
		}
	}

	rate := func(f int) *float64 { r := float64(f) / float64(opt.Sets); return &r }
	thresholds := []*float64{simPtr(res.RuleDrop), nil, simPtr(formulaDrop), measuredDrop}
	names := []string{GateFixedDrop, GatePairedT, GateFormula, GateMeasured}
	for g, name := range names {
		row := Gate{Gate: name, Threshold: thresholds[g], Detection: make([]*float64, len(res.Shapes))}
		available := !(g == 3 && measuredDrop == nil) && !(g == 1 && n < 2)
		if available {
			row.FalseAlarm = rate(fired[0][g])
			for c := 1; c < len(conds); c++ {
				row.Detection[condShape[c]] = rate(fired[c][g])
			}
		}
		res.Gates = append(res.Gates, row)
	}
	return res, nil
}
