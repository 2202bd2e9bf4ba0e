package share

import (
	"errors"
	"fmt"

	"github.com/flakegate/flakegate/core/aa"
	"github.com/flakegate/flakegate/core/history"
)

// The decoders of the compare and history views' packed states, shared by
// the page and the server that renders a link (the quarantine view's are
// in decode_quarantine.go).

// DecodeCompare reverses share.Compare's fragment value. It refuses an
// unknown field, another version, and tallies no log could give; the
// comparison checks the rest (duplicate ids, the settings' ranges).
func DecodeCompare(text string) (CompareState, error) {
	raw, err := Unpack(text)
	if err != nil {
		return CompareState{}, err
	}
	var s CompareState
	if err := decodeState(raw, &s); err != nil {
		return CompareState{}, err
	}
	if err := s.Check(); err != nil {
		return CompareState{}, err
	}
	for _, side := range []struct {
		name string
		ts   []aa.Tally
	}{{"a", s.A}, {"b", s.B}} {
		if len(side.ts) == 0 {
			return CompareState{}, fmt.Errorf("share data: side %s has no questions", side.name)
		}
		for _, t := range side.ts {
			if t.Total < 1 || t.Passed < 0 || t.Passed > t.Total {
				return CompareState{}, fmt.Errorf("share data: side %s: question %q: passed %d of %d", side.name, t.ID, t.Passed, t.Total)
			}
		}
	}
	return s, nil
}

// maxHistoryTests bounds the tests and incidents a link may list, so
// that a crafted link cannot make the page build an endless table.
const maxHistoryTests = 20_000

// DecodeHistory reverses share.History's fragment value. It refuses
// an unknown field, another version, and figures no history could give
// (a rate outside [0,1], more failures than runs, a flaky test without
// its first failure), so the view never shows a wrong number or fails.
func DecodeHistory(text string) (*history.Result, error) {
	raw, err := Unpack(text)
	if err != nil {
		return nil, err
	}
	var s HistoryState
	if err := decodeState(raw, &s); err != nil {
		return nil, err
	}
	if s.Version != 1 {
		return nil, fmt.Errorf("share data: unknown version %d", s.Version)
	}
	r := s.Result
	if err := checkHistory(r); err != nil {
		return nil, fmt.Errorf("share data: %v", err)
	}
	return r, nil
}

// decodeState reads a link's JSON state into v (readState).
func decodeState(raw []byte, v any) error {
	if err := readState(raw, v); err != nil {
		return fmt.Errorf("share data: %w", err)
	}
	return nil
}

func checkHistory(r *history.Result) error {
	frac := func(v float64) bool { return v >= 0 && v <= 1 }
	switch {
	case r == nil:
		return errors.New("no result")
	case r.Runs < 1 || r.Tests < 0 || r.Results < 0 || r.Flaky < 0 || r.Naive < 0:
		return fmt.Errorf("%d runs of %d tests", r.Runs, r.Tests)
	case len(r.Flakes)+len(r.Broken) > maxHistoryTests || len(r.Incidents) > maxHistoryTests:
		return fmt.Errorf("more than %d tests or incidents", maxHistoryTests)
	case r.Flaky != len(r.Flakes):
		return fmt.Errorf("flaky %d, but %d flaky tests listed", r.Flaky, len(r.Flakes))
	case !frac(r.BaselineRate) || !frac(r.OutageThreshold) || !frac(r.Confidence) || !frac(r.Target):
		return errors.New("a fraction outside [0,1]")
	case r.Cap < 0 || r.CostSeconds != nil && !(*r.CostSeconds >= 0):
		return errors.New("a negative cap or cost")
	}
	for _, inc := range r.Incidents {
		if len(inc.Runs) == 0 || !frac(inc.PValue) || inc.FailedTests < 0 || inc.RunTests < 0 || !(inc.Expected >= 0) {
			return fmt.Errorf("incident %q: runs or evidence out of range", inc.Kind)
		}
	}
	for _, list := range [][]history.TestHistory{r.Flakes, r.Broken} {
		for _, t := range list {
			switch {
			case t.Runs < 1 || t.Failures < 1 || t.Failures > t.Runs || t.LongestStreak < 0 || t.LongestStreak > t.Failures:
				return fmt.Errorf("test %q: failed %d of %d runs", t.Test, t.Failures, t.Runs)
			case !frac(t.Rate) || !frac(t.Lower) || !frac(t.Upper) || !frac(t.FlipRate) || !frac(t.PowerAtCap) || !frac(t.Trend.PValue):
				return fmt.Errorf("test %q: a fraction outside [0,1]", t.Test)
			case t.FirstFailure == nil || t.LastFailure == nil:
				return fmt.Errorf("test %q: no first or last failure", t.Test)
			case t.CostSeconds != nil && !(*t.CostSeconds >= 0), t.RunSeconds != nil && !(*t.RunSeconds >= 0):
				return fmt.Errorf("test %q: a negative cost or run time", t.Test)
			}
		}
	}
	return nil
}
