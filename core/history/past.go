package history

import "time"

// Past is one test's record in a history as Result counted it, for
// judging a new run's failure of it against it.
type Past struct {
	Test string `json:"test"`
	// Runs and Failures are its runs and failed runs outside the
	// incidents (as TestHistory's), Failures in [0, Runs].
	Runs     int64 `json:"runs"`
	Failures int64 `json:"failures"`
	// IncidentFailures are its failures in outage runs and groups.
	IncidentFailures int64 `json:"incident_failures"`
	// Streak is its failed runs in a row at the end of its record, outside
	// the incidents, in [0, Failures]; StreakFrom the first of them and
	// StreakCommit its commit (nil and "" when Streak is 0).
	Streak       int64   `json:"streak"`
	StreakFrom   *RunRef `json:"streak_from"`
	StreakCommit string  `json:"streak_commit,omitempty"`
	// PassedBefore says whether it passed in a run before the streak. A run
	// in which it failed and a retry passed ends a streak.
	PassedBefore bool `json:"passed_before"`
}

// seen is what Result found that Past reads again: the outage runs, the
// groups' runs per test, and the order of the runs.
type seen struct {
	h        *History
	outage   []bool
	excluded map[int32][]int32
	order    []int32
	ref      func(int32) RunRef
}

// Past is test's record in h as res (h's Result) counted it; false when
// the test never ran in h or res is not h's.
func (h *History) Past(res *Result, test string) (Past, bool) {
	i, ok := h.byName[test]
	if !ok || res == nil || res.seen == nil || res.seen.h != h {
		return Past{}, false
	}
	s, t := res.seen, h.tests[i]
	inGroup := map[int32]bool{}
	for _, r := range s.excluded[i] {
		inGroup[r] = true
	}
	p := Past{Test: test}
	var from int32 = -1
	for _, r := range s.order {
		oc := t.outcome(r)
		if oc == 0 {
			continue
		}
		failed := oc&1 != 0
		if s.outage[r] || inGroup[r] {
			if failed {
				p.IncidentFailures++
			}
			continue
		}
		p.Runs++
		if failed {
			p.Failures++
		}
		if oc&2 != 0 {
			// It passed in the run (a retry that passed is a pass too: no
			// stretch of breakage runs through it).
			p.PassedBefore = true
			p.Streak, from = 0, -1
			continue
		}
		if p.Streak == 0 {
			from = r
		}
		p.Streak++
	}
	if from >= 0 {
		ref := s.ref(from)
		p.StreakFrom = &ref
		p.StreakCommit = h.runs[from].meta.Commit
	}
	return p, true
}

// OutageTail is the chance that a run of tests tests, whose failures are
// independent with expected failures in all, has failed or more of them
// failing: at most the binomial tail of Binomial(tests, expected/tests)
// (Hoeffding 1956, as for the history's outage runs), in [0,1].
func OutageTail(failed, tests int64, expected float64) float64 {
	if tests <= 0 {
		return 1
	}
	return binomialTail(failed, tests, min(1, max(0, expected/float64(tests))))
}

// PassedOn says whether test passed in a run of h on commit (any run, an
// incident's included: a pass is a pass), and which run; false when
// commit is "" or never ran.
func (h *History) PassedOn(res *Result, test, commit string) (RunRef, bool) {
	i, ok := h.byName[test]
	c, known := h.commits[commit]
	if !ok || !known || commit == "" || res == nil || res.seen == nil || res.seen.h != h {
		return RunRef{}, false
	}
	t := h.tests[i]
	for _, r := range res.seen.order {
		if h.runs[r].commit == c && t.outcome(r)&2 != 0 {
			return res.seen.ref(r), true
		}
	}
	return RunRef{}, false
}

// RunsSince counts the runs of test in h on day or after (YYYY-MM-DD,
// by each run's time in UTC; runs without a time are not counted) and
// those in which it failed, incidents included: the evidence a quarantine
// opened that day has gathered.
func (h *History) RunsSince(test, day string) (runs, failed int64) {
	i, ok := h.byName[test]
	if !ok {
		return 0, 0
	}
	t := h.tests[i]
	// A run is on day or after when its UTC date, formatted, is not before
	// day: for a date Go can parse that is its time not before day's
	// midnight in UTC, compared without formatting each run's time.
	// (Parse takes four-digit years only, which order as their strings do.)
	from, err := time.Parse(time.DateOnly, day)
	byTime := err == nil
	for r := t.first; int(r) < len(h.runs); r++ {
		oc := t.outcome(r)
		tm := h.runs[r].meta.Time
		if oc == 0 || tm.IsZero() {
			continue
		}
		if u := tm.UTC(); byTime && u.Year() >= 0 && u.Year() <= 9999 {
			if u.Before(from) {
				continue
			}
		} else if u.Format(time.DateOnly) < day {
			continue
		}
		runs++
		if oc&1 != 0 {
			failed++
		}
	}
	return runs, failed
}
