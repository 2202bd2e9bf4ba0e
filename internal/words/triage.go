package words

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/flakegate/flakegate/core/triage"
)

// TriageAnswer is a run's triage in one sentence: what broke, and what is
// noise.
func TriageAnswer(r *triage.Result) string {
	if len(r.Failures) == 0 {
		return "Nothing failed in this run."
	}
	var broke []string
	for _, f := range r.Failures {
		if f.Blocks {
			broke = append(broke, f.Test)
		}
	}
	var noise []string
	if r.Flakes > 0 {
		noise = append(noise, Nouns(r.Flakes, "known flake"))
	}
	if r.Outages > 0 {
		noise = append(noise, Nouns(r.Outages, "failure")+" of an outage")
	}
	if r.Quarantined > 0 {
		noise = append(noise, Nouns(r.Quarantined, "quarantined test"))
	}
	var s string
	switch {
	case len(broke) == 0:
		s = "Nothing in this run is a new or broken failure"
	case len(broke) <= 3:
		s = fmt.Sprintf("This run broke %s: %s", Nouns(len(broke), "test"), join(broke))
	default:
		s = fmt.Sprintf("This run broke %s: %s and %s more", Nouns(len(broke), "test"), strings.Join(broke[:3], ", "), Count(int64(len(broke)-3)))
	}
	if len(noise) == 0 {
		return s + "; no failure is noise."
	}
	if len(broke) == 0 {
		return s + ": " + join(noise) + ", all noise."
	}
	return s + "; the rest is noise: " + join(noise) + "."
}

// TriageWhy is one failure's class and evidence in a sentence.
func TriageWhy(r *triage.Result, f triage.Failure) string {
	p := f.Past
	switch f.Class {
	case triage.ClassNew:
		if p.Runs == 0 {
			return "new: the history never saw this test, so nothing says it fails now and then"
		}
		record := "never failed in its " + Nouns(p.Runs, "past run")
		if p.Failures > 0 {
			record = fmt.Sprintf("failed only %s of its %s past runs", Count(p.Failures), Count(p.Runs))
		}
		s := fmt.Sprintf("new: %s; a flake with that record fails at most %s of the time (%s upper bound), "+
			"so noise explains this failure with chance under %s", record, Percent(f.Bound), Level(1-f.Level), Percent(f.Bound))
		if !f.Proven {
			s += fmt.Sprintf("; the history is too short to rule out a flake failing %s of the time", Percent(r.MinRate))
		}
		return s
	case triage.ClassBroken:
		if !p.PassedBefore {
			return fmt.Sprintf("broken: failed in every one of its %s past runs, and in this one", Count(p.Runs))
		}
		since := ""
		if p.StreakFrom != nil {
			since = " since run #" + Count(int64(p.StreakFrom.Index)) + " " + p.StreakFrom.Run
		}
		if p.StreakCommit != "" {
			since += " (commit " + p.StreakCommit + ")"
		}
		return fmt.Sprintf("broken%s: failed every run since, %s and this one; a flake at its earlier rate would do that with chance %s",
			since, Nouns(p.Streak, "run"), PValue(f.StreakChance))
	case triage.ClassFlake:
		if f.Retried || f.PassedOn != nil {
			s := "known flake: it failed and a retry passed in this very run, on the same code"
			if !f.Retried {
				s = "known flake: it passed on this same commit in run #" + Count(int64(f.PassedOn.Index)) + " " + f.PassedOn.Run + ", and fails now"
			}
			if p.Failures > 0 {
				s += fmt.Sprintf("; it failed %s of %s past runs", Count(p.Failures), Count(p.Runs))
			}
			return s
		}
		s := fmt.Sprintf("known flake: failed %s of %s past runs, %s %s", Count(p.Failures), Count(p.Runs), Percent(f.Rate), Interval(f.Lower, f.Upper))
		if f.SameCommitFlips > 0 {
			s += ", " + Nouns(f.SameCommitFlips, "flip") + " on one commit"
		}
		if f.Confirm != nil {
			s += fmt.Sprintf("; rerun it %s: a flake at %s passes at least once with %s chance, so failing every one says it broke",
				Nouns(*f.Confirm, "time"), Percent(f.Upper), Level(r.Target))
		}
		return s
	case triage.ClassOutage:
		return "part of an outage: " + outageWhat(r, triage.Suite(f.Test))
	case triage.ClassQuarantined:
		e := f.Quarantine
		return fmt.Sprintf("quarantined until %s, owner %s: %s", e.Expires, e.Owner, e.Reason)
	}
	return f.Class
}

