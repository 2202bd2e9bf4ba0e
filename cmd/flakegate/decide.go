package main

import (
	"flag"
	"fmt"
	"io"

	"github.com/flakegate/flakegate/core"
	"github.com/flakegate/flakegate/core/gate"
	"github.com/flakegate/flakegate/core/param"
	"github.com/flakegate/flakegate/internal/share"
	"github.com/flakegate/flakegate/internal/words"
)

func runDecide(c *calc[gate.DecideInput]) (bool, error) {
	in, res, err := calculate(c, "", gate.Decide)
	if err != nil {
		return false, err
	}
	link := words.SetLink(share.DecideOf(res), c.site, &res.Link, &res.LinkNote)
	return res.Blocks, c.print(printed{res: res, link: link, notes: answerNotes(res.Blocks, res.Warnings, func() string { return words.DecideAnswer(res) }),
		markdown: func() string { return words.DecideMarkdown(res, decideSize(in), link) },
		text: func(w io.Writer) error {
			fmt.Fprintf(w, "%s\n\n", words.DecideAnswer(res))
			t := newTable(w)
			t.row("arm", "passed", "rate", words.FixedPercent(res.Confidence, 0)+" Wilson")
			for _, a := range words.DecideArms(res) {
				rate := "-"
				if a.Rate != nil {
					rate = words.FixedPercent(*a.Rate, 1)
				}
				t.row(a.Name, fmt.Sprintf("%d/%d", a.Passed, a.Trials), rate, interval(a.Lower, a.Upper))
			}
			t.flush()
			fmt.Fprintf(w, "\nchange: %s (%s)\ngate: %s (%s) — %s\n", words.VerdictWords(res.Verdict), res.Verdict, words.GateWords(res.Gate), res.Gate, res.Action)
			fmt.Fprintf(w, "%s\n", words.AnytimeSentence(res))
			writeWarnings(w, res.Warnings)
			return nil
		}})
}

func runSize(c *calc[gate.SizeInput]) (bool, error) {
	if err := c.begin(); err != nil {
		return false, err
	}
	pos := c.pos
	if len(pos) > 2 || len(pos) == 1 {
		return false, usagef("give two rates (baseline, patched), got %d arguments", len(pos))
	}
	for i, key := range []string{"baseline", "patched"} {
		if len(pos) == 2 {
			f, _ := c.schema.Field(key)
			if _, _, err := f.Read(pos[i]); err != nil {
				return false, usagef("argument %d: %s", i+1, err.(*core.Error).Msg)
			}
			c.inputs.texts[key] = pos[i]
		}
	}
	in, res, err := compute(c.inputs, c.schema, gate.Size)
	if err != nil {
		return false, err
	}
	link := words.SetLink(share.SizeOf(res), c.site, &res.Link, &res.LinkNote)
	return false, c.print(printed{res: res, link: link, notes: answerNotes(false, res.Warnings, func() string { return words.SizeSentence(res) }),
		markdown: func() string { return words.SizeMarkdown(res, link) },
		text: func(w io.Writer) error {
			if res.TrialsPerArm == nil {
				fmt.Fprintf(w, "%s and %s do not separate within %d trials per arm at %s\n",
					words.FixedPercent(res.Baseline, 1), words.FixedPercent(res.Patched, 1), gate.SizeLimit, words.FixedPercent(res.Confidence, 0))
			} else if *res.TrialsPerArm == in.MinTrials && len(res.Warnings) > 0 {
				fmt.Fprintf(w, "%s against %s: plan %d trials per arm, the fewest a decision judges; fewer already separate the %s Wilson intervals\n",
					words.FixedPercent(res.Baseline, 1), words.FixedPercent(res.Patched, 1), *res.TrialsPerArm, words.FixedPercent(res.Confidence, 0))
			} else {
				fmt.Fprintf(w, "%s against %s: %d trials per arm separate the %s Wilson intervals\n",
					words.FixedPercent(res.Baseline, 1), words.FixedPercent(res.Patched, 1), *res.TrialsPerArm, words.FixedPercent(res.Confidence, 0))
			}
			writeWarnings(w, res.Warnings)
			return nil
		}})
}

func runFreeze(c *calc[gate.FreezeInput]) (bool, error) {
	record := c.fs.String("record", "", "a stored claim: the JSON this command printed earlier (`file`, - for stdin)")
	if err := c.noArgs(""); err != nil {
		return false, err
	}
	_, claim := c.inputs.texts["claim"]
	if claim == (*record != "") {
		return false, usagef("give exactly one of -claim or -record")
	}
	if *record != "" {
		rec, err := readRecord(c.e, *record)
		if err != nil {
			return false, err
		}
		t := c.inputs.texts
		t["claim"] = param.CountText(core.Count{Passed: rec.Passed, Trials: rec.Trials})
		if _, ok := t["date"]; !ok {
			t["date"] = rec.Date
		}
		if _, ok := t["confidence"]; !ok && rec.Confidence != 0 {
			t["confidence"] = param.Exact(rec.Confidence)
		}
	}
	_, res, err := compute(c.inputs, c.schema, gate.Freeze)
	if err != nil {
		return false, err
	}
	link := words.SetLink(share.FreezeOf(res), c.site, &res.Link, &res.LinkNote)
	return res.Blocks, c.print(printed{res: res, link: link, notes: answerNotes(res.Blocks, res.Warnings, func() string { return words.FreezeAnswer(res) }),
		markdown: func() string { return words.FreezeMarkdown(res, link) },
		text: func(w io.Writer) error {
			fmt.Fprintf(w, "%s\n\n", words.FreezeAnswer(res))
			cl := res.Claim
			fmt.Fprintf(w, "claim: %d/%d passed (%s), %s Wilson %s", cl.Passed, cl.Trials, words.FixedPercent(cl.Rate, 1),
				words.FixedPercent(cl.Confidence, 0), interval(cl.Lower, cl.Upper))
			if cl.Date != "" {
				fmt.Fprintf(w, ", measured %s", cl.Date)
			}
			fmt.Fprintln(w)
			if n := res.Newer; n != nil {
				fmt.Fprintf(w, "newer: %s\n", armText(*n))
			}
			switch res.Status {
			case gate.FreezeRecorded:
				fmt.Fprintln(w, "status: recorded — store this with -json and check it later with -record")
			case gate.FreezeValid:
				fmt.Fprintln(w, "status: valid — the newer rate is inside the claimed interval")
			case gate.FreezeStale:
				fmt.Fprintln(w, "status: stale — the newer rate left the claimed interval; measure the test again")
			case gate.FreezeNotComparable:
				fmt.Fprintln(w, "status: not comparable — too few newer trials to judge the claim")
			}
			writeWarnings(w, res.Warnings)
			return nil
		}})
}

// flagSet reports whether the named flag was given on the command line.
func flagSet(fs *flag.FlagSet, name string) bool {
	set := false
	fs.Visit(func(f *flag.Flag) { set = set || f.Name == name })
	return set
}

// decideSize is the sizing a decision raises (gate.Sizing), as the
// calculator's decide view shows it beside the verdict; nil when an arm
// has no trials or the sizing fails.
func decideSize(in gate.DecideInput) *gate.SizeResult {
	si, ok := gate.Sizing(in)
	if !ok {
		return nil
	}
	size, err := gate.Size(si)
	if err != nil {
		return nil
	}
	return size
}
