package page

import (
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/flakegate/flakegate/core"
	"github.com/flakegate/flakegate/core/gate"
	"github.com/flakegate/flakegate/share"
)

// The page's forms are the ones package share writes links for: the same
// keys in the same order with the same defaults, so a link the CLI or the
// API makes opens the same form the page would have written it from.
func TestFormsAreShares(t *testing.T) {
	for _, c := range []struct {
		name string
		page []field
		link []share.Field
	}{{"budget", budgetFields, append(share.BudgetFields[:len(share.BudgetFields):len(share.BudgetFields)], share.BudgetRunnerFields...)}, {"decide", decideFields, share.DecideFields}} {
		if len(c.page) != len(c.link) {
			t.Errorf("%s: the page has %d fields, links %d", c.name, len(c.page), len(c.link))
			continue
		}
		for i, f := range c.page {
			if l := c.link[i]; f.Key != l.Key || f.Default != l.Default {
				t.Errorf("%s field %d: the page has %s=%q, links %s=%q", c.name, i, f.Key, f.Default, l.Key, l.Default)
			}
		}
	}
}

// The page reads back what package share writes for the CLI's and the
// API's links: the same input, whatever the numbers.
func FuzzBudgetLink(f *testing.F) {
	f.Add(0.95, int64(3), 0.95, 8.0, true, 0.05, 0.02, int64(1), int64(120), true)
	f.Add(0.999999999, int64(0), 0.5, 0.0, false, 1e-300, 1.0, int64(0), int64(1), false)
	f.Fuzz(func(t *testing.T, target float64, cap int64, conf, cost float64, hasCost bool, r1, r2 float64, fails, runs int64, observe bool) {
		in := gate.BudgetInput{Target: target, Cap: cap, Confidence: conf, Rates: []float64{r1, r2}}
		if hasCost {
			in.CostSeconds = &cost
		}
		if observe {
			if fails < 0 || fails > runs {
				return // not a count: the parser refuses it
			}
			in.Observed = &core.Count{Passed: fails, Trials: runs}
		}
		for _, v := range []float64{target, conf, cost, r1, r2} {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return // not a number a form or a flag takes
			}
		}
		got, err := BudgetInputFrom(applyFragment(budgetFields, share.Budget(in).Fragment))
		if err != nil || !reflect.DeepEqual(got, in) {
			t.Fatalf("%+v came back as %+v (%v) from %q", in, got, err, share.Budget(in).Fragment)
		}
	})
}

func FuzzDecideLink(f *testing.F) {
	f.Add(int64(10), int64(20), int64(17), int64(20), int64(20), 0.95, core.PropertyUnknown)
	f.Add(int64(0), int64(0), int64(5), int64(9), int64(1), 0.5, "passed ")
	f.Fuzz(func(t *testing.T, bp, bt, pp, pt, min int64, conf float64, prop string) {
		if math.IsNaN(conf) || math.IsInf(conf, 0) || strings.TrimSpace(prop) != prop || bp < 0 || pp < 0 || bp > bt || pp > pt {
			return // not what a parsed count or property holds
		}
		in := gate.DecideInput{Baseline: core.Count{Passed: bp, Trials: bt}, Patched: core.Count{Passed: pp, Trials: pt},
			MinTrials: min, Confidence: conf, Property: prop}
		v, err := share.Decide(in, nil)
		if err != nil {
			t.Fatal(err)
		}
		got, err := DecideInputFrom(applyFragment(decideFields, v.Fragment))
		if err != nil || got != in {
			t.Fatalf("%+v came back as %+v (%v) from %q", in, got, err, v.Fragment)
		}
	})
}
