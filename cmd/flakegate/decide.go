package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"github.com/flakegate/flakegate/share"
	"io"

	"github.com/flakegate/flakegate/core"
	"github.com/flakegate/flakegate/core/gate"
	"github.com/flakegate/flakegate/words"
)

func runDecide(e *env, args []string) (bool, error) {
	in := gate.DefaultDecideInput
	fs := newFlags(e, "decide", "-baseline passed/trials -patched passed/trials [flags]")
	baseline := fs.String("baseline", "", "baseline arm as `passed/trials` (required)")
	patched := fs.String("patched", "", "patched arm as `passed/trials` (required)")
	int64Flag(fs, &in.MinTrials, "min-trials", "fewest trials an arm needs for a verdict, a whole `number`")
	fs.Var(core.FloatVar{P: &in.Confidence}, "confidence", "`confidence` of the Wilson intervals")
	fs.StringVar(&in.Property, "property", in.Property, "property check result: passed, failed or unknown")
	out := outputFlags(fs)
	pos, err := parse(fs, args)
	if err != nil {
		return false, err
	}
	site, err := out.check(e)
	if err != nil {
		return false, err
	}
	if len(pos) > 0 {
		return false, usagef("unexpected argument %q", pos[0])
	}
	if *baseline == "" || *patched == "" {
		return false, usagef("both -baseline and -patched are required, as passed/trials")
	}
	if in.Baseline, err = core.ParseCount("baseline", *baseline); err != nil {
		return false, err
	}
	if in.Patched, err = core.ParseCount("patched", *patched); err != nil {
		return false, err
	}
	res, err := gate.Decide(in)
	if err != nil {
		return false, err
	}
	link := words.LinkOf(share.DecideOf(res), site)
	res.Link, res.LinkNote = link.URL, link.Note
	return res.Blocks, out.print(e, printed{res: res, link: link, notes: func() []annotation {
		return append([]annotation{resultNote(res.Blocks, words.DecideAnswer(res))}, caveatNotes(res.Warnings)...)
	}, markdown: func() string { return words.DecideMarkdown(res, decideSize(in), link) },
		text: func(w io.Writer) error {
			fmt.Fprintf(w, "%s\n\n", words.DecideAnswer(res))
			t := newTable(w)
			t.row("arm", "passed", "rate", words.FixedPercent(res.Confidence, 0)+" Wilson")
			for _, a := range []struct {
				name string
				arm  gate.Arm
			}{{"baseline", res.Baseline}, {"patched", res.Patched}} {
				rate := "-"
				if a.arm.Rate != nil {
					rate = words.FixedPercent(*a.arm.Rate, 1)
				}
				t.row(a.name, fmt.Sprintf("%d/%d", a.arm.Passed, a.arm.Trials), rate, interval(a.arm.Lower, a.arm.Upper))
			}
			t.flush()
			fmt.Fprintf(w, "\nchange: %s (%s)\ngate: %s (%s) — %s\n", words.VerdictWords(res.Verdict), res.Verdict, words.GateWords(res.Gate), res.Gate, res.Action)
			fmt.Fprintf(w, "%s\n", words.AnytimeSentence(res))
			writeWarnings(w, res.Warnings)
			return nil
		}})
}

func runSize(e *env, args []string) (bool, error) {
	in := gate.SizeInput{Baseline: -1, Patched: -1, Confidence: core.DefaultConfidence}
	fs := newFlags(e, "size", "[flags] baseline-rate patched-rate")
	fs.Var(core.FloatVar{P: &in.Baseline}, "baseline", "baseline pass `rate` in [0,1]")
	fs.Var(core.FloatVar{P: &in.Patched}, "patched", "patched pass `rate` in [0,1]")
	fs.Var(core.FloatVar{P: &in.Confidence}, "confidence", "`confidence` of the Wilson intervals")
	out := outputFlags(fs)
	pos, err := parse(fs, args)
	if err != nil {
		return false, err
	}
	site, err := out.check(e)
	if err != nil {
		return false, err
	}
	if len(pos) > 2 || len(pos) == 1 {
		return false, usagef("give two rates (baseline, patched), got %d arguments", len(pos))
	}
	if len(pos) == 2 {
		for i, dst := range []*float64{&in.Baseline, &in.Patched} {
			v, err := core.ParseFloat(pos[i])
			if err != nil {
				return false, usagef("argument %d: want a pass rate such as 0.85, got %q", i+1, pos[i])
			}
			*dst = v
		}
	}
	if in.Baseline == -1 || in.Patched == -1 {
		return false, usagef("give the baseline and patched pass rates")
	}
	res, err := gate.Size(in)
	if err != nil {
		return false, err
	}
	link := words.LinkOf(share.SizeOf(res), site)
	res.Link, res.LinkNote = link.URL, link.Note
	return false, out.print(e, printed{res: res, link: link, notes: func() []annotation {
		return append([]annotation{resultNote(false, words.SizeSentence(res))}, caveatNotes(res.Warnings)...)
	}, markdown: func() string { return words.SizeMarkdown(res, link) },
		text: func(w io.Writer) error {
			if res.TrialsPerArm == nil {
				fmt.Fprintf(w, "%s and %s do not separate within %d trials per arm at %s\n",
					words.FixedPercent(res.Baseline, 1), words.FixedPercent(res.Patched, 1), gate.SizeLimit, words.FixedPercent(res.Confidence, 0))
			} else {
				fmt.Fprintf(w, "%s against %s: %d trials per arm separate the %s Wilson intervals\n",
					words.FixedPercent(res.Baseline, 1), words.FixedPercent(res.Patched, 1), *res.TrialsPerArm, words.FixedPercent(res.Confidence, 0))
			}
			writeWarnings(w, res.Warnings)
			return nil
		}})
}

