package words

import (
	"fmt"
	"slices"
	"strings"

	"github.com/flakegate/flakegate/core"
	"github.com/flakegate/flakegate/core/aa"
	"github.com/flakegate/flakegate/core/gate"
	"github.com/flakegate/flakegate/core/ledger"
	"github.com/flakegate/flakegate/share"
)

// The Markdown summaries are what a reviewer reads in a pull request: the
// answer in one plain sentence first (in bold), then the table of figures,
// then the caveats, then the link that reopens the view. They are
// GitHub-flavoured Markdown that reads as plain text in a terminal: no HTML,
// one table per question, caveats as quoted lines.

// Link is where a summary's result reopens: the URL of the calculator view
// that reproduces it, and a note when that link leaves part of the result
// out or cannot be made (too long a state). Both may be empty: a summary
// without a link says nothing about one.
type Link struct {
	URL  string
	Note string
}

// MaxMarkdownRows is the most rows a per-test table lists (blocking tests
// first); the rest are counted in a line under it.
const MaxMarkdownRows = 100

// md collects a summary in the order every summary follows.
type md struct{ b strings.Builder }

// answer writes the answer: bold, one sentence, then a blank line.
func (m *md) answer(s string) { m.b.WriteString("**" + mdEscape(s) + "**\n\n") }

// para writes a paragraph of plain text.
func (m *md) para(s string) { m.b.WriteString(mdEscape(s) + "\n\n") }

// list writes a bullet list.
func (m *md) list(items []string) {
	if len(items) == 0 {
		return
	}
	for _, it := range items {
		m.b.WriteString("- " + mdEscape(it) + "\n")
	}
	m.b.WriteString("\n")
}

// table writes a table; align holds one of "l" or "r" per column.
func (m *md) table(align string, head []string, rows [][]string) {
	if len(rows) == 0 {
		return
	}
	line := func(cells []string) {
		esc := make([]string, len(cells))
		for i, c := range cells {
			esc[i] = mdEscape(c)
		}
		m.b.WriteString("| " + strings.Join(esc, " | ") + " |\n")
	}
	line(head)
	seps := make([]string, len(head))
	for i := range seps {
		seps[i] = "---"
		if i < len(align) && align[i] == 'r' {
			seps[i] = "---:"
		}
	}
	m.b.WriteString("|" + strings.Join(seps, "|") + "|\n")
	for _, r := range rows {
		line(r)
	}
	m.b.WriteString("\n")
}

// caveats writes each warning as a quoted line.
func (m *md) caveats(ws []string) {
	for _, w := range ws {
		m.b.WriteString("> **Caveat:** " + mdEscape(w) + "\n\n")
	}
}

// link writes the link line, or the note of why there is none.
func (m *md) link(l Link) {
	switch {
	case l.URL != "" && l.Note != "":
		m.b.WriteString("[Open in flakegate](" + l.URL + ") — " + mdEscape(l.Note) + "\n\n")
	case l.URL != "":
		m.b.WriteString("[Open in flakegate](" + l.URL + ")\n\n")
	case l.Note != "":
		m.b.WriteString("No link: " + mdEscape(l.Note) + "\n\n")
	}
}

// CaveatsMarkdown is caveats as a summary writes them, each a quoted line
// after a blank one ("" for none): for a surface that adds its own to a
// summary.
func CaveatsMarkdown(ws []string) string {
	var m md
	m.caveats(ws)
	if m.b.Len() == 0 {
		return ""
	}
	return "\n" + strings.TrimRight(m.b.String(), "\n") + "\n"
}

// LinkMarkdown is a summary's link line after a blank one, or the note of
// why there is none ("" for neither).
func LinkMarkdown(l Link) string {
	var m md
	m.link(l)
	if m.b.Len() == 0 {
		return ""
	}
	return "\n" + strings.TrimRight(m.b.String(), "\n") + "\n"
}

// String is the summary, ending in exactly one newline.
func (m *md) String() string { return strings.TrimRight(m.b.String(), "\n") + "\n" }

