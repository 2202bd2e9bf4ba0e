package main

import (
	"flag"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/flakegate/flakegate/core"
	"github.com/flakegate/flakegate/core/aa"
	"github.com/flakegate/flakegate/core/compare"
	"github.com/flakegate/flakegate/core/ledger"
	"github.com/flakegate/flakegate/core/report"
	"github.com/flakegate/flakegate/internal/share"
	"github.com/flakegate/flakegate/internal/words"
)

// boardTextPairs is the most models whose every pair the text report
// lists (45 pairs); beyond, -json and -markdown list them.
const boardTextPairs = 10

// boardFlags are compare's flags for many models.
type boardFlags struct {
	sides    sideList
	bh       bool
	category string
}

// sideList is the -side flags: each NAME=FILE adds a log to the model
// NAME, the models in the order they are first named.
type sideList struct {
	names []string
	files map[string][]string
}

func (s *sideList) String() string { return strings.Join(s.names, ",") }

func (s *sideList) Set(v string) error {
	name, file, ok := strings.Cut(v, "=")
	if !ok || strings.TrimSpace(name) == "" || file == "" {
		return fmt.Errorf("want NAME=FILE (a model's name, then one eval log of it), got %q", v)
	}
	if s.files == nil {
		s.files = map[string][]string{}
	}
	if _, seen := s.files[name]; !seen {
		s.names = append(s.names, name)
	}
	s.files[name] = append(s.files[name], file)
	return nil
}

func addBoardFlags(fs *flag.FlagSet) *boardFlags {
	b := &boardFlags{}
	fs.Var(&b.sides, "side", "many models: `NAME=FILE`, an eval log of the model NAME (repeatable: one a model, or several for its epochs); 3 or more models make a leaderboard")
	fs.BoolVar(&b.bh, "bh", false, "many models: add Benjamini–Hochberg adjusted p-values (false discovery rate) beside Holm's")
	fs.StringVar(&b.category, "category", "", "many models, samples files: the `field` of each row that names the question's category (task, subject), for per-category rows")
	return b
}

// wanted says whether the command line asks for a leaderboard: three or
// more logs, or -side; -bh and -category without one are an error.
func (b *boardFlags) wanted(pos []string) (bool, error) {
	if len(pos) > 2 || len(b.sides.names) > 0 {
		return true, nil
	}
	if b.bh || b.category != "" {
		return false, usagef("-bh and -category are for three or more models: give 3 or more logs, or -side NAME=FILE for each model")
	}
	return false, nil
}

// boardModels names each model and its logs: -side's, or one log an
// argument named after its file.
func boardModels(b *boardFlags, pos []string, arms *armFlags) (names []string, files map[string][]string, err error) {
	switch {
	case arms.given() > 0:
		return nil, nil, usagef("-a and -b compare two sides; for many models give the logs as arguments or with -side NAME=FILE")
	case len(pos) > 0 && len(b.sides.names) > 0:
		return nil, nil, usagef("give the models' logs as arguments or with -side, not both")
	case len(b.sides.names) > 0:
		if len(b.sides.names) < 2 {
			return nil, nil, usagef("-side names one model, %q; a comparison needs two or more", b.sides.names[0])
		}
		return b.sides.names, b.sides.files, nil
	}
	files = map[string][]string{}
	for _, f := range pos {
		name := strings.TrimSuffix(filepath.Base(f), filepath.Ext(f))
		if f == "-" {
			name = "stdin"
		}
		if _, dup := files[name]; dup {
			return nil, nil, usagef("two logs are named %q; name the models with -side NAME=FILE", name)
		}
		names = append(names, name)
		files[name] = []string{f}
	}
	return names, files, nil
}

// runBoard is compare with many models: a leaderboard.
func runBoard(c *calc[compare.Options], b *boardFlags, arms *armFlags, eval report.EvalOptions, opt compare.Options) (bool, error) {
	if opt.ClusterField != "" {
		return false, usagef("-cluster is for two models; with many, -category gives per-category rows")
	}
	names, files, err := boardModels(b, c.pos, arms)
	if err != nil {
		return false, err
	}
	var all []string
	for _, n := range names {
		all = append(all, files[n]...)
	}
	if stdinCount(all) > 1 {
		return false, usagef("only one input can be standard input")
	}
	models := make([]compare.Model, len(names))
	var notes []string
	for i, name := range names {
		l := ledger.New()
		if err := readRuns(c.e, l, files[name], report.Options{Format: arms.format, Arm: ledger.ArmBaseline, Eval: eval}); err != nil {
			return false, err
		}
		side, err := aa.FromLedger(l, ledger.ArmBaseline)
		if err != nil {
			return false, fileOf(&core.Error{Kind: core.Unusable, Field: name, Msg: "has no scored answers"}, files[name])
		}
		models[i] = compare.Model{Name: name, Side: side}
		for _, n := range l.Notes() {
			notes = append(notes, name+": "+n)
		}
	}
	bo := compare.BoardOptions{Level: opt.Level, BH: b.bh, CategoryField: b.category}
	if b.category != "" {
		if bo.Categories, err = readClusters(c.e, all, b.category, eval); err != nil {
			return false, err
		}
	}
	res, err := compare.Leaderboard(models, bo)
	if err != nil {
		if e, ok := err.(*core.Error); ok && files[e.Field] != nil {
			return false, fileOf(err, files[e.Field])
		}
		return false, err
	}
	res.Warnings = append(res.Warnings, notes...)
	view, err := share.Leaderboard(models, bo)
	if err != nil {
		return false, err
	}
	link := words.CompareLink(view, c.site, len(notes) > 0)
	res.Link, res.LinkNote = link.URL, link.Note
	return false, c.print(printed{res: res, link: link, notes: answerNotes(false, res.Warnings, func() string { return words.BoardAnswer(res) }),
		markdown: func() string { return words.BoardMarkdown(res, link) },
		text:     func(w io.Writer) error { return writeBoard(w, res) }})
}

// fileOf names the model's file in its error when the model is one file.
func fileOf(err error, files []string) error {
	if len(files) == 1 {
		return core.WithFile(err, displayName(files[0]))
	}
	return err
}

func writeBoard(w io.Writer, b *compare.Board) error {
	fmt.Fprintf(w, "%s\n\n", words.BoardAnswer(b))
	writeRows(w, words.BoardRows(b, b.Models))
	fmt.Fprintln(w)
	for _, s := range words.BoardStory(b) {
		fmt.Fprintf(w, "%s\n\n", s)
	}
	if len(b.Models) <= boardTextPairs {
		writeRows(w, words.PairRows(b, b.Pairs))
	} else {
		fmt.Fprintf(w, "%s: -json and -markdown list them.\n", words.Nouns(b.Comparisons, "pair"))
	}
	for _, c := range b.Categories {
		fmt.Fprintf(w, "\n%s\n", words.CategoryHead(b, c))
		writeRows(w, words.BoardRows(b, c.Models))
	}
	if len(b.Warnings) > 0 {
		fmt.Fprintln(w)
	}
	writeWarnings(w, b.Warnings)
	return nil
}

// writeRows writes a table with its head, in plain text.
func writeRows(w io.Writer, rows words.Table) {
	t := newTable(w)
	t.row(rows.Head...)
	for _, r := range rows.Rows {
		for i := range r {
			r[i] = strings.ReplaceAll(strings.ReplaceAll(r[i], words.Minus, "-"), "–", "-")
		}
		t.row(r...)
	}
	t.flush()
}
