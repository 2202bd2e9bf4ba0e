package words

import (
	"fmt"
	"slices"

	"github.com/flakegate/flakegate/core/ledger"
)

// Flaky-test histories in words: the answer and the Markdown of every
// test whose failure a rerun passed.

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