// mdEscape keeps text from becoming Markdown it did not mean: table pipes,
// line breaks, and the characters that start emphasis, code or HTML. An
// underscore inside a word (test_name) is left alone: GitHub does not read
// it as emphasis, and a terminal shows it as it is.
func mdEscape(s string) string {
	return strings.NewReplacer("|", `\|`, "\r\n", " ", "\n", " ", "\r", " ", "<", `\<`, "`", "\\`", "*", `\*`).Replace(s)
}

// Interval writes a Wilson interval of fractions as percentages: "[38.0%, 62.0%]".
func Interval(lo, hi float64) string { return "[" + Percent(lo) + ", " + Percent(hi) + "]" }

// CountRate writes a count with its rate: "17/20 (85.0%)", or "0/0" with
// no trials.
func CountRate(passed, trials int64) string {
	s := Fraction(passed, trials)
	if trials > 0 {
		s += " (" + Percent(float64(passed)/float64(trials)) + ")"
	}
	return s
}

func armRate(a gate.Arm) string { return CountRate(a.Passed, a.Trials) }

// LaneWords says what a lane of the merge gate does, in a few words.
func LaneWords(lane string) string {
	switch lane {
	case core.LaneGate:
		return "rerun in the gate"
	case core.LaneNightly:
		return "nightly lane"
	case core.LaneRefuseGreen:
		return "refuse the green"
	case core.LaneQuarantine:
		return "quarantine"
	case core.LaneUnreachable:
		return "nothing to catch"
	}
	return lane
}

// BudgetMarkdown summarises a rerun budget: whether the gate can see each
// flake, what the cap catches, and what catching it takes.
func BudgetMarkdown(r *gate.BudgetResult, link Link) string {
	var m md
	m.answer(BudgetAnswer(r))
	var says []string
	for _, row := range r.Rows {
		says = append(says, capitalize(BudgetSentence(r, row))+".")
	}
	m.list(says)
	if o := r.Observed; o != nil {
		m.para(fmt.Sprintf("Observed %s in %s: rate %s, %s Wilson interval %s; the plan uses the upper end.",
			Nouns(o.Fails, "failure"), Nouns(o.Runs, "run"), Percent(o.Rate), Level(r.Confidence), Interval(o.Lower, o.Upper)))
	}
	head := []string{"failure rate", "reruns for " + Level(r.Target), "caught with them", "with one fewer", AtCapHead(r), "runner time", "lane"}
	align := "rrrrrrl"
	if r.Runner != nil {
		head, align = append(head, "setting for "+Level(r.Target)), align+"l"
	}
	var rows [][]string
	for _, row := range r.Rows {
		k, power, short, secs := "—", "—", "—", "—"
		switch {
		case row.Reruns != nil:
			k = Count(*row.Reruns)
		case row.RerunsOverflow:
			k = "beyond int64"
		case row.Lane == core.LaneUnreachable:
			k = "never"
		}
		if row.Power != nil {
			power = Percent(*row.Power)
		}
		if row.PowerOneShort != nil {
			short = Percent(*row.PowerOneShort)
		}
		if row.Seconds != nil {
			secs = Duration(*row.Seconds)
		}
		rate := Percent(row.Rate)
		if row.Source == "observed_upper" {
			rate += " (observed, upper end)"
		}
		cells := []string{rate, k, power, short, Percent(row.PowerAtCap), secs, LaneWords(row.Lane)}
		if r.Runner != nil {
			cells = append(cells, RowSettingCell(r, row))
		}
		rows = append(rows, cells)
	}
	m.table(align, head, rows)
	m.caveats(r.Warnings)
	m.link(link)
	return m.String()
}

