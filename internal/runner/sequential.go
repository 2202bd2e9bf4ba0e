package runner

import (
	"bytes"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/flakegate/flakegate/core"
	"github.com/flakegate/flakegate/core/gate"
	"github.com/flakegate/flakegate/core/ledger"
	"github.com/flakegate/flakegate/core/report"
	"github.com/flakegate/flakegate/core/stat"
)

// The sequential stop of a start (docs/STATISTICS.md, "Anytime-valid
// rules"): after each pair of runs (b_i with p_i), every test that ran in
// both is one more pair of the sequential two-arm test (stat.TwoArm),
// looked at then; the start stops once every test has its answer
// (improved, regressed, or no change as large as the planned one), or at
// the plan's N runs per arm. Each claim's error rate holds however many
// pairs are looked at. A pair's outcome for a test is clean or not: the
// run passed it only when every execution in the run passed.

// Sequential verdicts of a test, as the result names them.
const (
	SeqImproved  = stat.SeqImproved
	SeqRegressed = stat.SeqRegressed
	SeqFutile    = stat.SeqFutile
	SeqOpen      = "open" // no answer by the last pair
)

// SeqTest is one test's sequential answer.
type SeqTest struct {
	Test    string `json:"test"`
	Verdict string `json:"verdict"` // improved, regressed, futile or open
	// Pair is the pair at which the answer was reached, from 1; the last
	// pair seen when open.
	Pair     int64 `json:"pair"`
	Pairs    int64 `json:"pairs"`    // pairs the test ran in, both arms, up to its answer
	Baseline int64 `json:"baseline"` // clean baseline runs among them
	Patched  int64 `json:"patched"`  // clean patched runs among them
}

// SeqResult is the sequential test over a ledger's pairs.
type SeqResult struct {
	Baseline float64 `json:"baseline"` // planned pass rate of the baseline, in [0,1]
	Patched  float64 `json:"patched"`  // planned pass rate of the patched arm, in [0,1]
	Alpha    float64 `json:"alpha"`    // error rate of each claim, in (0,1)
	Pairs    int64   `json:"pairs"`    // complete pairs of runs looked at, >= 0
	// Done is whether every test has its answer: the start stopped (or
	// may stop) there.
	Done bool `json:"done"`
	// Counts of the tests by answer.
	Improved  int `json:"improved"`
	Regressed int `json:"regressed"`
	Futile    int `json:"futile"`
	Open      int `json:"open"`
	// Tests are every test the pairs saw in both arms, sorted by name.
	Tests []SeqTest `json:"tests"`
}

// seqTracker follows the sequential test of every test as pairs complete.
type seqTracker struct {
	tw      stat.TwoArm
	runs    map[string]map[string]bool // run id -> test -> clean
	states  map[string]*seqState
	order   []string // tests in order of first pair
	pairs   int64    // complete pairs processed
	pending map[string]bool
}

type seqState struct {
	s       stat.TwoArmState
	verdict string
	at      int64
}

func newSeqTracker(tw stat.TwoArm) *seqTracker {
	return &seqTracker{tw: tw, runs: map[string]map[string]bool{}, states: map[string]*seqState{}}
}

// addLedger adds every run a ledger holds.
func (t *seqTracker) addLedger(l *ledger.Ledger) {
	for _, arm := range []string{ledger.ArmBaseline, ledger.ArmPatched} {
		runs, tests := l.Runs(arm), l.Tests(arm)
		for _, c := range l.Cells(arm) {
			id := runs[c.Run]
			m := t.runs[id]
			if m == nil {
				m = map[string]bool{}
				t.runs[id] = m
			}
			m[tests[c.Test]] = c.Passed == c.Trials
		}
	}
	t.advance()
}

// addRows adds a run from its ledger rows, as the start appends them.
func (t *seqTracker) addRows(rows []byte) error {
	l := ledger.New()
	if err := report.ReadLedger(bytes.NewReader(rows), l); err != nil {
		return err
	}
	t.addLedger(l)
	return nil
}

// advance processes the pairs whose two runs are both in, in order.
func (t *seqTracker) advance() {
	for {
		i := strconv.FormatInt(t.pairs+1, 10)
		b, p := t.runs["b"+i], t.runs["p"+i]
		if b == nil || p == nil {
			return
		}
		t.pairs++
		names := make([]string, 0, len(b))
		for test := range b {
			if _, ok := p[test]; ok {
				names = append(names, test)
			}
		}
		slices.Sort(names)
		for _, test := range names {
			st := t.states[test]
			if st == nil {
				st = &seqState{}
				t.states[test] = st
				t.order = append(t.order, test)
			}
			if st.verdict != "" {
				continue
			}
			st.s = t.tw.Add(st.s, b[test], p[test])
			st.at = t.pairs
			st.verdict = t.tw.Verdict(st.s)
		}
		delete(t.runs, "b"+i)
		delete(t.runs, "p"+i)
	}
}

