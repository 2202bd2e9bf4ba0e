package history

import (
	"cmp"
	"github.com/flakegate/flakegate/core/internal/sorts"
	"hash/fnv"
	"slices"
	"strings"
	"time"

	"github.com/flakegate/flakegate/core"
	"github.com/flakegate/flakegate/core/gate"
)

// Test statuses.
const (
	StatusFlaky   = "flaky"   // failed and passed outside incidents, not in one stretch
	StatusBroken  = "broken"  // its failures are one stretch of BrokenStreak runs or more, no flip on one commit
	StatusFailing = "failing" // failed in every run it had outside incidents
)

// Incident kinds.
const (
	IncidentOutage = "outage" // one run in which too many tests failed at once
	IncidentGroup  = "group"  // tests that failed in exactly the same runs, at least twice
)

// Trend directions.
const (
	TrendWorse  = "worse"  // fails more in the recent half (Fisher p < 0.05)
	TrendBetter = "better" // fails less in the recent half
	TrendSteady = "steady" // no difference the test can show
)

// Options say how Result decides. The zero value is not valid: start from
// DefaultOptions.
type Options struct {
	// Alpha is the chance, over the whole history, of calling one healthy
	// run an outage, in (0,1).
	Alpha float64
	// MinOutageTests is the fewest failed tests an outage run has, >= 2.
	MinOutageTests int64
	// BrokenStreak is the shortest unbroken stretch of failing runs that
	// makes a test broken rather than flaky when it is its only failure,
	// >= 2.
	BrokenStreak int64
	// KeepIncidents counts the incidents' failures in per-test rates.
	KeepIncidents bool
	// Confidence of the Wilson intervals and the quarantine claims, in (0,1).
	Confidence float64
	// Budget sets the rerun budgets' target, cap, cost per run and runner;
	// its Rates and Observed are ignored.
	Budget gate.BudgetInput
	// Today dates the quarantine claims, YYYY-MM-DD; empty: the day of the
	// last run with a time, or no date.
	Today string
	// TrendAlpha is the two-sided level of the trend test, in (0,1).
	TrendAlpha float64
}

// DefaultOptions: 1% chance over the history to call a healthy run an
// outage, outages of 5 tests or more, broken at 3 failing runs in a row,
// 95% intervals, flakegate's default budget, trend at 5%.
var DefaultOptions = Options{Alpha: 0.01, MinOutageTests: 5, BrokenStreak: 3,
	Confidence: core.DefaultConfidence, Budget: gate.DefaultBudgetInput, TrendAlpha: 0.05}

// RunRef names one run.
type RunRef struct {
	Index int    `json:"index"` // 1-based position in time order (or the order given)
	Run   string `json:"run"`
	Time  string `json:"time,omitempty"` // RFC 3339, when known
}

// Incident is an outage run or a group of tests failing together, and the
// evidence for it.
type Incident struct {
	Kind string   `json:"kind"` // IncidentOutage or IncidentGroup
	Runs []RunRef `json:"runs"`
	// FailedTests is the number of tests that failed in it (for a group:
	// the group's tests).
	FailedTests int64 `json:"failed_tests"`
	// RunTests is the number of tests that ran in the run (outage), or the
	// group's size (group).
	RunTests int64 `json:"run_tests"`
	// Expected is the failed tests a healthy run of that size has on
	// average (outage); 0 for a group.
	Expected float64 `json:"expected"`
	// PValue is the binomial upper tail of FailedTests (outage), in [0,1];
	// for a group, the chance that the tests, failing independently at
	// their own rates, failed together in every one of the runs (an upper
	// bound: the product over runs of the least of their rates).
	PValue float64  `json:"p_value"`
	Tests  []string `json:"tests"` // the failed tests, sorted, at most MaxIncidentTests
	// Commit and Branch of the run, when known (outage).
	Commit string `json:"commit,omitempty"`
	Branch string `json:"branch,omitempty"`
}

// MaxIncidentTests is the most test names an incident lists.
const MaxIncidentTests = 20

