package gate

import (
	"bytes"
	"encoding/json"
	"math"
	"os"
	"strings"
	"testing"

	"github.com/flakegate/flakegate/core"
	"github.com/flakegate/flakegate/core/stat"
)

// Reruns for 95% detection and the power of a 3-rerun gate: docs/STATISTICS.md,
// Rerun budget. Powers are printed to 0.1 point,
// so they are checked to half of that (5e-4).
func TestBudgetTable(t *testing.T) {
	cases := []struct {
		p      float64
		reruns int64
		atCap  float64
		lane   string
	}{
		{0.05, 59, 0.143, core.LaneNightly},
		{0.02, 149, 0.059, core.LaneRefuseGreen},
		{0.01, 299, 0.030, core.LaneRefuseGreen},
		{0.005, 598, 0.015, core.LaneQuarantine},
		{0.001, 2995, 0.003, core.LaneQuarantine},
	}
	in := DefaultBudgetInput
	for _, c := range cases {
		in.Rates = append(in.Rates, c.p)
	}
	res, err := Budget(in)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Rows) != len(cases) {
		t.Fatalf("%d rows", len(res.Rows))
	}
	for i, c := range cases {
		r := res.Rows[i]
		if r.Reruns == nil || *r.Reruns != c.reruns || math.Abs(r.PowerAtCap-c.atCap) > 5e-4 || r.Lane != c.lane || !r.OverCap {
			t.Errorf("p=%v: %+v; want %d reruns, %.3f at cap 3, lane %s, over cap", c.p, r, c.reruns, c.atCap, c.lane)
		}
		if r.Source != "given" || *r.Power < 0.95 || *r.PowerOneShort >= 0.95 {
			t.Errorf("p=%v: power %v one short %v", c.p, *r.Power, *r.PowerOneShort)
		}
	}
	if !res.Blocks() {
		t.Error("reruns over the cap must block")
	}
	// At 2%, three reruns catch the flake about 5.9% of
	// the time and miss it the other 94%.
	if miss := 1 - Power(0.02, 3); math.Abs(miss-0.94) > 5e-3 {
		t.Errorf("2%% at 3 reruns misses %v, want about 0.94", miss)
	}
	// At p = 1%, going from 299 to 309 reruns buys about half a
	// percentage point (it is 0.46 points).
	if gain := Power(0.01, 309) - Power(0.01, 299); math.Abs(gain-0.005) > 5e-4 {
		t.Errorf("299 -> 309 reruns at 1%% gains %v, want about 0.005", gain)
	}
	// At p = 0.5 two retries both pass a quarter of the time.
	if both := 1 - Power(0.5, 2); both != 0.25 {
		t.Errorf("two passing retries at 0.5: %v, want 0.25", both)
	}
}

// The worked example "--observe 1 120" with a cost of 8 s per run. A
// printed example gives an upper bound of 0.0455 and 93.9% power one rerun short (gain
// 1.1%), but the formulas it states give 0.0457 and 95.0% (gain 0.0%):
// the formula wins (docs/STATISTICS.md, Rerun budget). 65 reruns, 520 s, as printed.
func TestBudgetObserved(t *testing.T) {
	in := DefaultBudgetInput
	in.CostSeconds = ptr(8.0)
	in.Observed = &core.Count{Passed: 1, Trials: 120}
	res, err := Budget(in)
	if err != nil {
		t.Fatal(err)
	}
	o := res.Observed
	if o == nil || o.Fails != 1 || o.Runs != 120 || math.Abs(o.Upper-0.0457) > 5e-5 || math.Abs(o.Lower-0.0015) > 5e-5 {
		t.Fatalf("observed %+v, want [0.0015, 0.0457]", o)
	}
	r := res.Rows[0]
	if r.Source != "observed_upper" || r.Rate != o.Upper || *r.Reruns != 65 || *r.Seconds != 520 {
		t.Fatalf("row %+v, want 65 reruns and 520 s against the upper bound", r)
	}
	if math.Abs(*r.PowerOneShort-0.950) > 5e-4 || math.Abs(*r.Gain) > 5e-4 {
		t.Errorf("one short %v gain %v, want 95.0%% and 0.0%% (a printed example gives 93.9%% and 1.1%%: docs/STATISTICS.md)", *r.PowerOneShort, *r.Gain)
	}
	if len(res.Warnings) != 0 {
		t.Errorf("120 runs need no small-n warning: %q", res.Warnings)
	}
	// 4 failures in 120 runs; planning against the lower
	// bound (1.3%) "means ~230 reruns", against the upper (8.3%) "~35". The
	// formula gives 229 and 35.
	lo, hi := stat.Wilson(4, 120, stat.Z(0.95))
	if k := RerunsFor(lo, 0.95); k != 229 {
		t.Errorf("reruns at the lower bound %v: %v, want 229 (~230)", lo, k)
	}
	if k := RerunsFor(hi, 0.95); k != 35 {
		t.Errorf("reruns at the upper bound %v: %v, want 35", hi, k)
	}
}

