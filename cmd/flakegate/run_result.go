package main

import (
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/flakegate/flakegate/core"
	"github.com/flakegate/flakegate/core/aa"
	"github.com/flakegate/flakegate/core/gate"
	"github.com/flakegate/flakegate/core/ledger"
	"github.com/flakegate/flakegate/internal/runner"
	"github.com/flakegate/flakegate/internal/share"
	"github.com/flakegate/flakegate/internal/words"
)

// writeRunResult prints the end of flakegate run: what the start ran, the
// runs that failed on their own, and the verdict of the whole ledger. It
// is the one place the command's result is printed.
func writeRunResult(e *env, res *runner.Result) error {
	w := e.stdout
	plan := res.Plan
	fmt.Fprintf(w, "%s holds %s", plan.Ledger, core.Nouns(res.Runs.Baseline, "baseline run"))
	if len(plan.Arms) > 1 {
		fmt.Fprintf(w, " and %s", core.Nouns(res.Runs.Patched, armNoun(res)+" run"))
	}
	fmt.Fprintf(w, "; this start ran %s in %s", core.Nouns(res.Ran, "run"), words.Duration(res.Seconds))
	if plan.Seconds != nil && res.Stop == "" && res.Ran > 0 {
		fmt.Fprintf(w, " (planned: about %s)", words.Duration(*plan.Seconds))
	}
	fmt.Fprintln(w)
	if res.Stop != "" {
		fmt.Fprintf(w, "stopped early: %s. Every finished run is in the ledger; start again with it to go on.\n", res.StopReason)
	}
	writeSeqResult(w, res.Sequential)
	if len(res.Errors) > 0 {
		own, them := "their own", "them"
		if len(res.Errors) == 1 {
			own, them = "its own", "it"
		}
		fmt.Fprintf(w, "\n%s failed on %s: no trials, not test failures; the next start runs %s again:\n", core.Nouns(len(res.Errors), "run"), own, them)
		for _, r := range res.Errors {
			fmt.Fprintf(w, "  %s %s: %s\n", r.Run, r.Arm, r.Error)
		}
	}
	fmt.Fprintln(w)
	switch {
	case res.Verdict != nil:
		writeLedger(w, res.Verdict)
	case res.AA != nil:
		if err := writeAA(e, res.AA); err != nil {
			return err
		}
	}
	writeWarnings(w, res.Warnings)
	return nil
}

// armNoun is what the second arm is called: a candidate in an eval.
func armNoun(res *runner.Result) string {
	if res.Gate == runner.GateAA {
		return "candidate"
	}
	return "patched"
}

// writePlan prints a dry run's plan and whether N answers the question.
func writePlan(e *env, out *output, plan *runner.Plan, measured []runner.Record, aa bool) error {
	res := struct {
		*runner.Plan
		Measured []runner.Record `json:"measured"`
	}{plan, append([]runner.Record{}, measured...)}
	return out.print(e, printed{res: res,
		text: func(w io.Writer) error { writePlanText(w, plan, measured, aa); return nil }})
}

