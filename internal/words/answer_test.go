package words

import (
	"strings"
	"testing"

	"github.com/flakegate/flakegate/core"
	"github.com/flakegate/flakegate/core/gate"
)

// Rates that differ are written so that they read different: 999,999,000
// and 999,999,999 passes of 10^9 are 99.9999% and 99.9999999% (by hand),
// not "100.0%" twice.
func TestDecideAnswerTellsCloseRatesApart(t *testing.T) {
	r := decided(t, core.Count{Passed: 999_999_000, Trials: 1_000_000_000}, core.Count{Passed: 999_999_999, Trials: 1_000_000_000})
	a := DecideAnswer(r)
	if strings.Contains(a, "100.0%") || !strings.Contains(a, "(99.9999%) to ") || !strings.Contains(a, "(99.9999999%)") {
		t.Errorf("answer %q", a)
	}
	// Rates that round apart keep the usual one decimal.
	if b, p := armRates(gate.Arm{Passed: 10, Trials: 20}, gate.Arm{Passed: 17, Trials: 20}); !strings.HasSuffix(b, "(50.0%)") || !strings.HasSuffix(p, "(85.0%)") {
		t.Errorf("armRates = %q, %q", b, p)
	}
}

// A cap of 1,000 reruns covers the 299 reruns a 1% flake needs for 95%
// (docs/STATISTICS.md), but 299 is in the refuse-the-green lane (61 to 300): the
// answer must not say the gate simply passes while the row says not to
// trust a green run. The row's cost is 299 × 0.001 s ≈ 0.3 s at 0.001 s a
// run, not "at 0 s".
func TestBudgetAnswerAgreesWithItsLane(t *testing.T) {
	cost := 0.001
	r := budget(t, gate.BudgetInput{Target: 0.95, Cap: 1000, Confidence: 0.95, CostSeconds: &cost, Rates: []float64{0.01}})
	if r.Rows[0].Lane != core.LaneRefuseGreen || r.Blocks() {
		t.Fatalf("lane %s, blocks %v: not the case under test", r.Rows[0].Lane, r.Blocks())
	}
	a := BudgetAnswer(r)
	if strings.HasPrefix(a, "The gate passes:") || !strings.Contains(a, "do not trust a green run") {
		t.Errorf("answer %q", a)
	}
	if s := BudgetSentence(r, r.Rows[0]); !strings.Contains(s, "(0.3 s at 0.001 s)") {
		t.Errorf("row says %q", s)
	}
	if md := BudgetMarkdown(r, Link{}); !strings.HasPrefix(md, "**"+a+"**") {
		t.Errorf("Markdown starts %q", md[:80])
	}
}
