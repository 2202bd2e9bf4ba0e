package param

import (
	"github.com/flakegate/flakegate/core/history"
)

// History is the schema of a history's options (history.Options).
var History = &Schema[history.Options]{
	Name: "history",
	Fields: []Field{
		{Key: "keep_incidents", Kind: Bool, Choices: []string{"false", "true"},
			Doc: "count the outages' and groups' failures in the per-test rates"},
		{Key: "alpha", Kind: Fraction, Unit: "fraction", Doc: "chance over the whole history of calling one healthy run an outage, in (0,1)"},
		{Key: "min_outage_tests", Kind: Integer, Unit: "tests",
			Doc: "fewest failed tests in a run that can make it an outage, >= 2: lower it for a small suite, raise it for a suite whose runs often fail a few tests together"},
		{Key: "target", Kind: Fraction, Unit: "fraction", Doc: "detection power the rerun budgets plan for, in (0,1)"},
		{Key: "cost", API: "cost_seconds", Kind: Seconds, Unit: "seconds",
			Doc: "runner seconds per run, >= 0: a flake costs its rate times this; omit when unknown"},
		{Key: "cap", Kind: Integer, Unit: "reruns", Doc: "reruns the gate allows today, >= 0"},
		{Key: "today", Kind: Date, Doc: "the date the quarantine claims are dated, YYYY-MM-DD; default: the last run's day"},
		confidence,
	},
	def: func() history.Options { return history.DefaultOptions },
	bind: func(o *history.Options) map[string]any {
		return map[string]any{"keep_incidents": &o.KeepIncidents, "alpha": &o.Alpha, "min_outage_tests": &o.MinOutageTests,
			"target": &o.Budget.Target, "cost": &o.Budget.CostSeconds, "cap": &o.Budget.Cap,
			"today": &o.Today, "confidence": &o.Confidence}
	},
}
