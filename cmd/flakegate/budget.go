package main

import (
	"fmt"
	"io"
	"strconv"

	"github.com/flakegate/flakegate/core"
	"github.com/flakegate/flakegate/core/gate"
	"github.com/flakegate/flakegate/core/ledger"
	"github.com/flakegate/flakegate/share"
	"github.com/flakegate/flakegate/words"
)

func runBudget(e *env, args []string) (bool, error) {
	in := gate.DefaultBudgetInput
	fs := newFlags(e, "budget", "[flags] [rate ...]")
	fs.Var(core.FloatVar{P: &in.Target}, "target", "detection `power` wanted, in (0,1)")
	cost := fs.String("cost", "", "runner `seconds` per run")
	int64Flag(fs, &in.Cap, "cap", "reruns the gate allows today, a whole `number`")
	observe := fs.String("observe", "", "observed history as `fails/runs`; planned against its upper Wilson bound")
	rates := fs.String("rates", "", "comma-separated per-run failure rates (also accepted as arguments)")
	fs.Var(core.FloatVar{P: &in.Confidence}, "confidence", "`confidence` of the observed rate's interval")
	from := filesFlag(fs, "from", "a test report `file` whose retry history gives observed rates (repeatable)")
	format := fs.String("format", "", formatUsage)
	out := outputFlags(fs)
	pos, err := parse(fs, args)
	if err != nil {
		return false, err
	}
	site, err := out.check(e)
	if err != nil {
		return false, err
	}
	if len(*from) > 0 {
		if len(pos) > 0 || *rates != "" || *observe != "" {
			return false, usagef("-from plans from the reports' retry history: give no rates or -observe with it")
		}
		if *cost != "" {
			c, err := core.ParseFloat(*cost)
			if err != nil {
				return false, usagef("-cost: want seconds per run, got %q", *cost)
			}
			in.CostSeconds = &c
		}
		return budgetFrom(e, in, *from, *format, out, site)
	}
	if *cost != "" {
		c, err := core.ParseFloat(*cost)
		if err != nil {
			return false, usagef("-cost: want seconds per run, got %q", *cost)
		}
		in.CostSeconds = &c
	}
	if *observe != "" {
		c, err := core.ParseCount("observe", *observe)
		if err != nil {
			return false, err
		}
		in.Observed = &c
	}
	if *rates != "" {
		rs, err := core.ParseRates("rates", *rates)
		if err != nil {
			return false, err
		}
		in.Rates = append(in.Rates, rs...)
	}
	for i, a := range pos {
		p, err := core.ParseFloat(a)
		if err != nil {
			return false, usagef("argument %d: want a failure rate such as 0.02, got %q", i+1, a)
		}
		in.Rates = append(in.Rates, p)
	}
	res, err := gate.Budget(in)
	if err != nil {
		return false, err
	}
	link := words.LinkOf(share.BudgetOf(res), site)
	res.Link, res.LinkNote = link.URL, link.Note
	return res.Blocks(), out.print(e, printed{res: res, link: link, notes: func() []annotation { return budgetNotes(res) }, markdown: func() string { return words.BudgetMarkdown(res, link) },
		text: func(w io.Writer) error { writeBudget(w, res); return nil }})
}

