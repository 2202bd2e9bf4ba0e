package param

import (
	"errors"
	"fmt"
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/flakegate/flakegate/core"
	"github.com/flakegate/flakegate/core/gate"
	"github.com/flakegate/flakegate/core/ledger"
)

// TestGrammar holds every kind to the grammar the package comment states.
// The expected values are the decimal literals the texts write (Go's own
// reading of 0.05 is the float64 nearest 5/100, as "5%" must be).
func TestGrammar(t *testing.T) {
	frac := Field{Key: "f", Kind: Fraction}
	list := Field{Key: "l", Kind: Fractions, Item: "rate"}
	secs := Field{Key: "s", Kind: Seconds}
	integer := Field{Key: "i", Kind: Integer}
	count := Field{Key: "c", Kind: Count, Part: "fails", Whole: "runs", Example: "1/120"}
	for _, tc := range []struct {
		f    Field
		text string
		want Value
	}{
		{frac, "0.05", 0.05},
		{frac, "5%", 0.05},
		{frac, " 5 % ", 0.05},
		{frac, "95%", 0.95},
		{frac, "99.9%", 0.999},
		{frac, "5e-2", 0.05},
		{list, "0.05,0.02,0.01", []float64{0.05, 0.02, 0.01}},
		{list, "0.05 0.02 0.01", []float64{0.05, 0.02, 0.01}},
		{list, "0.05; 0.02;0.01", []float64{0.05, 0.02, 0.01}},
		{list, "5%, 2%\n1 %", []float64{0.05, 0.02, 0.01}},
		{list, "0.05,,0.02", []float64{0.05, 0.02}},
		{list, "  ", []float64{}},
		{secs, "8", 8.0},
		{secs, "8s", 8.0},
		{secs, "1m30s", 90.0},
		{secs, "250ms", 0.25},
		{secs, "1.5", 1.5},
		{integer, "3", int64(3)},
		{integer, " 20 ", int64(20)},
		{count, "1/120", core.Count{Passed: 1, Trials: 120}},
		{count, " 1 / 120 ", core.Count{Passed: 1, Trials: 120}},
	} {
		v, absent, err := tc.f.Read(tc.text)
		if err != nil || absent || !reflect.DeepEqual(v, tc.want) {
			t.Errorf("%v %q: got %v (absent %v), %v; want %v", tc.f.Kind, tc.text, v, absent, err, tc.want)
		}
	}
}

// TestRefusals: what the grammar refuses, in its words, naming the field.
func TestRefusals(t *testing.T) {
	for _, tc := range []struct {
		f    Field
		text string
		want string
	}{
		{Field{Key: "target", Kind: Fraction}, "abc", `target: "abc" is not a number: write a number such as 0.05 or 5e-2`},
		{Field{Key: "target", Kind: Fraction}, "x%", `target: "x%" is not a percentage: write a number such as 0.05 or 5e-2`},
		{Field{Key: "target", Kind: Fraction}, "0x1p-4", `target: "0x1p-4" is not a number: only decimal is read, not hexadecimal, octal or binary`},
		{Field{Key: "target", Kind: Fraction}, "1e400", `target: "1e400" is out of the range of a number`},
		{Field{Key: "rates", Kind: Fractions, Item: "rate"}, "0.05 x", `1:6: rates: rate 2: "x" is not a number: write a number such as 0.05 or 5e-2`},
		{Field{Key: "cost", Kind: Seconds}, "8x", `cost: "8x" is not a number of seconds: write seconds such as 8, or a duration such as 8s or 1m30s`},
		{Field{Key: "cost", Kind: Seconds}, "-8s", `cost: "-8s" is not a number of seconds: write seconds such as 8, or a duration such as 8s or 1m30s`},
		{Field{Key: "cost", Kind: Seconds}, "+8", `cost: "+8" is not a number of seconds: write it without the leading '+'`},
		{Field{Key: "cap", Kind: Integer}, "3.5", `cap: "3.5" is not a whole number: write digits only, such as 3`},
		{Field{Key: "cap", Kind: Integer}, "99999999999999999999", `cap: "99999999999999999999" is too large a number`},
		{Field{Key: "observe", Kind: Count, Part: "fails", Whole: "runs", Example: "1/120"}, "5/3", `1:1: observe: 5 is more than the 3 runs`},
		{Field{Key: "observe", Kind: Count, Part: "fails", Whole: "runs", Example: "1/120"}, "5", `1:1: observe: want fails/runs such as 1/120, got "5"`},
	} {
		_, _, err := tc.f.Read(tc.text)
		if err == nil {
			t.Errorf("%q: accepted", tc.text)
			continue
		}
		var ce *core.Error
		if !errors.As(err, &ce) || ce.Field != tc.f.Key || ce.Kind != core.Invalid {
			t.Errorf("%q: %#v is not an Invalid *core.Error naming %s", tc.text, err, tc.f.Key)
		}
		got := err.Error()
		if ce.Column > 0 { // core.Error writes a column only after a line
			got = fmt.Sprintf("1:%d: %s", ce.Column, got)
		}
		if got != tc.want {
			t.Errorf("%q:\n got %s\nwant %s", tc.text, got, tc.want)
		}
	}
}