// BudgetAnswer is a budget's answer in one sentence: does the gate see
// every flake within its cap?
func BudgetAnswer(r *gate.BudgetResult) string {
	over := 0
	for _, row := range r.Rows {
		if row.OverCap {
			over++
		}
	}
	cap, _ := CapPhrase(r)
	switch {
	case over == 0 && BudgetBeyondGate(r) > 0:
		// Within the cap, yet more reruns than a merge gate should spend:
		// the answer says what the row's lane says.
		heavy := BudgetBeyondGate(r)
		if len(r.Rows) == 1 {
			return "The gate passes within your cap of " + cap + ", but this flake needs more reruns than a merge gate should spend: do not trust a green run (see its lane)."
		}
		return fmt.Sprintf("The gate passes within your cap of %s, but %s of %s failure rates need more reruns than a merge gate should spend: do not trust a green run for them (see their lanes).",
			cap, Count(int64(heavy)), Count(int64(len(r.Rows))))
	case over == 0:
		return "The gate passes: every failure rate is caught " + Level(r.Target) + " of the time within your cap of " + cap + "."
	case len(r.Rows) == 1:
		return "The gate blocks: this flake needs more reruns than your cap of " + cap + ", so a green run does not rule it out."
	}
	need, them := "need", "them"
	if over == 1 {
		need, them = "needs", "it"
	}
	return fmt.Sprintf("The gate blocks: %s of %s %s more reruns than your cap of %s, so a green run does not rule %s out.",
		Count(int64(over)), Nouns(len(r.Rows), "failure rate"), need, cap, them)
}

// BudgetSentence says what a budget row means, in the words a reviewer
// pastes: "your 3 reruns catch a 2.0% flake 5.9% of the time; 149 reruns
// catch it 95.0% of the time (19.9 min at 8 s): refuse the green and open a
// task to make the test deterministic". It starts in lower case.
func BudgetSentence(r *gate.BudgetResult, row gate.BudgetRow) string {
	flake := Article(Percent(row.Rate)) + " flake"
	if row.Source == "observed_upper" && r.Observed != nil {
		flake += " (the upper end of " + Count(r.Observed.Fails) + " in " + Count(r.Observed.Runs) + ")"
	}
	if row.Lane == core.LaneUnreachable {
		return "a test that never fails has no flake for reruns to catch"
	}
	yours, one := CapPhrase(r)
	have := "your " + yours + " catch " + flake + " " + Percent(row.PowerAtCap) + " of the time"
	if one {
		have = "your " + yours + " catches " + flake + " " + Percent(row.PowerAtCap) + " of the time"
	}
	if r.Cap == 0 {
		have = "with " + yours + " the gate never catches " + flake
	}
	if row.Reruns == nil {
		return have + "; no rerun budget catches it " + Level(r.Target) + " of the time: " + row.Action
	}
	need := Nouns(*row.Reruns, "rerun") + " catch it " + Percent(*row.Power) + " of the time"
	if *row.Reruns == 1 {
		need = "1 rerun catches it " + Percent(*row.Power) + " of the time"
	}
	if row.Seconds != nil && r.CostSeconds != nil {
		need += " (" + Duration(*row.Seconds) + " at " + Duration(*r.CostSeconds) + ")"
	}
	if s := row.Runner; s != nil {
		need += ", which is " + SettingWords(r.Runner, *s)
	}
	if !row.OverCap {
		need = "already " + need
	}
	return have + "; " + need + ": " + row.Action
}

// CapPhrase is today's cap in words, as the runner counts it when the
// result has one: "3 reruns", "2 retries (--rerun-fails=2)", "3 attempts
// (--flaky_test_attempts=3: the first run and 2 retries)", "no reruns".
// One reports that the phrase is singular (the verb agrees with it).
func CapPhrase(r *gate.BudgetResult) (phrase string, one bool) {
	rs := r.Runner
	if rs == nil {
		if r.Cap == 0 {
			return "no reruns", false
		}
		return Nouns(r.Cap, "rerun"), r.Cap == 1
	}
	switch rs.Counts {
	case gate.CountsRetries:
		if rs.Setting == 0 {
			return "no retries (" + rs.Written + ")", false
		}
		return retries(rs.Setting) + " (" + rs.Written + ")", rs.Setting == 1
	case gate.CountsAttempts:
		return Nouns(rs.Setting, "attempt") + " (" + rs.Written + ": the first run and " + retriesAfter(r.Cap) + ")", rs.Setting == 1
	}
	return Nouns(rs.Setting, "run") + " (" + rs.Written + ": the first and " + Count(r.Cap) + " more)", rs.Setting == 1
}