// writePlanText is a dry run's text report.
func writePlanText(w io.Writer, plan *runner.Plan, measured []runner.Record, aa bool) {
	n := plan.RunsPerArm
	fmt.Fprintf(w, "plan: %d runs of each arm, %s (%s), into %s\n", n, orderWord(plan.Order), firstIDs(plan.SequenceIDs, 6), plan.Ledger)
	t := newTable(w)
	for _, a := range plan.Arms {
		where := "in " + a.Dir
		switch {
		case a.Ref != "":
			where = fmt.Sprintf("in a worktree of %s (%.12s)", a.Ref, a.Commit)
		case a.Dir == "":
			where = "in the current directory"
		}
		todo := fmt.Sprintf("%d to run", a.ToRun)
		if a.Done > 0 {
			todo += fmt.Sprintf(", %d recorded", a.Done)
		}
		t.row(a.Name, a.Command, where, todo)
	}
	t.flush()
	for _, r := range measured {
		if r.Outcome == runner.OutcomeDone {
			fmt.Fprintf(w, "measured: %s %s took %s, %d/%d passed\n", r.Run, r.Arm, words.Duration(r.Seconds), r.Passed, r.Trials)
		} else {
			fmt.Fprintf(w, "measured: %s %s took %s and failed: %s\n", r.Run, r.Arm, words.Duration(r.Seconds), r.Error)
		}
	}
	runs := core.Nouns(len(plan.Sequence), "run")
	switch {
	case plan.Seconds != nil:
		fmt.Fprintf(w, "time: %s at %s a run (%s) take about %s", runs, words.Duration(*plan.CostSeconds),
			costWord(plan.CostSource), words.Duration(*plan.Seconds))
	default:
		fmt.Fprintf(w, "time: %s at a cost not known yet (give -cost, or -measure)", runs)
	}
	if plan.MaxSeconds > 0 {
		fmt.Fprintf(w, "; time budget %s", words.Duration(plan.MaxSeconds))
		if plan.Seconds != nil && *plan.Seconds > plan.MaxSeconds {
			fmt.Fprintf(w, ", which stops the runs first")
		}
	} else {
		fmt.Fprint(w, "; no time budget (-max-time)")
	}
	fmt.Fprintln(w)
	if plan.Trials != nil {
		fmt.Fprintf(w, "trials: about %s (%s a run)", intText(*plan.Trials), strconv.FormatFloat(math.Round(*plan.TrialsPerRun*10)/10, 'f', -1, 64))
	} else {
		fmt.Fprint(w, "trials: one per test per run")
	}
	if plan.MaxTrials > 0 {
		fmt.Fprintf(w, "; trial budget %d", plan.MaxTrials)
		if plan.Trials != nil && *plan.Trials > float64(plan.MaxTrials) {
			fmt.Fprint(w, ", which stops the runs first")
		}
	} else {
		fmt.Fprint(w, "; no trial budget (-max-trials or $FLAKE_BUDGET)")
	}
	fmt.Fprintln(w)
	writeSizing(w, plan.Sizing, aa)
	writeSeqPlan(w, plan.Sequential)
	writeWarnings(w, plan.Warnings)
}

func costWord(source string) string {
	switch source {
	case "given":
		return "as given"
	case "ledger":
		return "the mean of the ledger's runs"
	case "measured":
		return "measured"
	}
	return source
}

// writeSizing says whether N runs per arm answer the question: do the pass
// rates separate, and what is the detection power (docs/STATISTICS.md,
// Trials per arm to separate two rates and Rerun budget)?
func writeSizing(w io.Writer, s *runner.Sizing, aa bool) {
	n := s.TrialsPerArm
	fmt.Fprintf(w, "\nare %d runs per arm enough?\n", n)
	if aa {
		fmt.Fprintln(w, "  the A/A check sizes the runs per side from the suite's own noise: run the baseline alone first")
		fmt.Fprintln(w, "  (flakegate run -aa with -baseline only) and read its runs per side to catch a drop")
	} else {
		for _, sep := range s.Separations {
			a, b := words.Level(sep.Baseline), words.Level(sep.Patched)
			switch {
			case sep.Needed == nil:
				fmt.Fprintf(w, "  no: %s and %s do not separate within %d trials per arm\n", a, b, gate.SizeLimit)
			case sep.Separates:
				fmt.Fprintf(w, "  yes: %d runs per arm tell %s pass rate from %s (%d would do)\n", n, words.Article(a), b, *sep.Needed)
			default:
				fmt.Fprintf(w, "  no: %d runs per arm cannot tell %s pass rate from %s (that takes %d)\n", n, words.Article(a), b, *sep.Needed)
			}
		}
	}
	for _, d := range s.Detection {
		fmt.Fprintf(w, "  %d runs of an arm see a flake that fails %s of runs %s of the time (%s takes %d runs)\n",
			n, words.Level(d.Rate), words.FixedPercent(d.Power, 1), words.Level(s.Target), d.Needed)
	}
	fmt.Fprintf(w, "  the rarest flake %d runs see %s of the time fails %s of runs\n", n, words.Level(s.Target), words.FixedPercent(s.SmallestRate, 1))
	if n < s.MinTrials {
		fmt.Fprintf(w, "  fewer than %d trials per arm: every verdict will be underpowered (-min-trials)\n", s.MinTrials)
	}
}

