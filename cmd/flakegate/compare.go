package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/flakegate/flakegate/core"
	"github.com/flakegate/flakegate/core/compare"
	"github.com/flakegate/flakegate/core/report"
	"github.com/flakegate/flakegate/internal/share"
	"github.com/flakegate/flakegate/internal/words"
)

// compareTextFlips is how many flipped questions of each way the text
// report lists (-json and -markdown list up to the result's MaxListed).
const compareTextFlips = 20

func runCompare(c *calc[compare.Options]) (bool, error) {
	sides := addArmFlags(c.fs, "a", "an eval log `file` of side A, the model compared against (repeatable: epochs, repeats)",
		"b", "an eval log `file` of side B, the model compared (repeatable)")
	evalOpt := evalFlags(c.fs)
	board := addBoardFlags(c.fs)
	seq := c.fs.Bool("sequential", false, "answer as a sequential test that may be looked at after every batch: B better, B worse, no difference of the planned -effect, or continue (docs/STATISTICS.md)")
	var maxQ int64
	int64Flag(c.fs, &maxQ, "max-questions", "with -sequential: stop without an answer at this many questions (0: no cap)")
	opt, err := c.start()
	if err != nil {
		return false, err
	}
	if many, err := board.wanted(c.pos); many || err != nil {
		if err != nil {
			return false, err
		}
		return runBoard(c, board, sides, *evalOpt, opt)
	}
	switch pos := c.pos; {
	case len(pos) > 0 && sides.given() > 0:
		return false, usagef("give the two logs as arguments (A B) or with -a and -b, not both")
	case len(pos) == 2:
		sides.baseline, sides.other = pos[:1], pos[1:]
	case len(pos) > 0:
		return false, usagef("give two eval logs, A then B (several a side with -a and -b), got %d", len(pos))
	case len(sides.baseline) == 0 || len(sides.other) == 0:
		return false, usagef("give eval logs of both sides: A B, or -a log... -b log...")
	}
	if n := stdinCount(sides.baseline) + stdinCount(sides.other); n > 1 {
		return false, usagef("only one input can be standard input")
	}
	a, b, l, err := compareSides(c.e, sides, report.Options{Eval: *evalOpt})
	if err != nil {
		return false, err
	}
	if *seq {
		return runCompareSequential(c, a, b, l.Notes(), opt, maxQ)
	}
	if opt.ClusterField != "" {
		if opt.Clusters, err = readClusters(c.e, append(append([]string{}, sides.baseline...), sides.other...), opt.ClusterField, *evalOpt); err != nil {
			return false, err
		}
	}
	res, err := compare.Compare(a, b, opt)
	if err != nil {
		return false, sideOf(c.inputs.named(err), sides.baseline, sides.other)
	}
	res.Warnings = append(res.Warnings, l.Notes()...)
	view, err := share.Compare(a, b, opt)
	if err != nil {
		return false, err
	}
	link := words.CompareLink(view, c.site, len(l.Notes()) > 0)
	res.Link, res.LinkNote = link.URL, link.Note
	return false, c.print(printed{res: res, link: link, notes: answerNotes(false, res.Warnings, func() string { return words.CompareAnswer(res) }),
		markdown: func() string { return words.CompareMarkdown(res, link) },
		text:     func(w io.Writer) error { return writeCompare(w, res) }})
}

func stdinCount(files []string) int {
	n := 0
	for _, f := range files {
		if f == "-" {
			n++
		}
	}
	return n
}

// sideOf names the side's file in an error of compare.Compare about side
// "a" or "b" when that side is one file.
func sideOf(err error, a, b []string) error {
	switch e := err.(type) {
	case *core.Error:
		if e.Field == "a" && len(a) == 1 {
			return core.WithFile(err, displayName(a[0]))
		}
		if e.Field == "b" && len(b) == 1 {
			return core.WithFile(err, displayName(b[0]))
		}
	}
	return err
}

// readClusters reads the group of every question from field of each row
// of samples files (compare.ClustersFromSamples).
func readClusters(e *env, files []string, field string, eo report.EvalOptions) (map[string]string, error) {
	out := map[string]string{}
	for _, name := range files {
		if name == "-" {
			return nil, usagef("-cluster reads every file twice: give standard input's log as a file")
		}
		f, err := e.open(name)
		if err != nil {
			return nil, err
		}
		err = compare.ClustersFromSamples(f, field, eo, out)
		f.Close()
		if err != nil {
			return nil, core.WithFile(err, displayName(name))
		}
	}
	return out, nil
}

func writeCompare(w io.Writer, r *compare.Result) error {
	fmt.Fprintf(w, "%s\n\n", words.CompareAnswer(r))
	if r.Improved+r.Worsened > 0 {
		up, down := "wrong -> right", "right -> wrong"
		if r.McNemar == nil {
			up, down = "scored higher", "scored lower"
		}
		fmt.Fprintf(w, "questions that changed (%d %s, %d %s):\n", r.Improved, up, r.Worsened, down)
		t := newTable(w)
		shown := [2]int{}
		for _, f := range r.Flips {
			way := 0
			if f.B < f.A {
				way = 1
			}
			if shown[way] == compareTextFlips {
				continue
			}
			shown[way]++
			t.row(f.ID, strings.ReplaceAll(words.FlipWords(r, f), "→", "->"))
		}
		t.flush()
		if more := r.Improved + r.Worsened - shown[0] - shown[1]; more > 0 {
			fmt.Fprintf(w, "  and %d more (-json and -markdown list more)\n", more)
		}
		fmt.Fprintln(w)
	}
	for _, s := range words.CompareStory(r) {
		fmt.Fprintf(w, "%s\n\n", strings.ReplaceAll(s, words.Minus, "-"))
	}
	t := newTable(w)
	for _, row := range words.CompareFigures(r) {
		t.row(row[0], strings.ReplaceAll(row[1], words.Minus, "-"))
	}
	t.flush()
	if len(r.Plan.Epochs) > 0 {
		fmt.Fprintf(w, "\nepochs  detects %s of the time at %d questions  questions to detect %s\n",
			words.Level(r.Plan.Power), r.Questions, points(r.Plan.Effect))
		t := newTable(w)
		for _, e := range r.Plan.Epochs {
			t.row(fmt.Sprint(e.Epochs), points(e.MDE), fmt.Sprint(e.QuestionsNeeded))
		}
		t.flush()
	}
	if len(r.Warnings) > 0 {
		fmt.Fprintln(w)
	}
	writeWarnings(w, r.Warnings)
	return nil
}
