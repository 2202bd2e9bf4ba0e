package gate

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/flakegate/flakegate/core"
	"github.com/flakegate/flakegate/core/stat"
)

// Trials per arm at which two exact rates separate (docs/STATISTICS.md,
// "Trials per arm to separate two rates": 0.50 vs 0.85 -> 28; 0.90 vs 0.95 ->
// 427; 0.50 vs 0.60 -> 381); 20 per arm cannot separate 0.50 from 0.85 and 60
// can.
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
	z := stat.Z(0.95)
	if separated(0.5, 0.85, 20, z) || !separated(0.5, 0.85, 60, z) {
		t.Error("0.50 vs 0.85 separate at 60 per arm but not at 20")
	}
	res, err := Size(SizeInput{Baseline: 0.5, Patched: 0.5, Confidence: 0.95})
	if err != nil || res.TrialsPerArm != nil || len(res.Warnings) != 1 {
		t.Errorf("equal rates never separate: %+v %v", res, err)
	}
	for _, bad := range []SizeInput{{-0.1, 0.5, 0.95, 0}, {0.5, 1.1, 0.95, 0}, {0.5, math.NaN(), 0.95, 0}, {0.5, 0.6, 0, 0}, {0.5, 0.6, 0.95, -1}} {
		if _, err := Size(bad); core.ErrorKind(err) != core.Invalid {
			t.Errorf("Size(%+v): want an invalid error, got %v", bad, err)
		}
	}
}

// Property: Size's gallop and bisection give the same n as a plain scan from
// n = 1, over a grid of rate pairs 0.05 apart (where the scan stays short),
// at three confidences.
func TestSizeMatchesScan(t *testing.T) {
	for _, conf := range []float64{0.8, 0.95, 0.99} {
		z := stat.Z(conf)
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

// TestSizing: a decision's sizing question divides each arm's counts; an
// arm without trials has no rate to size for. 17/20 is 0.85 exactly as
// float64 division rounds it (the literal 0.85 is the same float64).
func TestSizing(t *testing.T) {
	for _, c := range []struct {
		b, p core.Count
		want SizeInput
		ok   bool
	}{
		{core.Count{Passed: 10, Trials: 20}, core.Count{Passed: 17, Trials: 20}, SizeInput{Baseline: 0.5, Patched: 0.85, Confidence: 0.9}, true},
		{core.Count{Passed: 0, Trials: 3}, core.Count{Passed: 3, Trials: 3}, SizeInput{Baseline: 0, Patched: 1, Confidence: 0.9}, true},
		{core.Count{}, core.Count{Passed: 3, Trials: 3}, SizeInput{}, false},
		{core.Count{Passed: 1, Trials: 2}, core.Count{}, SizeInput{}, false},
	} {
		got, ok := Sizing(DecideInput{Baseline: c.b, Patched: c.p, Confidence: 0.9})
		if got != c.want || ok != c.ok {
			t.Errorf("Sizing(%v, %v) = %+v, %v; want %+v, %v", c.b, c.p, got, ok, c.want, c.ok)
		}
	}
}

// TestSizeMinTrials: a floor of trials per arm raises a smaller plan to it,
// with a warning naming both; a plan above it is the plain sizing. The
// plain sizings are Size's own without a floor (held to a scan by its
// tests); 0.1 against 0.9 separate within 20 trials by the hand check
// below (Wilson at 95%, n=10: [0.018, 0.404] and [0.596, 0.982]).
func TestSizeMinTrials(t *testing.T) {
	plain, err := Size(SizeInput{Baseline: 0.1, Patched: 0.9, Confidence: 0.95})
	if err != nil || plain.TrialsPerArm == nil || *plain.TrialsPerArm > 10 {
		t.Fatalf("plain sizing %+v %v", plain, err)
	}
	floored, err := Size(SizeInput{Baseline: 0.1, Patched: 0.9, Confidence: 0.95, MinTrials: 20})
	if err != nil || *floored.TrialsPerArm != 20 || len(floored.Warnings) != 1 ||
		floored.Warnings[0] != fmt.Sprintf("%d trials per arm separate the intervals; the plan asks for the 20 a decision needs (min_trials)", *plain.TrialsPerArm) {
		t.Errorf("floored %+v %v", floored, err)
	}
	above, _ := Size(SizeInput{Baseline: 0.5, Patched: 0.85, Confidence: 0.95, MinTrials: 20})
	if *above.TrialsPerArm != 28 || len(above.Warnings) != 0 {
		t.Errorf("a plan above the floor: %+v", above)
	}
	if _, err := Size(SizeInput{Baseline: 0.5, Patched: 0.85, Confidence: 0.95, MinTrials: -1}); err == nil || !strings.Contains(err.Error(), "min_trials: must not be negative") {
		t.Errorf("negative floor: %v", err)
	}
}
