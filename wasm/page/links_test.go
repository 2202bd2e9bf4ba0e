package page

import (
	"math"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/flakegate/flakegate/core"
	"github.com/flakegate/flakegate/core/aa"
	"github.com/flakegate/flakegate/core/compare"
	"github.com/flakegate/flakegate/core/gate"
	"github.com/flakegate/flakegate/core/history"
	"github.com/flakegate/flakegate/internal/share"
)

// The page's forms are the ones package share writes links for: the same
// keys in the same order with the same defaults, so a link the CLI or the
// API makes opens the same form the page would have written it from.
func TestFormsAreShares(t *testing.T) {
	for _, c := range []struct {
		name string
		page []field
		link []share.Field
	}{
		{"budget", budgetFields, append(share.BudgetFields[:len(share.BudgetFields):len(share.BudgetFields)], share.BudgetRunnerFields...)},
		{"decide", decideFields, share.DecideFields},
		{"quarantine", quarantineFields, share.QuarantineFields},
	} {
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

// An A/A link carries the check's options: the page opens it with them,
// not with its defaults (changed here as a new release could), and the
// link it writes keeps them.
func TestAALinkOptions(t *testing.T) {
	base := &aa.Side{Scenarios: []aa.Tally{{ID: "s1", Passed: 9, Total: 10}, {ID: "s2", Passed: 10, Total: 10}, {ID: "s3", Passed: 7, Total: 10}},
		Runs: []aa.Tally{{ID: "r1", Passed: 13, Total: 15}, {ID: "r2", Passed: 13, Total: 15}}, Rows: 30}
	opt := aa.DefaultOptions
	opt.Ks, opt.Drops, opt.Depth.Seed = []int{1, 2}, []float64{0.05}, 3
	want, err := aa.Check(base, nil, opt)
	if err != nil {
		t.Fatal(err)
	}
	v, err := share.AA(base, nil, opt)
	if err != nil {
		t.Fatal(err)
	}
	old := aa.DefaultOptions
	defer func() { aa.DefaultOptions = old }()
	aa.DefaultOptions.Ks, aa.DefaultOptions.Drops = []int{3}, []float64{0.1}
	c, e := newPage[aaT](t)
	u := mustURL(t, "/aa#"+v.Fragment)
	follow(e, c.ctx, c, u)
	if got := c.Result(); got == nil || string(jsonOf(t, got)) != string(jsonOf(t, want)) {
		t.Errorf("the link opens with other figures than the check it was made from (%v)", c.err)
	}
	s, ok := c.shareState()
	if !ok || s.Options["k"] != "1,2" || s.Options["drops"] != "0.05" || s.Options["seed"] != "3" {
		t.Errorf("the page's link holds options %v", s.Options)
	}
}

// A comparison link opens with the options it was made with, whatever
// the page's defaults are.
func TestCompareLinkOptions(t *testing.T) {
	a, b := exampleCompare()
	opt := compare.DefaultOptions
	opt.Level, opt.MaxListed = 0.9, 5
	want, err := compare.Compare(a, b, opt)
	if err != nil {
		t.Fatal(err)
	}
	v, _ := share.Compare(a, b, opt)
	old := compare.DefaultOptions
	defer func() { compare.DefaultOptions = old }()
	compare.DefaultOptions.Level, compare.DefaultOptions.MaxListed = 0.8, 50
	s, err := share.DecodeCompare(strings.TrimPrefix(v.Fragment, "compare="))
	if err != nil {
		t.Fatal(err)
	}
	a2, b2, opt2 := s.Sides()
	got, err := compare.Compare(a2, b2, opt2)
	if err != nil || string(jsonOf(t, got)) != string(jsonOf(t, want)) {
		t.Errorf("the link compares with %+v: other figures (%v)", opt2, err)
	}
}

// A history link holds the result itself: other defaults do not change
// what it shows.
func TestHistoryLinkUnderOtherDefaults(t *testing.T) {
	_, _, want := plantedHistory(t)
	v, err := share.History(want)
	if err != nil {
		t.Fatal(err)
	}
	old := history.DefaultOptions
	defer func() { history.DefaultOptions = old }()
	history.DefaultOptions.Alpha, history.DefaultOptions.MinOutageTests = 0.2, 2
	got, err := share.DecodeHistory(strings.TrimPrefix(v.Fragment, "history="))
	want.Link, want.LinkNote = "", ""
	if err != nil || !sameHistory(t, got, want) || !slices.Equal(got.Warnings, want.Warnings) {
		t.Errorf("the history link shows another result (%v)", err)
	}
}
