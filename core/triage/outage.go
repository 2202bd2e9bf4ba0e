package triage

import (
	"slices"
	"strings"

	"github.com/flakegate/flakegate/core/history"
	"github.com/flakegate/flakegate/core/stat"
)

// Suite is the part of a test's name before its last "." or "/" (its
// package, class or file), or "" when there is none.
func Suite(test string) string {
	i := strings.LastIndexAny(test, "./")
	if i < 0 {
		return ""
	}
	return test[:i]
}

// outages judges the run (names its tests, failed those that failed) as
// an outage: first each suite with failures, at level Alpha over the
// suites judged plus one (Bonferroni, the run being the last), then the
// rest of the run (the whole run when no suite is one). A healthy test is
// expected to fail at its own rate in the history when it is a known
// flake, else at the history's healthy share of failed tests. It returns
// which failures the outages explain.
func outages(out *Result, res *history.Result, names, failed []string, o Options) func(string) bool {
	out.Suites = []Outage{}
	rates := map[string]float64{}
	for _, f := range res.Flakes {
		rates[f.Test] = f.Rate
	}
	tests, fails := map[string]int64{}, map[string]int64{}
	expect := map[string][]float64{}
	var suites []string
	for _, n := range names {
		s := Suite(n)
		if tests[s] == 0 {
			suites = append(suites, s)
		}
		tests[s]++
		r, ok := rates[n]
		if !ok {
			r = res.BaselineRate
		}
		expect[s] = append(expect[s], r)
	}
	judged := 0
	for _, n := range failed {
		s := Suite(n)
		if fails[s] == 0 {
			judged++
		}
		fails[s]++
	}
	slices.Sort(suites)
	a := o.History.Alpha / float64(judged+1)
	flagged := map[string]bool{}
	if len(suites) > 1 {
		for _, s := range suites {
			if fails[s] == 0 {
				continue
			}
			ot := judgeOutage(s, fails[s], tests[s], stat.Fsum(expect[s]), a, o)
			if ot.Outage {
				flagged[s] = true
				out.Suites = append(out.Suites, ot)
			}
		}
	}
	// The rest of the run: its tests outside the suites found.
	var rest []float64
	var restFailed, restTests int64
	for _, s := range suites {
		if !flagged[s] {
			rest = append(rest, expect[s]...)
			restFailed += fails[s]
			restTests += tests[s]
		}
	}
	out.Outage = judgeOutage("", restFailed, restTests, stat.Fsum(rest), a, o)
	whole := out.Outage.Outage
	return func(test string) bool { return whole || flagged[Suite(test)] }
}

// judgeOutage judges failed of tests tests, expected failing on average
// when healthy, at level a.
func judgeOutage(suite string, failed, tests int64, expected, a float64, o Options) Outage {
	p := history.OutageTail(failed, tests, expected)
	return Outage{Suite: suite, FailedTests: failed, RunTests: tests, Expected: expected, PValue: p, Threshold: a,
		Outage: failed >= o.History.MinOutageTests && p < a}
}
