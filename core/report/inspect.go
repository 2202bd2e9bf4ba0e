package report

import (
	"archive/zip"
	"bufio"
	"bytes"
	"fmt"
	"io"
	"path"
	"sort"
	"strconv"
	"strings"

	"github.com/flakegate/flakegate/core"
	"github.com/flakegate/flakegate/core/ledger"
)

// maxEvalEntry caps what one file inside an inspect_ai .eval archive may
// unpack to, so that a small archive cannot expand without bound.
const maxEvalEntry = 1 << 30

// inspectLog is what the inspect_ai reader gathers of one log.
type inspectLog struct {
	opt     EvalOptions
	arm     string
	run     string
	l       *ledger.Ledger
	scorer  string          // the scorer that decides, once known
	others  map[string]bool // other scorers seen
	status  string
	samples int
	tally   evalTally
	nonFinite
}

// readInspect reads an inspect_ai eval log, in its JSON format or its
// .eval zip format (header.json, summaries.json, samples/*.json), as one
// run. Each sample is a scenario and each of its epochs a trial; it passes
// when the chosen scorer's value (EvalOptions.Score, by default the log's
// first) reaches the threshold. A sample that failed with an error and has
// no score is a failed trial; one without a score (null) is left out, and so
// is one whose score Python wrote as NaN, Infinity or -Infinity (counted
// and named in a warning).
func readInspect(r *bufio.Reader, opt Options, run string, l *ledger.Ledger) error {
	g := &inspectLog{opt: opt.Eval, arm: opt.Arm, run: run, l: l, others: map[string]bool{}, scorer: opt.Eval.Score}
	if head, _ := r.Peek(4); bytes.Equal(head, []byte("PK\x03\x04")) {
		if err := g.zip(r); err != nil {
			return err
		}
	} else {
		j := newJSONReader(r, "inspect_ai eval log").python()
		err := j.object(func(key string) error {
			switch key {
			case "status":
				return j.textInto(&g.status, "the log's status")
			case "samples":
				return j.array(func(int) error { return g.sample(j) })
			}
			return j.skip()
		})
		if err != nil {
			return err
		}
		if err := j.end(); err != nil {
			return err
		}
	}
	return g.finish()
}

func (g *inspectLog) finish() error {
	if g.samples == 0 {
		return core.PosErrorf(core.Unusable, 1, 1, "the inspect_ai log has no samples (was it written with --no-log-samples, or cancelled before any finished?)")
	}
	if g.status != "" && g.status != "success" {
		warnf(g.l, "run %s: the eval's status is %q: only the samples that finished are in the log", g.run, g.status)
	}
	if len(g.others) > 0 {
		names := make([]string, 0, len(g.others))
		for n := range g.others {
			names = append(names, n)
		}
		sort.Strings(names)
		warnf(g.l, "run %s: samples are judged by the scorer %q; the log also has %s (choose one with the score option)", g.run, g.scorer, core.ListNames(names))
	}
	g.tally.warn(g.l, g.run, "eval log", g.opt.threshold())
	g.nonFinite.warn(g.l, g.run, "eval log")
	return nil
}

// sample reads one sample (or sample summary) object.
func (g *inspectLog) sample(j *jsonReader) error {
	line, col := j.at()
	var id string
	var value *jsonScalar
	var valueAt [2]int
	errored := false
	err := j.object(func(key string) error {
		switch key {
		case "id":
			v, err := j.scalar("the sample's id")
			if err != nil {
				return err
			}
			id = v.s
			if v.kind == "number" {
				id = strconv.FormatFloat(v.n, 'f', -1, 64)
			}
			return nil
		case "error":
			k, err := j.kind()
			if err != nil {
				return err
			}
			errored = k != "null"
			return j.skip()
		case "scores":
			if k, err := j.kind(); err != nil || k == "null" {
				if err != nil {
					return err
				}
				return j.skip()
			}
			return j.object(func(scorer string) error {
				if g.scorer == "" {
					g.scorer = scorer
				}
				if scorer != g.scorer {
					g.others[scorer] = true
					return j.skip()
				}
				return j.object(func(key string) error {
					if key != "value" {
						return j.skip()
					}
					valueAt[0], valueAt[1] = j.at()
					k, err := j.kind()
					if err != nil {
						return err
					}
					if k == "object" || k == "array" {
						return j.errf("the scorer %q gives this sample a %s of values; flakegate needs one value per sample (choose another scorer with the score option)", scorer, map[string]string{"object": "dictionary", "array": "list"}[k])
					}
					v, err := j.scalar("a score")
					value = &v
					return err
				})
			})
		}
		return j.skip()
	})
	if err != nil {
		return err
	}
	if id == "" {
		return j.errAt(line, col, "a sample without an id")
	}
	g.samples++
	if value != nil && g.nonFinite.missing(*value) {
		return nil
	}
	if value != nil {
		if f, ok := scoreValue(*value); ok {
			g.pass(id, f)
			return nil
		}
		if value.kind == "string" {
			return j.errAt(valueAt[0], valueAt[1], "the score %q of scorer %q is not a number, a truth value or C, P, I or N", clipText(value.s, 40), g.scorer)
		}
	}
	if errored {
		g.tally.errored++
		g.l.AddTrial(g.arm, g.run, id, false)
		return nil
	}
	g.tally.unscored++
	return nil
}

