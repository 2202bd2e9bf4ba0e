package main

import (
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/flakegate/flakegate/core"
	"github.com/flakegate/flakegate/core/gate"
	"github.com/flakegate/flakegate/core/ledger"
	"github.com/flakegate/flakegate/internal/share"
	"github.com/flakegate/flakegate/internal/words"
)

func runBudget(c *calc[gate.BudgetInput]) (bool, error) {
	from := filesFlag(c.fs, "from", reportFileUsage+" whose retry history gives observed rates, or a history store of runs (flakegate record) (repeatable)")
	format := c.fs.String("format", "", formatUsage)
	if err := c.begin(); err != nil {
		return false, err
	}
	rate, _ := c.schema.Field("rates")
	for i, a := range c.pos {
		if _, _, err := rate.Read(a); err != nil {
			return false, usagef("argument %d: %s", i+1, err.(*core.Error).Msg)
		}
	}
	if len(c.pos) > 0 {
		c.inputs.texts["rates"] += " " + strings.Join(c.pos, " ")
	}
	in, err := c.parsed()
	if err != nil {
		return false, err
	}
	if in.Setting != nil && flagSet(c.fs, "cap") {
		return false, usagef("give -cap (reruns) or -runner %s=N (the runner's own setting), not both", in.Runner)
	}
	if len(*from) > 0 {
		if in.Rates != nil || in.Observed != nil {
			return false, usagef("-from plans from the reports' retry history: give no rates or -observe with it")
		}
		return budgetFrom(c, in, *from, *format)
	}
	res, err := gate.Budget(in)
	if err != nil {
		return false, c.inputs.named(err)
	}
	link := words.SetLink(share.BudgetOf(res), c.site, &res.Link, &res.LinkNote)
	return res.Blocks(), c.print(printed{res: res, link: link, notes: func() []annotation { return budgetNotes(res) }, markdown: func() string { return words.BudgetMarkdown(res, link) },
		text: func(w io.Writer) error { writeBudget(w, res); return nil }})
}

// writeBudget writes a budget's text report: the settings, the answer for
// each rate in a sentence, then the table.
func writeBudget(w io.Writer, res *gate.BudgetResult) {
	fmt.Fprintf(w, "target detection power %s, rerun cap %d", words.FixedPercent(res.Target, 1), res.Cap)
	if rs := res.Runner; rs != nil {
		fmt.Fprintf(w, " (%s)", runnerWords(rs))
	}
	if res.CostSeconds != nil {
		fmt.Fprintf(w, ", %s per run", words.Duration(*res.CostSeconds))
	}
	fmt.Fprintln(w)
	if o := res.Observed; o != nil {
		fmt.Fprintf(w, "observed %s in %d runs: rate %s, %s Wilson [%s, %s]; planning against %s\n",
			core.Nouns(int(o.Fails), "failure"), o.Runs, words.RatePercent(o.Rate), words.FixedPercent(res.Confidence, 0), words.RatePercent(o.Lower), words.RatePercent(o.Upper), words.RatePercent(o.Upper))
	}
	fmt.Fprintln(w)
	for _, r := range res.Rows {
		fmt.Fprintln(w, words.BudgetSentence(res, r))
	}
	fmt.Fprintln(w)
	t := newTable(w)
	head := []string{"rate", "reruns", "power", "one short", "gain", "at cap " + strconv.FormatInt(res.Cap, 10), "runner time", "lane"}
	if res.Runner != nil {
		head = append(head, "setting")
	}
	t.row(head...)
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
		cells := []string{words.RatePercent(r.Rate), reruns, pctp(r.Power, 1), pctp(r.PowerOneShort, 1), pctp(r.Gain, 1),
			words.FixedPercent(r.PowerAtCap, 1), secs, r.Lane}
		if res.Runner != nil {
			cells = append(cells, settingText(r.Runner))
		}
		t.row(cells...)
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
		need, them := "need", "them"
		if over == 1 {
			need, them = "needs", "it"
		}
		fmt.Fprintf(w, "gate: BLOCK — %d of %s %s more reruns than the cap of %d; a green run does not rule %s out\n",
			over, core.Nouns(len(res.Rows), "rate"), need, res.Cap, them)
	} else {
		fmt.Fprintf(w, "gate: pass — every rate is caught within the cap of %d\n", res.Cap)
	}
	writeWarnings(w, res.Warnings)
}

