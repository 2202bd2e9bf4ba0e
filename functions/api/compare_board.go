package api

import (
	"bytes"
	"io"
	"net/http"

	"github.com/flakegate/flakegate/core"
	"github.com/flakegate/flakegate/core/aa"
	"github.com/flakegate/flakegate/core/compare"
	"github.com/flakegate/flakegate/core/ledger"
	"github.com/flakegate/flakegate/core/report"
	"github.com/flakegate/flakegate/internal/share"
	"github.com/flakegate/flakegate/internal/words"
)

// bodyMultipartBoard is /v1/compare/board's upload: one part a model,
// named after it, repeated for several runs of the model.
const bodyMultipartBoard bodyKind = 300

// boardRoutes is POST /v1/compare/board, flakegate compare A B C over HTTP.
func boardRoutes() []*route {
	return []*route{{
		path:    "compare/board",
		summary: "A leaderboard of many models on the same eval questions: every pair's paired test with Holm-adjusted p-values, tied groups and simultaneous rank intervals",
		format:  "the logs' format, one of the names listed; auto detects it from the content (a samples file needs samples or an id_field)",
		params: append(append([]param{}, evalParams...),
			param{name: "level", kind: kNumber, def: "0.95", doc: "confidence level of the intervals, in (0,1); the pairwise tests are corrected (Holm) so that all together err with chance at most 1 − level"},
			param{name: "bh", kind: kString, def: "false", enum: []string{"false", "true"}, doc: "add Benjamini–Hochberg adjusted p-values (false discovery rate) beside Holm's"},
			param{name: "category", kind: kString, def: "", doc: "samples files: the field of each row that names the question's category (task, subject), for per-category rows"}),
		post:    postBoard,
		body:    []bodyKind{bodyMultipartBoard},
		results: "Board",
	}}
}

var boardUpload = &upload{
	media:    "multipart/form-data with one part a model, the part's name the model's (repeat a part for several runs of that model: epochs, repeats)",
	body:     func(string) bool { return false },
	anyParts: true,
	hint:     "send one part a model, named after it",
	missing:  invalid("models", "the multipart body has no part; send one part a model, named after it"),
}

func postBoard(h *handler, w http.ResponseWriter, r *http.Request) error {
	a, format, eval := evalQuery(h, r, "compare/board")
	opt := compare.DefaultBoardOptions
	a.number("level", &opt.Level)
	bh := "false"
	a.str("bh", &bh)
	opt.BH = bh == "true"
	a.str("category", &opt.CategoryField)
	if err := a.err; err != nil {
		return err
	}
	format, err := reportFormat(format)
	if err != nil {
		return err
	}
	if opt.CategoryField != "" {
		opt.Categories = map[string]string{}
	}
	ledgers := map[string]*ledger.Ledger{}
	var names []string
	used := 0
	read := func(part string, body io.Reader) error {
		l := ledgers[part]
		if l == nil {
			if len(names) == compare.MaxBoardModels {
				return tooMany("models", len(names)+1, compare.MaxBoardModels, "models", "compare fewer models a request")
			}
			l = ledger.New()
			ledgers[part] = l
			names = append(names, part)
		}
		used -= len(l.Cells(ledger.ArmBaseline))
		l.SetCellLimit(MaxCells - used)
		return readWithGroups(body, opt.CategoryField, eval, opt.Categories, func(body io.Reader) error {
			err := report.Read(body, report.Options{Format: format, Arm: ledger.ArmBaseline, Eval: eval}, l)
			used += len(l.Cells(ledger.ArmBaseline))
			if err != nil {
				return err
			}
			return checkLedger(l, true, "flakegate compare A B C")
		})
	}
	if err := h.readUpload(w, r, boardUpload, nil, read); err != nil {
		return err
	}
	models := make([]compare.Model, len(names))
	var notes []string
	for i, name := range names {
		side, err := aa.FromLedger(ledgers[name], ledger.ArmBaseline)
		if err != nil {
			return &core.Error{Kind: core.Unusable, Field: name, Msg: "has no scored answers"}
		}
		models[i] = compare.Model{Name: name, Side: side}
		for _, n := range ledgers[name].Notes() {
			notes = append(notes, name+": "+n)
		}
	}
	res, err := compare.Leaderboard(models, opt)
	if err != nil {
		return err
	}
	res.Warnings = append(res.Warnings, notes...)
	if site := h.site(r); site != "" {
		view, err := share.Leaderboard(models, opt)
		if err != nil {
			return err
		}
		link := words.CompareLink(view, site, len(notes) > 0)
		res.Link, res.LinkNote = link.URL, link.Note
	}
	return h.writeResult(w, r, res, cacheNone)
}

// readWithGroups reads one log's scores (scores), then, when groups is not
// nil, the group (cluster, category) field of each of its rows into
// groups (compare.ClustersFromSamples): the log is kept and read twice.
func readWithGroups(body io.Reader, field string, eval report.EvalOptions, groups map[string]string, scores func(io.Reader) error) error {
	var kept []byte
	if groups != nil {
		var err error
		if kept, err = io.ReadAll(body); err != nil {
			return err
		}
		body = bytes.NewReader(kept)
	}
	if err := scores(body); err != nil {
		return err
	}
	if kept != nil {
		return compare.ClustersFromSamples(bytes.NewReader(kept), field, eval, groups)
	}
	return nil
}

// evalQuery reads the query of the route at path that reads eval logs: its
// arguments, the logs' format and how to read them.
func evalQuery(h *handler, r *http.Request, path string) (a *args, format string, eval report.EvalOptions) {
	a = queryArgs(h.routes[path].params, r.URL.RawQuery)
	format = formatAuto
	a.str("format", &format)
	return a, format, evalArgs(a)
}
