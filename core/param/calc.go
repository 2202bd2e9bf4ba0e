package param

import (
	"strconv"

	"github.com/flakegate/flakegate/core"
	"github.com/flakegate/flakegate/core/gate"
	"github.com/flakegate/flakegate/core/ledger"
)

// The calculators' shared inputs.
var (
	confidence = Field{Key: "confidence", Kind: Fraction, Unit: "fraction",
		Doc: "confidence level of the Wilson intervals, in (0,1)"}
	armBaseline = Field{Key: "baseline", Kind: Count, Required: true, Start: "10/20",
		Part: "passed", Whole: "trials", Example: "17/20", Unit: "trials", Doc: "the baseline arm as passed/trials"}
	armPatched = Field{Key: "patched", Kind: Count, Required: true, Start: "17/20",
		Part: "passed", Whole: "trials", Example: "17/20", Unit: "trials", Doc: "the patched arm as passed/trials"}
)

// Budget is the rerun budget's schema (gate.BudgetInput).
var Budget = &Schema[gate.BudgetInput]{
	Name: "budget",
	Fields: []Field{
		{Key: "target", Kind: Fraction, Unit: "fraction", Doc: "detection power wanted, in (0,1)"},
		{Key: "cost", API: "cost_seconds", Kind: Seconds, Unit: "seconds",
			Doc: "runner seconds per run, >= 0; omit when unknown"},
		{Key: "cap", Kind: Integer, Unit: "reruns", Doc: "reruns the gate allows today, >= 0"},
		{Key: "rates", Kind: Fractions, Item: "rate", Start: "0.05,0.02,0.01", Unit: "fraction",
			Doc: "per-run failure rates, each in [0,1], separated by commas, semicolons or spaces"},
		{Key: "observe", Kind: Count, Part: "fails", Whole: "runs", Example: "1/120", Unit: "runs",
			Doc: "an observed failure history as fails/runs; its upper Wilson bound is planned for first"},
		withDoc(confidence, "confidence of the observed rate's Wilson interval, in (0,1)"),
		{Key: "runner", Kind: Enum, Choices: gate.RunnerNames(), Joined: "setting",
			Doc: "the test runner whose retry setting the answer is written in, optionally with today's setting after = (gotestsum=2): gotestsum --rerun-fails, Bazel --flaky_test_attempts or --runs_per_test, " +
				"pytest-rerunfailures --reruns, Maven Surefire rerunFailingTestsCount, Gradle test-retry maxRetries, Jest jest.retryTimes, Playwright --retries"},
		{Key: "setting", Kind: Integer, Unit: "retries",
			Doc: "today's setting of the runner as it counts it (retries, or attempts and runs with the first included); it gives the cap, so give cap or setting, not both"},
	},
	def: func() gate.BudgetInput {
		in := gate.DefaultBudgetInput
		in.Rates = append([]float64(nil), in.Rates...)
		return in
	},
	text: func(in gate.BudgetInput) map[string]string {
		t := map[string]string{
			"target": Exact(in.Target), "cost": optText(in.CostSeconds), "cap": strconv.FormatInt(in.Cap, 10),
			"rates": ListText(in.Rates), "observe": "", "confidence": Exact(in.Confidence), "runner": in.Runner, "setting": "",
		}
		if in.Observed != nil {
			t["observe"] = CountText(*in.Observed)
		}
		if in.Setting != nil {
			t["setting"] = strconv.FormatInt(*in.Setting, 10)
			t["cap"] = strconv.FormatInt(gate.DefaultBudgetInput.Cap, 10) // the setting gives the cap
		}
		return t
	},
	set: func(in *gate.BudgetInput, key string, v Value) {
		switch key {
		case "target":
			in.Target = v.(float64)
		case "cost":
			in.CostSeconds = optFloat(v)
		case "cap":
			in.Cap = v.(int64)
		case "rates":
			in.Rates = nil
			if v != nil && len(v.([]float64)) > 0 {
				in.Rates = v.([]float64)
			}
		case "observe":
			in.Observed = optCount(v)
		case "confidence":
			in.Confidence = v.(float64)
		case "runner":
			in.Runner, _ = v.(string)
		case "setting":
			in.Setting = nil
			if v != nil {
				n := v.(int64)
				in.Setting = &n
			}
		}
	},
}

