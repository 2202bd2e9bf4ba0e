package words

import (
	"fmt"
	"strings"

	"github.com/flakegate/flakegate/core"
	"github.com/flakegate/flakegate/core/gate"
	"github.com/flakegate/flakegate/core/ledger"
)

// Per-test verdicts of a ledger in words: the answer, the notes of tests
// short of trials, and the Markdown summary.

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

// LedgerTooLong says that a ledger's summary (bytes of link) is too long
// for a link, which then holds the settings only.
func LedgerTooLong(bytes int) string {
	return "This ledger is too long for a link (" + Count(int64(bytes)/1024+1) + " KB of summary): the link holds the settings, not the ledger. Share the ledger file with it."
}