// Trend compares the recent half of a test's runs with the earlier half.
type Trend struct {
	EarlierFailures int64   `json:"earlier_failures"`
	EarlierRuns     int64   `json:"earlier_runs"`
	RecentFailures  int64   `json:"recent_failures"`
	RecentRuns      int64   `json:"recent_runs"`
	PValue          float64 `json:"p_value"`   // Fisher's exact test, two-sided, in [0,1]
	Direction       string  `json:"direction"` // TrendWorse, TrendBetter or TrendSteady
}

// TestHistory is one test's record outside the incidents (or with them,
// under KeepIncidents).
type TestHistory struct {
	Test     string  `json:"test"`
	Status   string  `json:"status"`
	Runs     int64   `json:"runs"`     // runs in which it ran
	Failures int64   `json:"failures"` // runs in which an attempt failed, in [0, Runs]
	Rate     float64 `json:"rate"`     // Failures/Runs in [0,1]
	Lower    float64 `json:"lower"`    // Wilson lower bound in [0,1]
	Upper    float64 `json:"upper"`    // Wilson upper bound in [0,1]
	// IncidentFailures counts its failures in incidents, left out of
	// Failures (or counted in them under KeepIncidents).
	IncidentFailures int64 `json:"incident_failures"`
	// SameCommitFlips counts the commits (or single runs, where the commit is
	// not known) on which it both failed and passed.
	SameCommitFlips int64 `json:"same_commit_flips"`
	// Flips counts changes between failed and passed from one of its runs to
	// the next, in time order; FlipRate is Flips/(Runs-1), in [0,1].
	Flips         int64   `json:"flips"`
	FlipRate      float64 `json:"flip_rate"`
	LongestStreak int64   `json:"longest_streak"` // most failing runs in a row
	FirstFailure  *RunRef `json:"first_failure"`
	LastFailure   *RunRef `json:"last_failure"`
	Trend         Trend   `json:"trend"`
	// RunSeconds is the mean seconds of its attempts, where the reports
	// give them (go test -json Elapsed, JUnit time), >= 0; null when none
	// did.
	RunSeconds *float64 `json:"run_seconds"`
	// CostSeconds is Rate times its run time: its own mean run time where
	// the reports give one, else the runner seconds of a run given as the
	// cost; what its failures cost a run on average, >= 0; null when
	// neither is known.
	CostSeconds *float64 `json:"cost_seconds"`
	// CostBasis says which run time the cost used: "reported" (its own
	// mean, run_seconds), "given" (the runner seconds given), or "" (no
	// cost).
	CostBasis string `json:"cost_basis"`
	// Lane and Reruns are its rerun budget, planned against Upper.
	Lane       string  `json:"lane"`
	Reruns     *int64  `json:"reruns"`
	PowerAtCap float64 `json:"power_at_cap"` // in [0,1]
	OverCap    bool    `json:"over_cap"`     // Reruns > the cap: the gate cannot see this flake
	// Claim is the pass rate a quarantine of it would freeze today.
	Claim gate.Claim `json:"claim"`
}

// Result is the answer for a history.
type Result struct {
	Runs    int   `json:"runs"`
	Tests   int   `json:"tests"`
	Results int64 `json:"results"` // test results read (one per test per run)
	// Order is "time" when the runs were put in time order, "given" when
	// they kept the order they came in.
	Order string `json:"order"`
	// Flaky counts the tests flagged flaky; Naive counts those the naive
	// rule (failed and passed at least once, incidents included) flags.
	Flaky         int  `json:"flaky"`
	Naive         int  `json:"naive"`
	KeptIncidents bool `json:"kept_incidents"`
	// Target, Cap and CostSeconds are the rerun budgets' settings;
	// Confidence is the intervals' and the claims', in (0,1).
	Confidence   float64  `json:"confidence"`
	Target       float64  `json:"target"`
	Cap          int64    `json:"cap"`
	CostSeconds  *float64 `json:"cost_seconds"`
	BaselineRate float64  `json:"baseline_rate"` // failed share of tests in healthy runs, in [0,1]
	// OutageThreshold is the binomial tail below which a run is an outage:
	// Alpha over the number of runs.
	OutageThreshold float64       `json:"outage_threshold"`
	Incidents       []Incident    `json:"incidents"`
	Flakes          []TestHistory `json:"flakes"` // costliest first: by rate, then name
	Broken          []TestHistory `json:"broken"` // broken and failing tests, by name
	Warnings        []string      `json:"warnings"`
	// Link is the address of the calculator view that reproduces this
	// result; empty without a site. LinkNote says why there is none when
	// the result is too large for a link.
	Link     string `json:"link,omitempty"`
	LinkNote string `json:"link_note,omitempty"`
	// seen keeps what Past reads again.
	seen *seen
}

