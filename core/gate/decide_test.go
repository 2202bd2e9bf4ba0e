package gate

import (
	"encoding/json"
	"os"
	"testing"

	"github.com/flakegate/flakegate/core"
)

// The examples of docs/STATISTICS.md, Two-arm decision: 10/20 vs 17/20 overlap; 30/60 vs 51/60 separate;
// 18/20 vs 19/20 do not; and 2/20 vs 3/20 is "the same coin".
func TestDecideExamples(t *testing.T) {
	cases := []struct {
		b, p    core.Count
		verdict string
		gate    string
	}{
		{core.Count{Passed: 10, Trials: 20}, core.Count{Passed: 17, Trials: 20}, core.VerdictNoChange, core.GateNoClaim},
		{core.Count{Passed: 30, Trials: 60}, core.Count{Passed: 51, Trials: 60}, core.VerdictImproved, core.GateOwed},
		{core.Count{Passed: 18, Trials: 20}, core.Count{Passed: 19, Trials: 20}, core.VerdictNoChange, core.GateNoClaim},
		{core.Count{Passed: 2, Trials: 20}, core.Count{Passed: 3, Trials: 20}, core.VerdictNoChange, core.GateNoClaim},
		{core.Count{Passed: 51, Trials: 60}, core.Count{Passed: 30, Trials: 60}, core.VerdictRegressed, core.GateBlock},
		{core.Count{Passed: 10, Trials: 19}, core.Count{Passed: 17, Trials: 20}, core.VerdictUnderpowered, core.GateQuarantine},
		{core.Count{Passed: 0, Trials: 0}, core.Count{Passed: 0, Trials: 0}, core.VerdictUnderpowered, core.GateQuarantine},
	}
	for _, c := range cases {
		res := decideCounts(t, c.b, c.p)
		if res.Verdict != c.verdict || res.Gate != c.gate || res.Blocks != Blocks(c.gate) || res.Action == "" || res.Warnings == nil {
			t.Errorf("%v vs %v: %s/%s, want %s/%s", c.b, c.p, res.Verdict, res.Gate, c.verdict, c.gate)
		}
	}
}

// The gate table (docs/STATISTICS.md, Two-arm decision), with the rule that an improvement is accepted
// only when the property check passed.
func TestDecideGateTable(t *testing.T) {
	cases := []struct {
		b, p     core.Count
		property string
		gate     string
		blocks   bool
	}{
		{core.Count{Passed: 30, Trials: 60}, core.Count{Passed: 51, Trials: 60}, core.PropertyPassed, core.GateAccept, false},
		{core.Count{Passed: 30, Trials: 60}, core.Count{Passed: 51, Trials: 60}, core.PropertyFailed, core.GateBlock, true},
		{core.Count{Passed: 30, Trials: 60}, core.Count{Passed: 51, Trials: 60}, core.PropertyUnknown, core.GateOwed, false},
		{core.Count{Passed: 51, Trials: 60}, core.Count{Passed: 30, Trials: 60}, core.PropertyPassed, core.GateBlock, true},
		{core.Count{Passed: 10, Trials: 20}, core.Count{Passed: 17, Trials: 20}, core.PropertyPassed, core.GateNoClaim, false},
		{core.Count{Passed: 5, Trials: 10}, core.Count{Passed: 17, Trials: 20}, core.PropertyPassed, core.GateQuarantine, true},
	}
	for _, c := range cases {
		in := DefaultDecideInput
		in.Baseline, in.Patched, in.Property = c.b, c.p, c.property
		res := mustDecide(t, in)
		if res.Gate != c.gate || res.Blocks != c.blocks || res.Property != c.property {
			t.Errorf("%v vs %v, property %s: gate %s blocks %v; want %s %v", c.b, c.p, c.property, res.Gate, res.Blocks, c.gate, c.blocks)
		}
	}
	// min_trials moves the underpowered line.
	in := DefaultDecideInput
	in.Baseline, in.Patched, in.MinTrials = core.Count{Passed: 5, Trials: 10}, core.Count{Passed: 10, Trials: 10}, 10
	if res, _ := Decide(in); res.Verdict == core.VerdictUnderpowered {
		t.Errorf("10 trials with min_trials 10 is not underpowered")
	}
}