// result is the tracker's answer so far.
func (t *seqTracker) result() *SeqResult {
	r := &SeqResult{Baseline: t.tw.Baseline, Patched: t.tw.Patched, Alpha: t.tw.Alpha, Pairs: t.pairs, Tests: []SeqTest{}}
	for _, test := range t.order {
		st := t.states[test]
		v := st.verdict
		if v == "" {
			v = SeqOpen
		}
		switch v {
		case SeqImproved:
			r.Improved++
		case SeqRegressed:
			r.Regressed++
		case SeqFutile:
			r.Futile++
		default:
			r.Open++
		}
		r.Tests = append(r.Tests, SeqTest{Test: test, Verdict: v, Pair: st.at, Pairs: st.s.Pairs,
			Baseline: st.s.Baseline, Patched: st.s.Patched})
	}
	slices.SortFunc(r.Tests, func(a, b SeqTest) int { return strings.Compare(a.Test, b.Test) })
	r.Done = t.pairs > 0 && r.Open == 0
	return r
}

// Reason says in a sentence why a sequential start stopped, or that it
// reached its cap with answers still open.
func (r *SeqResult) Reason() string {
	parts := []string{}
	for _, c := range []struct {
		n    int
		what string
	}{{r.Improved, "improved"}, {r.Regressed, "regressed"}, {r.Futile, "no change as large as planned"}, {r.Open, "no answer yet"}} {
		if c.n > 0 {
			parts = append(parts, fmt.Sprintf("%s %s", core.Nouns(c.n, "test"), c.what))
		}
	}
	if r.Done {
		return fmt.Sprintf("every test's answer was known after %s: %s", core.Nouns(int(r.Pairs), "pair"), strings.Join(parts, ", "))
	}
	return fmt.Sprintf("after %s: %s", core.Nouns(int(r.Pairs), "pair"), strings.Join(parts, ", "))
}

// SeqPlan returns the sequential test a start plans with: the first pair of
// rates the sizing tells apart, at the verdict's confidence.
func (o SizingOptions) SeqPlan() (stat.TwoArm, error) {
	for _, p := range o.Pairs {
		if p[0] != p[1] {
			return stat.TwoArm{Baseline: p[0], Patched: p[1], Alpha: 1 - o.Confidence, Weight: stat.DefaultPlanWeight}, nil
		}
	}
	return stat.TwoArm{}, fmt.Errorf("the sequential stop needs a change to plan for: give -separate baseline,patched with two different rates (or -fixed)")
}

// addFile adds the runs of the ledger file at path (a start resumes it).
func (t *seqTracker) addFile(path string) error {
	l, _, err := ReadLedger(path)
	if err != nil {
		return err
	}
	t.addLedger(l)
	return nil
}

// seqPlan sizes the sequential stop of a start of n runs per arm: the
// expected and worst-case runs at the planned rates and at equal arms,
// beside the fixed plan's (gate.SequentialPlan), simulated as often as
// the plan's work bound allows (at most 2,000 experiments).
func seqPlan(n int, o SizingOptions) (*gate.SeqPlan, error) {
	tw, err := o.SeqPlan()
	if err != nil {
		return nil, err
	}
	if n > gate.SeqPlanMaxCap {
		return nil, nil
	}
	in := gate.DefaultSeqPlanInput
	in.Baseline, in.Patched, in.Confidence, in.Target, in.Cap = tw.Baseline, tw.Patched, o.Confidence, o.Target, int64(n)
	in.Simulations = int(min(2000, gate.SeqPlanMaxWork/(2*int64(n))))
	return gate.SequentialPlan(in)
}

// Answers are the verdicts the sequential test gave, by test id, in the
// ledger verdict's words (ledger.Options.Answers): improved, regressed,
// and no-detectable-change for no change as large as planned.
func (r *SeqResult) Answers() map[string]string {
	out := map[string]string{}
	for _, t := range r.Tests {
		switch t.Verdict {
		case SeqImproved:
			out[t.Test] = core.VerdictImproved
		case SeqRegressed:
			out[t.Test] = core.VerdictRegressed
		case SeqFutile:
			out[t.Test] = core.VerdictNoChange
		}
	}
	return out
}