// Decide is the two-arm decision's schema (gate.DecideInput).
var Decide = &Schema[gate.DecideInput]{
	Name: "decide",
	Fields: []Field{
		armBaseline, armPatched,
		{Key: "min_trials", Kind: Integer, Unit: "trials", Doc: "fewest trials an arm needs for a verdict, >= 1"},
		confidence,
		{Key: "property", Kind: Enum, Choices: []string{core.PropertyPassed, core.PropertyFailed, core.PropertyUnknown},
			Doc: "result of the deterministic property check"},
	},
	def: func() gate.DecideInput { return gate.DefaultDecideInput },
	bind: func(in *gate.DecideInput) map[string]any {
		return map[string]any{"baseline": &in.Baseline, "patched": &in.Patched, "min_trials": &in.MinTrials,
			"confidence": &in.Confidence, "property": &in.Property}
	},
}

// Size is the sizing's schema (gate.SizeInput).
var Size = &Schema[gate.SizeInput]{
	Name: "size",
	Fields: []Field{
		{Key: "baseline", Kind: Fraction, Required: true, Example: "0.5", Unit: "fraction", Doc: "baseline pass rate in [0,1]"},
		{Key: "patched", Kind: Fraction, Required: true, Example: "0.85", Unit: "fraction", Doc: "patched pass rate in [0,1]"},
		confidence,
		{Key: "min_trials", Kind: Integer, Unit: "trials",
			Doc: "fewest trials per arm the plan may ask for, >= 0 (the decision's min_trials: it gives no verdict on fewer); 0 for no floor"},
	},
	def: func() gate.SizeInput { return gate.DefaultSizeInput },
	bind: func(in *gate.SizeInput) map[string]any {
		return map[string]any{"baseline": &in.Baseline, "patched": &in.Patched, "confidence": &in.Confidence,
			"min_trials": &in.MinTrials}
	},
}

// Freeze is the frozen claim's schema (gate.FreezeInput).
var Freeze = &Schema[gate.FreezeInput]{
	Name: "freeze",
	Fields: []Field{
		{Key: "claim", Kind: Count, Required: true, Part: "passed", Whole: "trials", Example: "17/20", Unit: "trials",
			Doc: "the frozen claim as passed/trials"},
		{Key: "date", Kind: Date, Doc: "the claim's measurement date, YYYY-MM-DD"},
		{Key: "newer", Kind: Count, Part: "passed", Whole: "trials", Example: "17/20", Unit: "trials",
			Doc: "a newer count of the same test as passed/trials"},
		withDoc(confidence, "confidence of the claim's interval, in (0,1)"),
		{Key: "comparable", Kind: Fraction, Unit: "ratio",
			Doc: "least ratio of newer to claimed trials that can overturn the claim, in (0,1]"},
	},
	def: func() gate.FreezeInput { return gate.DefaultFreezeInput },
	bind: func(in *gate.FreezeInput) map[string]any {
		return map[string]any{"claim": &in.Claim, "date": &in.Date, "newer": &in.Newer,
			"confidence": &in.Confidence, "comparable": &in.Comparable}
	},
}

func withDoc(f Field, doc string) Field {
	f.Doc = doc
	return f
}

func optText(p *float64) string {
	if p == nil {
		return ""
	}
	return Exact(*p)
}

func optFloat(v Value) *float64 {
	if v == nil {
		return nil
	}
	x := v.(float64)
	return &x
}

func optCount(v Value) *core.Count {
	if v == nil {
		return nil
	}
	c := v.(core.Count)
	return &c
}

// Ledger is the schema of a ledger's options (ledger.Options): the
// decision's settings, for every test of the ledger.
var Ledger = &Schema[ledger.Options]{
	Name: "ledger",
	Fields: []Field{
		Decide.Fields[2], Decide.Fields[3],
		withDoc(Decide.Fields[4], "result of the deterministic property check, applied to every test"),
	},
	def: func() ledger.Options { return ledger.DefaultOptions },
	// The options are the decision's settings: Decide reads and writes them.
	text: func(o ledger.Options) map[string]string {
		t := Decide.textOf(decideOf(o))
		delete(t, "baseline")
		delete(t, "patched")
		return t
	},
	set: func(o *ledger.Options, key string, v Value) {
		d := decideOf(*o)
		Decide.setKey(&d, key, v)
		o.MinTrials, o.Confidence, o.Property = d.MinTrials, d.Confidence, d.Property
	},
}

// decideOf is a decision with a ledger's settings.
func decideOf(o ledger.Options) gate.DecideInput {
	return gate.DecideInput{MinTrials: o.MinTrials, Confidence: o.Confidence, Property: o.Property}
}
