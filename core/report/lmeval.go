package report

import (
	"bufio"
	"strconv"

	"github.com/flakegate/flakegate/core"
	"github.com/flakegate/flakegate/core/ledger"
)

// readLMEval reads an lm-evaluation-harness samples file (--log_samples
// writes samples_<task>_<date>.jsonl: one row per document and filter) as
// one run. Each doc_id is a scenario with one trial; it passes when the
// chosen metric reaches the threshold. The metric is EvalOptions.Score or,
// when that is empty, the first metric of the rows' "metrics" that is 0 or
// 1 (or a boolean) in every row, such as acc, exact_match or
// truthfulqa_gen's bleu_acc: a warning names it, and the others that
// qualify. A file in which no metric is 0 or 1 throughout (only continuous
// ones, such as bleu_max) is refused: its metric and the value that passes
// must be named. Rows of filters other than the chosen one
// (EvalOptions.Filter, by default the first in the file) are left out.
func readLMEval(r *bufio.Reader, opt Options, run string, l *ledger.Ledger) error {
	lr := newLineReader(r, MaxLineBytes*16)
	metric, filter := opt.Eval.Score, opt.Eval.Filter
	var otherFilters []string
	seenFilter := map[string]bool{}
	rows, partial := 0, false
	var pick lmPick  // the rows kept to choose a metric by, when none is named
	var nf nonFinite // the named metric's NaN and infinite values
	for line, err := range lr.lines(false) {
		if err != nil {
			return err
		}
		row, err := readLMRow(line, lr.line)
		if err != nil {
			return err
		}
		if filter == "" {
			filter = row.filter
		}
		if row.filter != filter {
			if !seenFilter[row.filter] {
				seenFilter[row.filter] = true
				otherFilters = append(otherFilters, row.filter)
			}
			continue
		}
		rows++
		if metric == "" {
			pick.add(row)
			continue
		}
		v, ok := row.values[metric]
		if !ok {
			return core.PosErrorf(core.Invalid, lr.line, 1, "doc %s has no value for the metric %q", row.doc, metric)
		}
		if nf.missing(v) {
			continue
		}
		f, ok := scoreValue(v)
		if !ok {
			return core.PosErrorf(core.Invalid, lr.line, 1, "doc %s: the metric %q is %s, not a number", row.doc, metric, v.describe())
		}
		if f > 0 && f < 1 {
			partial = true
		}
		l.AddTrial(opt.Arm, run, row.doc, f >= opt.Eval.threshold())
	}
	if rows == 0 {
		return core.PosErrorf(core.Unusable, max(lr.line, 1), 1, "no rows of the filter %q in the samples file", filter)
	}
	if metric == "" {
		var err error
		if metric, nf, err = pick.record(l, opt.Arm, run); err != nil {
			return err
		}
	}
	nf.warn(l, run, "metric "+strconv.Quote(metric))
	if len(otherFilters) > 0 {
		warnf(l, "run %s: rows of the filter %q are counted, %s left out (choose with the filter option)", run, filter, core.ListNames(otherFilters))
	}
	if partial {
		warnf(l, "run %s: the metric %q has values between 0 and 1; a doc passes at %v or more", run, metric, opt.Eval.threshold())
	}
	return nil
}

// lmRow is what one row of a samples file says.
type lmRow struct {
	doc, filter string
	metrics     []string              // the row's "metrics", in order
	values      map[string]jsonScalar // every scalar field of the row
}

// readLMRow reads one row (line n of the file).
func readLMRow(line []byte, n int) (lmRow, error) {
	j := newJSONLine(line, n, "lm-evaluation-harness samples file").python()
	row := lmRow{values: map[string]jsonScalar{}}
	err := j.object(func(key string) error {
		switch key {
		case "doc_id":
			v, err := j.scalar("the doc_id")
			row.doc = v.s
			if v.kind == "number" {
				row.doc = strconv.FormatFloat(v.n, 'f', -1, 64)
			}
			return err
		case "filter":
			return j.textInto(&row.filter, "the filter's name")
		case "metrics":
			return j.array(func(int) error {
				s, err := j.text("a metric name")
				row.metrics = append(row.metrics, s)
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
			row.values[key] = v
			return err
		}
		return j.skip()
	})
	if err == nil {
		err = j.end()
	}
	if err == nil && row.doc == "" {
		err = core.PosErrorf(core.Invalid, n, 1, "a row without a doc_id: not an lm-evaluation-harness samples file")
	}
	return row, err
}

// lmPick keeps, for each row, its doc and whether each metric of the first
// row is 1, 0 or neither, to choose the metric that is 0 or 1 in every row
// (a row whose value Python wrote as NaN or ±Infinity is missing: it
// neither disqualifies the metric nor counts).
type lmPick struct {
	metrics []string // the first row's metrics, in order
	binary  []bool   // per metric: 0 or 1 in every row so far
	docs    []string
	passed  [][]bool      // per row, per metric: the value is 1
	missing [][]nonFinite // per row, per metric: the value was NaN or ±Inf
}

func (p *lmPick) add(row lmRow) {
	if p.docs == nil {
		p.metrics = row.metrics
		p.binary = make([]bool, len(row.metrics))
		for i := range p.binary {
			p.binary[i] = true
		}
	}
	pass := make([]bool, len(p.metrics))
	miss := make([]nonFinite, len(p.metrics))
	for i, m := range p.metrics {
		v, ok := row.values[m]
		switch {
		case miss[i].missing(v):
		case !ok:
			p.binary[i] = false
		case v.kind == "true" || v.kind == "number" && v.n == 1:
			pass[i] = true
		case v.kind == "false" || v.kind == "number" && v.n == 0:
		default:
			p.binary[i] = false
		}
	}
	p.docs = append(p.docs, row.doc)
	p.passed = append(p.passed, pass)
	p.missing = append(p.missing, miss)
}

// record adds the kept rows' trials by the first metric that is 0 or 1 in
// every row, and says which (and how many of its values were NaN or
// ±Infinity, left out); with none, it is an error that lists the metrics.
func (p *lmPick) record(l *ledger.Ledger, arm, run string) (string, nonFinite, error) {
	var fit []string
	use := -1
	for i, m := range p.metrics {
		if p.binary[i] {
			fit = append(fit, m)
			if use < 0 {
				use = i
			}
		}
	}
	if use < 0 {
		return "", nonFinite{}, core.PosErrorf(core.Unusable, 1, 1, "no metric of the samples file is 0 or 1 in every row, so none says whether a doc passed: name the metric with -score and the value that passes with -threshold (metrics here: %s)", core.ListNames(p.metrics))
	}
	var nf nonFinite
	for k, doc := range p.docs {
		if m := p.missing[k][use]; m.nan+m.inf > 0 {
			nf.nan, nf.inf = nf.nan+m.nan, nf.inf+m.inf
			continue
		}
		l.AddTrial(arm, run, doc, p.passed[k][use])
	}
	if len(fit) > 1 {
		warnf(l, "run %s: a doc passes when its metric %q is 1; %s are 0 or 1 in every row too (choose another with -score)", run, p.metrics[use], core.ListNames(fit[1:]))
	} else {
		warnf(l, "run %s: a doc passes when its metric %q is 1 (the only metric that is 0 or 1 in every row)", run, p.metrics[use])
	}
	return p.metrics[use], nf, nil
}
