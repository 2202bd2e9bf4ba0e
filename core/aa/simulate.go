// The calculator's app.wasm is built with -tags calculator (mk/web.mk),
// which has simulate_calculator.go instead: the page never runs the
// simulation (it clears Options.Simulate), and the simulator is 45 KB of
// app.wasm.

//go:build !calculator

package aa

import (
	"github.com/flakegate/flakegate/core/aa/sim"
)

// Simulate runs the gate simulator (package sim) on a model fitted to base:
// scenario s passes each run with probability passed_s/total_s,
// independently, and the threshold gates fire where the A/A check of base
// sets them, to the bit: 1.645·s/√k with the formula's s and with the
// measured s. It measures, over opt.Sets simulated comparisons of k runs
// per side, how often each gate fires with no change and with each planted
// regression shape.
//
// Errors: a setting out of range is core.Invalid; so are tallies that do not add
// up, and a baseline with a single run or a scenario with fewer than two
// rows is core.Unusable (as for the in-depth analyses); more draws than the
// simulator allows is core.TooLarge.
func Simulate(base *Side, opt sim.Options) (*sim.Result, error) {
	if err := opt.Check(); err != nil {
		return nil, err
	}
	if err := checkSide("baseline", base, true); err != nil {
		return nil, err
	}
	m := sim.Model{Pass: make([]float64, len(base.Scenarios)), Runs: len(base.Runs)}
	for i, t := range base.Scenarios {
		m.Pass[i] = float64(t.Passed) / float64(t.Total)
	}
	aa, err := Check(base, nil, Options{Ks: []int{}, Drops: []float64{}})
	if err != nil {
		return nil, err
	}
	k := opt.RunsPerSide
	m.FormulaDrop = alarmThreshold(aa.Noise.Formula, k)
	if aa.Noise.Measured != nil {
		d := alarmThreshold(*aa.Noise.Measured, k)
		m.MeasuredDrop = &d
	}
	return sim.Run(m, opt)
}
