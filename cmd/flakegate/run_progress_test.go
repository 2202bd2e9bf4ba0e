package main

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/flakegate/flakegate/internal/runner"
)

// TestProgressFits: on 80- and 120-column terminals the bar is never cut:
// it keeps the runs done, the time elapsed and left, and names the tests
// that failed, shortening the rest first. Before, the line was cut at the
// terminal's edge ("…patched 1/4 r…"), hiding the time.
func TestProgressFits(t *testing.T) {
	p := newProgress(&bytes.Buffer{}, progressBar)
	p.begin = time.Now().Add(-95 * time.Second)
	p.statusAt = time.Now()
	p.status = runner.Status{Total: 60, Ran: 17, Left: 4 * time.Minute, Arms: []runner.ArmStatus{
		{Name: "baseline", Runs: 8, Planned: 30, Trials: 8 * 412, Passed: 8*412 - 3, Errors: 1},
		{Name: "patched", Runs: 8, Planned: 30, Trials: 8 * 412, Passed: 8*412 - 9},
	}}
	p.running = "b10"
	for _, f := range []string{"example.com/shop/checkout.TestPaymentRetriesWithBackoff", "example.com/shop/cart.TestCartTotals", "example.com/shop.TestSearch"} {
		p.Finished(&runner.Record{Run: "p8", Arm: "patched", Outcome: runner.OutcomeDone, Failed: []string{f}}, p.status)
	}
	for _, c := range []struct {
		width int
		want  []string
	}{
		{80, []string{"17/60", "elapsed", "left", "failed: TestPaymentRetriesWithBackoff +2"}},
		{120, []string{"17/60", "b 8/30 99.9% 1 err", "p 8/30 99.7%", "elapsed", "left", "failed: TestPaymentRetriesWithBackoff +2"}},
		{200, []string{"baseline 8/30 runs 99.9% passed (1 error)", "elapsed, about", "left", "failed: TestPaymentRetriesWithBackoff, TestCartTotals, TestSearch"}},
	} {
		line := p.barLine(c.width - 1)
		if n := utf8.RuneCountInString(line); n > c.width-1 || strings.Contains(line, "…") {
			t.Errorf("%d columns: %d characters, or cut: %q", c.width, n, line)
		}
		containsAll(t, fmt.Sprintf("the bar in %d columns", c.width), line, c.want...)
	}
}