func TestBudgetEdges(t *testing.T) {
	in := DefaultBudgetInput
	in.Rates = []float64{1, 0, 1e-300}
	res, err := Budget(in)
	if err != nil {
		t.Fatal(err)
	}
	one, zero, tiny := res.Rows[0], res.Rows[1], res.Rows[2]
	if *one.Reruns != 1 || *one.Power != 1 || *one.PowerOneShort != 0 || one.Lane != core.LaneGate || one.OverCap {
		t.Errorf("p = 1 needs one run: %+v", one)
	}
	if zero.Reruns != nil || zero.Power != nil || zero.Gain != nil || zero.Lane != core.LaneUnreachable || zero.OverCap || zero.PowerAtCap != 0 {
		t.Errorf("p = 0 is unreachable: %+v", zero)
	}
	if tiny.Reruns != nil || !tiny.RerunsOverflow || tiny.Lane != core.LaneQuarantine || !tiny.OverCap {
		t.Errorf("p = 1e-300 needs more reruns than int64 holds: %+v", tiny)
	}
	if !strings.Contains(strings.Join(res.Warnings, " "), "int64") {
		t.Errorf("overflow must be warned about: %q", res.Warnings)
	}
	// Small observed histories are warned about (below roughly 50 runs).
	in = DefaultBudgetInput
	in.Observed = &core.Count{Passed: 0, Trials: 10}
	if res, err = Budget(in); err != nil || len(res.Warnings) != 1 {
		t.Errorf("0/10: %v %v", res, err)
	}
}

func TestLaneBoundaries(t *testing.T) {
	// The lanes (docs/STATISTICS.md, Rerun budget): <= 10, 11-60, 61-300, > 300.
	for _, c := range []struct {
		k    float64
		lane string
	}{{1, core.LaneGate}, {10, core.LaneGate}, {11, core.LaneNightly}, {60, core.LaneNightly}, {61, core.LaneRefuseGreen},
		{300, core.LaneRefuseGreen}, {301, core.LaneQuarantine}, {1e30, core.LaneQuarantine}, {math.Inf(1), core.LaneUnreachable}} {
		if got := Lane(c.k); got != c.lane || LaneAction(got) == "" {
			t.Errorf("Lane(%v) = %q, want %q", c.k, got, c.lane)
		}
	}
}

func TestBudgetErrors(t *testing.T) {
	nan := math.NaN()
	cases := []struct {
		field string
		edit  func(*BudgetInput)
	}{
		{"target", func(in *BudgetInput) { in.Target = 1 }},
		{"target", func(in *BudgetInput) { in.Target = 0 }},
		{"target", func(in *BudgetInput) { in.Target = nan }},
		{"cap", func(in *BudgetInput) { in.Cap = -1 }},
		{"cost", func(in *BudgetInput) { in.CostSeconds = ptr(-1.0) }},
		{"cost", func(in *BudgetInput) { in.CostSeconds = ptr(math.Inf(1)) }},
		{"cost", func(in *BudgetInput) { in.CostSeconds = &nan }},
		{"confidence", func(in *BudgetInput) { in.Confidence = 0 }},
		{"rates", func(in *BudgetInput) { in.Rates = []float64{0.1, 1.5} }},
		{"rates", func(in *BudgetInput) { in.Rates = []float64{nan} }},
		{"rates", func(in *BudgetInput) { in.Rates = nil }},
		{"observe", func(in *BudgetInput) { in.Observed = &core.Count{Passed: 0, Trials: 0} }},
		{"observe", func(in *BudgetInput) { in.Observed = &core.Count{Passed: 5, Trials: 3} }},
		{"observe", func(in *BudgetInput) { in.Observed = &core.Count{Passed: -1, Trials: 3} }},
	}
	for i, c := range cases {
		in := DefaultBudgetInput
		in.Rates = []float64{0.05}
		c.edit(&in)
		_, err := Budget(in)
		e, ok := err.(*core.Error)
		if !ok || e.Kind != core.Invalid || e.Field != c.field {
			t.Errorf("case %d: want an invalid %s error, got %v", i, c.field, err)
		}
		// The input's own check says the same, and its settings check
		// speaks of the settings only.
		if check := in.Check(); check == nil || check.Error() != err.Error() {
			t.Errorf("case %d: Check says %v, Budget %v", i, check, err)
		}
		settings := in.CheckSettings()
		if isSetting := c.field != "rates" && c.field != "observe"; isSetting != (settings != nil) ||
			(isSetting && settings.Error() != err.Error()) {
			t.Errorf("case %d: CheckSettings says %v about a %s error", i, settings, c.field)
		}
	}
}

