package api

import (
	"bufio"
	"io"
	"net/http"
	"strings"

	"github.com/flakegate/flakegate/core"
	"github.com/flakegate/flakegate/core/aa"
	"github.com/flakegate/flakegate/core/compare"
	"github.com/flakegate/flakegate/core/ledger"
	schema "github.com/flakegate/flakegate/core/param"
	"github.com/flakegate/flakegate/core/report"
	"github.com/flakegate/flakegate/internal/share"
	"github.com/flakegate/flakegate/internal/words"
)

// bodyMultipartCompare is /v1/compare's upload: parts a and b, each one
// or more eval logs of that side.
const bodyMultipartCompare bodyKind = 200

// evalParams say how to read eval logs, for every route that reads them,
// named as the CLI's flags are.
var evalParams = []param{
	{name: "score", kind: kString, def: "", doc: "eval logs: the scorer (inspect_ai), metric (lm-evaluation-harness) or score field (samples) that decides a pass"},
	{name: "threshold", kind: kNumber, def: "1", doc: "eval logs: a numeric score passes at this value or more"},
	{name: "filter", kind: kString, def: "", doc: "lm-evaluation-harness logs: the filter whose rows count (default: the first in the file)"},
	{name: "id_field", kind: kString, def: "", doc: "samples files: the field that names the sample (default id)"},
	{name: "run_field", kind: kString, def: "", doc: "samples files: the field that names the run (default: each file is one run)"},
}

// evalArgs reads evalParams.
func evalArgs(a *args) report.EvalOptions {
	var eval report.EvalOptions
	a.str("score", &eval.Score)
	a.number("threshold", &eval.Threshold)
	a.str("filter", &eval.Filter)
	a.str("id_field", &eval.ID)
	a.str("run_field", &eval.Run)
	return eval
}

// compareRoutes is POST /v1/compare, flakegate compare over HTTP.
func compareRoutes() []*route {
	return append([]*route{{
		path:    "compare",
		summary: "Is model B better than model A on the same eval questions? Paired by question, with McNemar, clustered errors and power",
		format:  "the logs' format, one of the names listed; auto detects it from the content (a samples file needs samples or an id_field)",
		params:  append(evalParams, inputs(schema.Compare)...),
		post:    postCompare,
		body:    []bodyKind{bodyMultipartCompare},
		results: "CompareResult",
	}}, compareSeqRoutes()...)
}

var compareUpload = &upload{
	media:   "multipart/form-data with parts a and b, each an eval log of that side (repeat a part for several runs: epochs, repeats)",
	body:    func(string) bool { return false },
	parts:   map[string]bool{"a": true, "b": true},
	hint:    "send parts a and b, one eval log each (repeat a part for more runs of that side)",
	need:    "a",
	missing: invalid("a", "the multipart body has no part a"),
}

func postCompare(h *handler, w http.ResponseWriter, r *http.Request) error {
	a, format, eval := evalQuery(h, r, "compare")
	opt, err := schemaArgs(a, schema.Compare)
	if err != nil {
		return err
	}
	if format, err = reportFormat(format); err != nil {
		return err
	}
	if opt.ClusterField != "" {
		opt.Clusters = map[string]string{}
	}
	l := ledger.New()
	l.SetCellLimit(MaxCells)
	sides := map[string]int{}
	csvSides := map[string]*aa.Side{} // the parts that are A/A CSVs, as aa reads them
	read := func(part string, body io.Reader) error {
		sides[part]++
		if format == report.FormatAuto {
			br := bufio.NewReader(body)
			if head, _ := br.Peek(4096); aa.CSVKind(head) != "" {
				if sides[part] > 1 {
					return errCSVAlone()
				}
				var err error
				csvSides[part], err = readAASide(br)
				return err
			}
			body = br
		}
		if csvSides[part] != nil {
			return errCSVAlone()
		}
		arm := ledger.ArmBaseline
		if part == "b" {
			arm = ledger.ArmPatched
		}
		return readWithGroups(body, opt.ClusterField, eval, opt.Clusters, func(body io.Reader) error {
			return report.Read(body, report.Options{Format: format, Arm: arm, Eval: eval}, l)
		})
	}
	if err := h.readUpload(w, r, compareUpload, nil, read); err != nil {
		return err
	}
	if sides["b"] == 0 {
		return invalid("b", "the multipart body has no part b")
	}
	sa, sb, err := compareSides(l, csvSides)
	if err != nil {
		return err
	}
	res, err := compare.Compare(sa, sb, opt)
	if err != nil {
		return err
	}
	res.Warnings = append(res.Warnings, l.Notes()...)
	if site := h.site(r); site != "" {
		view, err := share.Compare(sa, sb, opt)
		if err != nil {
			return err
		}
		link := words.CompareLink(view, site, len(l.Notes()) > 0)
		res.Link, res.LinkNote = link.URL, link.Note
	}
	return h.writeResult(w, r, res, cacheNone)
}

// compareSides are the two sides: a part sent as an A/A CSV as aa reads it,
// the others from the eval logs read into l.
func compareSides(l *ledger.Ledger, csvSides map[string]*aa.Side) (a, b *aa.Side, err error) {
	if len(csvSides) == 0 {
		if err := checkLedger(l, true, "flakegate compare A B"); err != nil {
			return nil, nil, err
		}
		return compare.SidesOf(l)
	}
	out := [2]*aa.Side{csvSides["a"], csvSides["b"]}
	for i, arm := range []string{ledger.ArmBaseline, ledger.ArmPatched} {
		if out[i] != nil {
			continue
		}
		if out[i], err = aa.FromLedger(l, arm); err != nil {
			side := "ab"[i : i+1]
			return nil, nil, &core.Error{Kind: core.Unusable, Field: side, Msg: "side " + strings.ToUpper(side) + " has no scored answers"}
		}
	}
	return out[0], out[1], nil
}

// errCSVAlone refuses an A/A CSV sent beside other parts of its side.
func errCSVAlone() error {
	return &core.Error{Kind: core.Invalid, Msg: "an A/A CSV holds all of a side's runs: send it as the side's only part"}
}
