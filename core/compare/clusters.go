package compare

import (
	"bufio"
	"fmt"
	"io"

	"github.com/flakegate/flakegate/core"
	"github.com/flakegate/flakegate/core/ledger"
	"github.com/flakegate/flakegate/core/report"
)

// harness names the eval logs' formats as their users know them.
var harness = map[string]string{report.FormatInspect: "inspect_ai", report.FormatLMEval: "lm-evaluation-harness", report.FormatPromptfoo: "promptfoo"}

// ClustersFromSamples reads the group of each question (its passage, file
// or task) from field of each row of a samples file (JSONL or CSV, one row
// per sample; eval names its id and score fields as for reading its
// scores) into clusters, question id → group. It is the samples reader
// told that field names the run: every question lands under its group. A
// question in two groups, here or in an earlier file, is Invalid; so is a
// log of another harness, whose rows the readers do not keep. Errors carry
// the line and column; the caller adds the file.
func ClustersFromSamples(r io.Reader, field string, eval report.EvalOptions, clusters map[string]string) error {
	br := bufio.NewReader(r)
	head, _ := br.Peek(64 << 10)
	if kind := report.DetectFormat(head); kind != "" && kind != report.FormatSamples {
		if h, ok := harness[kind]; ok {
			kind = h
		}
		return core.FieldErrorf("cluster", "reads a field of each row of a samples file (JSONL or CSV, one row per sample); this file is in the %s format, whose rows flakegate does not read for groups", kind)
	}
	l := ledger.New()
	eval.Run = field
	if err := report.Read(br, report.Options{Format: report.FormatSamples, Eval: eval}, l); err != nil {
		return err
	}
	tests, runs := l.Tests(ledger.ArmBaseline), l.Runs(ledger.ArmBaseline)
	for _, c := range l.Cells(ledger.ArmBaseline) {
		id, g := tests[c.Test], runs[c.Run]
		if prev, ok := clusters[id]; ok && prev != g {
			return &core.Error{Kind: core.Invalid, Field: "cluster", Msg: fmt.Sprintf("question %q is in two groups of %s: %q and %q", id, field, prev, g)}
		}
		clusters[id] = g
	}
	return nil
}