func runFreeze(e *env, args []string) (bool, error) {
	in := gate.DefaultFreezeInput
	fs := newFlags(e, "freeze", "(-claim passed/trials | -record file.json) [-date YYYY-MM-DD] [-newer passed/trials] [flags]")
	claim := fs.String("claim", "", "the frozen claim as `passed/trials`")
	record := fs.String("record", "", "a stored claim: the JSON this command printed earlier (`file`, - for stdin)")
	fs.StringVar(&in.Date, "date", "", "the claim's measurement date, YYYY-MM-DD")
	newer := fs.String("newer", "", "a newer count of the same test as `passed/trials`")
	fs.Var(core.FloatVar{P: &in.Confidence}, "confidence", "`confidence` of the claim's interval")
	fs.Var(core.FloatVar{P: &in.Comparable}, "comparable", "least `ratio` of newer to claimed trials that can overturn the claim")
	out := outputFlags(fs)
	pos, err := parse(fs, args)
	if err != nil {
		return false, err
	}
	site, err := out.check(e)
	if err != nil {
		return false, err
	}
	if len(pos) > 0 {
		return false, usagef("unexpected argument %q", pos[0])
	}
	switch {
	case (*claim == "") == (*record == ""):
		return false, usagef("give exactly one of -claim or -record")
	case *claim != "":
		if in.Claim, err = core.ParseCount("claim", *claim); err != nil {
			return false, err
		}
	default:
		c, err := readRecord(e, *record)
		if err != nil {
			return false, err
		}
		in.Claim = core.Count{Passed: c.Passed, Trials: c.Trials}
		if in.Date == "" {
			in.Date = c.Date
		}
		if c.Confidence != 0 && !flagSet(fs, "confidence") {
			in.Confidence = c.Confidence
		}
	}
	if *newer != "" {
		c, err := core.ParseCount("newer", *newer)
		if err != nil {
			return false, err
		}
		in.Newer = &c
	}
	res, err := gate.Freeze(in)
	if err != nil {
		return false, err
	}
	link := words.LinkOf(share.FreezeOf(res), site)
	res.Link, res.LinkNote = link.URL, link.Note
	return res.Blocks, out.print(e, printed{res: res, link: link, notes: func() []annotation {
		return append([]annotation{resultNote(res.Blocks, words.FreezeAnswer(res))}, caveatNotes(res.Warnings)...)
	}, markdown: func() string { return words.FreezeMarkdown(res, link) },
		text: func(w io.Writer) error {
			fmt.Fprintf(w, "%s\n\n", words.FreezeAnswer(res))
			c := res.Claim
			fmt.Fprintf(w, "claim: %d/%d passed (%s), %s Wilson %s", c.Passed, c.Trials, words.FixedPercent(c.Rate, 1),
				words.FixedPercent(c.Confidence, 0), interval(c.Lower, c.Upper))
			if c.Date != "" {
				fmt.Fprintf(w, ", measured %s", c.Date)
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

// readRecord reads a stored claim: a freeze result, or its claim object alone.
func readRecord(e *env, name string) (*gate.Claim, error) {
	f, err := e.open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, 1<<20))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", displayName(name), err)
	}
	var doc struct {
		Claim *gate.Claim `json:"claim"`
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		return nil, fmt.Errorf("%s: not a stored claim: %v", displayName(name), err)
	}
	if doc.Claim == nil {
		doc.Claim = new(gate.Claim)
		if err := json.Unmarshal(b, doc.Claim); err != nil {
			return nil, fmt.Errorf("%s: not a stored claim: %v", displayName(name), err)
		}
	}
	if doc.Claim.Trials == 0 {
		return nil, fmt.Errorf("%s: not a stored claim: no trials", displayName(name))
	}
	return doc.Claim, nil
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
