package page

import (
	"archive/zip"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/flakegate/flakegate/core"
	"github.com/flakegate/flakegate/core/history"
	"github.com/flakegate/flakegate/core/jsonscan"
	"github.com/flakegate/flakegate/core/report"
	"github.com/flakegate/flakegate/share"
)

// HistoryShare is the shareable state of a history (share.HistoryState);
// a link carries it as "history=" + base64url(DEFLATE(JSON)).
type HistoryShare = share.HistoryState

// maxHistoryShareTests bounds the tests and incidents a link may list, so
// that a crafted link cannot make the page build an endless table.
const maxHistoryShareTests = 20_000

// DecodeHistoryShare reverses share.History's fragment value. It refuses
// an unknown field, another version, and figures no history could give
// (a rate outside [0,1], more failures than runs, a flaky test without
// its first failure), so the view never shows a wrong number or fails.
func DecodeHistoryShare(text string) (*history.Result, error) {
	raw, err := share.Unpack(text)
	if err != nil {
		return nil, err
	}
	var s HistoryShare
	if err := decodeState(raw, &s); err != nil {
		return nil, err
	}
	if s.Version != 1 {
		return nil, fmt.Errorf("share data: unknown version %d", s.Version)
	}
	r := s.Result
	if err := checkHistoryShare(r); err != nil {
		return nil, fmt.Errorf("share data: %v", err)
	}
	return r, nil
}

// decodeState reads a link's JSON state into v: one JSON value in the
// grammar of every link (core/jsonscan: no key twice, no NaN, UTF-8 only,
// nothing after it), no field v does not have.
func decodeState(raw []byte, v any) error {
	if err := jsonscan.Check(raw, "share"); err != nil {
		return fmt.Errorf("share data: %w", err)
	}
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

func checkHistoryShare(r *history.Result) error {
	frac := func(v float64) bool { return v >= 0 && v <= 1 }
	switch {
	case r == nil:
		return errors.New("no result")
	case r.Runs < 1 || r.Tests < 0 || r.Results < 0 || r.Flaky < 0 || r.Naive < 0:
		return fmt.Errorf("%d runs of %d tests", r.Runs, r.Tests)
	case len(r.Flakes)+len(r.Broken) > maxHistoryShareTests || len(r.Incidents) > maxHistoryShareTests:
		return fmt.Errorf("more than %d tests or incidents", maxHistoryShareTests)
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

// historyFile is one dropped file: its name and a function that reads it
// whole (at most max bytes, else an error).
type historyFile struct {
	name string
	read func(max int64) ([]byte, error)
}

// readHistory reads dropped reports (each one run) and zip archives (each
// report file in them one run, in the order of their names, as flakegate
// history reads an archive) into a history, within history's bounded-read
// limits, the ones /v1/history applies.
func readHistory(files []historyFile, format string) (*history.History, error) {
	h := history.New()
	h.SetLimits(history.MaxReadTests, history.MaxReadRunCells)
	left := int64(history.MaxReadUnzippedBytes) // report bytes, over the drop
	tooLarge := func(name string) error {
		return &core.Error{Kind: core.TooLarge, File: name,
			Msg: fmt.Sprintf("the reports dropped at once are over %d MiB: run the CLI (flakegate history), which has no such limit", history.MaxReadUnzippedBytes>>20)}
	}
	run := func(name string, data []byte) error {
		if h.Runs() >= history.MaxReadRuns {
			return &core.Error{Kind: core.TooLarge, File: name,
				Msg: fmt.Sprintf("over %s runs: run the CLI (flakegate history), which has no such limit", "10,000")}
		}
		meta := history.RunMeta{Name: name, File: name}
		if err := h.ReadRun(meta, bytes.NewReader(data), report.Options{Format: format}); err != nil {
			return core.WithFile(err, name)
		}
		if h.Results() > history.MaxReadResults {
			return &core.Error{Kind: core.TooLarge, File: name,
				Msg: "over 2,000,000 test results (a test in a run): run the CLI (flakegate history), which has no such limit"}
		}
		return nil
	}
	for _, f := range files {
		data, err := f.read(left)
		if err != nil {
			return nil, err
		}
		if !bytes.HasPrefix(data, []byte("PK\x03\x04")) {
			left -= int64(len(data))
			if err := run(f.name, data); err != nil {
				return nil, err
			}
			continue
		}
		z, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
		if err != nil {
			return nil, &core.Error{Kind: core.Invalid, File: f.name, Msg: history.ZipProblem(err)}
		}
		for _, e := range history.ReportEntries(z) {
			name := f.name + ":" + e.Name
			if e.UncompressedSize64 > uint64(left) {
				return nil, tooLarge(name)
			}
			rc, err := e.Open()
			if err != nil {
				return nil, &core.Error{Kind: core.Invalid, File: name, Msg: history.ZipProblem(err)}
			}
			b, err := io.ReadAll(io.LimitReader(rc, left+1))
			rc.Close()
			switch {
			case err != nil && history.IsZipError(err) || errors.Is(err, io.ErrUnexpectedEOF):
				return nil, &core.Error{Kind: core.Invalid, File: name, Msg: history.ZipProblem(err)}
			case err != nil:
				return nil, err
			case int64(len(b)) > left:
				return nil, tooLarge(name)
			}
			left -= int64(len(b))
			if err := run(name, b); err != nil {
				return nil, err
			}
		}
	}
	if h.Runs() == 0 {
		return nil, &core.Error{Kind: core.Invalid, Msg: "no report files: drop the runs' reports (" + strings.Join(history.ReportExts, ", ") + ") or a zip archive of them"}
	}
	return h, nil
}
