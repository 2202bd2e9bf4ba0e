package report

import (
	"strconv"
	"testing"

	"github.com/flakegate/flakegate/core"
	"github.com/flakegate/flakegate/core/ledger"
	"github.com/flakegate/flakegate/internal/testfile"
)

// TestIndependentCounts reads every sample listed in
// testdata/reports/expect.tsv, each detected from its content, and checks
// its passes and trials against the count written beside it. Each count
// comes from outside flakegate: the tool's own summary line, an XPath or jq
// query, or the plain-text output of the same run (the last column names
// which; the README of testdata/reports says how each sample was made).
func TestIndependentCounts(t *testing.T) {
	rows := testfile.Rows(t, "testdata/reports/expect.tsv", "\t", 4)
	for _, fs := range rows {
		passed, _ := strconv.ParseInt(fs[1], 10, 64)
		trials, _ := strconv.ParseInt(fs[2], 10, 64)
		want := core.Count{Passed: passed, Trials: trials}
		t.Run(fs[0], func(t *testing.T) {
			l := ledger.New()
			if err := readFile(t, l, "testdata/reports/"+fs[0], Options{}); err != nil {
				t.Fatal(err)
			}
			var got core.Count
			for _, c := range armCounts(l, ledger.ArmBaseline) {
				got.Passed += c.Passed
				got.Trials += c.Trials
			}
			if got != want {
				t.Errorf("%d passed of %d trials, want %d of %d (%s); warnings %q", got.Passed, got.Trials, want.Passed, want.Trials, fs[3], l.Notes())
			}
		})
	}
	if len(rows) < 20 {
		t.Fatalf("only %d samples in expect.tsv", len(rows))
	}
}
