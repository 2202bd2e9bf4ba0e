package words

import (
	"cmp"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/flakegate/flakegate/core"
	"github.com/flakegate/flakegate/core/aa"
)

// The A/A check in sentences, in the order docs/STATISTICS.md, A/A check,
// tells it: how noisy the
// suite is, what drop it can see with how many runs, whether the runs trend
// (and what that does to a threshold), what a fixed-point rule costs in false
// alarms, and for a candidate the verdict, why, how sure, and which
// scenarios moved. Each sentence explains its terms where it uses them, so a
// reviewer can paste any one of them alone. The page shows them above the
// figures; AAMarkdown and the CLI print the same.

// AAStory is the A/A check's sentences in their order, the empty ones
// left out.
func AAStory(r *aa.Result) []string {
	var out []string
	for _, s := range []string{AANoise(r), AADrop(r), AATrend(r), AAFixedRule(r), AACandidate(r), AASure(r), AAMoved(r)} {
		if s != "" {
			out = append(out, s)
		}
	}
	return out
}

// AANoise says how much two unchanged runs of the suite differ.
func AANoise(r *aa.Result) string {
	n := r.Noise
	if n.S == 0 {
		return "Unchanged runs of this suite give the same pass rate every time: no scenario went both ways, so any drop is a change."
	}
	s := "Two unchanged runs of this suite differ by about " + Points(n.S) + " (the noise s of a one-run comparison: "
	if n.Measured == nil {
		return s + "√(2v/n) from the " + Nouns(r.Mixed, "scenario") + " that went both ways; with fewer than 3 runs their spread is not measured)."
	}
	return s + "the larger of " + Points(n.Formula) + " that the " + Nouns(r.Mixed, "scenario") + " going both ways predict and " +
		Points(*n.Measured) + " that the runs' spread shows)."
}

// threshold is the drop the result lists for k runs per side.
func threshold(r *aa.Result, k int) (float64, bool) {
	for _, t := range r.Thresholds {
		if t.RunsPerSide == k {
			return t.Drop, true
		}
	}
	return 0, false
}

// AADrop says what drop the suite can tell from noise, with how many runs:
// the one-run threshold, the threshold at the most runs listed, and the runs
// per side that catch the smallest drop listed.
func AADrop(r *aa.Result) string {
	if r.Noise.S == 0 || len(r.Thresholds) == 0 {
		return ""
	}
	one, ok := threshold(r, 1)
	first := r.Thresholds[0]
	if !ok {
		one = first.Drop
	}
	s := "A single run against a single run must drop more than " + Points(one) +
		" before it is more than noise (a threshold that fires on 5% of unchanged comparisons)"
	if ok && len(r.Thresholds) > 1 {
		// The runs per side of the table's middle row: what a team can afford.
		t := r.Thresholds[len(r.Thresholds)/2]
		if t.RunsPerSide == 1 {
			t = r.Thresholds[len(r.Thresholds)-1]
		}
		s += "; with " + Nouns(t.RunsPerSide, "run") + " per side, more than " + Points(t.Drop)
	}
	s += "."
	if len(r.RunsNeeded) > 0 {
		n := r.RunsNeeded[0]
		s += " Catching a " + pointsRule(n.Drop) + " drop 80% of the time takes " + Nouns(n.RunsPerSide, "run") + " per side."
	}
	return s
}

// AATrend says whether the runs trend in the order given and what that does
// to a threshold. Without the in-depth analyses it rests on the one-run
// threshold's counts alone.
func AATrend(r *aa.Result) string {
	t := r.Trend
	if t == nil {
		return ""
	}
	later := Count(int64(t.FiredLaterBaseline))
	if t.FiredLaterBaseline == 0 {
		later = "none"
	}
	counts := fmt.Sprintf("the one-run threshold fired on %s of %s pairs of runs with the earlier run as the baseline and on %s the other way",
		Count(int64(t.FiredEarlierBaseline)), Count(int64(t.Pairs)), later)
	if r.Depth == nil || r.TrendTest == nil {
		return capitalize(counts) + ": lopsided counts mean the pass rate trends in run order, and then any threshold fires mostly one way."
	}
	tt := r.TrendTest
	p := "permutation test p = " + PValue(tt.PValue)
	if tt.PValue >= 0.05 {
		return "The runs show no trend in the order given (" + Points(tt.SlopePerRun) + " per run, " + p + "): " + counts + "."
	}
	way := "rises"
	if tt.SlopePerRun < 0 {
		way = "falls"
	}
	return fmt.Sprintf("The pass rate %s in run order, %s per run (%s; %s in the first half, %s in the second), so a threshold fires mostly one way: %s.",
		way, Points(math.Abs(tt.SlopePerRun)), p, FixedPercent(tt.FirstHalfMean, 2), FixedPercent(tt.SecondHalfMean, 2), counts)
}

// AAFixedRule says what a fixed-point rule ("block a drop of 2 points or
// more") costs in false alarms between unchanged runs of this suite.
func AAFixedRule(r *aa.Result) string {
	if r.Depth == nil || r.FixedDrop == nil || r.FixedDrop.Pairs == 0 {
		return ""
	}
	f := r.FixedDrop
	return fmt.Sprintf("A fixed %s rule (block any drop of %s or more) would block %s of comparisons between unchanged runs here (%s of %s ordered pairs); if the runs were independent it would block %s.",
		pointsRule(f.Drop), pointsWords(f.Drop), Percent(f.Rate), Count(f.Fired), Count(f.Pairs), Percent(f.IndependentRate))
}

