package main

import (
	"fmt"

	"github.com/flakegate/flakegate/core"
)

func runLedger(e *env, args []string) (bool, error) {
	opt := core.DefaultLedgerOptions
	fs := newFlags(e, "ledger", "[flags] ledger.jsonl ...")
	fs.Int64Var(&opt.MinTrials, "min-trials", opt.MinTrials, "fewest trials an arm needs for a verdict")
	fs.Float64Var(&opt.Confidence, "confidence", opt.Confidence, "confidence of the Wilson intervals")
	fs.StringVar(&opt.Property, "property", opt.Property, "property check result: passed, failed or unknown")
	asJSON := fs.Bool("json", false, "print the JSON result")
	pos, err := parse(fs, args)
	if err != nil {
		return false, err
	}
	if len(pos) == 0 {
		return false, usagef("give at least one ledger file (- reads standard input)")
	}
	l := core.NewLedger()
	for _, name := range pos {
		if err := readLedgerFile(e, name, l); err != nil {
			return false, err
		}
	}
	res, err := l.Result(opt)
	if err != nil {
		return false, err
	}
	if *asJSON {
		return res.Blocks, core.WriteJSON(e.stdout, res)
	}
	w := e.stdout
	fmt.Fprintf(w, "%d baseline runs, %d patched runs, %d tests\n\n", res.Runs.Baseline, res.Runs.Patched, len(res.Tests))
	t := newTable(w)
	t.row("test", "baseline", "patched", "verdict", "gate")
	for _, tc := range res.Tests {
		t.row(tc.NodeID, armText(tc.Baseline), armText(tc.Patched), tc.Verdict, tc.Gate)
	}
	t.flush()
	blocked := 0
	for _, tc := range res.Tests {
		if tc.Blocks {
			blocked++
		}
	}
	if blocked > 0 {
		fmt.Fprintf(w, "\ngate: BLOCK — %d of %d tests block\n", blocked, len(res.Tests))
	} else {
		fmt.Fprintln(w, "\ngate: pass")
	}
	writeWarnings(w, res.Warnings)
	return res.Blocks, nil
}

func readLedgerFile(e *env, name string, l *core.Ledger) error {
	f, err := e.open(name)
	if err != nil {
		return err
	}
	defer f.Close()
	return core.WithFile(core.ReadLedger(f, l), displayName(name))
}