func retriesAfter(n int64) string {
	if n == 0 {
		return "no retry"
	}
	return retries(n)
}

// SettingCount is a runner setting's value with what it counts: "2
// retries", "1 attempt", "3 runs".
func SettingCount(rs *gate.RunnerSetting) string {
	switch rs.Counts {
	case gate.CountsRetries:
		return retries(rs.Setting)
	case gate.CountsAttempts:
		return Nouns(rs.Setting, "attempt")
	}
	return Nouns(rs.Setting, "run")
}

// retries is a count of retries: "1 retry", "2 retries".
func retries(n int64) string {
	if n == 1 {
		return "1 retry"
	}
	return Count(n) + " retries"
}

// SettingWords is a budget row's reruns as the runner's setting:
// "--rerun-fails=149", or "--flaky_test_attempts=150, more than the 10
// Bazel takes".
func SettingWords(rs *gate.RunnerSetting, s gate.RowSetting) string {
	if s.OverMax && rs != nil && rs.Max != nil {
		tool := rs.Name
		if r, ok := gate.LookupRunner(rs.Name); ok {
			tool = r.Tool
		}
		return s.Written + ", more than the " + Count(*rs.Max) + " " + tool + " takes"
	}
	return s.Written
}

// AtCapHead heads the column of the power at today's cap: "at your cap of
// 3", or "at your --rerun-fails=2".
func AtCapHead(r *gate.BudgetResult) string {
	if r.Runner != nil {
		return "at your " + r.Runner.Written
	}
	return "at your cap of " + Count(r.Cap)
}

// RowSettingCell is a row's budget as the runner's setting, for a table
// cell: "--rerun-fails=149", "--flaky_test_attempts=150 (Bazel takes at
// most 10)", or "—" without a budget.
func RowSettingCell(r *gate.BudgetResult, row gate.BudgetRow) string {
	s := row.Runner
	if s == nil {
		return "—"
	}
	if s.OverMax && r.Runner != nil && r.Runner.Max != nil {
		return s.Written + " (over the " + Count(*r.Runner.Max) + " it takes)"
	}
	return s.Written
}

// RunnerLabel names a runner's setting for a form's choices and a table's
// head: "gotestsum --rerun-fails=N (retries)".
func RunnerLabel(r gate.Runner) string { return r.Tool + " " + r.Flag() + " (" + r.Counts + ")" }

// FlakesMarkdown summarises the budgets of every flaky test found in test
// reports, the costliest flake first.
func FlakesMarkdown(r *ledger.FlakesResult, link Link) string {
	var m md
	m.answer(FlakesAnswer(r))
	if len(r.Flakes) == 0 {
		m.caveats(r.Warnings)
		m.link(link)
		return m.String()
	}
	in := r.Flakes[0].Budget
	head := []string{"test", "arm", "failed / ran", "plan at (upper end)", "reruns for " + Level(in.Target),
		AtCapHead(in), "runner time", "lane"}
	align := "lllrrrrl"
	if in.CostSeconds != nil {
		head = slices.Insert(head, 3, "costs per run")
		align = "lllr" + align[3:]
	}
	if in.Runner != nil {
		head, align = append(head, "setting for "+Level(in.Target)), align+"l"
	}
	var rows [][]string
	for i, f := range r.Flakes {
		if i == MaxMarkdownRows {
			break
		}
		row := f.Budget.Rows[0]
		k, secs := "—", "—"
		if row.Reruns != nil {
			k = Count(*row.Reruns)
		} else if row.RerunsOverflow {
			k = "beyond int64"
		}
		if row.Seconds != nil {
			secs = Duration(*row.Seconds)
		}
		cells := []string{f.NodeID, f.Arm, Fraction(f.Fails, f.Executions), Percent(row.Rate), k,
			Percent(row.PowerAtCap), secs, LaneWords(row.Lane)}
		if in.CostSeconds != nil {
			cost := "—"
			if f.CostPerRun != nil {
				cost = Duration(*f.CostPerRun)
			}
			cells = slices.Insert(cells, 3, cost)
		}
		if in.Runner != nil {
			cells = append(cells, RowSettingCell(f.Budget, row))
		}
		rows = append(rows, cells)
	}
	m.table(align, head, rows)
	if more := len(r.Flakes) - MaxMarkdownRows; more > 0 {
		m.para(fmt.Sprintf("The other %s, each cheaper than those above, are in the JSON.", Nouns(more, "flaky test")))
	}
	if in.CostSeconds != nil {
		m.para("Costliest first: a flake costs its failure rate times the runner time of a run (" + Duration(*in.CostSeconds) + ").")
	}
	m.caveats(r.Warnings)
	m.link(link)
	return m.String()
}

