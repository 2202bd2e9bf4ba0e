package report

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"strconv"

	"github.com/flakegate/flakegate/core"
	"github.com/flakegate/flakegate/core/ledger"
)

// readLMEval reads an lm-evaluation-harness samples file (--log_samples
// writes samples_<task>_<date>.jsonl: one row per document and filter) as
// one run. Each doc_id is a scenario with one trial; it passes when the
// chosen metric (EvalOptions.Score, by default the first metric of the
// row's "metrics" whose value is 0, 1 or a boolean, such as acc or
// exact_match) reaches the threshold. Rows of filters other than the chosen
// one (EvalOptions.Filter, by default the first in the file) are left out.
func readLMEval(r *bufio.Reader, opt Options, run string, l *ledger.Ledger) error {
	lr := newLineReader(r, MaxLineBytes*16)
	metric, filter := opt.Eval.Score, opt.Eval.Filter
	var otherFilters []string
	seenFilter := map[string]bool{}
	rows, partial := 0, false
	for {
		line, err := lr.next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return err
		}
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		j := newJSONReader(bytes.NewReader(line), "lm-evaluation-harness samples file")
		j.line = lr.line
		var doc, rowFilter string
		var metrics []string
		values := map[string]jsonScalar{}
		err = j.object(func(key string) error {
			switch key {
			case "doc_id":
				v, err := j.scalar("the doc_id")
				doc = v.s
				if v.kind == "number" {
					doc = strconv.FormatFloat(v.n, 'f', -1, 64)
				}
				return err
			case "filter":
				var err error
				rowFilter, err = j.text("the filter's name")
				return err
			case "metrics":
				return j.array(func(int) error {
					s, err := j.text("a metric name")
					metrics = append(metrics, s)
					return err
				})
			}
			k, err := j.kind()
			if err != nil {
				return err
			}
			switch k {
			case "number", "true", "false", "string":
				v, err := j.scalar("a value")
				values[key] = v
				return err
			}
			return j.skip()
		})
		if err == nil {
			err = j.end()
		}
		if err != nil {
			return err
		}
		if doc == "" {
			return core.PosErrorf(core.Invalid, lr.line, 1, "a row without a doc_id: not an lm-evaluation-harness samples file")
		}
		if filter == "" {
			filter = rowFilter
		}
		if rowFilter != filter {
			if !seenFilter[rowFilter] {
				seenFilter[rowFilter] = true
				otherFilters = append(otherFilters, rowFilter)
			}
			continue
		}
		if metric == "" {
			for _, m := range metrics {
				if v, ok := values[m]; ok && (v.kind == "true" || v.kind == "false" || v.kind == "number" && (v.n == 0 || v.n == 1)) {
					metric = m
					break
				}
			}
			if metric == "" {
				return core.PosErrorf(core.Unusable, lr.line, 1, "no metric of this row is a pass or fail (0 or 1): name the metric and the score that passes (metrics here: %s)", core.ListNames(metrics))
			}
		}
		v, ok := values[metric]
		if !ok {
			return core.PosErrorf(core.Invalid, lr.line, 1, "doc %s has no value for the metric %q", doc, metric)
		}
		f, ok := scoreValue(v)
		if !ok {
			return core.PosErrorf(core.Invalid, lr.line, 1, "doc %s: the metric %q is %s, not a number", doc, metric, v.describe())
		}
		if f > 0 && f < 1 {
			partial = true
		}
		l.AddTrial(opt.Arm, run, doc, f >= opt.Eval.threshold())
		rows++
	}
	if rows == 0 {
		return core.PosErrorf(core.Unusable, max(lr.line, 1), 1, "no rows of the filter %q in the samples file", filter)
	}
	if len(otherFilters) > 0 {
		warnf(l, "run %s: rows of the filter %q are counted, %s left out (choose with the filter option)", run, filter, core.ListNames(otherFilters))
	}
	if partial {
		warnf(l, "run %s: the metric %q has values between 0 and 1; a doc passes at %v or more", run, metric, opt.Eval.threshold())
	}
	return nil
}