// outageWhat says which outage explains a failure in suite.
func outageWhat(r *triage.Result, suite string) string {
	o := r.Outage
	for _, s := range r.Suites {
		if s.Suite == suite {
			o = s
		}
	}
	where := "the run's"
	if o.Suite != "" {
		where = "suite " + o.Suite + "'s"
	}
	return fmt.Sprintf("%s of %s %s tests failed at once, where a healthy run fails %s of them on average (p %s)",
		Count(o.FailedTests), where, Count(o.RunTests), strconv.FormatFloat(o.Expected, 'g', 2, 64), pWords(o.PValue))
}

// TriageMarkdown is the summary a pull request gets: the answer, what
// broke (blocks), what is noise and why, the terms, the caveats and the
// link.
func TriageMarkdown(r *triage.Result, link Link) string {
	var m md
	m.answer(TriageAnswer(r))
	m.para(fmt.Sprintf("Judged against %s of %s. Each failure is new (it never or almost never failed before), broken (failing every run since a commit), "+
		"a known flake (it fails now and then, as its record shows), part of an outage (too many tests failing at once), or quarantined.",
		Nouns(r.PastRuns, "past run"), Nouns(r.PastTests, "test")))
	var broke, noise []string
	outageNamed := map[string]bool{}
	for i, f := range r.Failures {
		if i == MaxMarkdownRows {
			noise = append(noise, fmt.Sprintf("and %s more, in the JSON", Count(int64(len(r.Failures)-i))))
			break
		}
		if f.Class == triage.ClassOutage {
			s := triage.Suite(f.Test)
			key := ""
			for _, o := range r.Suites {
				if o.Suite == s {
					key = s
				}
			}
			if !outageNamed[key] {
				outageNamed[key] = true
				noise = append(noise, outageItem(r, key))
			}
			continue
		}
		item := f.Test + ": " + TriageWhy(r, f)
		if f.Blocks {
			broke = append(broke, item)
		} else {
			noise = append(noise, item)
		}
	}
	if len(broke) > 0 {
		m.b.WriteString("#### What broke (blocks the merge)\n\n")
		m.list(broke)
	}
	if len(noise) > 0 {
		m.b.WriteString("#### Noise (does not block)\n\n")
		m.list(noise)
	}
	if len(r.Releases) > 0 {
		m.b.WriteString("#### Quarantine releases proven\n\n")
		m.list(TriageReleases(r))
	}
	if len(broke) > 0 || len(noise) > 0 {
		m.para(fmt.Sprintf("Rates are the share of past runs in which the test failed, outside outages, with their %s Wilson interval. "+
			"A failure is new when the highest failure rate its record allows (a one-sided upper bound, %s confidence shared by this run's failures) "+
			"is below %s, so that a flake failing %s of the time or more is called new in at most %s of runs. "+
			"An outage is rerun, not fixed: if the same tests fail again on the rerun, the change broke them.",
			Level(r.Confidence), Level(1-r.Alpha), Percent(r.MinRate), Percent(r.MinRate), Percent(r.Alpha)))
	}
	m.caveats(r.Warnings)
	m.link(link)
	return m.String()
}

// outageItem lists the failures of one outage (suite "" for the run's).
func outageItem(r *triage.Result, suite string) string {
	var names []string
	n := 0
	for _, f := range r.Failures {
		if f.Class != triage.ClassOutage {
			continue
		}
		in := false
		for _, o := range r.Suites {
			if o.Suite == triage.Suite(f.Test) {
				in = true
			}
		}
		if (suite == "" && in) || (suite != "" && triage.Suite(f.Test) != suite) {
			continue
		}
		n++
		if len(names) < 3 {
			names = append(names, f.Test)
		}
	}
	list := strings.Join(names, ", ")
	if n > len(names) {
		list += fmt.Sprintf(" and %s more", Count(int64(n-len(names))))
	}
	return fmt.Sprintf("outage, %s (%s): %s; rerun the job", Nouns(n, "failure"), list, outageWhat(r, suite))
}

// TriageReleases says, per entry of the registry whose release is proven,
// the evidence and what to do.
func TriageReleases(r *triage.Result) []string {
	var out []string
	for _, rel := range r.Releases {
		out = append(out, fmt.Sprintf("%s: %s in %s since its quarantine on %s prove its failure rate below %s at %s confidence; "+
			"take it out of the registry (flakegate quarantine remove)", rel.Test, Nouns(rel.Failed, "failure"), Nouns(rel.Runs, "run"),
			rel.Opened, Percent(rel.Below), Level(rel.Confidence)))
	}
	return out
}
