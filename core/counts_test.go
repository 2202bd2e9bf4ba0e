package core

import (
	"errors"
	"strings"
	"testing"
)

func TestParseCount(t *testing.T) {
	// Expected values are the text's own numbers.
	ok := []struct {
		in   string
		want Count
	}{
		{"17/20", Count{17, 20}},
		{" 17 / 20 ", Count{17, 20}},
		{"\t0/0", Count{0, 0}},
		{"0/5", Count{0, 5}},
		{"5/5", Count{5, 5}},
		{"9223372036854775807/9223372036854775807", Count{1<<63 - 1, 1<<63 - 1}},
	}
	for _, c := range ok {
		got, err := ParseCount("baseline", c.in)
		if err != nil || got != c.want {
			t.Errorf("ParseCount(%q) = %v, %v; want %v", c.in, got, err, c.want)
		}
	}
	// Column is the 1-based character position of the fault.
	bad := []refusal{
		{"", 1, "want passed/trials"},
		{"17", 1, "want passed/trials"},
		{"  17", 3, "want passed/trials"},
		{"/20", 1, "missing the number of passed"},
		{"17/", 4, "missing the number of trials"},
		{"17/ ", 5, "missing the number of trials"},
		{"-1/20", 1, "whole number"},
		{"1/-20", 3, "whole number"},
		{"007/10", 1, "leading zeros"},
		{"7/010", 3, "leading zeros"},
		{"+1/20", 1, "whole number"},
		{"1.5/20", 2, "whole number"},
		{"1/2/3", 4, "one slash"},
		{"21/20", 1, "more than the 20 trials"},
		{" 21/20", 2, "more than"},
		{"1/9223372036854775808", 3, "too large"},
		{"99999999999999999999/1", 1, "too large"},
		{"é1/2", 1, "whole number"},
		{"1 2/3", 2, "whole number"},
		{"éé/x", 1, "whole number"},
		{"1/éx", 3, "whole number"},
	}
	checkRefusals(t, "ParseCount", "baseline", bad, ParseCount)
}

func TestParseRates(t *testing.T) {
	ok := []struct {
		in   string
		want []float64
	}{
		{"", []float64{}},
		{"  ", []float64{}},
		{"0.05", []float64{0.05}},
		{"0.05,0.02", []float64{0.05, 0.02}},
		{" 0.05 , 0.02\t,1e-3 ", []float64{0.05, 0.02, 0.001}},
		{"-1,2", []float64{-1, 2}}, // range checks belong to the calculators
		{"0,0.0,0e5,-0", []float64{0, 0, 0, 0}},
		{"1,2,4,8", []float64{1, 2, 4, 8}},
	}
	for _, c := range ok {
		got, err := ParseRates("rates", c.in)
		if err != nil || len(got) != len(c.want) || got == nil {
			t.Errorf("ParseRates(%q) = %v, %v; want %v", c.in, got, err, c.want)
			continue
		}
		for i := range got {
			if got[i] != c.want[i] {
				t.Errorf("ParseRates(%q)[%d] = %v; want %v", c.in, i, got[i], c.want[i])
			}
		}
	}
	bad := []refusal{
		{",", 1, "empty item 1"},
		{"0.05,", 6, "empty item 2"},
		{"0.05,,0.1", 6, "empty item 2"},
		{"0.05, x", 7, "not a number"},
		{"NaN", 1, "not a number"},
		{"0.1,inf", 5, "not a number"},
		{".05", 1, "a digit before the point"},
		{"+0.05", 1, "leading '+'"},
		{"0.05,003", 6, "leading zeros"},
		{"1e400", 1, "out of the range"},
		{"1e-400", 1, "out of the range"},
		{"5%", 2, "not a percentage"},
		{"1_000", 1, "not a number"},
		{"é,x", 1, "not a number"},
		{"0.1,x", 5, "not a number"},
		{"0x1p-2000", 1, "not hexadecimal"},
	}
	checkRefusals(t, "ParseRates", "rates", bad, ParseRates)
}

func FuzzParseCount(f *testing.F) {
	for _, s := range []string{"17/20", " 1 / 2 ", "", "/", "21/20", "1/9223372036854775808", "é/1", "0/0"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		c, err := ParseCount("f", s)
		if err != nil {
			var e *Error
			if !errors.As(err, &e) || e.Kind != Invalid || e.Column < 1 || e.Column > len([]rune(s))+1 || e.Field != "f" {
				t.Fatalf("ParseCount(%q): error without a position: %#v", s, err)
			}
			return
		}
		if c.Passed < 0 || c.Passed > c.Trials {
			t.Fatalf("ParseCount(%q) = %v: out of range", s, c)
		}
	})
}

func FuzzParseRates(f *testing.F) {
	for _, s := range []string{"0.05,0.02", "", ",", "NaN", "1e400", "5%", " 1 , 2 "} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		rs, err := ParseRates("f", s)
		if err != nil {
			var e *Error
			if !errors.As(err, &e) || e.Kind != Invalid || e.Column < 1 || e.Column > len([]rune(s))+1 {
				t.Fatalf("ParseRates(%q): error without a position: %#v", s, err)
			}
			return
		}
		if want := strings.Count(s, ",") + 1; strings.TrimLeft(s, " \t") != "" && len(rs) != want {
			t.Fatalf("ParseRates(%q) gave %d numbers, want %d", s, len(rs), want)
		}
	})
}

// refusal is a text a parser refuses, the 1-based character column of the
// fault and a fragment of the reason.
type refusal struct {
	in   string
	col  int
	frag string
}

// checkRefusals holds parse, the function named call, to refusing each
// text of bad with an Invalid *Error naming field, at the column and with
// the reason bad gives.
func checkRefusals[T any](t *testing.T, call, field string, bad []refusal, parse func(field, s string) (T, error)) {
	t.Helper()
	for _, c := range bad {
		_, err := parse(field, c.in)
		var e *Error
		if !errors.As(err, &e) {
			t.Errorf("%s(%q): want *Error, got %v", call, c.in, err)
			continue
		}
		if e.Kind != Invalid || e.Field != field || e.Column != c.col || !strings.Contains(e.Msg, c.frag) {
			t.Errorf("%s(%q) = %+v; want column %d and %q", call, c.in, e, c.col, c.frag)
		}
	}
}
