package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/flakegate/flakegate/core"
	"github.com/flakegate/flakegate/core/aa"
	"github.com/flakegate/flakegate/core/ledger"
	"github.com/flakegate/flakegate/core/param"
	"github.com/flakegate/flakegate/core/report"
	"github.com/flakegate/flakegate/internal/share"
	"github.com/flakegate/flakegate/internal/words"
)

func runAA(c *calc[param.AAInput]) (bool, error) {
	runs := addArmFlags(c.fs, "baseline", "a test report or eval log `file` as one baseline run, its tests or samples the scenarios (repeatable)",
		"candidate", "a test report or eval log `file` as one candidate run (repeatable)")
	evalOpt := evalFlags(c.fs)
	if err := c.begin(); err != nil {
		return false, err
	}
	// Arguments are A/A CSVs (a baseline and an optional candidate, each
	// holding many runs) or run files: test reports and eval logs, each
	// one baseline run. Which, the first argument's content says.
	pos, csvArgs := c.pos, false
	if len(pos) > 0 {
		var err error
		if csvArgs, err = isAACSV(c.e, pos[0]); err != nil {
			return false, err
		}
	}
	if !csvArgs {
		runs.baseline = append(pos, runs.baseline...)
		pos = nil
	}
	reports := runs.given() > 0
	switch {
	case csvArgs && reports:
		return false, usagef("give A/A CSV files as arguments or run files (test reports, eval logs), not both")
	case csvArgs && len(pos) > 2:
		return false, usagef("give a baseline CSV and optionally a candidate CSV (- reads standard input)")
	case reports && len(runs.baseline) == 0:
		return false, usagef("-candidate runs need baseline runs")
	case !csvArgs && !reports:
		return false, usagef("give a baseline CSV and optionally a candidate CSV, or one report or eval log per run (- reads standard input)")
	}
	if len(pos) == 2 && pos[0] == "-" && pos[1] == "-" {
		return false, usagef("only one input can be standard input")
	}
	in, err := c.parsed()
	if err != nil {
		return false, err
	}
	opt := in.Options
	var res *aa.Result
	var base, cand *aa.Side // the sides the link carries
	var notes []string      // the reports' reading notes, which the link does not carry
	if reports {
		l := ledger.New()
		if err := runs.read(c.e, l, report.Options{Eval: *evalOpt}); err != nil {
			return false, err
		}
		if res, err = aa.CheckLedger(l, opt); err != nil {
			return false, c.inputs.named(err)
		}
		// aa.CheckLedger has read both sides this way already.
		base, _ = aa.FromLedger(l, ledger.ArmBaseline)
		if len(l.Tests(ledger.ArmPatched)) > 0 {
			cand, _ = aa.FromLedger(l, ledger.ArmPatched)
		}
		notes = l.Notes()
	} else {
		sides := make([]*aa.Side, 2)
		for i, name := range pos {
			if sides[i], err = readAA(c.e, name); err != nil {
				return false, err
			}
		}
		if res, err = aa.Check(sides[0], sides[1], opt); err != nil {
			return false, sideFile(c.inputs.named(err), pos)
		}
		base, cand = sides[0], sides[1]
	}
	blocks := res.Candidate != nil && res.Candidate.Blocks
	view, err := share.AA(base, cand, opt)
	if err != nil {
		return false, err
	}
	link := words.AALink(view, c.site, opt, len(notes) > 0)
	res.Link, res.LinkNote = link.URL, link.Note
	return blocks, c.print(printed{res: res, link: link, notes: answerNotes(blocks, res.Warnings, func() string { return words.AAAnswer(res) }),
		markdown: func() string { return words.AAMarkdown(res, link) },
		text:     func(io.Writer) error { return writeAA(c.e, res) }})
}

// isAACSV reports whether the file name is an A/A CSV: its first line names
// the columns scenario, run and passed (rows), and trials too (counts).
func isAACSV(e *env, name string) (bool, error) {
	if name == "-" {
		return true, nil // standard input is read once: it stays the CSV it always was
	}
	return readFile(e, name, func(f io.Reader) (bool, error) {
		head := make([]byte, 4096)
		n, _ := io.ReadFull(f, head)
		return aa.CSVKind(head[:n]) != "", nil
	})
}

// sideFile names the file of the side an error of aa.Check is about: its
// Field says which, "baseline" (the first file) or "candidate" (the second).
// An error about a setting names no file.
func sideFile(err error, files []string) error {
	var e *core.Error
	if !errors.As(err, &e) {
		return err
	}
	// A message that names its side does not say the side twice
	// ("c.csv: the candidate shares no scenario…", not "c.csv: candidate: the candidate…").
	named := *e
	if strings.Contains(e.Msg, e.Field) {
		named.Field = ""
	}
	switch {
	case e.Field == "baseline":
		return core.WithFile(&named, displayName(files[0]))
	case e.Field == "candidate" && len(files) > 1:
		return core.WithFile(&named, displayName(files[1]))
	}
	return err
}