// FlakesAnswer is the answer of a flaky-test budget in one sentence.
func FlakesAnswer(r *ledger.FlakesResult) string {
	if len(r.Flakes) == 0 {
		return fmt.Sprintf("No test both failed and passed in %s of %s: no flake to size.", Nouns(r.Runs, "run"), Nouns(r.Tests, "test"))
	}
	in := r.Flakes[0].Budget
	over := 0
	for _, f := range r.Flakes {
		if f.Budget.Blocks() {
			over++
		}
	}
	flaked := fmt.Sprintf("%s of %s flaked in %s", Count(int64(len(r.Flakes))), Nouns(r.Tests, "test"), Nouns(r.Runs, "run"))
	cap, _ := CapPhrase(in)
	if over == 0 {
		return "The gate passes: " + flaked + ", and your cap of " + cap + " catches each " + Level(in.Target) + " of the time."
	}
	need := "needs"
	if over > 1 {
		need = "need"
	}
	return fmt.Sprintf("The gate blocks: %s, and %s of them %s more reruns than your cap of %s.", flaked, Count(int64(over)), need, cap)
}

// GateSentence says what a two-arm gate does, as the start of a sentence.
func GateSentence(g string) string {
	switch g {
	case core.GateBlock:
		return "The gate blocks the patch"
	case core.GateQuarantine:
		return "The gate blocks and quarantines the test, attributing nothing to the patch"
	case core.GateNoClaim:
		return "The gate does not block, but the patch cannot claim a flake fix"
	case core.GateAccept:
		return "The gate accepts the patch"
	case core.GateOwed:
		return "The gate does not block yet: accept the improvement only once a deterministic property check passes"
	}
	return "The gate says " + g
}

// VerdictClause says why, from the two arms: "the pass rate fell from
// 85.0% (51/60) to 50.0% (30/60), and their 95% Wilson intervals do not
// overlap".
func VerdictClause(verdict string, baseline, patched gate.Arm, minTrials int64, confidence float64) string {
	b, p := armRates(baseline, patched)
	switch verdict {
	case core.VerdictImproved:
		return "the pass rate rose from " + b + " to " + p + ", and their " + Level(confidence) + " Wilson intervals do not overlap"
	case core.VerdictRegressed:
		return "the pass rate fell from " + b + " to " + p + ", and their " + Level(confidence) + " Wilson intervals do not overlap"
	case core.VerdictNoChange:
		return "the " + Level(confidence) + " Wilson intervals of " + b + " and " + p + " overlap, so no change is shown"
	case core.VerdictUnderpowered:
		return fmt.Sprintf("an arm has fewer than %s (baseline %s, patched %s), too few to tell: %s", Nouns(minTrials, "trial"), Count(baseline.Trials), Count(patched.Trials),
			gate.TrialsShort(minTrials, baseline.Trials, patched.Trials))
	}
	return "the verdict is " + verdict
}

