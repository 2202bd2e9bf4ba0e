package main

import (
	"fmt"
	"io"
	"math"
	"strings"

	"github.com/flakegate/flakegate/core/gate"
	"github.com/flakegate/flakegate/internal/runner"
	"github.com/flakegate/flakegate/internal/words"
)

// The words of run's sequential stop: what the plan expects it to cost,
// and when and why a start stopped.

// writeSeqPlan says what stopping once the answers are known costs, beside
// the fixed plan: the expected runs per arm at the planned change and at
// none, the worst case (N), and the error rate of each claim.
func writeSeqPlan(w io.Writer, p *gate.SeqPlan) {
	if p == nil {
		return
	}
	change := fmt.Sprintf("a %s pass rate against %s", words.Level(p.Baseline), words.Level(p.Patched))
	fmt.Fprintf(w, "\nthe runs stop once every test's answer is known (-fixed makes all %s): planned for %s,\n", words.Count(p.Cap), change)
	fmt.Fprintf(w, "  with that change they stop after about %s runs per arm (finding it %s of the time), with no change after about %s;\n",
		roundRuns(p.Planned.MeanPairs), words.FixedPercent(p.Planned.Improved, 0), roundRuns(p.Equal.MeanPairs))
	fmt.Fprintf(w, "  at most %s (the cap, -n); each answer is wrong at most %s of the time however often it is looked at\n",
		words.Count(p.Cap), words.Level(1-p.Confidence))
	if p.FixedPairs != nil {
		fmt.Fprintf(w, "  a fixed plan needs %s runs per arm to find that change %s of the time; %s runs find it %s of the time\n",
			words.Count(*p.FixedPairs), words.Level(p.Target), words.Count(p.Cap), words.FixedPercent(p.FixedPower, 0))
	}
	fmt.Fprintf(w, "  (expected runs from %s simulated starts, seed %d)\n", words.Count(int64(p.Simulations)), p.Seed)
}

// roundRuns writes a mean number of runs to the unit.
func roundRuns(x float64) string { return words.Count(int64(math.Round(x))) }

// seqLines says when and why a sequential start stopped, and which tests
// changed, as lines of text.
func seqLines(sq *runner.SeqResult) []string {
	if sq == nil {
		return nil
	}
	var lines []string
	if sq.Done {
		lines = append(lines, "stopped when the answer was known: "+sq.Reason())
	} else {
		lines = append(lines, "no answer yet for every test: "+sq.Reason())
	}
	for _, t := range sq.Tests {
		switch t.Verdict {
		case runner.SeqImproved, runner.SeqRegressed:
			lines = append(lines, fmt.Sprintf("  %s %s at pair %d (baseline %d/%d clean, patched %d/%d)",
				t.Test, t.Verdict, t.Pair, t.Baseline, t.Pairs, t.Patched, t.Pairs))
		}
	}
	lines = append(lines, fmt.Sprintf("  planned for %s against %s; each answer is wrong at most %s of the time however many pairs were looked at",
		words.Level(sq.Baseline), words.Level(sq.Patched), words.Level(sq.Alpha)))
	return lines
}

// writeSeqResult prints seqLines.
func writeSeqResult(w io.Writer, sq *runner.SeqResult) {
	for _, l := range seqLines(sq) {
		fmt.Fprintln(w, l)
	}
}

// seqMarkdown is the sequential answer for a pull request's summary.
func seqMarkdown(sq *runner.SeqResult) string {
	lines := seqLines(sq)
	if lines == nil {
		return ""
	}
	var b strings.Builder
	fmt.Fprintf(&b, "\n%s%s.\n", strings.ToUpper(lines[0][:1]), lines[0][1:])
	for _, l := range lines[1:] {
		fmt.Fprintf(&b, "- %s\n", strings.TrimSpace(l))
	}
	return b.String()
}
