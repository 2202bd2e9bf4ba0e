package main

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/flakegate/flakegate/core/aa/sim"
)

// writeSimTable writes the gate simulation as an aligned text table: one
// row per gate with its threshold, its false-alarm rate and its detection
// rate for each shape, under a row of the planted drops. Rates are percentages with
// one decimal, drops are points with two; "-" marks what is unavailable.
// Warnings follow the table, one per line.
func writeSimTable(w io.Writer, r *sim.Result) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	head := []string{fmt.Sprintf("%d sets, %d run(s) per side", r.Sets, r.RunsPerSide), "threshold", "false alarms"}
	planted := []string{"planted drop", "", ""}
	for _, s := range r.Shapes {
		head = append(head, s.Shape)
		planted = append(planted, pointsp(s.PlantedDrop))
	}
	row := func(cells []string) {
		// Left-align the first column by padding it here; tabwriter aligns
		// the rest to the right.
		fmt.Fprintf(tw, "%s\t%s\t\n", cells[0], strings.Join(cells[1:], "\t"))
	}
	width := 0
	lines := [][]string{head, planted}
	for _, g := range r.Gates {
		cells := []string{g.Gate, pointsp(g.Threshold), pctp(g.FalseAlarm, 1)}
		if g.Gate == sim.GatePairedT {
			cells[1] = fmt.Sprintf("t < -%.3f", r.TCritical)
		}
		for _, d := range g.Detection {
			cells = append(cells, pctp(d, 1))
		}
		lines = append(lines, cells)
	}
	for _, l := range lines {
		width = max(width, len(l[0]))
	}
	for _, l := range lines {
		l[0] += strings.Repeat(" ", width-len(l[0]))
		row(l)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	for _, warn := range r.Warnings {
		if _, err := fmt.Fprintf(w, "warning: %s\n", warn); err != nil {
			return err
		}
	}
	return nil
}
