package words

import (
	"fmt"
	"strings"

	"github.com/flakegate/flakegate/core"
	"github.com/flakegate/flakegate/core/aa"
	"github.com/flakegate/flakegate/core/gate"
)

// The Markdown summaries are for a code-review comment: a table of the
// figures, the verdict in words, and the link that reopens the view.

func mdEscape(s string) string {
	return strings.NewReplacer("|", `\|`, "\n", " ").Replace(s)
}

// BudgetMarkdown summarises a rerun budget.
func BudgetMarkdown(r *gate.BudgetResult, link string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "**Rerun budget** for %s detection power (cap %d reruns", Level(r.Target), r.Cap)
	if r.CostSeconds != nil {
		fmt.Fprintf(&b, ", %s per run", Duration(*r.CostSeconds))
	}
	b.WriteString(")\n\n")
	if o := r.Observed; o != nil {
		fmt.Fprintf(&b, "Observed %s in %s: rate %s, %s Wilson interval [%s, %s]; planning at the upper bound.\n\n",
			core.Nouns(o.Fails, "failure"), core.Nouns(o.Runs, "run"), Rate(o.Rate), Level(r.Confidence), Rate(o.Lower), Rate(o.Upper))
	}
	b.WriteString("| failure rate | reruns | power | power one short | power at cap | runner time | lane | action |\n")
	b.WriteString("|---:|---:|---:|---:|---:|---:|---|---|\n")
	for _, row := range r.Rows {
		k, power, short, secs := "—", "—", "—", "—"
		if row.Reruns != nil {
			k = Count(*row.Reruns)
		} else if row.RerunsOverflow {
			k = "beyond int64"
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
		src := Rate(row.Rate)
		if row.Source == "observed_upper" {
			src += " (observed, upper)"
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s | %s | %s | %s |\n", src, k, power, short, Percent(row.PowerAtCap), secs, row.Lane, mdEscape(row.Action))
	}
	if r.Blocks() {
		b.WriteString("\nAt least one rate needs more reruns than the cap: the gate cannot see that flake.\n")
	}
	for _, w := range r.Warnings {
		fmt.Fprintf(&b, "\n> %s\n", mdEscape(w))
	}
	if link != "" {
		fmt.Fprintf(&b, "\n[Open in flakegate](%s)\n", link)
	}
	return b.String()
}

// DecideMarkdown summarises a two-arm verdict and, when known, the trials
// per arm that would separate the observed rates.
func DecideMarkdown(r *gate.DecideResult, size *gate.SizeResult, link string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "**Two-arm verdict: %s** — gate: %s (%s)\n\n", r.Verdict, r.Gate, r.Action)
	b.WriteString("| arm | passed / trials | rate | " + Level(r.Confidence) + " Wilson interval |\n|---|---:|---:|---|\n")
	for _, a := range []struct {
		n string
		a gate.Arm
	}{{"baseline", r.Baseline}, {"patched", r.Patched}} {
		rt := "—"
		if a.a.Rate != nil {
			rt = Percent(*a.a.Rate)
		}
		fmt.Fprintf(&b, "| %s | %d / %d | %s | [%s, %s] |\n", a.n, a.a.Passed, a.a.Trials, rt, Percent(a.a.Lower), Percent(a.a.Upper))
	}
	if size != nil {
		if size.TrialsPerArm != nil {
			fmt.Fprintf(&b, "\nTrials per arm at which these rates separate: %d.\n", *size.TrialsPerArm)
		} else {
			fmt.Fprintf(&b, "\nThese rates do not separate within %d trials per arm.\n", gate.SizeLimit)
		}
	}
	warns := r.Warnings
	if size != nil {
		for _, w := range size.Warnings {
			warns = append(warns[:len(warns):len(warns)], "sizing: "+w)
		}
	}
	for _, w := range warns {
		fmt.Fprintf(&b, "\n> %s\n", mdEscape(w))
	}
	if link != "" {
		fmt.Fprintf(&b, "\n[Open in flakegate](%s)\n", link)
	}
	return b.String()
}

// AAMarkdown summarises an A/A check and its candidate comparison.
func AAMarkdown(r *aa.Result, link string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "**A/A check**: %s, %s, %s; one-run noise s = %s\n\n",
		core.Nouns(r.Scenarios, "scenario"), core.Nouns(r.Runs, "run"), core.Nouns(r.Rows, "row"), Points(r.Noise.S))
	if len(r.Thresholds) > 0 {
		b.WriteString("| runs per side | flag drops larger than |\n|---:|---:|\n")
		for _, t := range r.Thresholds {
			fmt.Fprintf(&b, "| %d | %s |\n", t.RunsPerSide, Points(t.Drop))
		}
	}
	if len(r.RunsNeeded) > 0 {
		b.WriteString("\n| drop to catch (80%) | runs per side |\n|---:|---:|\n")
		for _, n := range r.RunsNeeded {
			fmt.Fprintf(&b, "| %s | %d |\n", Points(n.Drop), n.RunsPerSide)
		}
	}
	if c := r.Candidate; c != nil {
		fmt.Fprintf(&b, "\n**Candidate: %s** — mean per-scenario difference %s against a threshold of −%s (%s, %s)\n",
			c.Verdict, Points(c.Diff), Points(c.Threshold), core.Nouns(c.Runs, "run"), core.Nouns(c.Scenarios, "shared scenario"))
		if len(c.LargestDrops) > 0 {
			b.WriteString("\n| scenario | difference |\n|---|---:|\n")
			for _, d := range c.LargestDrops {
				fmt.Fprintf(&b, "| %s | %s |\n", mdEscape(d.Scenario), Points(d.Diff))
			}
		}
	}
	for _, w := range r.Warnings {
		fmt.Fprintf(&b, "\n> %s\n", mdEscape(w))
	}
	if link != "" {
		fmt.Fprintf(&b, "\n[Open in flakegate](%s)\n", link)
	}
	return b.String()
}