// writeBudget writes a budget's text report.
func writeBudget(w io.Writer, res *gate.BudgetResult) {
	fmt.Fprintf(w, "target detection power %s, rerun cap %d", words.FixedPercent(res.Target, 1), res.Cap)
	if res.CostSeconds != nil {
		fmt.Fprintf(w, ", %s per run", words.Duration(*res.CostSeconds))
	}
	fmt.Fprintln(w)
	if o := res.Observed; o != nil {
		fmt.Fprintf(w, "observed %s in %d runs: rate %s, %s Wilson [%s, %s]; planning against %s\n",
			core.Nouns(int(o.Fails), "failure"), o.Runs, words.RatePercent(o.Rate), words.FixedPercent(res.Confidence, 0), words.RatePercent(o.Lower), words.RatePercent(o.Upper), words.RatePercent(o.Upper))
	}
	fmt.Fprintln(w)
	t := newTable(w)
	t.row("rate", "reruns", "power", "one short", "gain", "at cap "+strconv.FormatInt(res.Cap, 10), "runner time", "lane")
	for _, r := range res.Rows {
		reruns := "never"
		switch {
		case r.Reruns != nil:
			reruns = strconv.FormatInt(*r.Reruns, 10)
		case r.RerunsOverflow:
			reruns = "> int64"
		}
		secs := "-"
		if r.Seconds != nil {
			secs = words.Duration(*r.Seconds)
		}
		t.row(words.RatePercent(r.Rate), reruns, pctp(r.Power, 1), pctp(r.PowerOneShort, 1), pctp(r.Gain, 1),
			words.FixedPercent(r.PowerAtCap, 1), secs, r.Lane)
	}
	t.flush()
	fmt.Fprintln(w)
	seen := map[string]bool{}
	for _, r := range res.Rows {
		if !seen[r.Lane] {
			seen[r.Lane] = true
			fmt.Fprintf(w, "  %-12s %s\n", r.Lane, r.Action)
		}
	}
	fmt.Fprintln(w)
	over := 0
	for _, r := range res.Rows {
		if r.OverCap {
			over++
		}
	}
	if over > 0 {
		fmt.Fprintf(w, "gate: BLOCK — %d of %d rates need more reruns than the cap of %d; a green run does not rule them out\n",
			over, len(res.Rows), res.Cap)
	} else {
		fmt.Fprintf(w, "gate: pass — every rate is caught within the cap of %d\n", res.Cap)
	}
	writeWarnings(w, res.Warnings)
}

func budgetFrom(e *env, in gate.BudgetInput, files []string, format string, out *output, site string) (bool, error) {
	// The settings are checked before the reports are read, and even when
	// no test flaked.
	if err := in.CheckSettings(); err != nil {
		return false, err
	}
	l := ledger.New()
	if err := readReports(e, l, files, format, ledger.ArmBaseline); err != nil {
		return false, err
	}
	res, err := l.FlakeBudgets(in)
	if err != nil {
		return false, err
	}
	var link words.Link
	if v, ok := share.FlakesOf(res); ok {
		link = words.LinkOf(v, site)
		res.Link, res.LinkNote = link.URL, link.Note
	}
	for _, f := range res.Flakes {
		l := words.LinkOf(share.BudgetOf(f.Budget), site)
		f.Budget.Link, f.Budget.LinkNote = l.URL, l.Note
	}
	return res.Blocks, out.print(e, printed{res: res, link: link, notes: func() []annotation { return e.flakesNotes(l, res) }, markdown: func() string { return words.FlakesMarkdown(res, link) },
		text: func(w io.Writer) error { writeFlakes(w, res, in); return nil }})
}

// writeFlakes writes the text report of every flaky test's budget.
func writeFlakes(w io.Writer, res *ledger.FlakesResult, in gate.BudgetInput) {
	fmt.Fprintf(w, "%d of %s flaked in %s; target detection power %s, rerun cap %d\n\n",
		len(res.Flakes), core.Nouns(res.Tests, "test"), core.Nouns(res.Runs, "run"), words.FixedPercent(in.Target, 1), in.Cap)
	t := newTable(w)
	t.row("test", "arm", "failed", "rate", "plan at", "reruns", "at cap "+strconv.FormatInt(in.Cap, 10), "lane")
	for _, fb := range res.Flakes {
		row := fb.Budget.Rows[0]
		reruns := "> int64"
		if row.Reruns != nil {
			reruns = strconv.FormatInt(*row.Reruns, 10)
		}
		t.row(fb.NodeID, fb.Arm, fmt.Sprintf("%d/%d", fb.Fails, fb.Executions), words.RatePercent(fb.Budget.Observed.Rate),
			words.RatePercent(row.Rate), reruns, words.FixedPercent(row.PowerAtCap, 1), row.Lane)
	}
	t.flush()
	for _, fb := range res.Flakes {
		row := fb.Budget.Rows[0]
		if row.Reruns != nil && row.OverCap {
			fmt.Fprintf(w, "\n%s needs %d reruns to be seen %s of the time; a cap of %d sees it %s",
				fb.NodeID, *row.Reruns, words.FixedPercent(in.Target, 0), in.Cap, words.FixedPercent(row.PowerAtCap, 1))
		}
	}
	if res.Blocks {
		fmt.Fprintln(w, "\n\ngate: BLOCK — a flake needs more reruns than the cap")
	} else {
		fmt.Fprintln(w, "\ngate: pass")
	}
	writeWarnings(w, res.Warnings)
}
