package words

import (
	"cmp"
	"fmt"

	"github.com/flakegate/flakegate/core"
	"github.com/flakegate/flakegate/core/gate"
)

// The rerun budget in words: its answer, the sentence of each rate, the
// runner's own setting, and the Markdown summary.

// LaneWords says what a lane of the merge gate does, in a few words.
func LaneWords(lane string) string { return cmp.Or(lanes[lane].words, lane) }

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
