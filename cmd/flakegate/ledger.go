package main

import (
	"fmt"
	"io"

	"github.com/flakegate/flakegate/core"
	"github.com/flakegate/flakegate/core/ledger"
	"github.com/flakegate/flakegate/core/report"
	"github.com/flakegate/flakegate/internal/share"
	"github.com/flakegate/flakegate/internal/words"
)

func runLedger(c *calc[ledger.Options]) (bool, error) {
	arms := addArmFlags(c.fs, "baseline", "a report `file` of one baseline run (go test -json or JUnit); repeat per run",
		"patched", "a report `file` of one patched run (go test -json or JUnit); repeat per run")
	arm := c.fs.String("arm", ledger.ArmBaseline, "arm of go test -json or JUnit files given as arguments")
	opt, err := c.start()
	if err != nil {
		return false, err
	}
	if len(c.pos)+arms.given() == 0 {
		return false, usagef("give a ledger file, or report files with -baseline and -patched (- reads standard input)")
	}
	l := ledger.New()
	if err := readReports(c.e, l, c.pos, arms.format, *arm); err != nil {
		return false, err
	}
	if err := arms.read(c.e, l, report.Options{}); err != nil {
		return false, err
	}
	res, err := l.Result(opt)
	if err != nil {
		return false, err
	}
	view, err := share.Ledger(l.Summary(), opt)
	if err != nil {
		return false, err
	}
	link := words.SetLink(view, c.site, &res.Link, &res.LinkNote)
	return res.Blocks, c.print(printed{res: res, link: link, notes: func() []annotation { return c.e.ledgerNotes(l, res) }, markdown: func() string { return words.LedgerMarkdown(res, link) },
		text: func(w io.Writer) error { writeLedger(w, res); return nil }})
}

// writeLedger prints a ledger's per-test verdicts and the gate.
func writeLedger(w io.Writer, res *ledger.Result) {
	fmt.Fprintf(w, "%s\n\n", words.LedgerAnswer(res))
	fmt.Fprintf(w, "%s, %s, %s\n\n", core.Nouns(res.Runs.Baseline, "baseline run"), core.Nouns(res.Runs.Patched, "patched run"), core.Nouns(len(res.Tests), "test"))
	t := newTable(w)
	t.row("test", "baseline", "patched", "change", "gate")
	for _, tc := range res.Tests {
		t.row(tc.NodeID, armText(tc.Baseline), armText(tc.Patched), words.VerdictWords(tc.Verdict), words.GateWords(tc.Gate))
	}
	t.flush()
	blocked := 0
	for _, tc := range res.Tests {
		if tc.Blocks {
			blocked++
		}
	}
	if blocked > 0 {
		verb := "block"
		if blocked == 1 {
			verb = "blocks"
		}
		fmt.Fprintf(w, "\ngate: BLOCK — %d of %s %s\n", blocked, core.Nouns(len(res.Tests), "test"), verb)
		for _, n := range words.TrialsShortNotes(res) {
			fmt.Fprintln(w, n)
		}
	} else {
		fmt.Fprintln(w, "\ngate: pass")
	}
	writeWarnings(w, res.Warnings)
}
