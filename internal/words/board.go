package words

import (
	"fmt"
	"strings"

	"github.com/flakegate/flakegate/core/compare"
	"github.com/flakegate/flakegate/internal/share"
)

// boardTiedShown is how many tied models the answer names before "and N
// more".
const boardTiedShown = 3

// BoardAnswer is the leaderboard's answer a reviewer pastes: "gpt-x leads
// with 81.0% (95% interval 77.2% to 84.8%); the eval cannot tell gpt-x from
// claude-y (p = 0.41 after Holm) or llama-z (p = 0.12 after Holm); 5 models
// fall in 2 tied groups, 7 of 10 pairs told apart."
func BoardAnswer(b *compare.Board) string {
	lead := b.Models[0]
	s := fmt.Sprintf("%s leads with %s (%s interval %s to %s)", lead.Name, Percent(lead.Accuracy), Level(b.Level), Percent(lead.Low), Percent(lead.High))
	holm := map[string]float64{}
	worst := 0.0
	for _, p := range b.Pairs {
		if p.Higher == lead.Name {
			holm[p.Lower] = p.Holm
			worst = max(worst, p.Holm)
		}
	}
	if len(lead.Tied) == 0 {
		p := "p = " + PValue(worst) + " or less"
		if worst < 0.0001 {
			p = "p " + PValue(worst)
		}
		s += "; the eval tells it apart from every other model (" + p + " after Holm)"
	} else {
		var tied []string
		for _, name := range lead.Tied[:min(len(lead.Tied), boardTiedShown)] {
			tied = append(tied, fmt.Sprintf("%s (p = %s after Holm)", name, PValue(holm[name])))
		}
		if more := len(lead.Tied) - boardTiedShown; more > 0 {
			tied = append(tied, Nouns(more, "other model"))
		}
		s += "; the eval cannot tell " + lead.Name + " from " + orJoin(tied)
	}
	told := 0
	for _, p := range b.Pairs {
		if p.Significant {
			told++
		}
	}
	return s + fmt.Sprintf("; %s fall in %s, %s of %s told apart.", Nouns(len(b.Models), "model"), Nouns(len(b.Groups), "tied group"), Count(int64(told)), Nouns(b.Comparisons, "pair"))
}

// orJoin is "a", "a or b", "a, b or c".
func orJoin(items []string) string {
	if len(items) < 2 {
		return strings.Join(items, "")
	}
	return strings.Join(items[:len(items)-1], ", ") + " or " + items[len(items)-1]
}

// BoardStory is the sentences after the answer: what the test, the
// correction, the groups and the rank intervals are, and the categories'
// multiplicity.
func BoardStory(b *compare.Board) []string {
	tests := map[string]bool{}
	for _, p := range b.Pairs {
		tests[p.Test] = true
	}
	test := "McNemar's exact test on the questions one got right and the other wrong"
	switch {
	case tests[compare.TestMcNemar] && tests[compare.TestPairedT]:
		test = "McNemar's exact test where both answered each question once, else the paired t-test of the per-question pass rates"
	case tests[compare.TestPairedT]:
		test = "the paired t-test of the per-question pass rates"
	}
	out := []string{
		fmt.Sprintf("Each pair of models is compared on the same %s by %s, as flakegate compare does for two; Holm's correction over the %s keeps the chance of any false \"differs\" at %s or less.",
			Nouns(b.Questions, "question"), test, Nouns(b.Comparisons, "pair"), Level(1-b.Level)),
		"A tied group (a letter) is a run of neighbouring rows no two of which the eval tells apart; models sharing a letter are statistically tied.",
		fmt.Sprintf("A rank interval holds every place a model could truly take: from 1 + the models significantly better to %d − those significantly worse, all of them right at once with chance %s or more.", len(b.Models), Level(b.Level)),
	}
	if len(b.Categories) > 0 {
		out = append(out, fmt.Sprintf("Per %s: each pair compared again on each %s's questions, Holm's correction over all %s (%s × %s), so a category's win is not one of many tries.",
			b.CategoryField, b.CategoryField, Nouns(b.CategoryComparisons, "comparison"), Nouns(len(b.Categories), b.CategoryField), Nouns(b.Comparisons, "pair")))
	}
	return out
}

// Table is a table: its head and its rows, a cell a column.
type Table struct {
	Head []string
	Rows [][]string
}

// BoardRows is the leaderboard's table, a row a model.
func BoardRows(b *compare.Board, models []compare.BoardModel) Table {
	var rows [][]string
	head := []string{"place", "model", "accuracy", Level(b.Level) + " interval", "rank", "group"}
	for _, m := range models {
		rows = append(rows, []string{Count(int64(m.Place)), m.Name, Percent(m.Accuracy), Percent(m.Low) + " to " + Percent(m.High), RankWords(m), m.Groups})
	}
	return Table{head, rows}
}

// RankWords is a rank interval: "2" or "1–3".
func RankWords(m compare.BoardModel) string {
	if m.RankLow == m.RankHigh {
		return Count(int64(m.RankLow))
	}
	return Count(int64(m.RankLow)) + "–" + Count(int64(m.RankHigh))
}

// PairRows is the pairs' table, a row a pair.
func PairRows(b *compare.Board, pairs []compare.BoardPair) Table {
	var rows [][]string
	head := []string{"higher", "lower", "difference", Level(b.Level) + " interval", "p", "Holm p"}
	bh := len(pairs) > 0 && pairs[0].BH != nil
	if bh {
		head = append(head, "BH p")
	}
	head = append(head, "told apart")
	for _, p := range pairs {
		row := []string{p.Higher, p.Lower, Points(p.Diff), Points(p.Low) + " to " + Points(p.High), PValue(p.PValue), PValue(p.Holm)}
		if bh {
			row = append(row, PValue(*p.BH))
		}
		told := "no"
		if p.Significant {
			told = "yes"
		}
		rows = append(rows, append(row, told))
	}
	return Table{head, rows}
}

// CategoryHead introduces one category's rows.
func CategoryHead(b *compare.Board, c compare.BoardCategory) string {
	return fmt.Sprintf("%s %s (%s): %s leads.", b.CategoryField, c.Name, Nouns(c.Questions, "question"), c.Models[0].Name)
}

// BoardMarkdown summarises a leaderboard: the answer, the table, the
// story, the pairs, the categories, the caveats and the link.
func BoardMarkdown(b *compare.Board, link Link) string {
	var m md
	m.answer(BoardAnswer(b))
	t := BoardRows(b, b.Models)
	m.table("rlrrrl", t.Head, t.Rows)
	m.list(BoardStory(b))
	t = PairRows(b, b.Pairs)
	m.table(strings.Repeat("l", 2)+strings.Repeat("r", len(t.Head)-3)+"l", t.Head, t.Rows)
	for _, c := range b.Categories {
		m.para(CategoryHead(b, c))
		t := BoardRows(b, c.Models)
		m.table("rlrrrl", t.Head, t.Rows)
	}
	m.caveats(b.Warnings)
	m.link(link)
	return m.String()
}

// BoardTooLong says that a leaderboard's questions (bytes of link) are too
// many for a link.
func BoardTooLong(bytes int) string {
	return fmt.Sprintf("These models' questions take %s bytes as a link, over the %s-byte limit: share the leaderboard's -json or -markdown instead.",
		Count(int64(bytes)), Count(share.MaxFragment))
}