// pointsRule names a drop as an adjective: "2-point", "2.5-point".
func pointsRule(drop float64) string { return roundPoints(drop) + "-point" }

// pointsWords names a drop in words: "2 points", "1 point", "2.5 points".
func pointsWords(drop float64) string {
	if p := roundPoints(drop); p != "1" {
		return p + " points"
	}
	return "1 point"
}

// roundPoints is a drop in points with up to two decimals, trailing zeros
// dropped: "2", "2.5", "0.25".
func roundPoints(drop float64) string {
	p := strconv.FormatFloat(100*drop, 'f', 2, 64)
	p = strings.TrimRight(p, "0")
	return strings.TrimSuffix(p, ".")
}

// AAVerdictWords is an A/A candidate's verdict in words.
func AAVerdictWords(verdict string) string { return cmp.Or(aaVerdictWords[verdict], verdict) }

// aaVerdictWords name the A/A verdicts.
var aaVerdictWords = map[string]string{
	core.VerdictRegression:   "regression",
	core.VerdictNoRegression: "no regression shown",
}

// AACandidate says, for a candidate, the verdict and why: the mean drop
// against the threshold for these run counts (the baseline's and the
// candidate's, which the threshold table's equal sides do not show).
func AACandidate(r *aa.Result) string {
	c := r.Candidate
	if c == nil {
		return ""
	}
	verb := "score"
	if c.Runs == 1 {
		verb = "scores"
	}
	moved := verb + " " + Points(math.Abs(c.Diff)) + " below"
	if c.Diff > 0 {
		moved = verb + " " + Points(c.Diff) + " above"
	} else if c.Diff == 0 {
		moved = verb + " the same as"
	}
	why := fmt.Sprintf("The candidate's %s %s the baseline's %s, averaged over the %s both have; the threshold for %s against %s is %s",
		Nouns(c.Runs, "run"), moved, Nouns(r.Runs, "run"), Nouns(c.Scenarios, "scenario"),
		Nouns(r.Runs, "baseline run"), Nouns(c.Runs, "candidate run"), Points(c.Threshold))
	if eq, ok := threshold(r, c.Runs); ok && c.Runs != r.Runs {
		why += " (the table's " + Points(eq) + " is for " + Nouns(c.Runs, "run") + " on both sides)"
	}
	if c.Blocks {
		return "Regression: " + lowerFirst(why) + ", and the drop is larger."
	}
	return "No regression shown: " + lowerFirst(why) + ", and the drop is not larger."
}

// AASure says how sure the candidate's verdict is: the threshold's false
// alarms, the paired t-test by scenario when it ran, and a caution when the
// baseline trends and the call is close.
func AASure(r *aa.Result) string {
	c := r.Candidate
	if c == nil {
		return ""
	}
	s := "An unchanged candidate crosses the threshold 5% of the time"
	if r.Depth != nil && r.PairedT != nil {
		pt := r.PairedT
		s += fmt.Sprintf("; comparing the %s one by one, a paired t-test gives one-sided p = %s (%s at the %s level)",
			Nouns(pt.Scenarios, "scenario"), PValue(pt.PValue), AAVerdictWords(pt.Verdict), strconv.FormatFloat(pt.Alpha, 'g', -1, 64))
	}
	s += "."
	if r.Depth != nil && r.TrendTest != nil && r.TrendTest.PValue < 0.05 {
		s += " The baseline's pass rate trends in run order, so comparisons against it fire mostly one way"
		if c.Threshold > 0 && math.Abs(math.Abs(c.Diff)-c.Threshold) < 0.25*c.Threshold {
			s += ": a call this close (" + Points(math.Abs(c.Diff)) + " against " + Points(c.Threshold) + ") may be the trend's"
		}
		s += "."
	}
	return s
}

// AAMoved names the scenarios that moved most, the ones to read before
// deciding anything.
func AAMoved(r *aa.Result) string {
	c := r.Candidate
	if c == nil || len(c.LargestDrops) == 0 {
		return ""
	}
	var names []string
	for _, d := range c.LargestDrops {
		if d.Diff >= 0 || len(names) == 3 {
			break
		}
		names = append(names, d.Scenario+" ("+Points(d.Diff)+")")
	}
	if len(names) == 0 {
		return "No scenario dropped: look at the table of the largest differences before you decide."
	}
	return "Look at the scenarios that moved before you decide; the largest drops: " + join(names) + "."
}

// PValue writes a p-value with two significant digits: "0.047", "0.0002".
// Below 0.0001 (the smallest a 9,999-permutation test gives) it is
// "< 0.0001".
func PValue(p float64) string {
	if p < 0.0001 {
		return "< 0.0001"
	}
	return strconv.FormatFloat(p, 'g', 2, 64)
}

func join(items []string) string {
	switch len(items) {
	case 0:
		return ""
	case 1:
		return items[0]
	}
	s := ""
	for i, it := range items[:len(items)-1] {
		if i > 0 {
			s += ", "
		}
		s += it
	}
	return s + " and " + items[len(items)-1]
}

func lowerFirst(s string) string {
	if s == "" {
		return s
	}
	return string(s[0]|0x20) + s[1:]
}
