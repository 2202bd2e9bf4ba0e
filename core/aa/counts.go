package aa

import (
	"bytes"
	"io"
	"strconv"
	"strings"

	"github.com/flakegate/flakegate/core"
)

// A warehouse reduces an eval history to per-scenario and per-run pass
// counts with a GROUP BY (docs/WAREHOUSE.md gives the SQL); those sums are
// all the A/A check needs, and ReadCounts reads them.

// CSVKind says what a CSV's header makes it: "rows" for the
// scenario,run,passed rows ReadCSV reads, "counts" for the
// scenario,run,passed,trials sums ReadCounts reads, "" for neither.
func CSVKind(head []byte) string {
	head = bytes.TrimPrefix(head, []byte("\xef\xbb\xbf"))
	for len(head) > 0 {
		var line []byte
		line, head, _ = bytes.Cut(head, []byte("\n"))
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		var names []string
		for _, f := range strings.Split(string(line), ",") {
			names = append(names, strings.ToLower(strings.Trim(strings.TrimSpace(f), `"`)))
		}
		return core.KindOf(names, core.CSVKind{Name: "counts", Columns: []string{"scenario", "run", "passed", "trials"}},
			core.CSVKind{Name: "rows", Columns: []string{"scenario", "run", "passed"}})
	}
	return ""
}

// ReadCounts reads an A/A side from pass counts: a CSV whose header names
// scenario, run, passed and trials (any order and letter case). A row with
// a scenario and an empty run is that scenario's passes out of its trials
// over every run; a row with a run and an empty scenario is that run's
// passes out of its trials over every scenario. The two sets must add up to
// the same totals. Rows is the total of trials; Duplicates, which the sums
// cannot show, is 0.
func ReadCounts(r io.Reader) (*Side, error) {
	t := core.NewCSVTable(r, true)
	t.SkipBlank = true
	if err := t.ReadHeader(); err != nil {
		return nil, core.CSVError(err, "malformed CSV in the counts", "the counts CSV is empty", false)
	}
	for _, need := range []string{"scenario", "run", "passed", "trials"} {
		if _, ok := t.Cols[need]; !ok {
			return nil, core.PosErrorf(core.Invalid, 1, 1, "the counts CSV has no %s column: want scenario,run,passed,trials", need)
		}
	}
	side := &Side{Scenarios: []Tally{}, Runs: []Tally{}}
	seenS, seenR := map[string]bool{}, map[string]bool{}
	for line, err := range t.Rows() {
		if err != nil {
			return nil, core.CSVError(err, "malformed CSV in the counts", "the counts CSV is empty", false)
		}
		get := func(name string) string {
			s, _ := t.Field(name)
			return s
		}
		num := func(name string) (int64, error) {
			v, err := strconv.ParseInt(get(name), 10, 64)
			if err != nil || v < 0 {
				c := t.Column(min(t.Cols[name], len(t.Rec)-1))
				return 0, core.PosErrorf(core.Invalid, line, c, "%s must be a whole number >= 0, got %q", name, get(name))
			}
			return v, nil
		}
		passed, err := num("passed")
		if err != nil {
			return nil, err
		}
		trials, err := num("trials")
		if err != nil {
			return nil, err
		}
		if passed > trials || trials == 0 {
			return nil, core.PosErrorf(core.Invalid, line, 1, "passed must lie in [0, trials] and trials be at least 1, got %d of %d", passed, trials)
		}
		scen, run := get("scenario"), get("run")
		var id, what string
		var seen map[string]bool
		var tallies *[]Tally
		switch {
		case scen != "" && run == "":
			id, what, seen, tallies = scen, "scenario", seenS, &side.Scenarios
			side.Rows += trials
		case run != "" && scen == "":
			id, what, seen, tallies = run, "run", seenR, &side.Runs
		default:
			return nil, core.PosErrorf(core.Invalid, line, 1, "a counts row names a scenario or a run, not both nor neither (the GROUP BY of one of them)")
		}
		if seen[id] {
			return nil, core.PosErrorf(core.Invalid, line, 1, "%s %q is counted twice", what, id)
		}
		seen[id] = true
		*tallies = append(*tallies, Tally{ID: id, Passed: passed, Total: trials})
	}
	if err := checkCounts("counts", side); err != nil {
		return nil, err
	}
	return side, nil
}
