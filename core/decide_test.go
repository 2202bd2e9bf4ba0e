package core

import (
	"encoding/json"
	"math"
	"os"
	"testing"
)

// Seed 000's examples: 10/20 vs 17/20 overlap; 30/60 vs 51/60 separate;
// 18/20 vs 19/20 do not; and the opening's 2/20 vs 3/20 is "the same coin".
func TestDecideSeed000(t *testing.T) {
	cases := []struct {
		b, p    Count
		verdict string
		gate    string
	}{
		{Count{10, 20}, Count{17, 20}, VerdictNoChange, GateNoClaim},
		{Count{30, 60}, Count{51, 60}, VerdictImproved, GateOwed},
		{Count{18, 20}, Count{19, 20}, VerdictNoChange, GateNoClaim},
		{Count{2, 20}, Count{3, 20}, VerdictNoChange, GateNoClaim},
		{Count{51, 60}, Count{30, 60}, VerdictRegressed, GateBlock},
		{Count{10, 19}, Count{17, 20}, VerdictUnderpowered, GateQuarantine},
		{Count{0, 0}, Count{0, 0}, VerdictUnderpowered, GateQuarantine},
	}
	for _, c := range cases {
		in := DefaultDecideInput
		in.Baseline, in.Patched = c.b, c.p
		res, err := Decide(in)
		if err != nil {
			t.Fatal(err)
		}
		if res.Verdict != c.verdict || res.Gate != c.gate || res.Blocks != GateBlocks(c.gate) || res.Action == "" || res.Warnings == nil {
			t.Errorf("%v vs %v: %s/%s, want %s/%s", c.b, c.p, res.Verdict, res.Gate, c.verdict, c.gate)
		}
	}
}

// The gate table of seed 000, with the rule that an improvement is accepted
// only when the property check passed.
func TestDecideGateTable(t *testing.T) {
	cases := []struct {
		b, p     Count
		property string
		gate     string
		blocks   bool
	}{
		{Count{30, 60}, Count{51, 60}, PropertyPassed, GateAccept, false},
		{Count{30, 60}, Count{51, 60}, PropertyFailed, GateBlock, true},
		{Count{30, 60}, Count{51, 60}, PropertyUnknown, GateOwed, false},
		{Count{51, 60}, Count{30, 60}, PropertyPassed, GateBlock, true},
		{Count{10, 20}, Count{17, 20}, PropertyPassed, GateNoClaim, false},
		{Count{5, 10}, Count{17, 20}, PropertyPassed, GateQuarantine, true},
	}
	for _, c := range cases {
		in := DefaultDecideInput
		in.Baseline, in.Patched, in.Property = c.b, c.p, c.property
		res, err := Decide(in)
		if err != nil {
			t.Fatal(err)
		}
		if res.Gate != c.gate || res.Blocks != c.blocks || res.Property != c.property {
			t.Errorf("%v vs %v, property %s: gate %s blocks %v; want %s %v", c.b, c.p, c.property, res.Gate, res.Blocks, c.gate, c.blocks)
		}
	}
	// min_trials moves the underpowered line.
	in := DefaultDecideInput
	in.Baseline, in.Patched, in.MinTrials = Count{5, 10}, Count{10, 10}, 10
	if res, _ := Decide(in); res.Verdict == VerdictUnderpowered {
		t.Errorf("10 trials with min_trials 10 is not underpowered")
	}
}

func TestDecideErrors(t *testing.T) {
	cases := []struct {
		field string
		edit  func(*DecideInput)
	}{
		{"baseline", func(in *DecideInput) { in.Baseline = Count{21, 20} }},
		{"baseline", func(in *DecideInput) { in.Baseline = Count{0, -1} }},
		{"patched", func(in *DecideInput) { in.Patched = Count{-1, 20} }},
		{"min_trials", func(in *DecideInput) { in.MinTrials = 0 }},
		{"property", func(in *DecideInput) { in.Property = "yes" }},
		{"confidence", func(in *DecideInput) { in.Confidence = 1.2 }},
	}
	for _, c := range cases {
		in := DefaultDecideInput
		in.Baseline, in.Patched = Count{10, 20}, Count{17, 20}
		c.edit(&in)
		_, err := Decide(in)
		if e, ok := err.(*Error); !ok || e.Field != c.field || e.Kind != Invalid {
			t.Errorf("want an invalid %s error, got %v", c.field, err)
		}
	}
}

