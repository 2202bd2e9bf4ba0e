package core

import (
	"encoding/json"
	"errors"
	"flag"
	"io"
	"strconv"
	"strings"
	"testing"
)

// TestNumberGrammar lists what the one number grammar reads and refuses.
// Expected values are the texts' own numbers; the refusals are the forms
// people type that a JSON number (RFC 8259, section 6) does not allow.
func TestNumberGrammar(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want float64
	}{
		{"0", 0}, {"-0", 0}, {"0.05", 0.05}, {"5e-2", 0.05}, {"5E-2", 0.05}, {"1e+3", 1000},
		{"120", 120}, {"-0.5", -0.5}, {"0.0", 0}, {"10.25", 10.25}, {"1e308", 1e308},
		{"4.9e-324", 4.9e-324}, {"0e5", 0}, {"0.000e-99999", 0},
	} {
		got, err := ParseFloat(tc.in)
		if err != nil || got != tc.want {
			t.Errorf("ParseFloat(%q) = %v, %v; want %v", tc.in, got, err, tc.want)
		}
	}
	for _, tc := range []struct{ in, why string }{
		{"", "empty"},
		{"0x1p-4", "not hexadecimal"},
		{"0X10", "not hexadecimal"},
		{"0o17", "not hexadecimal, octal"},
		{"0b1", "binary"},
		{"+0.05", "leading '+'"},
		{".05", "a digit before the point (0.05)"},
		{"-.05", "a digit before the point (-0.05)"},
		{"5.", "a digit after the point"},
		{"003", "leading zeros"},
		{"00.5", "leading zeros"},
		{"-01", "leading zeros"},
		{"1_000", "nothing after it"},
		{"1,5", "nothing after it"},
		{"Inf", "write a number"},
		{"-Infinity", "write a number"},
		{"NaN", "write a number"},
		{"1e", "exponent's digits"},
		{"1e+", "exponent's digits"},
		{" 1", "write a number"},
		{"1 ", "nothing after it"},
		{"1e5.5", "nothing after it"},
		{"٣", "write a number"}, // an Arabic-Indic digit
	} {
		_, err := ParseFloat(tc.in)
		var ne *strconv.NumError
		if !errors.As(err, &ne) || ne.Err != strconv.ErrSyntax {
			t.Errorf("ParseFloat(%q): %v, want a syntax error", tc.in, err)
		}
		if why := NumberProblem(tc.in, false); !strings.Contains(why, tc.why) {
			t.Errorf("NumberProblem(%q) = %q, want it to say %q", tc.in, why, tc.why)
		}
	}
	for _, in := range []string{"1e400", "-1e400", "1e-400", "2e-324"} {
		_, err := ParseFloat(in)
		var ne *strconv.NumError
		if !errors.As(err, &ne) || ne.Err != strconv.ErrRange {
			t.Errorf("ParseFloat(%q): %v, want a range error", in, err)
		}
	}
	for _, tc := range []struct {
		in   string
		want int64
	}{{"0", 0}, {"3", 3}, {"-3", -3}, {"9223372036854775807", 1<<63 - 1}, {"-9223372036854775808", -1 << 63}} {
		if got, err := ParseInt(tc.in); err != nil || got != tc.want {
			t.Errorf("ParseInt(%q) = %v, %v; want %v", tc.in, got, err, tc.want)
		}
	}
	for _, tc := range []struct{ in, why string }{
		{"003", "leading zeros"}, {"+3", "leading '+'"}, {"3.0", "digits only"}, {"3e0", "digits only"},
		{"0x14", "not hexadecimal"}, {"1_000", "digits only"}, {".5", "such as 3"}, {"", "empty"},
	} {
		if _, err := ParseInt(tc.in); err == nil {
			t.Errorf("ParseInt(%q) accepted", tc.in)
		}
		if why := NumberProblem(tc.in, true); !strings.Contains(why, tc.why) {
			t.Errorf("NumberProblem(%q, integer) = %q, want it to say %q", tc.in, why, tc.why)
		}
	}
	if _, err := ParseInt("9223372036854775808"); !errors.Is(err, strconv.ErrRange) {
		t.Errorf("ParseInt past int64: %v, want a range error", err)
	}
	if _, err := ParseInteger("cap", "003"); err == nil || !strings.Contains(err.Error(), `cap: "003" is not a whole number: write it without leading zeros`) {
		t.Errorf("ParseInteger: %v", err)
	}
}

// TestFlagValues: the CLI's flags read the same grammar.
func TestFlagValues(t *testing.T) {
	var f float64 = 0.95
	fs := flag.NewFlagSet("x", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Var(FloatVar{&f}, "target", "")
	if err := fs.Parse([]string{"-target", "0.5"}); err != nil || f != 0.5 {
		t.Errorf("parse: %v %v", err, f)
	}
	for _, args := range [][]string{{"-target", ".5"}, {"-target", "0x1p-1"}} {
		fs := flag.NewFlagSet("x", flag.ContinueOnError)
		fs.SetOutput(io.Discard)
		fs.Var(FloatVar{&f}, "target", "")
		if err := fs.Parse(args); err == nil {
			t.Errorf("flags %v accepted", args)
		}
	}
}

// FuzzNumberGrammar holds the grammar to encoding/json's reading of a JSON
// number: a text is accepted exactly when it is a JSON number in range.
func FuzzNumberGrammar(f *testing.F) {
	for _, s := range []string{"0.05", ".05", "+1", "003", "1e400", "0x1p-4", "-0", "1e-400", "5.", "1E+3", "NaN"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		v, err := ParseFloat(s)
		// json.Valid allows blanks around the value; a number starts with
		// '-' or a digit and ends with a digit.
		isNumber := len(s) > 0 && (s[0] == '-' || (s[0] >= '0' && s[0] <= '9')) &&
			s[len(s)-1] >= '0' && s[len(s)-1] <= '9' && json.Valid([]byte(s))
		if (NumberProblem(s, false) == "") != isNumber {
			t.Fatalf("%q: grammar says %q, JSON number %v", s, NumberProblem(s, false), isNumber)
		}
		if isNumber {
			var want float64
			jerr := json.Unmarshal([]byte(s), &want)
			if jerr != nil && err == nil {
				t.Fatalf("%q: read %v, encoding/json refuses it: %v", s, v, jerr)
			}
			if err == nil && v != want {
				t.Fatalf("%q: %v, encoding/json reads %v", s, v, want)
			}
		} else if err == nil {
			t.Fatalf("%q accepted", s)
		}
		if _, err := ParseInt(s); err == nil && strings.ContainsAny(s, ".eE") {
			t.Fatalf("ParseInt(%q) accepted a fraction or exponent", s)
		}
	})
}
