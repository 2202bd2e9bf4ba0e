package main

import (
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/flakegate/flakegate/core/gate"
	"github.com/flakegate/flakegate/internal/words"
)

// pctp formats an optional fraction with decimals decimals; nil prints as
// "-".
func pctp(x *float64, decimals int) string {
	if x == nil {
		return "-"
	}
	return words.FixedPercent(*x, decimals)
}

// points formats a fraction as percentage points, as words.Points does but
// with an ASCII hyphen-minus: terminal output is grepped and pasted.
func points(x float64) string {
	return strings.Replace(words.Points(x), words.Minus, "-", 1)
}

// pointsp formats an optional fraction as points; nil prints as "-".
func pointsp(x *float64) string {
	if x == nil {
		return "-"
	}
	return points(*x)
}

func interval(lo, hi float64) string {
	return "[" + words.FixedPercent(lo, 1) + ", " + words.FixedPercent(hi, 1) + "]"
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
		rate = words.FixedPercent(*a.Rate, 1)
	}
	return fmt.Sprintf("%d/%d  %s  %s", a.Passed, a.Trials, rate, interval(a.Lower, a.Upper))
}

func intText(k float64) string {
	if k >= 1e15 {
		return strconv.FormatFloat(k, 'g', 4, 64)
	}
	return strconv.FormatFloat(math.Round(k), 'f', 0, 64)
}