// TestDefaultsAreTheCore: the schema writes no default of its own; each is
// the core Default input's, as a hand reading of gate's declarations gives.
func TestDefaultsAreTheCore(t *testing.T) {
	for name, tc := range map[string]struct{ got, want map[string]string }{
		"budget": {Budget.Defaults(), map[string]string{"target": "0.95", "cost": "", "cap": "3", "rates": "", "observe": "", "confidence": "0.95", "runner": "", "setting": ""}},
		"decide": {Decide.Defaults(), map[string]string{"baseline": "", "patched": "", "min_trials": "20", "confidence": "0.95", "property": "unknown"}},
		"size":   {Size.Defaults(), map[string]string{"baseline": "", "patched": "", "confidence": "0.95", "min_trials": "0"}},
		"freeze": {Freeze.Defaults(), map[string]string{"claim": "", "date": "", "newer": "", "confidence": "0.95", "comparable": "0.5"}},
		"ledger": {Ledger.Defaults(), map[string]string{"min_trials": "20", "confidence": "0.95", "property": "unknown"}},
	} {
		if !reflect.DeepEqual(tc.got, tc.want) {
			t.Errorf("%s defaults %v, want %v", name, tc.got, tc.want)
		}
	}
	// A changed default is read when asked, not copied at start.
	old := gate.DefaultBudgetInput.Target
	gate.DefaultBudgetInput.Target = 0.9
	defer func() { gate.DefaultBudgetInput.Target = old }()
	if d := Budget.DefaultOf("target"); d != "0.9" {
		t.Errorf("after a changed default, target's default is %q", d)
	}
}

// TestParseText: Parse reads what Text writes back to the same input, for
// inputs of every field set.
func TestParseText(t *testing.T) {
	cost, setting := 8.5, int64(2)
	b := gate.BudgetInput{Target: 0.9, CostSeconds: &cost, Cap: 3, Rates: []float64{0.1, 0.003},
		Observed: &core.Count{Passed: 1, Trials: 120}, Confidence: 0.99, Runner: "gotestsum", Setting: &setting}
	roundTrip(t, Budget, b)
	roundTrip(t, Decide, gate.DecideInput{Baseline: core.Count{Passed: 10, Trials: 20}, Patched: core.Count{Passed: 17, Trials: 20},
		MinTrials: 5, Confidence: 0.9, Property: core.PropertyFailed})
	roundTrip(t, Size, gate.SizeInput{Baseline: 0.5, Patched: 0.85, Confidence: 0.8, MinTrials: 20})
	roundTrip(t, Ledger, ledger.Options{MinTrials: 5, Confidence: 0.9, Property: core.PropertyPassed})
	roundTrip(t, Freeze, gate.FreezeInput{Claim: core.Count{Passed: 95, Trials: 100}, Date: "2026-01-02",
		Newer: &core.Count{Passed: 40, Trials: 50}, Confidence: 0.9, Comparable: 0.25})
}