// Check validates o: a *core.Error naming the setting at fault.
func (o Options) Check() error {
	if !(o.Alpha > 0 && o.Alpha < 1) {
		return core.FieldErrorf("alpha", "must be in (0,1), got %v", o.Alpha)
	}
	if !(o.TrendAlpha > 0 && o.TrendAlpha < 1) {
		return core.FieldErrorf("trend_alpha", "must be in (0,1), got %v", o.TrendAlpha)
	}
	if o.MinOutageTests < 2 {
		return core.FieldErrorf("min_outage_tests", "must be at least 2, got %d", o.MinOutageTests)
	}
	if o.BrokenStreak < 2 {
		return core.FieldErrorf("broken_streak", "must be at least 2, got %d", o.BrokenStreak)
	}
	if err := core.CheckConfidence(o.Confidence); err != nil {
		return err
	}
	if o.Today != "" {
		if _, err := time.Parse(time.DateOnly, o.Today); err != nil {
			return core.FieldErrorf("today", "must be YYYY-MM-DD, got %q", o.Today)
		}
	}
	return o.Budget.CheckSettings()
}

// Result decides which tests are flaky and which runs were incidents (see
// the package doc). A history without runs is core.Unusable.
func (h *History) Result(o Options) (*Result, error) {
	if err := o.Check(); err != nil {
		return nil, err
	}
	if len(h.runs) == 0 {
		return nil, &core.Error{Kind: core.Unusable, Msg: "no runs to read a history from"}
	}
	res := &Result{Runs: len(h.runs), Tests: len(h.tests), Results: h.results, KeptIncidents: o.KeepIncidents,
		Confidence: o.Confidence, Target: o.Budget.Target, Cap: o.Budget.Cap, CostSeconds: o.Budget.CostSeconds,
		Incidents: []Incident{}, Flakes: []TestHistory{}, Broken: []TestHistory{}, Warnings: slices.Clone(h.notes)}
	order := h.order(res)
	if o.Today == "" {
		for _, r := range h.runs {
			if t := r.meta.Time; !t.IsZero() && t.Format(time.DateOnly) > o.Today {
				o.Today = t.Format(time.DateOnly)
			}
		}
	}
	pos := make([]int32, len(h.runs)) // run -> position in order
	for i, r := range order {
		pos[r] = int32(i)
	}
	ref := func(r int32) RunRef {
		m := h.runs[r].meta
		rr := RunRef{Index: int(pos[r]) + 1, Run: m.Name}
		if !m.Time.IsZero() {
			rr.Time = m.Time.Format(time.RFC3339Nano)
		}
		return rr
	}

	outage, p0 := h.outages(o)
	res.BaselineRate = p0
	res.OutageThreshold = o.Alpha / float64(len(h.runs))
	for _, r := range order {
		if !outage[r] {
			continue
		}
		rec := h.runs[r]
		inc := Incident{Kind: IncidentOutage, Runs: []RunRef{ref(r)}, FailedTests: int64(rec.failing),
			RunTests: int64(rec.tests), Expected: float64(rec.tests) * p0,
			PValue: binomialTail(int64(rec.failing), int64(rec.tests), p0), Tests: []string{},
			Commit: rec.meta.Commit, Branch: rec.meta.Branch}
		for _, t := range h.tests {
			if t.outcome(r)&1 != 0 {
				inc.Tests = append(inc.Tests, t.name)
			}
		}
		slices.Sort(inc.Tests)
		inc.Tests = inc.Tests[:min(len(inc.Tests), MaxIncidentTests)]
		res.Incidents = append(res.Incidents, inc)
	}

	groups := h.groups(outage, order, o.BrokenStreak)
	excluded := make(map[int32][]int32) // test -> its group's runs
	for _, g := range groups {
		inc := Incident{Kind: IncidentGroup, Runs: []RunRef{}, FailedTests: int64(len(g.tests)), RunTests: int64(len(g.tests)), Tests: []string{}, PValue: 1}
		for _, r := range g.runs {
			inc.Runs = append(inc.Runs, ref(r))
		}
		minRate := 1.0
		for _, t := range g.tests {
			excluded[t] = g.runs
			inc.Tests = append(inc.Tests, h.tests[t].name)
			f, n := h.counts(t, outage)
			minRate = min(minRate, float64(f)/float64(n))
		}
		for range g.runs {
			inc.PValue = float64(inc.PValue * minRate)
		}
		slices.Sort(inc.Tests)
		inc.Tests = inc.Tests[:min(len(inc.Tests), MaxIncidentTests)]
		res.Incidents = append(res.Incidents, inc)
	}

	res.seen = &seen{h: h, outage: outage, excluded: excluded, order: order, ref: ref}
	for i, t := range h.tests {
		th, naive := h.testHistory(int32(i), t, order, outage, excluded[int32(i)], o, ref)
		if naive {
			res.Naive++
		}
		switch th.Status {
		case StatusFlaky:
			if err := h.plan(&th, o); err != nil {
				return nil, err
			}
			res.Flakes = append(res.Flakes, th)
		case StatusBroken, StatusFailing:
			res.Broken = append(res.Broken, th)
		}
	}
	res.Flaky = len(res.Flakes)
	sorts.Func(res.Flakes, func(a, b TestHistory) int {
		// Rates compared exactly: a.Failures/a.Runs vs b.Failures/b.Runs.
		if c := cmp.Compare(b.Failures*a.Runs, a.Failures*b.Runs); c != 0 {
			return c
		}
		return cmp.Compare(a.Test, b.Test)
	})
	sorts.Func(res.Broken, func(a, b TestHistory) int { return cmp.Compare(a.Test, b.Test) })
	switch n := int64(len(h.runs)); {
	case n == 1:
		res.Warnings = append(res.Warnings, "only 1 run: a test that fails some of the time may not have failed yet, and none can be told flaky")
	case n < 20:
		res.Warnings = append(res.Warnings, "only "+words(n)+" runs: a flake rarer than 1 in "+words(n)+" may not have failed yet")
	}
	return res, nil
}

