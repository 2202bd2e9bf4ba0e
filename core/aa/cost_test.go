package aa

import (
	"errors"
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/flakegate/flakegate/core"
	"github.com/flakegate/flakegate/core/aa/sim"
)

// TestWork holds Work to its formula, computed here by hand for a side of
// 4 scenarios (2 of them mixed) in 10 equal runs.
func TestWork(t *testing.T) {
	s := mustReadAA(t, aaCSV("1111111111", "0000000000", "1010101010", "1111111110"))
	opt := DefaultOptions
	// 1e5 + 200·(4+10) + 6·10·9,999 permutations + 2²/2 pairs.
	want := 1e5 + 200*14 + 6*10*9999.0 + 2
	if got := Work(s, 0, 0, opt); got != want {
		t.Errorf("Work = %v, want %v", got, want)
	}
	// Eight runs or fewer are enumerated: 8! orders.
	s8 := mustReadAA(t, aaCSV("11111111", "10101010"))
	if got, want := Work(s8, 0, 0, opt), 1e5+200*10+6*8*40320.0+0.5; got != want {
		t.Errorf("Work, 8 runs = %v, want %v", got, want)
	}
	so := sim.DefaultOptions
	opt.Simulate = &so
	// 8 steps · 4,000 sets · 2·4 runs · 4 scenarios more.
	if got := Work(s, 3, 2, opt); got != want+200*5+8*4000*8*4 {
		t.Errorf("Work with a simulation and a candidate = %v", got)
	}
	if got := WorkText(s, opt); got != "the simulation draws 4000 sets × 8 runs × 4 scenarios" {
		t.Errorf("WorkText = %q", got)
	}
	opt.Simulate = nil
	if got := WorkText(s, opt); got != "the trend test permutes 10 runs 9999 times" {
		t.Errorf("WorkText = %q", got)
	}
}

// TestInterrupt: an error from Options.Interrupt stops Check inside the
// trend test and inside the simulation, and Check returns it; an Interrupt
// that never fires changes nothing in the result.
func TestInterrupt(t *testing.T) {
	rows := make([]string, 40)
	for i := range rows {
		rows[i] = strings.Repeat("10", 20)[i%2:][:30]
	}
	s := mustReadAA(t, aaCSV(rows...))
	stop := errors.New("client gone")
	for _, simulate := range []bool{false, true} {
		opt := DefaultOptions
		if simulate {
			so := sim.DefaultOptions
			so.Sets = 100_000
			opt.Simulate = &so
			opt.Depth.Permutations = 1 // the trend test passes without a poll
		} else {
			opt.Depth.Permutations = 1_000_000
		}
		calls := 0
		opt.Interrupt = func() error {
			calls++
			if calls == 3 {
				return stop
			}
			return nil
		}
		if _, err := Check(s, nil, opt); !errors.Is(err, stop) || calls != 3 {
			t.Errorf("simulate=%v: err %v after %d polls, want the interrupt's error at the third", simulate, err, calls)
		}
	}
	opt := DefaultOptions
	so := sim.DefaultOptions
	so.Sets = 200
	opt.Simulate = &so
	want := mustCheck(t, s, nil, opt)
	polled := 0
	opt.Interrupt = func() error { polled++; return nil }
	got, err := Check(s, nil, opt)
	if err != nil || !reflect.DeepEqual(got, want) || polled == 0 {
		t.Errorf("a silent Interrupt (polled %d times) changed the result: %v", polled, err)
	}
}

// TestReadCSVWithin: the row that brings scenarios or runs past their cap
// is refused as too large at its line; under the caps the side is
// ReadCSV's.
func TestReadCSVWithin(t *testing.T) {
	in := aaCSV("1101", "0110", "1111") // 3 scenarios, 4 runs; rows run by run
	for _, tc := range []struct {
		lim       Limits
		line, col int
		msg       string
	}{
		{Limits{Scenarios: 2}, 4, 1, "more than 2 scenarios"},
		{Limits{Runs: 3}, 11, 4, "more than 3 runs"},
		{Limits{Runs: 1}, 5, 4, "more than 1 run;"},
	} {
		_, err := ReadCSVWithin(strings.NewReader(in), tc.lim)
		var e *core.Error
		if !errors.As(err, &e) || e.Kind != core.TooLarge || e.Line != tc.line || e.Column != tc.col || !strings.Contains(e.Msg, tc.msg) {
			t.Errorf("%+v: %#v, want too_large at %d:%d saying %q", tc.lim, err, tc.line, tc.col, tc.msg)
		}
	}
	want := mustReadAA(t, in)
	got, err := ReadCSVWithin(strings.NewReader(in), Limits{Scenarios: 3, Runs: 4})
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Errorf("at the caps: %v", err)
	}
	if math.IsNaN(Work(got, 0, 0, DefaultOptions)) {
		t.Error("Work is NaN")
	}
}
