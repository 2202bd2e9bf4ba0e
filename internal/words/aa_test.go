package words

import (
	"bytes"
	"regexp"
	"strings"
	"testing"

	"github.com/flakegate/flakegate/core/aa"
	"github.com/flakegate/flakegate/internal/testfile"
)

func readSide(t *testing.T, path string) *aa.Side {
	t.Helper()
	s, err := aa.ReadCSV(bytes.NewReader(testfile.Read(t, path)))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func exampleAA(t *testing.T, candidate bool) *aa.Result {
	t.Helper()
	var cand *aa.Side
	if candidate {
		cand = readSide(t, "../../examples/candidate.csv")
	}
	r, err := aa.Check(readSide(t, "../../examples/baseline.csv"), cand, aa.DefaultOptions)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// TestAAStory holds the A/A sentences for the examples' suite and candidate.
// The figures are those the original A/A script the formulas were first
// written in prints for the same files (examples/baseline.csv and
// examples/candidate.csv: s = 2.57 from formula 1.62 and measured 2.57, 28
// mixed scenarios, thresholds 4.23 / 2.99 / 2.11 / 1.49, 11 runs for a
// 2-point drop, 19 of 190 pairs against 0, −1.73 against 1.64, largest drops
// bfcl_004 −100, bfcl_000 −75, bfcl_185 −55). The in-depth ones are core/aa's
// (tested there against the published figures): slope −0.224 points per run with
// permutation p = 0.0002, halves 90.05% and 88.40%, the 2-point rule on 96
// of 380 ordered pairs (96/380 = 25.3% by hand) against 13.3% for
// independent runs, paired t one-sided p = 0.047.
func TestAAStory(t *testing.T) {
	want := []string{
		"Two unchanged runs of this suite differ by about 2.57 pts (the noise s of a one-run comparison: the larger of 1.62 pts that the 28 scenarios going both ways predict and 2.57 pts that the runs' spread shows).",
		"A single run against a single run must drop more than 4.23 pts before it is more than noise (a threshold that fires on 5% of unchanged comparisons); with 4 runs per side, more than 2.11 pts. Catching a 2-point drop 80% of the time takes 11 runs per side.",
		"The pass rate falls in run order, 0.22 pts per run (permutation test p = 0.0002; 90.05% in the first half, 88.40% in the second), so a threshold fires mostly one way: the one-run threshold fired on 19 of 190 pairs of runs with the earlier run as the baseline and on none the other way.",
		"A fixed 2-point rule (block any drop of 2 points or more) would block 25.3% of comparisons between unchanged runs here (96 of 380 ordered pairs); if the runs were independent it would block 13.3%.",
		"Regression: the candidate's 4 runs score 1.73 pts below the baseline's 20 runs, averaged over the 200 scenarios both have; the threshold for 20 baseline runs against 4 candidate runs is 1.64 pts (the table's 2.11 pts is for 4 runs on both sides), and the drop is larger.",
		"An unchanged candidate crosses the threshold 5% of the time; comparing the 200 scenarios one by one, a paired t-test gives one-sided p = 0.047 (regression at the 0.05 level). The baseline's pass rate trends in run order, so comparisons against it fire mostly one way: a call this close (1.73 pts against 1.64 pts) may be the trend's.",
		"Look at the scenarios that moved before you decide; the largest drops: bfcl_004 (−100.00 pts), bfcl_000 (−75.00 pts) and bfcl_185 (−55.00 pts).",
	}
	got := AAStory(exampleAA(t, true))
	if len(got) != len(want) {
		t.Fatalf("%d sentences, want %d:\n%s", len(got), len(want), strings.Join(got, "\n"))
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("sentence %d:\n got %q\nwant %q", i, got[i], want[i])
		}
	}

	// Without a candidate the story stops at the fixed rule; without the
	// in-depth analyses (the page's first paint) the trend rests on the
	// counts and the fixed rule is left out.
	if got := AAStory(exampleAA(t, false)); len(got) != 4 {
		t.Errorf("baseline alone: %d sentences, want 4:\n%s", len(got), strings.Join(got, "\n"))
	}
	opt := aa.DefaultOptions
	opt.Depth = aa.DepthOptions{}
	head, err := aa.Check(readSide(t, "../../examples/baseline.csv"), nil, opt)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := AATrend(head), "The one-run threshold fired on 19 of 190 pairs of runs with the earlier run as the baseline and on none the other way: lopsided counts mean the pass rate trends in run order, and then any threshold fires mostly one way."; got != want {
		t.Errorf("headline trend:\n got %q\nwant %q", got, want)
	}
	if got := AAFixedRule(head); got != "" {
		t.Errorf("a fixed-rule sentence without its analysis: %q", got)
	}
}

// TestNumbersOneFormat: every count a summary writes has the thousands
// separator Count writes (a narrow no-break space), so "4000 rows" never
// stands beside "4 000".
func TestNumbersOneFormat(t *testing.T) {
	for _, tc := range []struct{ got, want string }{
		{Nouns(1, "failure"), "1 failure"},
		{Nouns(0, "failure"), "0 failures"},
		{Nouns(1200, "run"), "1,200 runs"},
		{Fraction(1200, 2000), "1,200/2,000"},
		{CountRate(17, 20), "17/20 (85.0%)"},
	} {
		if tc.got != tc.want {
			t.Errorf("got %q, want %q", tc.got, tc.want)
		}
	}
	md := AAMarkdown(exampleAA(t, true), Link{})
	if !strings.Contains(md, "4,000 rows") {
		t.Errorf("the 4,000 rows are not written as Count writes them:\n%s", md)
	}
	// A run of four or more digits outside a word (ids such as bfcl_004
	// are words) is a count without its separator.
	if m := regexp.MustCompile(`(^|[^\w.\x{202f}])\d{4,}`).FindString(md); m != "" {
		t.Errorf("a count without thousands separator (%q) in:\n%s", m, md)
	}
}