// order is the runs in time order when all have a time, else as given.
func (h *History) order(res *Result) []int32 {
	order := make([]int32, len(h.runs))
	timed := 0
	for i := range order {
		order[i] = int32(i)
		if !h.runs[i].meta.Time.IsZero() {
			timed++
		}
	}
	if timed < len(h.runs) {
		res.Order = "given"
		if timed > 0 {
			res.Warnings = append(res.Warnings, words(int64(len(h.runs)-timed))+" of "+words(int64(len(h.runs)))+" runs have no time: the runs are kept in the order given, not sorted by time (a manifest's time column gives every run one)")
		}
		return order
	}
	res.Order = "time"
	sorts.Stable(order, func(a, b int32) int { return h.runs[a].meta.Time.Compare(h.runs[b].meta.Time) })
	return order
}

// outages flags the outage runs: iteratively, with the pooled failed
// share of the runs not flagged as the healthy rate.
func (h *History) outages(o Options) ([]bool, float64) {
	out := make([]bool, len(h.runs))
	thr := o.Alpha / float64(len(h.runs))
	var p0 float64
	for iter := 0; iter < 50; iter++ {
		var k, n int64
		for i, r := range h.runs {
			if !out[i] {
				k += int64(r.failing)
				n += int64(r.tests)
			}
		}
		p0 = 0
		if n > 0 {
			p0 = float64(k) / float64(n)
		}
		changed := false
		for i, r := range h.runs {
			f := int64(r.failing) >= o.MinOutageTests && binomialTail(int64(r.failing), int64(r.tests), p0) < thr
			if f != out[i] {
				out[i], changed = f, true
			}
		}
		if !changed {
			break
		}
	}
	return out, p0
}

