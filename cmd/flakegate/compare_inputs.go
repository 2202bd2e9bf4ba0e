package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/flakegate/flakegate/core"
	"github.com/flakegate/flakegate/core/aa"
	"github.com/flakegate/flakegate/core/compare"
	"github.com/flakegate/flakegate/core/ledger"
	"github.com/flakegate/flakegate/core/report"
	"github.com/flakegate/flakegate/internal/words"
)

// compareSides reads the two sides of a comparison. A side given as one
// A/A CSV (scenario,run,passed rows, or scenario,passed,trials counts:
// the files aa reads, told apart as aa tells them) is each question's
// passes over its runs; the other sides are eval logs and test reports,
// read into l (whose notes are the reading's warnings).
func compareSides(e *env, sides *armFlags, opt report.Options) (a, b *aa.Side, l *ledger.Ledger, err error) {
	l = ledger.New()
	out := [2]*aa.Side{}
	for i, s := range []struct {
		arm   string
		files []string
	}{{ledger.ArmBaseline, sides.baseline}, {ledger.ArmPatched, sides.other}} {
		csv := false
		for _, f := range s.files {
			if f == "-" {
				continue // standard input is read once, as an eval log
			}
			is, err := isAACSV(e, f)
			if err != nil {
				return nil, nil, nil, err
			}
			csv = csv || is
		}
		if csv && len(s.files) > 1 {
			return nil, nil, nil, usagef("give a side's A/A CSV alone: it holds all that side's runs (%s)", strings.Join(s.files, ", "))
		}
		if csv {
			if out[i], err = readAA(e, s.files[0]); err != nil {
				return nil, nil, nil, err
			}
			continue
		}
		o := opt
		o.Format, o.Arm = sides.format, s.arm
		if err := readRuns(e, l, s.files, o); err != nil {
			return nil, nil, nil, err
		}
		if out[i], err = aa.FromLedger(l, s.arm); err != nil {
			return nil, nil, nil, &core.Error{Kind: core.Unusable, Field: "ab"[i : i+1], Msg: "side " + "AB"[i:i+1] + " has no scored answers"}
		}
	}
	return out[0], out[1], l, nil
}

// runCompareSequential answers -sequential: the questions both sides have,
// replayed in side A's order through the sequential test.
func runCompareSequential(c *calc[compare.Options], a, b *aa.Side, notes []string, opt compare.Options, maxQuestions int64) (bool, error) {
	res, err := compare.CompareSequential(a, b, compare.SeqPlan{Effect: opt.Effect, Level: opt.Level, Power: opt.Power, MaxQuestions: maxQuestions})
	if err != nil {
		return false, err
	}
	res.Warnings = append(res.Warnings, notes...)
	blocks := res.Verdict == compare.SeqWorse
	return blocks, c.print(printed{res: res, notes: answerNotes(blocks, res.Warnings, func() string { return words.SequentialAnswer(res) }),
		markdown: func() string { return words.SequentialMarkdown(res) },
		text: func(w io.Writer) error {
			fmt.Fprintf(w, "%s\n\n", strings.ReplaceAll(words.SequentialAnswer(res), words.Minus, "-"))
			t := newTable(w)
			for _, row := range words.SequentialFigures(res) {
				t.row(strings.ReplaceAll(row[0], words.Minus, "-"), strings.ReplaceAll(row[1], words.Minus, "-"))
			}
			t.flush()
			if len(res.Warnings) > 0 {
				fmt.Fprintln(w)
			}
			writeWarnings(w, res.Warnings)
			return nil
		}})
}