// runLink is the link of the ledger's view on site ("" for none): the
// two-arm view of its per-test counts, or the A/A view of an eval's.
func runLink(res *runner.Result, g runner.GateOptions, site string) (words.Link, error) {
	if site == "" || (res.Verdict == nil && res.AA == nil) {
		return words.Link{}, nil
	}
	l, _, err := runner.ReadLedger(res.Plan.Ledger)
	if err != nil {
		return words.Link{}, err
	}
	if res.Verdict != nil {
		view, err := share.Ledger(l.Summary(), g.Ledger)
		if err != nil {
			return words.Link{}, err
		}
		return words.LinkOf(view, site), nil
	}
	base, _ := aa.FromLedger(l, ledger.ArmBaseline)
	var cand *aa.Side
	if len(l.Tests(ledger.ArmPatched)) > 0 {
		cand, _ = aa.FromLedger(l, ledger.ArmPatched)
	}
	view, err := share.AA(base, cand, g.AA)
	if err != nil {
		return words.Link{}, err
	}
	return words.AALink(view, site, g.AA, len(l.Notes()) > 0), nil
}

// runNotes are a run's annotations: an error per test that blocks, on the
// ledger that holds its trials (or the A/A answer), a warning when a budget
// stopped the runs early, and one per run that failed on its own and per
// caveat.
func runNotes(res *runner.Result) []annotation {
	var out []annotation
	switch {
	case res.Verdict != nil:
		for _, t := range res.Verdict.Tests {
			if t.Blocks {
				msg := words.GateSentence(t.Gate) + ": " + words.VerdictClause(t.Verdict, t.Baseline, t.Patched, res.Verdict.MinTrials, res.Verdict.Confidence) + "."
				out = append(out, annotation{level: "error", file: res.Plan.Ledger, title: "flakegate: " + t.NodeID, msg: msg})
			}
		}
	case res.AA != nil:
		out = append(out, resultNote(res.Blocks, words.AAAnswer(res.AA)))
	}
	if res.Stop != "" {
		out = append(out, annotation{level: "warning", title: "flakegate run stopped early",
			msg: sentence(res.StopReason) + " Every finished run is in " + res.Plan.Ledger + "; start again with it to go on."})
	}
	for _, r := range res.Errors {
		out = append(out, annotation{level: "warning", file: res.Plan.Ledger, title: "flakegate: run " + r.Run + " failed on its own",
			msg: fmt.Sprintf("Run %s (%s) failed on its own, not a test failure; the next start runs it again: %s", r.Run, r.Arm, r.Error)})
	}
	var warns []string
	switch {
	case res.Verdict != nil:
		warns = res.Verdict.Warnings
	case res.AA != nil:
		warns = res.AA.Warnings
	}
	return append(out, caveatNotes(append(slices.Clone(warns), res.Warnings...))...)
}

// runMarkdown is the summary of flakegate run for a pull request: the
// gate's summary of the whole ledger (as flakegate ledger -markdown, or aa
// for an eval), then what this start ran and why it stopped early, then
// the link.
func runMarkdown(res *runner.Result, link words.Link) string {
	var b strings.Builder
	if res.Stop != "" {
		// The answer first: the runs stopped short of the plan, so the
		// verdict that follows is of what they collected.
		fmt.Fprintf(&b, "**flakegate run stopped early: %s.** The verdict below is of the runs the ledger holds; the next start goes on from it.\n\n", res.StopReason)
	}
	switch {
	case res.Verdict != nil:
		b.WriteString(words.LedgerMarkdown(res.Verdict, words.Link{}))
	case res.AA != nil:
		b.WriteString(words.AAMarkdown(res.AA, words.Link{}))
	default:
		b.WriteString("**No verdict: the ledger has no trials to judge yet.**\n")
	}
	runs := core.Nouns(res.Runs.Baseline, "baseline run")
	if len(res.Plan.Arms) > 1 {
		runs += " and " + core.Nouns(res.Runs.Patched, armNoun(res)+" run")
	}
	fmt.Fprintf(&b, "\nThe ledger holds %s, each a fresh process; this start ran %s in %s.\n",
		runs, core.Nouns(res.Ran, "run"), words.Duration(res.Seconds))
	var caveats []string
	for _, r := range res.Errors {
		caveats = append(caveats, fmt.Sprintf("run %s (%s) failed on its own, not a test failure; the next start runs it again: %s", r.Run, r.Arm, r.Error))
	}
	b.WriteString(seqMarkdown(res.Sequential))
	b.WriteString(words.CaveatsMarkdown(caveats))
	b.WriteString(words.LinkMarkdown(link))
	return strings.TrimRight(b.String(), "\n") + "\n"
}