// VerdictWords is a two-arm verdict in a few words, for a table cell.
func VerdictWords(verdict string) string {
	switch verdict {
	case core.VerdictImproved:
		return "rose"
	case core.VerdictRegressed:
		return "fell"
	case core.VerdictNoChange:
		return "no change shown"
	case core.VerdictUnderpowered:
		return "too few trials"
	}
	return verdict
}

// GateWords is a gate action in a few words, for a table cell.
func GateWords(g string) string {
	switch g {
	case core.GateBlock:
		return "blocks"
	case core.GateQuarantine:
		return "blocks: quarantine"
	case core.GateNoClaim:
		return "passes, no claim"
	case core.GateAccept:
		return "accepts"
	case core.GateOwed:
		return "passes, check owed"
	}
	return g
}

// DecideMarkdown summarises a two-arm verdict and, when known, the trials
// per arm that would separate the observed rates.
func DecideMarkdown(r *gate.DecideResult, size *gate.SizeResult, link Link) string {
	var m md
	m.answer(DecideAnswer(r))
	var rows [][]string
	for _, a := range []struct {
		n string
		a gate.Arm
	}{{"baseline", r.Baseline}, {"patched", r.Patched}} {
		rt := "—"
		if a.a.Rate != nil {
			rt = Percent(*a.a.Rate)
		}
		rows = append(rows, []string{a.n, Fraction(a.a.Passed, a.a.Trials), rt, Interval(a.a.Lower, a.a.Upper)})
	}
	m.table("lrrr", []string{"arm", "passed / trials", "pass rate", Level(r.Confidence) + " Wilson interval"}, rows)
	m.para(AnytimeSentence(r))
	if size != nil {
		m.para(SizeSentence(size))
	}
	warns := r.Warnings
	if size != nil {
		for _, w := range size.Warnings {
			warns = append(warns[:len(warns):len(warns)], "sizing: "+w)
		}
	}
	m.caveats(warns)
	m.link(link)
	return m.String()
}

// SizeSentence says how many trials per arm separate two pass rates.
func SizeSentence(s *gate.SizeResult) string {
	if s.TrialsPerArm == nil {
		return fmt.Sprintf("Pass rates of %s and %s do not separate within %s trials per arm at %s confidence.",
			Percent(s.Baseline), Percent(s.Patched), Count(gate.SizeLimit), Level(s.Confidence))
	}
	return fmt.Sprintf("%s trials per arm separate pass rates of %s and %s: from there their %s Wilson intervals no longer overlap.",
		Count(*s.TrialsPerArm), Percent(s.Baseline), Percent(s.Patched), Level(s.Confidence))
}

// SizeMarkdown summarises a sizing: the trials per arm that separate two
// pass rates.
func SizeMarkdown(r *gate.SizeResult, link Link) string {
	var m md
	m.answer(SizeSentence(r))
	n := "not within " + Count(gate.SizeLimit)
	if r.TrialsPerArm != nil {
		n = Count(*r.TrialsPerArm)
	}
	m.table("rrrr", []string{"baseline pass rate", "patched pass rate", "confidence", "trials per arm"},
		[][]string{{Percent(r.Baseline), Percent(r.Patched), Level(r.Confidence), n}})
	m.caveats(r.Warnings)
	m.link(link)
	return m.String()
}

// FreezeAnswer is a frozen claim's status in one sentence.
func FreezeAnswer(r *gate.FreezeResult) string {
	c := r.Claim
	claim := CountRate(c.Passed, c.Trials) + ", " + Level(c.Confidence) + " Wilson interval " + Interval(c.Lower, c.Upper)
	if c.Date != "" {
		claim += ", measured " + c.Date
	}
	n := r.Newer
	switch r.Status {
	case gate.FreezeValid:
		return "The claim holds: the newer rate, " + armRate(*n) + ", is inside the claim's interval (" + claim + ")."
	case gate.FreezeStale:
		return "The claim is stale: the newer rate, " + armRate(*n) + ", left the claim's interval (" + claim + "); measure the test again."
	case gate.FreezeNotComparable:
		return fmt.Sprintf("Too few newer trials to judge the claim: %s against the claim's %s (%s).", Count(n.Trials), Count(c.Trials), claim)
	}
	return "Claim recorded: " + claim + "; check it against a newer count later."
}

