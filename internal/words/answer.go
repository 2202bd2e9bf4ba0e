package words

import (
	"strconv"
	"strings"

	"github.com/flakegate/flakegate/core"
	"github.com/flakegate/flakegate/core/gate"
)

// armRates is armRate of two arms, their percentages written with as many
// decimals as it takes to tell different rates apart: "999,999,000/1e9
// (99.9999%)" and "999,999,999/1e9 (99.9999999%)", never "100.0%" twice.
func armRates(a, b gate.Arm) (string, string) {
	if a.Trials == 0 || b.Trials == 0 {
		return armRate(a), armRate(b)
	}
	ra, rb := float64(a.Passed)/float64(a.Trials), float64(b.Passed)/float64(b.Trials)
	pa, pb := Percent(ra), Percent(rb)
	if pa == pb && ra != rb {
		// More decimals until they differ, and until neither rounds to a
		// whole 100% or 0% it is not.
		for d := 2; d <= 15; d++ {
			pa, pb = trimPercent(ra, d), trimPercent(rb, d)
			if pa != pb && !roundsToEnd(pa, ra) && !roundsToEnd(pb, rb) {
				break
			}
		}
	}
	return Fraction(a.Passed, a.Trials) + " (" + pa + ")", Fraction(b.Passed, b.Trials) + " (" + pb + ")"
}

// roundsToEnd reports whether s, v written as a percentage, reads 100% or
// 0% while v is not 1 or 0.
func roundsToEnd(s string, v float64) bool {
	return (s == "100%" && v != 1) || (s == "0%" && v != 0)
}

// trimPercent is a fraction as a percentage with at most decimals
// decimals, trailing zeros dropped: "99.9999%".
func trimPercent(v float64, decimals int) string {
	s := strconv.FormatFloat(100*v, 'f', decimals, 64)
	if strings.Contains(s, ".") {
		s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	}
	return s + "%"
}

// BudgetBeyondGate counts the rows whose reruns fit the cap yet whose lane
// says a gate should not rerun that much (refuse the green, quarantine):
// an answer that the gate passes must say so too.
func BudgetBeyondGate(r *gate.BudgetResult) int {
	n := 0
	for _, row := range r.Rows {
		if !row.OverCap && (row.Lane == core.LaneRefuseGreen || row.Lane == core.LaneQuarantine) {
			n++
		}
	}
	return n
}

// NoReportsCaveat is the caveat of a registry's check made without new
// reports: the CLI's `quarantine check` and the page give the same.
const NoReportsCaveat = "no reports given: nothing new is counted and no test can be missing; name the night's reports to check them"