type group struct {
	tests []int32
	runs  []int32 // in time order
}

// groups finds tests that failed, outside outage runs, in exactly the same
// runs (at least two) and nowhere else. Tests whose shared runs are one
// unbroken stretch of at least streak runs (every run of theirs between
// the first and the last failed) are not a group: one commit broke them
// and one fixed them, a shared regression each test's record calls
// broken.
func (h *History) groups(outage []bool, order []int32, streak int64) []group {
	type key struct {
		sum uint64
		n   int
	}
	byKey := map[key][]int32{}
	var keys []key
	fails := make([][]int32, len(h.tests))
	for i, t := range h.tests {
		var runs []int32
		for _, r := range order {
			if !outage[r] && t.outcome(r)&1 != 0 {
				runs = append(runs, r)
			}
		}
		if len(runs) < 2 {
			continue
		}
		fails[i] = runs
		f := fnv.New64a()
		var b [4]byte
		for _, r := range runs {
			b[0], b[1], b[2], b[3] = byte(r), byte(r>>8), byte(r>>16), byte(r>>24)
			f.Write(b[:])
		}
		k := key{f.Sum64(), len(runs)}
		if _, ok := byKey[k]; !ok {
			keys = append(keys, k)
		}
		byKey[k] = append(byKey[k], int32(i))
	}
	var out []group
	for _, k := range keys {
		ts := byKey[k]
		// Split by the exact run lists: a hash may join different ones.
		for len(ts) > 0 {
			first := fails[ts[0]]
			var same, rest []int32
			for _, t := range ts {
				if slices.Equal(fails[t], first) {
					same = append(same, t)
				} else {
					rest = append(rest, t)
				}
			}
			if len(same) >= 2 && !h.oneFamily(same) && h.passedSomewhere(same[0], outage) && !h.oneStretch(same[0], first, outage, order, streak) {
				out = append(out, group{tests: same, runs: first})
			}
			ts = rest
		}
	}
	return out
}

// oneStretch reports whether runs, the failed runs of test t in time
// order, are at least streak runs and every run of t outside the outages
// from the first of them to the last is among them.
func (h *History) oneStretch(t int32, runs []int32, outage []bool, order []int32, streak int64) bool {
	if int64(len(runs)) < streak {
		return false
	}
	acc := h.tests[t]
	in, seen := false, 0
	for _, r := range order {
		if r == runs[0] {
			in = true
		}
		if !in || outage[r] || acc.outcome(r) == 0 {
			continue
		}
		if acc.outcome(r)&1 == 0 {
			return false // a run of t between its first and last failure passed
		}
		if seen++; seen == len(runs) {
			return true
		}
	}
	return false
}

// oneFamily reports whether the tests are one test and its subtests (a
// parent fails whenever a subtest does: one failure, not a shared cause).
func (h *History) oneFamily(ts []int32) bool {
	root := h.tests[ts[0]].name
	for _, t := range ts[1:] {
		if n := h.tests[t].name; len(n) < len(root) {
			root = n
		}
	}
	for _, t := range ts {
		if n := h.tests[t].name; n != root && !strings.HasPrefix(n, root+"/") {
			return false
		}
	}
	return true
}

// passedSomewhere reports whether t passed in a run outside the outages:
// tests that failed in every run they had are failing, not failing
// together by chance of a shared cause.
func (h *History) passedSomewhere(t int32, outage []bool) bool {
	f, n := h.counts(t, outage)
	return f < n
}

// counts is test t's failed runs and runs outside outage runs.
func (h *History) counts(t int32, outage []bool) (fails, runs int64) {
	acc := h.tests[t]
	for r := acc.first; int(r) < len(h.runs); r++ {
		if outage[r] {
			continue
		}
		switch acc.outcome(r) {
		case 0:
		case 2:
			runs++
		default:
			runs++
			fails++
		}
	}
	return fails, runs
}

// The CostBasis of a test's cost.
const (
	CostReported = "reported" // its own mean run time, from the reports
	CostGiven    = "given"    // the runner seconds of a run, as given
)