func readAA(e *env, name string) (*aa.Side, error) {
	return readFile(e, name, func(f io.Reader) (*aa.Side, error) {
		br := bufio.NewReader(f)
		head, _ := br.Peek(4096)
		read := aa.ReadCSV
		if aa.CSVKind(head) == "counts" {
			read = aa.ReadCounts
		}
		side, err := read(br)
		return side, core.WithFile(err, displayName(name))
	})
}

func writeAA(e *env, res *aa.Result) error {
	w := e.stdout
	fmt.Fprintf(w, "%s\n\n", words.AAAnswer(res))
	fmt.Fprintf(w, "%s, %s (%s), %d both passed and failed, v = %.4f\n",
		core.Nouns(res.Scenarios, "scenario"), core.Nouns(res.Runs, "run"), core.Nouns(res.Rows, "row"), res.Mixed, res.V)
	measured := "- (needs 3 or more runs)"
	if res.Noise.Measured != nil {
		measured = points(*res.Noise.Measured)
	}
	fmt.Fprintf(w, "noise of a one-run comparison: formula %s, measured %s, s = %s\n",
		points(res.Noise.Formula), measured, points(res.Noise.S))
	if len(res.Thresholds) > 0 {
		fmt.Fprintln(w, "\nflag only drops larger than:")
		t := newTable(w)
		for _, th := range res.Thresholds {
			t.row(core.Nouns(th.RunsPerSide, "run")+" per side", points(th.Drop))
		}
		t.flush()
	}
	if len(res.RunsNeeded) > 0 {
		fmt.Fprintln(w, "\nruns per side to catch a drop 80% of the time:")
		t := newTable(w)
		for _, rn := range res.RunsNeeded {
			t.row("drop of "+shortPoints(rn.Drop), strconv.FormatInt(rn.RunsPerSide, 10))
		}
		t.flush()
	}
	if tr := res.Trend; tr != nil {
		fmt.Fprintf(w, "\ntrend: the one-run threshold fired on %d of %d pairs with the earlier run as baseline, %d with the later\n",
			tr.FiredEarlierBaseline, tr.Pairs, tr.FiredLaterBaseline)
		if tr.FiredEarlierBaseline != tr.FiredLaterBaseline {
			fmt.Fprintln(w, "  lopsided counts point to a trend in run order; look at the run rates below")
		}
	}
	if len(res.RunRates) > 0 {
		rates := make([]string, len(res.RunRates))
		for i, r := range res.RunRates {
			rates[i] = r.Run + " " + words.FixedPercent(r.Rate, 1)
		}
		fmt.Fprintf(w, "\nrun pass rates in run order: %s\n", strings.Join(rates, ", "))
	}
	if c := res.Candidate; c != nil {
		fmt.Fprintf(w, "\ncandidate (%s) against baseline (%s), %d scenarios in common:\n",
			core.Nouns(c.Runs, "run"), core.Nouns(res.Runs, "run"), c.Scenarios)
		fmt.Fprintf(w, "  mean change %s, threshold %s: %s\n", signedPoints(c.Diff), points(c.Threshold), c.Verdict)
		if len(c.LargestDrops) > 0 {
			ds := make([]string, len(c.LargestDrops))
			for i, d := range c.LargestDrops {
				ds[i] = d.Scenario + " (" + signedPoints(d.Diff) + ")"
			}
			fmt.Fprintf(w, "  largest drops: %s\n", strings.Join(ds, ", "))
		}
		if c.Blocks {
			fmt.Fprintln(w, "gate: BLOCK — the candidate dropped by more than the noise allows")
		} else {
			fmt.Fprintln(w, "gate: pass — no drop beyond the noise")
		}
	}
	if res.Depth != nil {
		fmt.Fprintln(w, "\nin depth:")
		if err := writeDepth(w, res.Depth, 10); err != nil {
			return err
		}
	}
	if res.Simulation != nil {
		fmt.Fprintln(w, "\nsimulated gates:")
		if err := writeSimTable(w, res.Simulation); err != nil {
			return err
		}
	}
	writeWarnings(w, res.Warnings)
	return nil
}

// shortPoints formats a round drop such as 0.03 as "3 pts".
func shortPoints(x float64) string {
	return strconv.FormatFloat(math.Round(1e4*x)/100, 'f', -1, 64) + " pts"
}

func signedPoints(x float64) string {
	s := points(x)
	if x >= 0 {
		s = "+" + s
	}
	return s
}