// Problems lists every field's fault at once, in Check's order; the rates
// a question brings itself are no setting.
func TestBudgetProblems(t *testing.T) {
	cost := -1.0
	in := BudgetInput{Target: 1.5, Cap: -1, CostSeconds: &cost, Confidence: 0.95,
		Rates: []float64{0.1, 2, -1}, Observed: &core.Count{Passed: 3, Trials: 2}}
	var fields []string
	for _, err := range in.Problems() {
		fields = append(fields, err.(*core.Error).Field)
	}
	if got := strings.Join(fields, " "); got != "target cap cost rates observe" {
		t.Errorf("fields %q", got)
	}
	if err := (BudgetInput{Target: 0.9, Confidence: 0.95}).CheckSettings(); err != nil {
		t.Errorf("settings without rates: %v", err)
	}
	if probs := (BudgetInput{Target: 0.9, Confidence: 0.95}).Problems(); len(probs) != 1 || !strings.Contains(probs[0].Error(), "give at least one rate") {
		t.Errorf("no rates: %v", probs)
	}
	if probs := DefaultBudgetInput.Problems(); len(probs) != 1 {
		t.Errorf("the default asks for rates only: %v", probs)
	}
}

// Property: power rises with k, and RerunsFor is the exact minimum,
// (1-p)^(k-1) > 1-target >= (1-p)^k in exact arithmetic (ratReaches up to
// 1000 reruns, bigReaches beyond), over a log grid of rates from 1e-9 to 1
// and several targets. (The rounded Power is not the test: near the
// boundary it can fall an ulp on either side, see TestRerunsForExactCases.)
func TestRerunsMinimal(t *testing.T) {
	// Targets up to the largest float64 below 1, where Power moves in
	// steps of 2^-53 and the logarithm ratio can be hundreds of millions
	// of reruns off the rounded power's minimum for a tiny rate.
	for _, target := range []float64{0.5, 0.8, 0.9, 0.95, 0.99, 0.999, 1 - 1e-12, 0.9999999999999999} {
		for e := -9.0; e <= 0; e += 0.01 {
			p := math.Pow(10, e)
			k := RerunsFor(p, target)
			if k <= 1000 {
				checkMinimal(t, p, target, k)
			} else if !bigReaches(t, p, target, int64(k)) || bigReaches(t, p, target, int64(k)-1) {
				t.Fatalf("p=%v target=%v: k=%v is not the exact minimum", p, target, k)
			}
		}
	}
	for _, p := range []float64{1e-6, 0.001, 0.02, 0.3, 0.9} {
		prev := 0.0
		for k := 1.0; k <= 5000; k++ {
			pw := Power(p, k)
			if pw < prev || pw > 1 {
				t.Fatalf("power(%v, %v) = %v fell from %v", p, k, pw, prev)
			}
			if pw == prev && pw < 1-1e-12 { // near 1, float64 saturates
				t.Fatalf("power(%v, %v) = %v did not rise", p, k, pw)
			}
			prev = pw
		}
	}
}

