package param

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/flakegate/flakegate/core"
)

// The fields of the tests below: rates as the budget's, counts in an arm's
// and an observed history's words.
var (
	armCount     = Field{Key: "f", Kind: Count, Part: "passed", Whole: "trials", Example: "17/20"}
	historyCount = Field{Key: "f", Kind: Count, Part: "fails", Whole: "runs", Example: "1/120"}
)

func readRates(s string) ([]float64, error) {
	v, _, err := Field{Key: "rates", Kind: Fractions, Item: "rate"}.Read(s)
	if err != nil {
		return nil, err
	}
	return v.([]float64), nil
}

// Rates as people write them: the expected lists are the decimal values
// written in each input (a percentage over 100), read as the CLI reads
// the same fraction (core.ParseFloat of "0.05" is the float64 nearest
// 0.05, which 5% must equal exactly).
func TestRatesAsWritten(t *testing.T) {
	for _, c := range []struct {
		in   string
		want []float64
	}{
		{"0.05 0.02 0.01", []float64{0.05, 0.02, 0.01}},
		{"0.05,0.02,0.01", []float64{0.05, 0.02, 0.01}},
		{"0.05, 0.02,\t0.01", []float64{0.05, 0.02, 0.01}},
		{"0.05\n0.02\r\n0.01\n", []float64{0.05, 0.02, 0.01}},
		{"5% 2%, 1%", []float64{0.05, 0.02, 0.01}},
		{"5 % 0.02", []float64{0.05, 0.02}},
		{"0.05; 0.02", []float64{0.05, 0.02}},
		{"12.5%", []float64{0.125}},
		{"1e-3", []float64{0.001}},
		{"  ", []float64{}},
		{"", []float64{}},
	} {
		got, err := readRates(c.in)
		if err != nil || !slices.Equal(got, c.want) {
			t.Errorf("%q: %v, %v; want %v", c.in, got, err, c.want)
		}
	}
}

// A refusal names the rate by its place and column when the list has
// several, and speaks of the value alone when it is the only one.
func TestRatesRefusals(t *testing.T) {
	for _, c := range []struct {
		in, msg string
		col     int
	}{
		{"0.05 abc", `rate 2: "abc" is not a number`, 6},
		{"0.05, .02", `rate 2: ".02" is not a number: write a digit before the point (0.02)`, 7},
		{"5%%", `"5%%" is not a percentage`, 0},
		{"abc", `"abc" is not a number`, 0},
		{"0.05 +0.02", `rate 2: "+0.02" is not a number: write it without the leading '+'`, 6},
		{"1e999", `"1e999" is out of the range of a number`, 0},
	} {
		_, err := readRates(c.in)
		var e *core.Error
		if !errors.As(err, &e) {
			t.Errorf("%q: %v, want a *core.Error", c.in, err)
			continue
		}
		if !strings.HasPrefix(e.Msg, c.msg) || e.Column != c.col || e.Field != "rates" {
			t.Errorf("%q: field %q column %d %q; want column %d, message starting %q", c.in, e.Field, e.Column, e.Msg, c.col, c.msg)
		}
	}
}

// Counts in the field's own words: an observed history is fails/runs,
// an arm passed/trials; the messages never borrow the other's words, and
// a fault inside the text gives its column.
func TestCountWords(t *testing.T) {
	for _, c := range []struct {
		in     string
		w      Field
		msg    string
		col    int
		absent string
	}{
		{"abc", historyCount, `want fails/runs such as 1/120, got "abc"`, 1, "passed"},
		{"5/3", historyCount, "5 is more than the 3 runs", 1, "trials"},
		{"1/x", historyCount, `the number of runs must be a whole number >= 0, found "x"`, 3, "trials"},
		{"/120", historyCount, `missing the number of fails in "/120"`, 1, "passed"},
		{"1/2/3", historyCount, `want one slash in fails/runs, got "1/2/3"`, 4, "passed"},
		{"01/120", historyCount, "the number of fails 01 has leading zeros; write it without them", 1, "passed"},
		{"", historyCount, "required, as fails/runs such as 1/120", 0, "passed"},
		{"x", armCount, `want passed/trials such as 17/20, got "x"`, 1, "fails"},
		{"21/20", armCount, "21 is more than the 20 trials", 1, "runs"},
	} {
		_, _, err := c.w.Read(c.in)
		if c.in == "" {
			err = c.w.Missing()
		}
		var e *core.Error
		if !errors.As(err, &e) {
			t.Errorf("%q: %v, want a *core.Error", c.in, err)
			continue
		}
		if e.Msg != c.msg || e.Column != c.col || strings.Contains(e.Msg, c.absent) {
			t.Errorf("%q: column %d %q; want column %d %q", c.in, e.Column, e.Msg, c.col, c.msg)
		}
	}
}

// FuzzCountAgreesWithCore: a count field reads by the grammar of
// core.ParseCount, only its messages differ.
func FuzzCountAgreesWithCore(f *testing.F) {
	for _, s := range []string{"17/20", " 1 / 120 ", "0/0", "01/2", "1/2/3", "x", "", "/", "5/3", "+1/2", "1/-2", "99999999999999999999/1", "1\t/\t2", "١/٢"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		want, wantErr := core.ParseCount("f", s)
		v, absent, err := armCount.Read(s)
		if absent {
			err = armCount.Missing()
		}
		got, _ := v.(core.Count)
		if (err == nil) != (wantErr == nil) || got != want {
			t.Fatalf("%q: param %v, %v; core %v, %v", s, got, err, want, wantErr)
		}
	})
}

