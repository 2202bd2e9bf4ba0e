package main

import (
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/flakegate/flakegate/core/gate"
)

// pct formats a fraction as a percentage with the given decimals.
func pct(x float64, decimals int) string {
	return strconv.FormatFloat(100*x, 'f', decimals, 64) + "%"
}

// ratePct formats a failure rate, keeping tiny rates readable.
func ratePct(x float64) string {
	if x != 0 && 100*x < 0.01 {
		return strconv.FormatFloat(100*x, 'g', 3, 64) + "%"
	}
	return pct(x, 2)
}

// pctp formats an optional fraction; nil prints as "-".
func pctp(x *float64, decimals int) string {
	if x == nil {
		return "-"
	}
	return pct(*x, decimals)
}

// points formats a fraction as signed percentage points.
func points(x float64) string {
	return strconv.FormatFloat(100*x, 'f', 2, 64) + " pts"
}

func interval(lo, hi float64) string {
	return "[" + pct(lo, 1) + ", " + pct(hi, 1) + "]"
}

// duration formats seconds in the unit a person would say.
func duration(s float64) string {
	switch {
	case s < 120:
		return strconv.FormatFloat(s, 'f', -1, 64) + " s"
	case s < 2*3600:
		return strconv.FormatFloat(s/60, 'f', 1, 64) + " min"
	case s < 48*3600:
		return strconv.FormatFloat(s/3600, 'f', 1, 64) + " h"
	case s < 1e6*86400:
		return strconv.FormatFloat(s/86400, 'f', 1, 64) + " days"
	}
	return strconv.FormatFloat(s/86400, 'g', 3, 64) + " days"
}

// table writes aligned columns; rows are tab-separated cells.
type table struct{ tw *tabwriter.Writer }

func newTable(w io.Writer) *table {
	return &table{tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)}
}

func (t *table) row(cells ...string) { fmt.Fprintln(t.tw, "  "+strings.Join(cells, "\t")) }

func (t *table) flush() { t.tw.Flush() }

func writeWarnings(w io.Writer, ws []string) {
	for _, s := range ws {
		fmt.Fprintf(w, "warning: %s\n", s)
	}
}

func armText(a gate.Arm) string {
	rate := "-"
	if a.Rate != nil {
		rate = pct(*a.Rate, 1)
	}
	return fmt.Sprintf("%d/%d  %s  %s", a.Passed, a.Trials, rate, interval(a.Lower, a.Upper))
}

func intText(k float64) string {
	if k >= 1e15 {
		return strconv.FormatFloat(k, 'g', 4, 64)
	}
	return strconv.FormatFloat(math.Round(k), 'f', 0, 64)
}