func TestDecideErrors(t *testing.T) {
	cases := []struct {
		field string
		edit  func(*DecideInput)
	}{
		{"baseline", func(in *DecideInput) { in.Baseline = core.Count{Passed: 21, Trials: 20} }},
		{"baseline", func(in *DecideInput) { in.Baseline = core.Count{Passed: 0, Trials: -1} }},
		{"patched", func(in *DecideInput) { in.Patched = core.Count{Passed: -1, Trials: 20} }},
		{"min_trials", func(in *DecideInput) { in.MinTrials = 0 }},
		{"property", func(in *DecideInput) { in.Property = "yes" }},
		{"confidence", func(in *DecideInput) { in.Confidence = 1.2 }},
	}
	for _, c := range cases {
		in := DefaultDecideInput
		in.Baseline, in.Patched = core.Count{Passed: 10, Trials: 20}, core.Count{Passed: 17, Trials: 20}
		c.edit(&in)
		_, err := Decide(in)
		if e, ok := err.(*core.Error); !ok || e.Field != c.field || e.Kind != core.Invalid {
			t.Errorf("want an invalid %s error, got %v", c.field, err)
		}
	}
}

// TestDecideGolden compares with testdata/decide/golden.json, written by
// testdata/decide/gen.py with the original decision script's decide (its z
// set to Z(0.95)): verdicts exactly, interval ends to 1e-12 relative.
func TestDecideGolden(t *testing.T) {
	raw, err := os.ReadFile("testdata/decide/golden.json")
	if err != nil {
		t.Fatal(err)
	}
	var cases []struct {
		Baseline, Patched [2]int64
		Verdict           string
		BaselineInterval  [2]float64 `json:"baseline_interval"`
		PatchedInterval   [2]float64 `json:"patched_interval"`
	}
	if err := json.Unmarshal(raw, &cases); err != nil {
		t.Fatal(err)
	}
	if len(cases) < 100 {
		t.Fatalf("only %d cases", len(cases))
	}
	for _, c := range cases {
		res := decideCounts(t, core.Count{Passed: c.Baseline[0], Trials: c.Baseline[1]}, core.Count{Passed: c.Patched[0], Trials: c.Patched[1]})
		if res.Verdict != c.Verdict ||
			!closeRel(res.Baseline.Lower, c.BaselineInterval[0], 1e-12) || !closeRel(res.Baseline.Upper, c.BaselineInterval[1], 1e-12) ||
			!closeRel(res.Patched.Lower, c.PatchedInterval[0], 1e-12) || !closeRel(res.Patched.Upper, c.PatchedInterval[1], 1e-12) {
			t.Errorf("%v vs %v: %s %+v %+v; want %s %v %v", c.Baseline, c.Patched, res.Verdict, res.Baseline, res.Patched,
				c.Verdict, c.BaselineInterval, c.PatchedInterval)
		}
	}
}

// An underpowered verdict keeps its action (quarantine, from the decision
// table), and TrialsShort says how many more trials each arm needs before
// a verdict is possible: the minimum less what the arm has, by hand.
func TestTrialsShort(t *testing.T) {
	for _, c := range []struct {
		b, p core.Count
		want string
	}{
		{core.Count{Passed: 10, Trials: 10}, core.Count{Passed: 9, Trials: 10}, "a verdict needs 10 more baseline trials and 10 more patched trials"},
		{core.Count{Passed: 20, Trials: 20}, core.Count{Passed: 1, Trials: 1}, "a verdict needs 19 more patched trials"},
		{core.Count{Passed: 0, Trials: 19}, core.Count{Passed: 30, Trials: 30}, "a verdict needs 1 more baseline trial"},
	} {
		res := mustDecide(t, DecideInput{Baseline: c.b, Patched: c.p, MinTrials: 20, Confidence: 0.95, Property: core.PropertyUnknown})
		if got := TrialsShort(20, c.b.Trials, c.p.Trials); res.Verdict != core.VerdictUnderpowered || res.Gate != core.GateQuarantine || got != c.want {
			t.Errorf("%v vs %v: %s, %s, %q; want quarantine and %q", c.b, c.p, res.Verdict, res.Gate, got, c.want)
		}
	}
	if s := TrialsShort(20, 20, 25); s != "" {
		t.Errorf("both arms enough: %q", s)
	}
}

// mustDecide is Decide's result; an error fails t and stops there.
func mustDecide(t testing.TB, in DecideInput) *DecideResult {
	t.Helper()
	res, err := Decide(in)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// decideCounts is Decide's result for baseline b against patched p, the
// other inputs DefaultDecideInput's; an error fails t and stops there.
func decideCounts(t testing.TB, b, p core.Count) *DecideResult {
	t.Helper()
	in := DefaultDecideInput
	in.Baseline, in.Patched = b, p
	return mustDecide(t, in)
}