// TestBudgetGolden compares with testdata/budget/golden.json, written by
// testdata/budget/gen.py from the reference flake_budget.py (wilson called at
// z = Z(0.95)). Rates, bounds and seconds: 1e-12 relative (the same
// formulas). Powers and gains: 1e-12 absolute, because the reference's
// 1-(1-p)**k and core's -expm1(k·log1p(-p)) round differently.
func TestBudgetGolden(t *testing.T) {
	raw, err := os.ReadFile("testdata/budget/golden.json")
	if err != nil {
		t.Fatal(err)
	}
	var cases []struct {
		Name  string
		Input struct {
			Target  float64
			Cost    *float64
			Cap     int64
			Rates   []float64
			Observe []int64
		}
		Observed *Observed
		Rows     []struct {
			Rate          float64
			Reruns        *int64
			Power, Gain   float64
			PowerAtCap    float64 `json:"power_at_cap"`
			Seconds       *float64
			PowerOneShort float64 `json:"power_one_short"`
		}
	}
	if err := json.Unmarshal(raw, &cases); err != nil {
		t.Fatal(err)
	}
	if len(cases) < 5 {
		t.Fatalf("only %d golden cases", len(cases))
	}
	abs := func(a, b float64) bool { return math.Abs(a-b) <= 1e-12 }
	for _, c := range cases {
		in := DefaultBudgetInput
		in.Target, in.CostSeconds, in.Cap, in.Rates = c.Input.Target, c.Input.Cost, c.Input.Cap, c.Input.Rates
		if o := c.Input.Observe; o != nil {
			in.Observed = &core.Count{Passed: o[0], Trials: o[1]}
		}
		res, err := Budget(in)
		if err != nil {
			t.Fatalf("%s: %v", c.Name, err)
		}
		if (c.Observed == nil) != (res.Observed == nil) {
			t.Fatalf("%s: observed %+v, want %+v", c.Name, res.Observed, c.Observed)
		}
		if w := c.Observed; w != nil {
			g := res.Observed
			if g.Fails != w.Fails || g.Runs != w.Runs || !closeRel(g.Rate, w.Rate, 1e-12) ||
				!closeRel(g.Lower, w.Lower, 1e-12) || !closeRel(g.Upper, w.Upper, 1e-12) {
				t.Errorf("%s: observed %+v, want %+v", c.Name, g, w)
			}
		}
		if len(res.Rows) != len(c.Rows) {
			t.Fatalf("%s: %d rows, want %d", c.Name, len(res.Rows), len(c.Rows))
		}
		for i, w := range c.Rows {
			g := res.Rows[i]
			if !closeRel(g.Rate, w.Rate, 1e-12) {
				t.Errorf("%s row %d: rate %v, want %v", c.Name, i, g.Rate, w.Rate)
			}
			if w.Reruns == nil {
				if g.Reruns != nil || g.Lane != core.LaneUnreachable {
					t.Errorf("%s row %d: want unreachable, got %+v", c.Name, i, g)
				}
				continue
			}
			if g.Reruns == nil || *g.Reruns != *w.Reruns {
				t.Errorf("%s row %d: reruns %v, want %d", c.Name, i, g.Reruns, *w.Reruns)
				continue
			}
			if !abs(*g.Power, w.Power) || !abs(*g.PowerOneShort, w.PowerOneShort) || !abs(*g.Gain, w.Gain) || !abs(g.PowerAtCap, w.PowerAtCap) {
				t.Errorf("%s row %d: %v %v %v %v, want %v %v %v %v", c.Name, i, *g.Power, *g.PowerOneShort, *g.Gain, g.PowerAtCap,
					w.Power, w.PowerOneShort, w.Gain, w.PowerAtCap)
			}
			if (w.Seconds == nil) != (g.Seconds == nil) || (w.Seconds != nil && !closeRel(*g.Seconds, *w.Seconds, 1e-12)) {
				t.Errorf("%s row %d: seconds %v, want %v", c.Name, i, g.Seconds, w.Seconds)
			}
		}
	}
}

// BenchmarkRerunsForExtremeTarget: the logarithm ratio is 1.79e8 reruns
// above the rounded power's minimal k here, where stepping by one took
// about 6 s; the exact minimum is the ratio's ceiling (TestRerunsForLarge).
func BenchmarkRerunsForExtremeTarget(b *testing.B) {
	for b.Loop() {
		RerunsFor(2.26273976e-09, 0.9999999999999999)
	}
}

// Inputs at the edge of float64 give nulls with a warning, never +Inf
// (which JSON cannot hold) or a zero rate's lane for a rate that is not
// zero.
func TestBudgetBeyondFloat64(t *testing.T) {
	cost := 1e300 // 2.99e12 reruns of 1e-12 overflow; 5 of 0.5 do not
	r, err := Budget(BudgetInput{Target: 0.95, Cap: 3, Confidence: 0.95, CostSeconds: &cost, Rates: []float64{1e-12, 0.5}})
	if err != nil {
		t.Fatal(err)
	}
	if r.Rows[0].Seconds != nil || r.Rows[1].Seconds == nil || len(r.Warnings) != 1 || !strings.Contains(r.Warnings[0], "beyond the float64 range") {
		t.Errorf("seconds %v %v, warnings %q", r.Rows[0].Seconds, r.Rows[1].Seconds, r.Warnings)
	}
	r, err = Budget(BudgetInput{Target: 0.95, Cap: 3, Confidence: 0.95, Rates: []float64{5e-324, 0}})
	if err != nil {
		t.Fatal(err)
	}
	tiny, zero := r.Rows[0], r.Rows[1]
	if tiny.Lane != core.LaneQuarantine || !tiny.RerunsOverflow || !tiny.OverCap || tiny.Reruns != nil || tiny.Power != nil {
		t.Errorf("5e-324: %+v", tiny)
	}
	if zero.Lane != core.LaneUnreachable || zero.RerunsOverflow || zero.OverCap {
		t.Errorf("0: %+v", zero)
	}
	var b bytes.Buffer
	if err := core.WriteJSON(&b, r); err != nil {
		t.Errorf("not valid JSON: %v", err)
	}
}
