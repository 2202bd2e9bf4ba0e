package ledger

import (
	"fmt"
	"testing"
)

// BenchmarkLedgerFillAndSum fills a ledger as a suite of 2,000 tests over
// 100 runs of each arm (one trial in 37 failed, retried in its run) and
// then reads it as the CLI does: Summary and Flakes.
func BenchmarkLedgerFillAndSum(b *testing.B) {
	tests := make([]string, 2000)
	for i := range tests {
		tests[i] = fmt.Sprintf("tests/pkg%02d/test_big.py::test_%03d", i/40, i%40)
	}
	runs := make([]string, 100)
	for i := range runs {
		runs[i] = fmt.Sprint("r", i)
	}
	b.ReportAllocs()
	for b.Loop() {
		l := New()
		n := 0
		for _, arm := range []string{ArmBaseline, ArmPatched} {
			for _, run := range runs {
				for _, t := range tests {
					n++
					if n%37 == 0 {
						l.AddTrial(arm, run, t, false)
					}
					l.AddTrial(arm, run, t, true)
				}
			}
		}
		if s := l.Summary(); len(s.Tests) != len(tests) || len(l.Flakes()) == 0 {
			b.Fatalf("%d tests", len(s.Tests))
		}
	}
}