func roundTrip[T any](t *testing.T, s *Schema[T], in T) {
	t.Helper()
	got, err := s.Parse(s.Text(in))
	if err != nil || !reflect.DeepEqual(got, in) {
		t.Errorf("%s: Parse(Text(%+v)) = %+v, %v", s.Name, in, got, err)
	}
}

// TestParseErrors: every field's fault at once, in the fields' order;
// required fields missing or blank are refused, optional blank ones are
// absent.
func TestParseErrors(t *testing.T) {
	_, err := Decide.Parse(map[string]string{"patched": "21/20", "confidence": "x", "min_trials": " "})
	var es Errors
	if !errors.As(err, &es) {
		t.Fatalf("%v is not Errors", err)
	}
	var got []string
	for _, e := range es {
		got = append(got, e.Error())
	}
	want := []string{"baseline: required, as passed/trials such as 17/20", "patched: 21 is more than the 20 trials",
		"min_trials: required", `confidence: "x" is not a number: write a number such as 0.05 or 5e-2`}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	in, err := Budget.Parse(map[string]string{"cost": " ", "observe": "", "rates": "2%"})
	if err != nil || in.CostSeconds != nil || in.Observed != nil || !reflect.DeepEqual(in.Rates, []float64{0.02}) {
		t.Errorf("blank optional fields: %+v, %v", in, err)
	}
}

// FuzzGrammar: a fraction never reads as a non-finite number, "x%" reads
// as x/100 whenever x reads (checked against math on the fraction itself,
// to the rounding of one division), and a list of items reads as the items
// one by one, whichever separator joins them.
func FuzzGrammar(f *testing.F) {
	for _, s := range []string{"0.05", "5%", "1e-3", "95", "0x10", "+1", "1e400", ".5", "5 %", "%"} {
		f.Add(s, ";")
	}
	frac := Field{Key: "f", Kind: Fraction}
	list := Field{Key: "l", Kind: Fractions, Item: "rate"}
	f.Fuzz(func(t *testing.T, s, sep string) {
		v, absent, err := frac.Read(s)
		if err == nil && !absent {
			x := v.(float64)
			if math.IsNaN(x) || math.IsInf(x, 0) {
				t.Fatalf("%q read as %v", s, x)
			}
			if !strings.Contains(s, "%") && !strings.ContainsFunc(s, separator) {
				p, _, perr := frac.Read(s + "%")
				if perr == nil && x != 0 && math.Abs(p.(float64)-x/100) > 1e-15*math.Abs(x) {
					t.Fatalf("%q%% read as %v, want %v/100", s, p, x)
				}
			}
		}
		if err != nil && FieldOf(err) != "f" {
			t.Fatalf("%q: error %v does not name the field", s, err)
		}
		if sep != "," && sep != ";" && sep != " " && sep != "\n" {
			return
		}
		if strings.ContainsFunc(s, separator) || strings.Contains(s, "%") || err != nil || absent {
			return
		}
		l, _, lerr := list.Read(s + sep + s)
		if lerr != nil || !reflect.DeepEqual(l, []float64{v.(float64), v.(float64)}) {
			t.Fatalf("%q joined by %q: %v, %v", s, sep, l, lerr)
		}
	})
}

func ExampleSchema_Parse() {
	in, err := Budget.Parse(map[string]string{"rates": "2% 1%", "cost": "1m30s", "target": "90%"})
	fmt.Println(in.Rates, *in.CostSeconds, in.Target, in.Cap, err)
	_, err = Budget.Parse(map[string]string{"cap": "three"})
	fmt.Println(err)
	// Output:
	// [0.02 0.01] 90 0.9 3 <nil>
	// cap: "three" is not a whole number: write one such as 3
}