func budgetFrom(c *calc[gate.BudgetInput], in gate.BudgetInput, files []string, format string) (bool, error) {
	// The settings are checked before the reports are read, and even when
	// no test flaked.
	if err := in.CheckSettings(); err != nil {
		return false, err
	}
	l := ledger.New()
	for _, name := range files {
		// A history store gives its runs' retry history as the reports
		// recorded into it would.
		if isStoreFile(name) {
			if err := readStoreLedger(c.e, l, name, nil); err != nil {
				return false, err
			}
		} else if err := readReports(c.e, l, []string{name}, format, ledger.ArmBaseline); err != nil {
			return false, err
		}
	}
	res, err := l.FlakeBudgets(in)
	if err != nil {
		return false, err
	}
	var link words.Link
	if v, ok := share.FlakesOf(res); ok {
		link = words.SetLink(v, c.site, &res.Link, &res.LinkNote)
	}
	for _, f := range res.Flakes {
		words.SetLink(share.BudgetOf(f.Budget), c.site, &f.Budget.Link, &f.Budget.LinkNote)
	}
	return res.Blocks, c.print(printed{res: res, link: link, notes: func() []annotation { return c.e.flakesNotes(l, res) }, markdown: func() string { return words.FlakesMarkdown(res, link) },
		text: func(w io.Writer) error { writeFlakes(w, res, in); return nil }})
}

// writeFlakes writes the text report of every flaky test's budget: the
// answer, then one row per flaky test, the costliest first.
func writeFlakes(w io.Writer, res *ledger.FlakesResult, in gate.BudgetInput) {
	fmt.Fprintln(w, words.FlakesAnswer(res))
	cap := in.Cap
	var b *gate.BudgetResult
	if len(res.Flakes) > 0 {
		b = res.Flakes[0].Budget
		cap = b.Cap
	}
	fmt.Fprintf(w, "target detection power %s, rerun cap %d", words.FixedPercent(in.Target, 1), cap)
	if b != nil && b.Runner != nil {
		fmt.Fprintf(w, " (%s)", runnerWords(b.Runner))
	}
	if in.CostSeconds != nil {
		fmt.Fprintf(w, ", %s per run; the costliest flake first (rate times runner time)", words.Duration(*in.CostSeconds))
	}
	fmt.Fprint(w, "\n\n")
	head := []string{"test", "arm", "failed", "rate", "plan at", "reruns", "at cap " + strconv.FormatInt(cap, 10), "lane"}
	if in.CostSeconds != nil {
		head = slices.Insert(head, 4, "cost/run")
	}
	if b != nil && b.Runner != nil {
		head = append(head, "setting")
	}
	t := newTable(w)
	t.row(head...)
	for _, fb := range res.Flakes {
		row := fb.Budget.Rows[0]
		reruns := "> int64"
		if row.Reruns != nil {
			reruns = strconv.FormatInt(*row.Reruns, 10)
		}
		cells := []string{fb.NodeID, fb.Arm, fmt.Sprintf("%d/%d", fb.Fails, fb.Executions), words.RatePercent(fb.Budget.Observed.Rate),
			words.RatePercent(row.Rate), reruns, words.FixedPercent(row.PowerAtCap, 1), row.Lane}
		if in.CostSeconds != nil {
			cells = slices.Insert(cells, 4, words.Duration(*fb.CostPerRun))
		}
		if fb.Budget.Runner != nil {
			cells = append(cells, settingText(row.Runner))
		}
		t.row(cells...)
	}
	t.flush()
	for _, fb := range res.Flakes {
		row := fb.Budget.Rows[0]
		if row.Reruns != nil && row.OverCap {
			fmt.Fprintf(w, "\n%s: %s", fb.NodeID, words.BudgetSentence(fb.Budget, row))
		}
	}
	if res.Blocks {
		fmt.Fprintln(w, "\n\ngate: BLOCK — a flake needs more reruns than the cap")
	} else {
		fmt.Fprintln(w, "\ngate: pass")
	}
	writeWarnings(w, res.Warnings)
}

// runnerWords is a runner's setting in words: "gotestsum --rerun-fails=2:
// 2 retries".
func runnerWords(rs *gate.RunnerSetting) string {
	r, _ := gate.LookupRunner(rs.Name)
	return r.Tool + " " + rs.Written + ": " + words.SettingCount(rs)
}

// settingText is a row's runner setting in a text table: "-" without a
// budget, "!" after one the runner refuses (over its maximum).
func settingText(s *gate.RowSetting) string {
	switch {
	case s == nil:
		return "-"
	case s.OverMax:
		return s.Written + " (over max)"
	}
	return s.Written
}