// TestDecideGolden compares with testdata/decide/golden.json, written by
// testdata/decide/gen.py with the reference analyze.py's decide (its z set to
// Z(0.95)): verdicts exactly, interval ends to 1e-12 relative.
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
		in := DefaultDecideInput
		in.Baseline = Count{c.Baseline[0], c.Baseline[1]}
		in.Patched = Count{c.Patched[0], c.Patched[1]}
		res, err := Decide(in)
		if err != nil {
			t.Fatal(err)
		}
		if res.Verdict != c.Verdict ||
			!closeRel(res.Baseline.Lower, c.BaselineInterval[0], 1e-12) || !closeRel(res.Baseline.Upper, c.BaselineInterval[1], 1e-12) ||
			!closeRel(res.Patched.Lower, c.PatchedInterval[0], 1e-12) || !closeRel(res.Patched.Upper, c.PatchedInterval[1], 1e-12) {
			t.Errorf("%v vs %v: %s %+v %+v; want %s %v %v", c.Baseline, c.Patched, res.Verdict, res.Baseline, res.Patched,
				c.Verdict, c.BaselineInterval, c.PatchedInterval)
		}
	}
}

// Trials per arm at which two exact rates separate: DESIGN.md "Verified
// numbers" (0.50 vs 0.85 -> 28; 0.90 vs 0.95 -> 427; 0.50 vs 0.60 -> 381).
// Seed 000: 20 per arm cannot separate 0.50 from 0.85 and 60 can.
func TestSizeVerified(t *testing.T) {
	for _, c := range []struct {
		a, b float64
		n    int64
	}{{0.50, 0.85, 28}, {0.85, 0.50, 28}, {0.90, 0.95, 427}, {0.50, 0.60, 381}} {
		res, err := Size(SizeInput{Baseline: c.a, Patched: c.b, Confidence: 0.95})
		if err != nil {
			t.Fatal(err)
		}
		if res.TrialsPerArm == nil || *res.TrialsPerArm != c.n {
			t.Errorf("Size(%v, %v) = %v, want %d", c.a, c.b, res.TrialsPerArm, c.n)
		}
	}
	z := Z(0.95)
	if separated(0.5, 0.85, 20, z) || !separated(0.5, 0.85, 60, z) {
		t.Error("seed 000: 0.50 vs 0.85 separate at 60 per arm but not at 20")
	}
	res, err := Size(SizeInput{Baseline: 0.5, Patched: 0.5, Confidence: 0.95})
	if err != nil || res.TrialsPerArm != nil || len(res.Warnings) != 1 {
		t.Errorf("equal rates never separate: %+v %v", res, err)
	}
	for _, bad := range []SizeInput{{-0.1, 0.5, 0.95}, {0.5, 1.1, 0.95}, {0.5, math.NaN(), 0.95}, {0.5, 0.6, 0}} {
		if _, err := Size(bad); ErrorKind(err) != Invalid {
			t.Errorf("Size(%+v): want an invalid error, got %v", bad, err)
		}
	}
}

// Property: Size's gallop and bisection give the same n as a plain scan from
// n = 1, over a grid of rate pairs 0.05 apart (where the scan stays short),
// at three confidences.
func TestSizeMatchesScan(t *testing.T) {
	for _, conf := range []float64{0.8, 0.95, 0.99} {
		z := Z(conf)
		for i := 0; i <= 20; i++ {
			for j := 0; j <= 20; j++ {
				a, b := float64(i)/20, float64(j)/20
				if math.Abs(a-b) < 0.09 {
					continue
				}
				var scan int64
				for n := int64(1); n <= 100_000; n++ {
					if separated(a, b, float64(n), z) {
						scan = n
						break
					}
				}
				res, err := Size(SizeInput{Baseline: a, Patched: b, Confidence: conf})
				if err != nil {
					t.Fatal(err)
				}
				if res.TrialsPerArm == nil || *res.TrialsPerArm != scan {
					t.Errorf("%v vs %v at %v: Size %v, scan %d", a, b, conf, res.TrialsPerArm, scan)
				}
			}
		}
	}
}
