package param

import (
	"github.com/flakegate/flakegate/core/triage"
)

// Triage is the schema of a triage's options (triage.Options): the
// history's, and what makes a failure new and what blocks.
var Triage = &Schema[triage.Options]{
	Name: "triage",
	Fields: append(append([]Field{}, History.Fields...),
		Field{Key: "min_rate", Kind: Fraction, Unit: "fraction",
			Doc: "the rarest failure rate counted as a flake, in (0,1): a failure of a test whose record bounds its rate below it is new"},
		Field{Key: "new_alpha", Kind: Fraction, Unit: "fraction",
			Doc: "chance per run of calling a failure of a flake at min_rate or more new or broken, in (0,1)"},
		Field{Key: "block_flakes", Kind: Bool, Choices: []string{"false", "true"},
			Doc: "known flakes block too, not only new and broken failures"}),
	def: func() triage.Options { return triage.DefaultOptions },
	bind: func(o *triage.Options) map[string]any {
		m := History.bind(&o.History)
		m["min_rate"], m["new_alpha"], m["block_flakes"] = &o.MinRate, &o.Alpha, &o.BlockFlakes
		return m
	},
}