func (g *inspectLog) pass(id string, f float64) {
	t := g.opt.threshold()
	if f > 0 && f < 1 {
		g.tally.partial = true
	}
	g.l.AddTrial(g.arm, g.run, id, f >= t)
}

// zip reads a .eval archive.
func (g *inspectLog) zip(r io.Reader) error {
	raw, err := io.ReadAll(r)
	if err != nil {
		return err
	}
	z, err := zip.NewReader(bytes.NewReader(raw), int64(len(raw)))
	if err != nil {
		return core.PosErrorf(core.Invalid, 1, 1, "not a readable .eval archive: the zip is damaged or cut short")
	}
	files := map[string]*zip.File{}
	var journal, samples []string
	for _, f := range z.File {
		files[f.Name] = f
		switch {
		case strings.HasPrefix(f.Name, "_journal/summaries/") && strings.HasSuffix(f.Name, ".json"):
			journal = append(journal, f.Name)
		case strings.HasPrefix(f.Name, "samples/") && strings.HasSuffix(f.Name, ".json"):
			samples = append(samples, f.Name)
		}
	}
	if f := files["header.json"]; f != nil {
		if err := g.entry(f, func(j *jsonReader) error {
			return j.texts(jsonField{"status", &g.status, "the log's status"})
		}); err != nil {
			return err
		}
	}
	list := func(j *jsonReader) error { return j.array(func(int) error { return g.sample(j) }) }
	switch {
	case files["summaries.json"] != nil:
		return g.entry(files["summaries.json"], list)
	case len(journal) > 0:
		sort.Slice(journal, func(a, b int) bool { return journalIndex(journal[a]) < journalIndex(journal[b]) })
		for _, name := range journal {
			if err := g.entry(files[name], list); err != nil {
				return err
			}
		}
	default:
		sort.Strings(samples)
		for _, name := range samples {
			if err := g.entry(files[name], g.sample); err != nil {
				return err
			}
		}
	}
	return nil
}

func journalIndex(name string) int {
	n, _ := strconv.Atoi(strings.TrimSuffix(path.Base(name), ".json"))
	return n
}

// entry reads one JSON file of the archive with read; its errors name the
// file inside the archive.
func (g *inspectLog) entry(f *zip.File, read func(j *jsonReader) error) error {
	if f.UncompressedSize64 > maxEvalEntry {
		return core.PosErrorf(core.TooLarge, 1, 1, "%s inside the .eval archive unpacks to more than %d bytes", f.Name, maxEvalEntry)
	}
	rc, err := f.Open()
	if err != nil {
		return core.PosErrorf(core.Invalid, 1, 1, "%s inside the .eval archive cannot be opened: the archive is damaged", f.Name)
	}
	defer rc.Close()
	j := newJSONReader(io.LimitReader(rc, maxEvalEntry), "inspect_ai "+f.Name).python()
	err = read(j)
	if err == nil {
		err = j.end()
	}
	if e, ok := err.(*core.Error); ok {
		c := *e
		c.Msg = fmt.Sprintf("in %s: %s", f.Name, e.Msg)
		return &c
	}
	if err != nil {
		return core.PosErrorf(core.Invalid, 1, 1, "%s inside the .eval archive is damaged (%v)", f.Name, strings.TrimPrefix(err.Error(), "zip: "))
	}
	return nil
}
