package param

import (
	"strconv"

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
	text: func(o history.Options) map[string]string {
		return map[string]string{"keep_incidents": strconv.FormatBool(o.KeepIncidents), "alpha": Exact(o.Alpha), "min_outage_tests": strconv.FormatInt(o.MinOutageTests, 10),
			"target": Exact(o.Budget.Target), "cost": optText(o.Budget.CostSeconds), "cap": strconv.FormatInt(o.Budget.Cap, 10),
			"today": o.Today, "confidence": Exact(o.Confidence)}
	},
	set: func(o *history.Options, key string, v Value) {
		switch key {
		case "keep_incidents":
			o.KeepIncidents = v.(bool)
		case "alpha":
			o.Alpha = v.(float64)
		case "min_outage_tests":
			o.MinOutageTests = v.(int64)
		case "target":
			o.Budget.Target = v.(float64)
		case "cost":
			o.Budget.CostSeconds = optFloat(v)
		case "cap":
			o.Budget.Cap = v.(int64)
		case "today":
			o.Today, _ = v.(string)
		case "confidence":
			o.Confidence = v.(float64)
		}
	},
}
