package main

import (
	"fmt"
	"strings"

	"github.com/flakegate/flakegate/core"
	"github.com/flakegate/flakegate/core/ledger"
	"github.com/flakegate/flakegate/core/store"
)

// readStoreLedger adds the runs of the store at path to l as reading the
// recorded reports adds them: each run a run of its arm named after its
// report (a second of the same name gets "#2"), each result with its retry
// history, the readers' caveats; and, when ids is not nil, each baseline
// run's identity for quarantine check, keyed by run name. An entry
// recorded without them (in a format version 1 store) is an error naming
// it: its retries are not known.
func readStoreLedger(e *env, l *ledger.Ledger, path string, ids map[string]string) error {
	f, err := openStore(path, false)
	if err != nil {
		return err
	}
	defer f.Close()
	return store.Each(f, path, func(en store.Entry) error {
		if err := e.ctx.Err(); err != nil {
			return err
		}
		rec := en.Ledger
		if rec == nil {
			return &core.Error{Kind: core.Unusable, File: path, Msg: fmt.Sprintf(
				"%s was recorded without the retry history that quarantine check and budget -from read (in a store of format version 1): record its reports again into a new store", en.Report.File())}
		}
		metas, runs := en.Report.Runs()
		for i, m := range metas {
			arm := rec.Arms[i]
			run := runName(l, arm, m.Name)
			if i == 0 {
				for _, n := range en.Report.Notes() {
					// A report of one run was read as the ledger's first
					// run; read with the others, it is named after its
					// file, and its caveats say so.
					if len(metas) == 1 {
						if rest, ok := strings.CutPrefix(n, "run "+ledger.ArmBaseline+"-1: "); ok {
							n = "run " + run + ": " + rest
						}
					}
					l.Warn(n)
				}
			}
			before := runSet(l)
			for j, r := range runs[i] {
				l.AddRecorded(arm, run, r.Test, r.Passed, r.Trials, rec.Retries[i][j])
			}
			e.recordRuns(l, before, path)
			if ids != nil && arm == ledger.ArmBaseline {
				ids[run] = rec.CheckIDs[i]
			}
		}
		return nil
	})
}
