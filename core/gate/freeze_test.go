package gate

import (
	"math"
	"strings"
	"testing"

	"github.com/flakegate/flakegate/core"
)

// A frozen claim (rate p over n trials on a date, with its
// interval) goes stale when a later count at a comparable n falls outside
// the interval. The claim 17/20 has the interval [0.6396, 0.9476] (docs/STATISTICS.md,
// Wilson intervals).
func TestFreeze(t *testing.T) {
	in := DefaultFreezeInput
	in.Claim, in.Date = core.Count{Passed: 17, Trials: 20}, "2026-11-30"
	res, err := Freeze(in)
	if err != nil {
		t.Fatal(err)
	}
	c := res.Claim
	if res.Status != FreezeRecorded || res.Newer != nil || res.Blocks || c.Rate != 0.85 || c.Date != in.Date ||
		math.Abs(c.Lower-0.6396) > 5e-5 || math.Abs(c.Upper-0.9476) > 5e-5 || c.Confidence != 0.95 {
		t.Fatalf("record: %+v", res)
	}
	cases := []struct {
		newer      core.Count
		status     string
		comparable bool
		blocks     bool
	}{
		{core.Count{Passed: 18, Trials: 20}, FreezeValid, true, false},        // 0.90 inside
		{core.Count{Passed: 30, Trials: 60}, FreezeStale, true, true},         // 0.50 below 0.6396
		{core.Count{Passed: 20, Trials: 20}, FreezeStale, true, true},         // 1.00 above 0.9476
		{core.Count{Passed: 10, Trials: 10}, FreezeStale, true, true},         // exactly half the claim's trials is comparable
		{core.Count{Passed: 9, Trials: 9}, FreezeNotComparable, false, false}, // 9 < 10
		{core.Count{Passed: 13, Trials: 20}, FreezeValid, true, false},        // 0.65 inside, near the lower end
		{core.Count{Passed: 12, Trials: 20}, FreezeStale, true, true},         // 0.60 just outside
	}
	for _, k := range cases {
		in.Newer = &k.newer
		res, err := Freeze(in)
		if err != nil {
			t.Fatal(err)
		}
		if res.Status != k.status || res.Comparable != k.comparable || res.Blocks != k.blocks || res.Newer == nil {
			t.Errorf("newer %v: %s comparable=%v blocks=%v; want %s %v %v", k.newer, res.Status, res.Comparable, res.Blocks,
				k.status, k.comparable, k.blocks)
		}
		if k.status == FreezeNotComparable && !strings.Contains(strings.Join(res.Warnings, " "), "at least 10") {
			t.Errorf("not comparable must say how many trials to run: %q", res.Warnings)
		}
	}
}

func TestFreezeErrors(t *testing.T) {
	cases := []struct {
		field string
		edit  func(*FreezeInput)
	}{
		{"claim", func(in *FreezeInput) { in.Claim = core.Count{Passed: 0, Trials: 0} }},
		{"claim", func(in *FreezeInput) { in.Claim = core.Count{Passed: 3, Trials: 2} }},
		{"newer", func(in *FreezeInput) { in.Newer = &core.Count{Passed: 0, Trials: 0} }},
		{"newer", func(in *FreezeInput) { in.Newer = &core.Count{Passed: -1, Trials: 4} }},
		{"comparable", func(in *FreezeInput) { in.Comparable = 0 }},
		{"comparable", func(in *FreezeInput) { in.Comparable = 1.5 }},
		{"confidence", func(in *FreezeInput) { in.Confidence = 1 }},
		{"date", func(in *FreezeInput) { in.Date = "2026-13-01" }},
		{"date", func(in *FreezeInput) { in.Date = "30/11/2026" }},
	}
	for _, c := range cases {
		in := DefaultFreezeInput
		in.Claim = core.Count{Passed: 17, Trials: 20}
		c.edit(&in)
		_, err := Freeze(in)
		if e, ok := err.(*core.Error); !ok || e.Field != c.field || e.Kind != core.Invalid {
			t.Errorf("want an invalid %s error, got %v", c.field, err)
		}
	}
}
