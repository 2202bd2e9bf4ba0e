package param

import (
	"github.com/flakegate/flakegate/core"
	"github.com/flakegate/flakegate/core/aa"
	"github.com/flakegate/flakegate/core/aa/sim"
)

// AAInput is an A/A check's options as a surface gives them: the check's
// options, whether to simulate, and the simulation's settings. After
// Parse, Options.Simulate holds Sim (seeded with Options.Depth.Seed)
// exactly when Simulate is true.
type AAInput struct {
	Options  aa.Options
	Seed     int64 // Options.Depth.Seed as given, in [0, 2^53)
	Simulate bool
	Sim      sim.Options
}

// mostSim is the most sets, runs per side or broken scenarios a surface
// passes to the simulation, which caps its own work further.
const mostSim = 1 << 30

// AA is the A/A check's schema (aa.Options and its simulation's settings).
var AA = &Schema[AAInput]{
	Name: "aa",
	Fields: []Field{
		{Key: "k", Kind: Integers, Item: "item", Unit: "runs", Doc: "runs per side to list alarm thresholds for"},
		{Key: "drops", Kind: Fractions, Item: "drop", Unit: "fraction", Doc: "drops, as fractions in (0,1], to size runs per side for"},
		{Key: "rule", Kind: Fraction, Unit: "fraction", Doc: "the fixed-drop rule's drop to count false alarms of, a fraction in (0,1]"},
		{Key: "seed", Kind: Integer, Doc: "seed of the trend test's permutations and of the simulation, in [0, 2^53)"},
		{Key: "simulate", Kind: Bool, Choices: []string{"false", "true"},
			Doc: "also simulate which gates catch which shape of regression (CPU-heavy; capped by the core)"},
		{Key: "sets", Kind: Integer, Unit: "comparisons", Doc: "simulated comparisons per shape, with simulate"},
		{Key: "sim_k", Kind: Integer, Unit: "runs", Doc: "runs per side in the simulation"},
		{Key: "sim_drop", Kind: Fraction, Unit: "fraction", Doc: "size of the planted regression in the simulation, a fraction"},
		{Key: "broken", Kind: Integer, Unit: "scenarios", Doc: "stable scenarios the broken shape breaks; 0 means the drop times the scenarios"},
	},
	def: func() AAInput {
		o := aa.DefaultOptions
		o.Ks = append([]int(nil), o.Ks...)
		o.Drops = append([]float64(nil), o.Drops...)
		return AAInput{Options: o, Seed: int64(o.Depth.Seed), Sim: sim.DefaultOptions}
	},
	bind: func(in *AAInput) map[string]any {
		return map[string]any{
			"k": &in.Options.Ks, "drops": &in.Options.Drops, "rule": &in.Options.Depth.Drop,
			"seed": &in.Seed, "simulate": &in.Simulate,
			"sets": &in.Sim.Sets, "sim_k": &in.Sim.RunsPerSide,
			"sim_drop": &in.Sim.Drop, "broken": &in.Sim.Broken,
		}
	},
	check: func(in *AAInput, given func(string) bool) error {
		o := &in.Options
		for i, k := range o.Ks {
			if k < 1 || k > mostSim {
				return core.FieldErrorf("k", "item %d must be a whole number from 1 to %d, got %d", i+1, mostSim, k)
			}
		}
		if d := o.Depth.Drop; !(d > 0 && d <= 1) {
			return core.FieldErrorf("rule", "must be a fraction in (0,1], got %v", d)
		}
		if in.Seed < 0 || in.Seed >= 1<<53 {
			return core.FieldErrorf("seed", "must be in [0, 2^53), got %d", in.Seed)
		}
		o.Depth.Seed = uint64(in.Seed)
		if !in.Simulate {
			if given("sets") || given("sim_k") || given("sim_drop") || given("broken") {
				return core.FieldErrorf("simulate", "sets, sim_k, sim_drop and broken need simulate=true")
			}
			o.Simulate = nil
			return nil
		}
		for _, f := range []struct {
			key string
			v   int
		}{{"sets", in.Sim.Sets}, {"sim_k", in.Sim.RunsPerSide}, {"broken", in.Sim.Broken}} {
			if f.v < 0 || f.v > mostSim {
				return core.FieldErrorf(f.key, "must be in [0, %d], got %d", mostSim, f.v)
			}
		}
		s := in.Sim
		s.Seed = o.Depth.Seed
		o.Simulate = &s
		return nil
	},
}
