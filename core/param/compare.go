package param

import (
	"github.com/flakegate/flakegate/core"
	"github.com/flakegate/flakegate/core/compare"
)

// MaxListed is the most questions a comparison lists of each kind.
const MaxListed = 1000

// Compare is the schema of an eval comparison's options
// (compare.Options; its Clusters come from the logs, not from a field).
var Compare = &Schema[compare.Options]{
	Name: "compare",
	Fields: []Field{
		{Key: "cluster", Kind: Text,
			Doc: "samples files: the field of each row that names the question's group (passage, file, task), for clustered standard errors"},
		{Key: "level", Kind: Fraction, Unit: "fraction", Doc: "confidence level of the intervals, in (0,1)"},
		{Key: "power", Kind: Fraction, Unit: "fraction", Doc: "the power the plan wants, in (0,1)"},
		{Key: "effect", Kind: Fraction, Unit: "fraction", Doc: "the change in accuracy to plan for, a fraction in [0.0001, 1] (0.02 is 2 points)"},
		{Key: "max_listed", Kind: Integer, Unit: "questions",
			Doc: "questions listed of each kind (flipped each way, only on one side), in [1, 1000]"},
	},
	def: func() compare.Options { return compare.DefaultOptions },
	bind: func(o *compare.Options) map[string]any {
		return map[string]any{"cluster": &o.ClusterField, "level": &o.Level, "power": &o.Power,
			"effect": &o.Effect, "max_listed": &o.MaxListed}
	},
	check: func(o *compare.Options, _ func(string) bool) error {
		if o.MaxListed < 1 || o.MaxListed > MaxListed {
			return core.FieldErrorf("max_listed", "must be from 1 to %d, got %d", MaxListed, o.MaxListed)
		}
		return nil
	},
}
