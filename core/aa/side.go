package aa

import (
	"fmt"
	"hash/maphash"
	"unicode/utf8"

	"github.com/flakegate/flakegate/core"
	"github.com/flakegate/flakegate/core/stat"
)

// Tally counts the passes of one scenario or one run.
type Tally struct {
	ID     string `json:"id"`
	Passed int64  `json:"passed"` // in [0, Total]
	Total  int64  `json:"total"`  // rows seen
}

// Side is what an A/A computation needs of one CSV: its sufficient
// statistics. Scenarios and Runs are in order of first appearance; run order
// is the order in which a run id first appears.
type Side struct {
	Scenarios  []Tally `json:"scenarios"`
	Runs       []Tally `json:"runs"`
	Rows       int64   `json:"rows"`
	Duplicates int64   `json:"duplicates"` // rows repeating a (scenario, run) pair
}

// checkTallies checks that a side's tallies are consistent, which ReadCSV
// guarantees but a side decoded from elsewhere (a share link, JSON) may not,
// and returns its scenario index.
func checkTallies(name string, s *Side) (map[string]int, error) {
	if err := checkCounts(name, s); err != nil {
		return nil, err
	}
	idx := make(map[string]int, len(s.Scenarios))
	for i, t := range s.Scenarios {
		idx[t.ID] = i
	}
	return idx, nil
}

// checkCounts is checkTallies without the index, which a map of 10,000 ids
// would make the largest allocation of a check.
func checkCounts(name string, s *Side) error {
	bad := func(format string, args ...any) error {
		return core.FieldErrorf(name, format, args...)
	}
	if s.Rows < 0 || s.Duplicates < 0 || s.Duplicates > s.Rows {
		return bad("row counts out of range: %d rows, %d duplicates", s.Rows, s.Duplicates)
	}
	seen := newIDSet(max(len(s.Scenarios), len(s.Runs)))
	var sum [2]struct{ rows, passes int64 }
	for g, what := range [2]string{"scenario", "run"} {
		ts := s.Scenarios
		if g == 1 {
			ts, seen = s.Runs, seen.reset()
		}
		for i, t := range ts {
			if err := checkTally(t); err != nil {
				return bad("%s %q: %v", what, t.ID, err)
			}
			if t.Total == 0 {
				return bad("%s %q has no rows", what, t.ID)
			}
			if seen.add(ts, i) {
				return bad("%s %q is listed twice", what, t.ID)
			}
			sum[g].rows, sum[g].passes = sum[g].rows+t.Total, sum[g].passes+t.Passed
		}
	}
	if sum[0].rows != s.Rows || sum[1].rows != s.Rows || sum[0].passes != sum[1].passes {
		return bad("tallies disagree: %d rows, %d counted by scenario and %d by run, %d passes by scenario and %d by run",
			s.Rows, sum[0].rows, sum[1].rows, sum[0].passes, sum[1].passes)
	}
	return nil
}

// idSet is a set of tallies' ids: an open addressing table of indices into
// the tallies being checked, a quarter of the memory of a map[string]bool.
type idSet struct {
	seed  maphash.Seed
	slots []uint32 // index + 1; 0 for an empty slot. len a power of two
}

// newIDSet makes a set for up to n ids, at most half full.
func newIDSet(n int) *idSet {
	size := 8
	for size < 2*n {
		size *= 2
	}
	return &idSet{seed: maphash.MakeSeed(), slots: make([]uint32, size)}
}

// reset empties the set.
func (s *idSet) reset() *idSet {
	clear(s.slots)
	return s
}

// add adds ts[i]'s id and reports whether an earlier tally of ts had it.
func (s *idSet) add(ts []Tally, i int) bool {
	id := ts[i].ID
	mask := uint64(len(s.slots) - 1)
	for j := maphash.String(s.seed, id) & mask; ; j = (j + 1) & mask {
		k := s.slots[j]
		if k == 0 {
			s.slots[j] = uint32(i + 1)
			return false
		}
		if ts[k-1].ID == id {
			return true
		}
	}
}

func checkTally(t Tally) error {
	if !utf8.ValidString(t.ID) {
		return fmt.Errorf("id is not valid UTF-8")
	}
	// 2^50 rows keeps every sum of totals exact and far from overflow.
	if t.Total < 0 || t.Passed < 0 || t.Passed > t.Total || t.Total > 1<<50 {
		return fmt.Errorf("%d passed of %d rows is out of range", t.Passed, t.Total)
	}
	return nil
}

// checkTwoRows reports the first scenario with fewer than two rows, which the
// unbiased q(1-q) cannot use.
func checkTwoRows(scen []Tally) error {
	first, count := -1, 0
	for i, t := range scen {
		if t.Total < 2 {
			if first < 0 {
				first = i
			}
			count++
		}
	}
	if first < 0 {
		return nil
	}
	t := scen[first]
	msg := fmt.Sprintf("scenario %q has %s: every scenario needs rows from at least two runs", t.ID, core.Nouns(t.Total, "row"))
	if count > 1 {
		msg += fmt.Sprintf(" (%d more scenarios have fewer than two)", count-1)
	}
	return &core.Error{Kind: core.Unusable, Field: "baseline", Msg: msg}
}

// checkSide rejects a side whose tallies cannot come from a CSV, with the
// A/A check's own checks and messages, and counts too large for the exact
// integer arithmetic here. A baseline (needTwo) also needs two runs and two
// rows of every scenario; a candidate may have a single run.
func checkSide(field string, s *Side, needTwo bool) error {
	if s == nil {
		return core.FieldErrorf(field, "is missing")
	}
	if err := checkCounts(field, s); err != nil {
		return err
	}
	if len(s.Scenarios) == 0 {
		return &core.Error{Kind: core.Unusable, Field: field, Msg: "has no rows"}
	}
	for _, t := range s.Scenarios {
		if t.Total > maxTally {
			return core.FieldErrorf(field, "scenario %q has %d rows, more than the %d this analysis handles", t.ID, t.Total, int64(maxTally))
		}
	}
	for _, t := range s.Runs {
		if t.Total > maxTally {
			return core.FieldErrorf(field, "run %q has %d rows, more than the %d this analysis handles", t.ID, t.Total, int64(maxTally))
		}
	}
	if !needTwo {
		return nil
	}
	if len(s.Runs) < 2 {
		return &core.Error{Kind: core.Unusable, Field: field, Msg: "needs at least two runs, found 1"}
	}
	return checkTwoRows(s.Scenarios) // names the baseline, the only side checked here
}

// maxTally bounds counts so that products of two of them stay exact in
// int64 and in float64.
const maxTally = 1 << 26

// runRates returns each run's pass rate in run order.
func runRates(s *Side) []float64 {
	r := make([]float64, len(s.Runs))
	for i, t := range s.Runs {
		r[i] = float64(t.Passed) / float64(t.Total)
	}
	return r
}

// unbiasedV is v, the mean over scenarios of the unbiased q(1-q): each
// scenario's len/(len-1)·q·(1-q), summed exactly, over the scenarios.
func unbiasedV(s *Side) float64 {
	var vs stat.Sum
	for _, t := range s.Scenarios {
		l := float64(t.Total)
		q := float64(t.Passed) / l
		vs.Add(float64(float64(l/(l-1)*q) * (1 - q)))
	}
	return vs.Sum() / float64(len(s.Scenarios))
}

func equalRunSizes(s *Side) bool {
	for _, t := range s.Runs {
		if t.Total != s.Runs[0].Total {
			return false
		}
	}
	return true
}
