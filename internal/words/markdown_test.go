package words

import (
	"regexp"
	"strings"
	"testing"

	"github.com/flakegate/flakegate/core"
	"github.com/flakegate/flakegate/core/aa"
	"github.com/flakegate/flakegate/core/gate"
	"github.com/flakegate/flakegate/core/ledger"
)

// decided is the decision on passed/trials counts b and p with the
// default settings (gate.DefaultDecideInput).
func decided(t *testing.T, b, p core.Count) *gate.DecideResult {
	t.Helper()
	in := gate.DefaultDecideInput
	in.Baseline, in.Patched = b, p
	r, err := gate.Decide(in)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func budget(t *testing.T, in gate.BudgetInput) *gate.BudgetResult {
	t.Helper()
	r, err := gate.Budget(in)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// TestBudgetSentence holds the sentence a reviewer pastes. The figures are
// docs/STATISTICS.md's (Rerun budget): a 2% flake needs 149 reruns for 95%, three reruns catch it
// 1−0.98³ = 5.88% of the time; 1−0.98¹⁴⁹ = 0.9507 and 149 × 8 s = 19.87
// min by hand (python3: 1-0.98**149).
func TestBudgetSentence(t *testing.T) {
	cost := 8.0
	r := budget(t, gate.BudgetInput{Target: 0.95, Cap: 3, Confidence: 0.95, CostSeconds: &cost, Rates: []float64{0.02, 0.5, 0}})
	for i, want := range []string{
		"your 3 reruns catch a 2.0% flake 5.9% of the time; 149 reruns catch it 95.1% of the time (19.9 min at 8 s): refuse the green and open a task to make the test deterministic",
		// 1−0.5³ = 0.875 at the cap; 1−0.5⁵ = 0.96875 with 5.
		"your 3 reruns catch a 50.0% flake 87.5% of the time; 5 reruns catch it 96.9% of the time (40 s at 8 s): rerun to the budget inside the merge gate",
		"a test that never fails has no flake for reruns to catch",
	} {
		if got := BudgetSentence(r, r.Rows[i]); got != want {
			t.Errorf("row %d:\n got %q\nwant %q", i, got, want)
		}
	}
	one := budget(t, gate.BudgetInput{Target: 0.95, Cap: 1, Confidence: 0.95, Rates: []float64{0.96}})
	// 1−0.04 = 0.96 ≥ 0.95 with one rerun, already within the cap.
	if got, want := BudgetSentence(one, one.Rows[0]), "your 1 rerun catches a 96.0% flake 96.0% of the time; already 1 rerun catches it 96.0% of the time: rerun to the budget inside the merge gate"; got != want {
		t.Errorf("got %q\nwant %q", got, want)
	}
}

// TestSummaryOrder: every summary answers first (one bold line), then
// shows its table, then the caveats, then the link, and nothing follows.
func TestSummaryOrder(t *testing.T) {
	link := Link{URL: "https://flakegate.example/#cap=5"}
	d := decided(t, core.Count{Passed: 2, Trials: 5}, core.Count{Passed: 5, Trials: 5})
	n := int64(28)
	f, err := gate.Freeze(gate.FreezeInput{Claim: core.Count{Passed: 57, Trials: 60}, Newer: &core.Count{Passed: 4, Trials: 6},
		Confidence: 0.95, Comparable: 0.5, Date: "2026-11-30"})
	if err != nil {
		t.Fatal(err)
	}
	for name, md := range map[string]string{
		"budget": BudgetMarkdown(budget(t, gate.BudgetInput{Target: 0.95, Cap: 3, Confidence: 0.95,
			Rates: []float64{0.02}, Observed: &core.Count{Passed: 1, Trials: 20}}), link),
		"decide": DecideMarkdown(d, &gate.SizeResult{Baseline: 0.4, Patched: 1, Confidence: 0.95, TrialsPerArm: &n}, link),
		"size":   SizeMarkdown(&gate.SizeResult{Baseline: 0.5, Patched: 0.85, Confidence: 0.95, TrialsPerArm: &n, Warnings: []string{"w"}}, link),
		"freeze": FreezeMarkdown(f, link),
	} {
		lines := strings.Split(strings.TrimSuffix(md, "\n"), "\n")
		if !strings.HasPrefix(lines[0], "**") || !strings.HasSuffix(lines[0], "**") || lines[1] != "" {
			t.Errorf("%s: the answer is not first, in bold, alone:\n%s", name, md)
		}
		table := strings.Index(md, "\n|")
		caveat := strings.Index(md, "> **Caveat:**")
		at := strings.Index(md, "[Open in flakegate]("+link.URL+")")
		if table < 0 || caveat < table || at < caveat || !strings.HasSuffix(md, link.URL+")\n") {
			t.Errorf("%s: want answer, table, caveats, link (table at %d, caveat at %d, link at %d):\n%s", name, table, caveat, at, md)
		}
	}
}

// TestDecideMarkdownSizingWarnings: the sizing's caveats travel with the
// summary, marked as the sizing's.
func TestDecideMarkdownSizingWarnings(t *testing.T) {
	d := decided(t, core.Count{Passed: 10, Trials: 20}, core.Count{Passed: 17, Trials: 20})
	md := DecideMarkdown(d, &gate.SizeResult{Warnings: []string{"rates this close need many trials"}}, Link{})
	if !strings.Contains(md, "> **Caveat:** sizing: rates this close need many trials") {
		t.Errorf("decide markdown lacks the sizing warning:\n%s", md)
	}
	// The first example of docs/STATISTICS.md, Two-arm decision: 10/20 against 17/20 overlaps; no machine name.
	if !strings.HasPrefix(md, "**The gate does not block, but the patch cannot claim a flake fix: the 95% Wilson intervals of 10/20 (50.0%) and 17/20 (85.0%) overlap, so no change is shown.**\n") {
		t.Errorf("decide answer:\n%s", md)
	}
	if strings.Contains(md, core.VerdictNoChange) {
		t.Errorf("the machine name %q reached the words:\n%s", core.VerdictNoChange, md)
	}
}

// TestAAMarkdownMinus: negative differences are written with the minus
// sign (U+2212) that the threshold's "−" uses, never a hyphen.
func TestAAMarkdownMinus(t *testing.T) {
	r, err := aa.Check(readSide(t, "../../examples/baseline.csv"), readSide(t, "../../examples/candidate.csv"), aa.DefaultOptions)
	if err != nil {
		t.Fatal(err)
	}
	if r.Candidate == nil || r.Candidate.Diff >= 0 {
		t.Fatalf("the example candidate should score below its baseline: %+v", r.Candidate)
	}
	md := AAMarkdown(r, Link{})
	if !strings.Contains(md, "mean difference −") {
		t.Errorf("the candidate's difference lacks its minus sign:\n%s", md)
	}
	if m := regexp.MustCompile(`-\d+\.\d\d pts`).FindString(md); m != "" {
		t.Errorf("a hyphen as a minus sign (%q) in:\n%s", m, md)
	}
}

// TestEscape: a test's name cannot break the table or start HTML, code or
// emphasis; underscores inside names stay as they are.
func TestEscape(t *testing.T) {
	r := &ledger.Result{Runs: ledger.RunCounts{Baseline: 1, Patched: 1}, Tests: []ledger.Test{{
		NodeID: "a|b\nc <script> `x` *y* test_snake", Verdict: core.VerdictNoChange, Gate: core.GateNoClaim}}}
	md := LedgerMarkdown(r, Link{})
	want := "| a\\|b c \\<script> \\`x\\` \\*y\\* test_snake | 0/0 | 0/0 | no change shown | passes, no claim |"
	if !strings.Contains(md, want) {
		t.Errorf("want the row %q in:\n%s", want, md)
	}
}

// TestLedgerMarkdownBlockingFirst: the tests that block lead the table,
// and past MaxMarkdownRows the rest are counted, not listed.
func TestLedgerMarkdownBlockingFirst(t *testing.T) {
	r := &ledger.Result{}
	for i := 0; i < MaxMarkdownRows+5; i++ {
		r.Tests = append(r.Tests, ledger.Test{NodeID: "t" + strings.Repeat("x", i), Verdict: core.VerdictNoChange, Gate: core.GateNoClaim})
	}
	r.Tests[MaxMarkdownRows+2] = ledger.Test{NodeID: "late", Verdict: core.VerdictRegressed, Gate: core.GateBlock, Blocks: true,
		Warnings: []string{"regressed in one arm"}}
	md := LedgerMarkdown(r, Link{})
	rows := regexp.MustCompile(`(?m)^\| (tx*|late) \|`).FindAllString(md, -1)
	if len(rows) != MaxMarkdownRows || rows[0] != "| late |" {
		t.Errorf("%d rows, first %q; want %d, the blocking test first", len(rows), rows[0], MaxMarkdownRows)
	}
	for _, want := range []string{"**The gate blocks: 1 of 105 tests blocks, over 0 baseline runs and 0 patched runs.**",
		"The other 5 tests, none of which blocks", "> **Caveat:** late: regressed in one arm"} {
		if !strings.Contains(md, want) {
			t.Errorf("no %q in:\n%s", want, md)
		}
	}
}

func TestLinkLine(t *testing.T) {
	r := &gate.SizeResult{Baseline: 0.5, Patched: 0.85, Confidence: 0.95}
	for _, c := range []struct {
		link Link
		want string
	}{
		{Link{}, "not within 10,000,000 |\n"},
		{Link{URL: "https://x.example/decide"}, "\n\n[Open in flakegate](https://x.example/decide)\n"},
		{Link{URL: "https://x.example/decide", Note: LinkNote("ledger", 9000)}, "[Open in flakegate](https://x.example/decide) — This ledger is too long for a link (9 KB of summary): the link holds the settings, not the ledger. Share the ledger file with it.\n"},
		{Link{Note: LinkNote("statistics", 9000)}, "\n\nNo link: These statistics take 9,000 bytes as a link, over the 8,192-byte limit. Share them as the JSON file the calculator offers instead.\n"},
	} {
		if md := SizeMarkdown(r, c.link); !strings.HasSuffix(md, c.want) {
			t.Errorf("want the end %q in:\n%s", c.want, md)
		}
	}
}

// The budget sentence, in each runner's count: gotestsum's 2 retries and
// Bazel's 3 attempts (the first run and 2 retries) are both 2 reruns, which
// catch a 2% flake 1-0.98^2 = 3.96% of the time; 149 reruns (docs/STATISTICS.md,
// Rerun budget) at 8 s are 1 192 s = 19.9 min, and catch it 1-0.98^149 = 95.07%.
func TestBudgetSentenceRunner(t *testing.T) {
	two, three := int64(2), int64(3)
	cost := 8.0
	for _, c := range []struct {
		runner  string
		setting *int64
		want    string
	}{
		{"gotestsum", &two, "your 2 retries (--rerun-fails=2) catch a 2.0% flake 4.0% of the time; 149 reruns catch it 95.1% of the time (19.9 min at 8 s), which is --rerun-fails=149: refuse the green and open a task to make the test deterministic"},
		{"bazel-flaky-attempts", &three, "your 3 attempts (--flaky_test_attempts=3: the first run and 2 retries) catch a 2.0% flake 4.0% of the time; 149 reruns catch it 95.1% of the time (19.9 min at 8 s), which is --flaky_test_attempts=150, more than the 10 Bazel takes: refuse the green and open a task to make the test deterministic"},
		{"bazel-runs-per-test", &three, "your 3 runs (--runs_per_test=3: the first and 2 more) catch a 2.0% flake 4.0% of the time; 149 reruns catch it 95.1% of the time (19.9 min at 8 s), which is --runs_per_test=150: refuse the green and open a task to make the test deterministic"},
	} {
		in := gate.DefaultBudgetInput
		in.Rates, in.CostSeconds, in.Runner, in.Setting = []float64{0.02}, &cost, c.runner, c.setting
		res := budget(t, in)
		if got := BudgetSentence(res, res.Rows[0]); got != c.want {
			t.Errorf("%s:\n got %s\nwant %s", c.runner, got, c.want)
		}
	}
}
