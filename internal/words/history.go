package words

import (
	"fmt"
	"strings"

	"github.com/flakegate/flakegate/core/history"
	"github.com/flakegate/flakegate/internal/share"
)

// HistoryAnswer is a history's answer in one sentence: "12 of 4 800 tests
// are flaky; 2 outages (runs 311 and 514) failed 300 or more tests at once
// and were kept out."
func HistoryAnswer(r *history.Result) string {
	var s string
	switch r.Flaky {
	case 0:
		s = fmt.Sprintf("None of %s is flaky in %s", Nouns(r.Tests, "test"), Nouns(r.Runs, "run"))
	case 1:
		s = fmt.Sprintf("1 of %s is flaky in %s", Nouns(r.Tests, "test"), Nouns(r.Runs, "run"))
	default:
		s = fmt.Sprintf("%s of %s are flaky in %s", Count(int64(r.Flaky)), Nouns(r.Tests, "test"), Nouns(r.Runs, "run"))
	}
	var outages, groups []history.Incident
	for _, inc := range r.Incidents {
		if inc.Kind == history.IncidentOutage {
			outages = append(outages, inc)
		} else {
			groups = append(groups, inc)
		}
	}
	kept := "were kept out"
	if r.KeptIncidents {
		kept = "are counted in (-keep-incidents)"
		if len(r.Incidents) == 1 {
			kept = "is counted in (-keep-incidents)"
		}
	} else if len(r.Incidents) == 1 {
		kept = "was kept out"
	}
	var parts []string
	if len(outages) > 0 {
		least := outages[0].FailedTests
		var runs []string
		for _, o := range outages {
			least = min(least, o.FailedTests)
			if len(runs) < 5 {
				runs = append(runs, Count(int64(o.Runs[0].Index)))
			}
		}
		if len(outages) > 5 {
			runs = append(runs, "more")
		}
		what := "runs " + join(runs)
		if len(outages) == 1 {
			what = "run " + runs[0]
		}
		parts = append(parts, fmt.Sprintf("%s (%s, %s or more tests failing at once)", Nouns(len(outages), "outage"), what, Count(least)))
	}
	if len(groups) > 0 {
		parts = append(parts, fmt.Sprintf("%s of tests failing only together", Nouns(len(groups), "group")))
	}
	if len(parts) == 0 {
		return s + "; no outage."
	}
	return s + "; " + join(parts) + " " + kept + "."
}

// HistoryMarkdown is the summary a team reads: the answer, the rule, the
// flaky tests costliest first, the incidents with their evidence, the
// broken tests, and the caveats.
// The link line (or the note of why there is none) closes it.
func HistoryMarkdown(r *history.Result, link Link) string {
	var m md
	m.answer(HistoryAnswer(r))
	order := "in time order"
	if r.Order != "time" {
		order = "in the order given (not every run has a time)"
	}
	m.para(fmt.Sprintf("Read %s of %s (%s test results), %s. A test is flaky when it failed and passed outside the incidents; "+
		"a flip on one commit (it failed and passed on the same code) proves it. The naive rule, failed and passed at least once, would flag %s.",
		Nouns(r.Runs, "run"), Nouns(r.Tests, "test"), Count(r.Results), order, Nouns(r.Naive, "test")))
	if len(r.Flakes) > 0 {
		head := []string{"test", "failed / ran", "rate [95% interval]", "flips on one commit", "trend", "first – last failure", "lane", "reruns"}
		align := "lrrrlllr"
		cost := HistoryHasCost(r)
		if cost {
			head, align = append(head, "costs per run"), align+"r"
		}
		var rows [][]string
		for i, f := range r.Flakes {
			if i == MaxMarkdownRows {
				break
			}
			k := "—"
			if f.Reruns != nil {
				k = Count(*f.Reruns)
			}
			cells := []string{f.Test, Fraction(f.Failures, f.Runs), Percent(f.Rate) + " " + Interval(f.Lower, f.Upper),
				Count(f.SameCommitFlips), TrendWords(f.Trend), "#" + Count(int64(f.FirstFailure.Index)) + " – #" + Count(int64(f.LastFailure.Index)),
				LaneWords(f.Lane), k}
			if cost {
				cells = append(cells, CostCell(f))
			}
			rows = append(rows, cells)
		}
		m.table(align, head, rows)
		if more := len(r.Flakes) - MaxMarkdownRows; more > 0 {
			m.para(fmt.Sprintf("The other %s, each failing less often than those above, are in the JSON.", Nouns(more, "flaky test")))
		}
		m.para("Rate: the share of its runs in which the test failed, with its 95% Wilson interval; the rerun budget is planned " +
			"against the upper end. Trend: Fisher's exact test of the recent half of its runs against the earlier half. " +
			"Runs are numbered #1, #2, … " + order + ".")
		if cost {
			m.para(CostNote)
		}
	}
	if len(r.Incidents) > 0 {
		title := "Incidents, kept out of the rates"
		if r.KeptIncidents {
			title = "Incidents, counted in the rates (-keep-incidents)"
		}
		m.b.WriteString("#### " + title + "\n\n")
		var rows [][]string
		for _, inc := range r.Incidents {
			rows = append(rows, IncidentRow(inc))
		}
		m.table("llll", []string{"incident", "runs", "what failed", "evidence"}, rows)
		m.para(fmt.Sprintf("An outage is a run in which more tests failed than chance allows: healthy runs, whose tests fail %s of the time, "+
			"would fail so many less than %s of the time (a binomial tail, so that over %s a healthy run is called an outage with at most 1%% chance). "+
			"A group is tests that failed in exactly the same runs, at least twice, and never apart: one shared cause, not each its own flake.",
			Percent(r.BaselineRate), Percent(r.OutageThreshold), Nouns(r.Runs, "run")))
	}
	if len(r.Broken) > 0 {
		m.b.WriteString("#### Broken, not flaky\n\n")
		var items []string
		for i, b := range r.Broken {
			if i == MaxMarkdownRows {
				items = append(items, fmt.Sprintf("and %s more, in the JSON", Count(int64(len(r.Broken)-i))))
				break
			}
			what := fmt.Sprintf("failed %s runs in a row (#%s – #%s), then passed: a regression and its fix", Count(b.LongestStreak),
				Count(int64(b.FirstFailure.Index)), Count(int64(b.LastFailure.Index)))
			if b.Status == history.StatusFailing {
				what = fmt.Sprintf("failed in every one of its %s", Nouns(b.Runs, "run"))
			}
			items = append(items, mdEscape(b.Test)+": "+what)
		}
		m.list(items)
	}
	m.caveats(r.Warnings)
	m.link(link)
	return m.String()
}

