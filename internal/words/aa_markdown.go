package words

import (
	"fmt"
	"strings"

	"github.com/flakegate/flakegate/core/aa"
	"github.com/flakegate/flakegate/internal/share"
)

// The A/A check's answer, Markdown summary and link.

// AAAnswer is an A/A check's answer in one sentence: for a candidate,
// whether it dropped beyond the noise; without one, how much the suite
// moves between unchanged runs.
func AAAnswer(r *aa.Result) string {
	if c := r.Candidate; c != nil {
		if c.Blocks {
			return "The candidate regressed: its mean per-scenario pass rate moved " + Points(c.Diff) + ", beyond the −" + Points(c.Threshold) + " the noise allows."
		}
		return "No regression beyond the noise: the candidate's mean per-scenario pass rate moved " + Points(c.Diff) + ", within the −" + Points(c.Threshold) + " the noise allows."
	}
	if len(r.Thresholds) > 0 {
		t := r.Thresholds[0]
		return fmt.Sprintf("Unchanged runs of this suite differ by about %s: with %s per side, flag only drops larger than %s.",
			Points(r.Noise.S), Nouns(t.RunsPerSide, "run"), Points(t.Drop))
	}
	return "Unchanged runs of this suite differ by about " + Points(r.Noise.S) + "."
}

// AAMarkdown summarises an A/A check and its candidate comparison.
func AAMarkdown(r *aa.Result, link Link) string {
	var m md
	m.answer(AAAnswer(r))
	m.para(fmt.Sprintf("%s, %s, %s.", Nouns(r.Scenarios, "scenario"), Nouns(r.Runs, "run"), Nouns(r.Rows, "row")))
	m.list(AAStory(r))
	var rows [][]string
	for _, t := range r.Thresholds {
		rows = append(rows, []string{Count(int64(t.RunsPerSide)), Points(t.Drop)})
	}
	m.table("rr", []string{"runs per side", "flag drops larger than"}, rows)
	rows = nil
	for _, n := range r.RunsNeeded {
		rows = append(rows, []string{Points(n.Drop), Count(n.RunsPerSide)})
	}
	m.table("rr", []string{"drop to catch 80% of the time", "runs per side"}, rows)
	if c := r.Candidate; c != nil {
		m.para(fmt.Sprintf("Candidate (%s) against the baseline over %s: mean difference %s, threshold −%s.",
			Nouns(c.Runs, "run"), Nouns(c.Scenarios, "shared scenario"), Points(c.Diff), Points(c.Threshold)))
		rows = nil
		for _, d := range c.LargestDrops {
			rows = append(rows, []string{d.Scenario, Points(d.Diff)})
		}
		m.table("lr", []string{"scenario", "candidate − baseline"}, rows)
	}
	m.caveats(r.Warnings)
	m.link(link)
	return m.String()
}

// AALink is the link of an A/A view on site (LinkOf), whose note also
// says what the calculator shows differently: the link carries the
// check's options, but the calculator does not run the simulation (opt
// with Simulate); and the reports' reading notes (notes true: they are
// among the result's warnings) are not in the link.
func AALink(v share.View, site string, opt aa.Options, notes bool) Link {
	l := LinkOf(v, site)
	if site == "" {
		return l
	}
	var shows string
	switch sim := opt.Simulate != nil; {
	case sim && notes:
		shows = "The calculator shows these statistics without the simulation and without the reports' reading notes."
	case sim:
		shows = "The calculator shows these statistics without the simulation."
	case notes:
		shows = "The calculator shows these statistics without the reports' reading notes."
	}
	l.Note = strings.TrimSpace(l.Note + " " + shows)
	return l
}

// AATooLong says that A/A statistics (bytes of link) are too long for a
// link.
func AATooLong(bytes int) string {
	return fmt.Sprintf("These statistics take %s bytes as a link, over the %s-byte limit. Share them as the JSON file the calculator offers instead.",
		Count(int64(bytes)), Count(share.MaxFragment))
}