// FuzzRatesAgreeWithCore: a comma-separated list without
// percentages reads as core.ParseRates reads it; whatever a list field
// reads is finite, and every list core reads, it reads too.
func FuzzRatesAgreeWithCore(f *testing.F) {
	for _, s := range []string{"0.05,0.02", "0.05 0.02", "5%", "1e-3,,2", " , ", "0.05;0.02\n0.01", "x", "1e400", "-0", "0.5%%"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, err := readRates(s)
		for _, v := range got {
			if math.IsInf(v, 0) || math.IsNaN(v) {
				t.Fatalf("%q: read %v", s, got)
			}
		}
		want, wantErr := core.ParseRates("rates", s)
		if wantErr == nil && len(want) > 0 && (err != nil || !slices.Equal(got, want)) {
			t.Fatalf("%q: param %v, %v; core %v", s, got, err, want)
		}
	})
}

// A percentage is read as the CLI reads the same fraction: "95%" is the
// float64 nearest 0.95 (95*0.01 would be 0.9500000000000001).
func TestFractionPercent(t *testing.T) {
	for _, c := range []struct {
		in   string
		want float64
	}{
		{"95%", 0.95}, {"99.9%", 0.999}, {" 97.5 % ", 0.975}, {"9.5e1%", 0.95}, {"1e-3%", 1e-5}, {"0.95", 0.95}, {"100%", 1},
	} {
		v, _, err := Field{Key: "confidence", Kind: Fraction}.Read(c.in)
		got, _ := v.(float64)
		if err != nil || got != c.want {
			t.Errorf("%q: %v, %v; want %v exactly", c.in, got, err, c.want)
		}
	}
	for _, in := range []string{"%", "95e%", "x%", "Inf%", "95%%"} {
		if v, _, err := (Field{Key: "confidence", Kind: Fraction}).Read(in); err == nil {
			t.Errorf("%q read as %v", in, v)
		}
	}
}

// TestNewKinds: whole-number lists, switches and dates, read as the
// package comment states, refused in its words.
func TestNewKinds(t *testing.T) {
	ints := Field{Key: "k", Kind: Integers, Item: "item"}
	for text, want := range map[string]string{"1,2,4,8": "[1 2 4 8]", "1 2; 4": "[1 2 4]", " ": "[]"} {
		v, _, err := ints.Read(text)
		if err != nil || fmt.Sprint(v) != want {
			t.Errorf("k %q: %v, %v; want %s", text, v, err, want)
		}
	}
	_, _, err := ints.Read("1,x")
	if e, ok := err.(*core.Error); !ok || e.Column != 3 || e.Msg != `item 2: "x" is not a whole number: write one such as 3` {
		t.Errorf("k \"1,x\": %#v", err)
	}
	b := Field{Key: "simulate", Kind: Bool}
	if v, _, err := b.Read(" true "); v != true || err != nil {
		t.Errorf("true: %v, %v", v, err)
	}
	if _, _, err := b.Read("yes"); err == nil || !strings.Contains(err.Error(), `must be true or false, got "yes"`) {
		t.Errorf("yes: %v", err)
	}
	d := Field{Key: "today", Kind: Date}
	if v, _, err := d.Read("2026-02-28"); v != "2026-02-28" || err != nil {
		t.Errorf("2026-02-28: %v, %v", v, err)
	}
	if _, _, err := d.Read("2026-02-30"); err == nil || !strings.Contains(err.Error(), `must be a date YYYY-MM-DD, got "2026-02-30"`) {
		t.Errorf("2026-02-30: %v", err)
	}
}

// TestJoinedField: the runner's "gotestsum=2" is runner and setting, and
// the setting may not be given twice.
func TestJoinedField(t *testing.T) {
	in, err := Budget.Parse(map[string]string{"rates": "0.05", "runner": "gotestsum=2", "setting": " "})
	if err != nil || in.Runner != "gotestsum" || in.Setting == nil || *in.Setting != 2 {
		t.Fatalf("gotestsum=2: %+v, %v", in, err)
	}
	if _, err := Budget.Parse(map[string]string{"runner": "gotestsum=2", "setting": "3"}); FieldOf(First(err)) != "setting" {
		t.Errorf("setting twice: %v", err)
	}
}

// TestAAChecks: the A/A options' ranges and the simulation's switch, in
// the words the API has always used; the simulation takes the seed.
func TestAAChecks(t *testing.T) {
	for _, c := range []struct {
		text map[string]string
		want string
	}{
		{map[string]string{"k": "1,0"}, "k: item 2 must be a whole number from 1 to 1073741824, got 0"},
		{map[string]string{"rule": "0"}, "rule: must be a fraction in (0,1], got 0"},
		{map[string]string{"seed": "-1"}, "seed: must be in [0, 2^53), got -1"},
		{map[string]string{"sets": "10"}, "simulate: sets, sim_k, sim_drop and broken need simulate=true"},
		{map[string]string{"simulate": "true", "sim_k": "2000000000"}, "sim_k: must be in [0, 1073741824], got 2000000000"},
	} {
		if _, err := AA.Parse(c.text); err == nil || err.Error() != c.want {
			t.Errorf("%v: %v; want %s", c.text, err, c.want)
		}
	}
	in, err := AA.Parse(map[string]string{"simulate": "true", "seed": "7", "sets": "10"})
	if err != nil || in.Options.Simulate == nil || in.Options.Simulate.Seed != 7 || in.Options.Simulate.Sets != 10 || in.Options.Depth.Seed != 7 {
		t.Errorf("simulate: %+v, %v", in.Options.Simulate, err)
	}
}
