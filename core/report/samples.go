package report

import (
	"bufio"
	"bytes"
	"io"
	"strconv"
	"strings"

	"github.com/flakegate/flakegate/core"
	"github.com/flakegate/flakegate/core/ledger"
)

// readSamples reads any JSONL or CSV file with one row per sample, given
// the names of its fields (EvalOptions.ID, Run and Score; by default "id",
// none and "score"). Each row is a trial of the scenario its id names; it
// passes when its score reaches the threshold (scores are read as inspect
// reads them: numbers, true/false, C/P/I/N). Without a run field the file
// is one run; with one, each row names its run.
func readSamples(r *bufio.Reader, opt Options, run string, l *ledger.Ledger) error {
	idField, scoreField := cmpOr(opt.Eval.ID, "id"), cmpOr(opt.Eval.Score, "score")
	var nf nonFinite
	add := func(line, col int, id, rowRun string, score jsonScalar) error {
		if id == "" {
			return core.PosErrorf(core.Invalid, line, col, "the row has no %s", idField)
		}
		if nf.missing(score) {
			return nil
		}
		f, ok := scoreValue(score)
		if !ok {
			return core.PosErrorf(core.Invalid, line, col, "the %s %s is not a number, a truth value or C, P, I or N", scoreField, score.describe())
		}
		if opt.Eval.Run != "" {
			if rowRun == "" {
				return core.PosErrorf(core.Invalid, line, col, "the row has no %s", opt.Eval.Run)
			}
			run = rowRun
		}
		l.AddTrial(opt.Arm, run, id, f >= opt.Eval.threshold())
		return nil
	}
	if t := bytes.TrimLeft(peekHead(r), " \t\r\n\xef\xbb\xbf"); len(t) > 0 && t[0] == '{' {
		err := readSamplesJSONL(r, idField, scoreField, opt.Eval.Run, add)
		if err == nil {
			nf.warn(l, run, "samples file")
		}
		return err
	}
	t := core.NewCSVTable(r, true)
	t.SkipBlank = true
	if err := t.ReadHeader(); err != nil {
		return core.CSVError(err, "malformed CSV", "the samples CSV has no header", true)
	}
	col := func(name string) int {
		for i, h := range t.Header {
			if strings.EqualFold(strings.TrimSpace(strings.TrimPrefix(h, "\ufeff")), name) {
				return i
			}
		}
		return -1
	}
	idCol, scoreCol, runCol := col(idField), col(scoreField), -1
	if opt.Eval.Run != "" {
		runCol = col(opt.Eval.Run)
	}
	for _, c := range []struct {
		i    int
		name string
	}{{idCol, idField}, {scoreCol, scoreField}, {runCol, opt.Eval.Run}} {
		if c.i < 0 && c.name != "" {
			return core.PosErrorf(core.Invalid, 1, 1, "the samples CSV has no column %q (its header: %s)", c.name, core.ListNames(t.Header))
		}
	}
	rows := 0
	for line, err := range t.Rows() {
		if err != nil {
			return core.CSVError(err, "malformed CSV", "", true)
		}
		get := func(i int) string {
			if i < 0 || i >= len(t.Rec) {
				return ""
			}
			return strings.TrimSpace(t.Rec[i])
		}
		score := jsonScalar{kind: "string", s: get(scoreCol)}
		if err := add(line, 1, get(idCol), get(runCol), score); err != nil {
			return err
		}
		rows++
	}
	if rows == 0 {
		return core.PosErrorf(core.Unusable, 1, 1, "the samples CSV has no rows")
	}
	return nil
}

func readSamplesJSONL(r io.Reader, idField, scoreField, runField string, add func(line, col int, id, run string, score jsonScalar) error) error {
	lr := newLineReader(r, MaxLineBytes*16)
	rows := 0
	for line, err := range lr.lines(false) {
		if err != nil {
			return err
		}
		j := newJSONLine(line, lr.line, "samples file").python()
		var id, run string
		score := jsonScalar{kind: "missing"}
		text := func() (string, error) {
			v, err := j.scalar("a value")
			if v.kind == "number" {
				return strconv.FormatFloat(v.n, 'f', -1, 64), err
			}
			return v.s, err
		}
		err = j.object(func(key string) error {
			var err error
			switch key {
			case idField:
				id, err = text()
			case runField:
				run, err = text()
			case scoreField:
				score, err = j.scalar("a score")
			default:
				err = j.skip()
			}
			return err
		})
		if err == nil {
			err = j.end()
		}
		if err != nil {
			return err
		}
		if score.kind == "missing" {
			return core.PosErrorf(core.Invalid, lr.line, 1, "the row has no %s", scoreField)
		}
		if err := add(lr.line, 1, id, run, score); err != nil {
			return err
		}
		rows++
	}
	if rows == 0 {
		return core.PosErrorf(core.Unusable, max(lr.line, 1), 1, "the samples file has no rows")
	}
	return nil
}

// peekHead is what r has buffered at its start, up to 512 bytes.
func peekHead(r *bufio.Reader) []byte {
	b, _ := r.Peek(512)
	return b
}