// FreezeMarkdown summarises a frozen rate claim and its check.
func FreezeMarkdown(r *gate.FreezeResult, link Link) string {
	var m md
	m.answer(FreezeAnswer(r))
	c := r.Claim
	rows := [][]string{{"claim", Fraction(c.Passed, c.Trials), Percent(c.Rate), Interval(c.Lower, c.Upper)}}
	if n := r.Newer; n != nil {
		rt := "—"
		if n.Rate != nil {
			rt = Percent(*n.Rate)
		}
		rows = append(rows, []string{"newer", Fraction(n.Passed, n.Trials), rt, Interval(n.Lower, n.Upper)})
	}
	m.table("lrrr", []string{"", "passed / trials", "pass rate", Level(c.Confidence) + " Wilson interval"}, rows)
	m.caveats(r.Warnings)
	m.link(link)
	return m.String()
}

// maxTestCaveats is the most caveats of single tests a ledger's summary
// lists.
const maxTestCaveats = 5

// LedgerAnswer is a ledger's answer in one sentence.
func LedgerAnswer(r *ledger.Result) string {
	blocked := 0
	for _, t := range r.Tests {
		if t.Blocks {
			blocked++
		}
	}
	runs := Nouns(r.Runs.Baseline, "baseline run") + " and " + Nouns(r.Runs.Patched, "patched run")
	if blocked == 0 {
		if len(r.Tests) == 1 {
			return "The gate passes: its one test does not block, over " + runs + "."
		}
		return fmt.Sprintf("The gate passes: none of %s blocks, over %s.", Nouns(len(r.Tests), "test"), runs)
	}
	// The verb agrees with the count, as the gate line's does: "1 of 3
	// tests blocks", "2 of 3 tests block".
	verb := "block"
	if blocked == 1 {
		verb = "blocks"
	}
	return fmt.Sprintf("The gate blocks: %s of %s %s, over %s.", Count(int64(blocked)), Nouns(len(r.Tests), "test"), verb, runs)
}

// TrialsShortNotes say, for the tests that block because an arm has too
// few trials (underpowered: the decision table quarantines them), how many
// more trials each arm needs before a verdict is possible: "pkg.TestX: a
// verdict needs 15 more baseline trials and 19 more patched trials"; at
// most maxTestCaveats, then how many more tests are short.
func TrialsShortNotes(r *ledger.Result) []string {
	var out []string
	short := 0
	for _, t := range r.Tests {
		if t.Verdict != core.VerdictUnderpowered {
			continue
		}
		if short++; short <= maxTestCaveats {
			out = append(out, t.NodeID+": "+gate.TrialsShort(r.MinTrials, t.Baseline.Trials, t.Patched.Trials))
		}
	}
	if short > maxTestCaveats {
		out = append(out, fmt.Sprintf("and %s more with too few trials for a verdict (the JSON has every count)", Nouns(short-maxTestCaveats, "test")))
	}
	return out
}

