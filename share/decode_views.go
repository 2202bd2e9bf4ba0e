package share

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/flakegate/flakegate/core"
	"github.com/flakegate/flakegate/core/aa"
	"github.com/flakegate/flakegate/core/history"
	"github.com/flakegate/flakegate/core/quarantine"
)

// The decoders of the quarantine, compare and history views' packed
// states, shared by the page and the server that renders a link.

// FarFuture is the date a registry from a link is first read against: the
// check itself then holds its dates to the view's date.
const FarFuture = "9999-12-31"

// maxShareTrials bounds a test's trials in a share's reports, so that no
// sum of them overflows.
const maxShareTrials = 1 << 53

// DecodeQuarantine reverses share.EncodeQuarantine. It reads the
// registry as strictly as the CLI reads the file (quarantine.Parse), and
// refuses an unknown field, another version, and counts no report could
// give. The check's settings are checked by the check itself.
func DecodeQuarantine(text string) (*QuarantineState, error) {
	raw, err := Unpack(text)
	if err != nil {
		return nil, err
	}
	return ParseQuarantineJSON(raw)
}

// ParseQuarantineJSON reads the uncompressed JSON of a
// QuarantineShare.
func ParseQuarantineJSON(raw []byte) (*QuarantineState, error) {
	var s struct {
		Version    int                 `json:"v"`
		Registry   json.RawMessage     `json:"registry"`
		Reports    *quarantine.Reports `json:"reports"`
		Renames    map[string]string   `json:"renames"`
		Comparable float64             `json:"comparable"`
		Target     float64             `json:"target"`
		Cap        int64               `json:"cap"`
	}
	d := json.NewDecoder(bytes.NewReader(raw))
	d.DisallowUnknownFields()
	if err := d.Decode(&s); err != nil {
		return nil, fmt.Errorf("share data: %v", err)
	}
	if d.More() {
		return nil, errors.New("share data: more after the state")
	}
	if s.Version != 1 {
		return nil, fmt.Errorf("share data: unknown version %d", s.Version)
	}
	if len(s.Registry) == 0 {
		return nil, errors.New("share data: no registry")
	}
	reg, err := quarantine.Parse(s.Registry, FarFuture)
	if err != nil {
		return nil, fmt.Errorf("share data: the registry: %w", err)
	}
	if r := s.Reports; r != nil {
		if r.Runs < 0 {
			return nil, fmt.Errorf("share data: %d runs", r.Runs)
		}
		for id, runs := range r.Tests {
			var sum int64
			for _, c := range runs {
				if c.Trials < 0 || c.Passed < 0 || c.Passed > c.Trials || c.Trials > maxShareTrials-sum {
					return nil, fmt.Errorf("share data: test %q: passed %d of %d", id, c.Passed, c.Trials)
				}
				sum += c.Trials
			}
		}
		if r.Tests == nil {
			r.Tests = map[string][]core.Count{}
		}
		if r.Warnings == nil {
			r.Warnings = []string{}
		}
	}
	return &QuarantineState{Version: 1, Registry: reg, Reports: s.Reports, Renames: s.Renames,
		Comparable: s.Comparable, Target: s.Target, Cap: s.Cap}, nil
}

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
	if s.Version != 1 {
		return CompareState{}, fmt.Errorf("share data: unknown version %d", s.Version)
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

// decodeState reads a link's JSON state into v: one JSON value, no field
// v does not have.
func decodeState(raw []byte, v any) error {
	d := json.NewDecoder(bytes.NewReader(raw))
	d.DisallowUnknownFields()
	if err := d.Decode(v); err != nil {
		return fmt.Errorf("share data: %v", err)
	}
	if d.More() {
		return errors.New("share data: more after the state")
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