// HistoryTooLong says that a history's figures (bytes of link) are too
// many for a link.
func HistoryTooLong(bytes int) string {
	return fmt.Sprintf("These figures take %s bytes as a link, over the %s-byte limit: drop the reports on the calculator's history view instead.",
		Count(int64(bytes)), Count(share.MaxFragment))
}

// IncidentRow is an incident as a table row: what it is, its runs, what
// failed and the evidence.
func IncidentRow(inc history.Incident) []string {
	var runs []string
	for i, rr := range inc.Runs {
		if i == 6 {
			runs = append(runs, fmt.Sprintf("and %s more", Count(int64(len(inc.Runs)-i))))
			break
		}
		s := "#" + Count(int64(rr.Index)) + " " + rr.Run
		if rr.Time != "" {
			s += " (" + strings.Replace(strings.TrimSuffix(rr.Time[:min(len(rr.Time), 16)], "Z"), "T", " ", 1) + ")"
		}
		runs = append(runs, s)
	}
	names := strings.Join(inc.Tests[:min(len(inc.Tests), 3)], ", ")
	if int64(len(inc.Tests)) < inc.FailedTests || len(inc.Tests) > 3 {
		names += ", …"
	}
	if inc.Kind == history.IncidentOutage {
		where := ""
		if inc.Commit != "" {
			where = " on commit " + inc.Commit
		}
		return []string{"outage" + where, strings.Join(runs, "; "),
			fmt.Sprintf("%s of %s (%s)", Count(inc.FailedTests), Nouns(inc.RunTests, "test"), names),
			fmt.Sprintf("a healthy run fails %.1f on average; so many by chance: p %s", inc.Expected, pWords(inc.PValue))}
	}
	return []string{"tests failing together", strings.Join(runs, "; "),
		fmt.Sprintf("%s (%s)", Nouns(inc.FailedTests, "test"), names),
		fmt.Sprintf("failed together in %s and never apart; by chance at most p %s", Nouns(len(inc.Runs), "run"), pWords(inc.PValue))}
}

// pWords is "= 0.003" or "< 0.0001".
func pWords(p float64) string {
	s := PValue(p)
	if strings.HasPrefix(s, "<") {
		return s
	}
	return "= " + s
}

// TrendWords says a trend in a table cell: "steady", "worse (p = 0.002)".
func TrendWords(t history.Trend) string {
	if t.Direction == history.TrendSteady {
		return "steady"
	}
	return t.Direction + " lately (p " + pWords(t.PValue) + ")"
}

// HistoryHasCost reports whether any flaky test of r has a cost, so that
// the tables show the column.
func HistoryHasCost(r *history.Result) bool {
	for _, f := range r.Flakes {
		if f.CostSeconds != nil {
			return true
		}
	}
	return false
}

// CostCell is a flaky test's cost per run, with its own run time beside it
// when the reports gave it: "0.3 s (runs take 6 s)".
func CostCell(f history.TestHistory) string {
	switch {
	case f.CostSeconds == nil:
		return "—"
	case f.CostBasis == history.CostReported && f.RunSeconds != nil && *f.RunSeconds == 0:
		// Reports round run times (go test to 0.01 s): 0 is "too short to
		// measure", not a run that costs nothing.
		return "0 s (its reports give its runs 0 s)"
	case f.CostBasis == history.CostReported && f.RunSeconds != nil:
		return Duration(*f.CostSeconds) + " (runs take " + Duration(*f.RunSeconds) + ")"
	}
	return Duration(*f.CostSeconds)
}

// CostNote says what a cost per run is, and which run time it used.
const CostNote = "Costs per run: its failure rate times its run time, the test's own mean where its reports give durations " +
	"(go test -json, JUnit time; shown beside it), else the runner seconds of a run you gave."