// LedgerMarkdown summarises a ledger's per-test verdicts, the tests that
// block first.
func LedgerMarkdown(r *ledger.Result, link Link) string {
	var m md
	m.answer(LedgerAnswer(r))
	order := make([]ledger.Test, 0, len(r.Tests))
	for _, t := range r.Tests {
		if t.Blocks {
			order = append(order, t)
		}
	}
	for _, t := range r.Tests {
		if !t.Blocks {
			order = append(order, t)
		}
	}
	var rows [][]string
	for i, t := range order {
		if i == MaxMarkdownRows {
			break
		}
		rows = append(rows, []string{t.NodeID, armRate(t.Baseline), armRate(t.Patched), VerdictWords(t.Verdict), GateWords(t.Gate)})
	}
	m.table("lrrll", []string{"test", "baseline passed", "patched passed", "change", "gate"}, rows)
	if more := len(order) - MaxMarkdownRows; more > 0 {
		m.para(fmt.Sprintf("The other %s, none of which blocks, are in the JSON and behind the link.", Nouns(more, "test")))
	}
	// The caveats of the tests that block, a few: the rest are in the JSON.
	warns := append([]string(nil), r.Warnings...)
	own := 0
	for _, t := range order {
		if !t.Blocks {
			break
		}
		for _, w := range t.Warnings {
			if t.Verdict == core.VerdictUnderpowered && strings.HasPrefix(w, "an arm has fewer than") {
				w += "; " + gate.TrialsShort(r.MinTrials, t.Baseline.Trials, t.Patched.Trials)
			}
			if own++; own <= maxTestCaveats {
				warns = append(warns, t.NodeID+": "+w)
			}
		}
	}
	if own > maxTestCaveats {
		warns = append(warns, fmt.Sprintf("%d more caveats of single tests are in the JSON.", own-maxTestCaveats))
	}
	m.caveats(warns)
	m.link(link)
	return m.String()
}

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

// LinkOf is the link of a view on site (a share.ParseSite address; ""
// when the calculator's address is unknown, which gives no link and no
// note) with the note of what it leaves out.
func LinkOf(v share.View, site string) Link {
	if site == "" {
		return Link{}
	}
	return Link{URL: v.URL(site), Note: LinkNote(v.Left, v.LeftBytes)}
}

// LinkNote says what a link leaves out, in the page's words: left is
// share.View.Left and bytes the fragment the left-out part would have
// taken.
func LinkNote(left string, bytes int) string {
	switch left {
	case share.LeftLedger:
		return LedgerTooLong(bytes)
	case share.LeftStatistics:
		return AATooLong(bytes)
	case share.LeftRegistry:
		return RegistryTooLong(bytes)
	case share.LeftComparison:
		return CompareTooLong(bytes)
	case share.LeftHistory:
		return HistoryTooLong(bytes)
	case share.LeftRates:
		return "these pass rates have no exact passed/trials form the two-arm calculator could open."
	}
	return ""
}

// AALink is the link of an A/A view on site (LinkOf), whose note also
// says what the calculator shows differently: it computes with
// aa.DefaultOptions, so a result with other thresholds, drops, rule or
// seed, or a simulation, shows with the defaults there; and the reports'
// reading notes (notes true: they are among the result's warnings) are not
// in the link.
func AALink(v share.View, site string, opt aa.Options, notes bool) Link {
	l := LinkOf(v, site)
	if site == "" {
		return l
	}
	d := aa.DefaultOptions
	defaults := slices.Equal(opt.Ks, d.Ks) && slices.Equal(opt.Drops, d.Drops) && opt.Depth == d.Depth && opt.Simulate == nil
	var shows string
	switch {
	case !defaults && notes:
		shows = "The calculator shows these statistics with its default thresholds and analyses, and without the reports' reading notes."
	case !defaults:
		shows = "The calculator shows these statistics with its default thresholds and analyses."
	case notes:
		shows = "The calculator shows these statistics without the reports' reading notes."
	}
	l.Note = strings.TrimSpace(l.Note + " " + shows)
	return l
}

// LedgerTooLong says that a ledger's summary (bytes of link) is too long
// for a link, which then holds the settings only.
func LedgerTooLong(bytes int) string {
	return "This ledger is too long for a link (" + Count(int64(bytes)/1024+1) + " KB of summary): the link holds the settings, not the ledger. Share the ledger file with it."
}

// AATooLong says that A/A statistics (bytes of link) are too long for a
// link.
func AATooLong(bytes int) string {
	return fmt.Sprintf("These statistics take %s bytes as a link, over the %s-byte limit. Share them as the JSON file the calculator offers instead.",
		Count(int64(bytes)), Count(share.MaxFragment))
}

func capitalize(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}
