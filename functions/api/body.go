package api

import (
	"bufio"
	"bytes"
	"io"
	"net/http"
	"strings"

	"github.com/flakegate/flakegate/core/aa"
	"github.com/flakegate/flakegate/core/ledger"
	schema "github.com/flakegate/flakegate/core/param"
	"github.com/flakegate/flakegate/core/report"
)

// bodyKind is one way a POST may send its upload; the OpenAPI document
// lists them.
type bodyKind int

const (
	bodyCSV bodyKind = iota
	bodyMultipartAA
	bodyJSONL
	bodyMultipartLedger
	bodyReport           // one test report as the body
	bodyMultipartReports // parts named report, one run each
)

const paramsMedia = "application/json (a JSON object of the parameters) or application/x-www-form-urlencoded"

// postArgs reads the parameters of a POST to budget, decide, size or
// freeze: a JSON object, or a urlencoded form.
func (h *handler) postArgs(rt *route, r *http.Request) (*args, error) {
	if r.URL.RawQuery != "" {
		return nil, invalid("", "a POST sends its parameters in the body, not the query string")
	}
	mt, _, err := mediaType(r, paramsMedia)
	if err != nil {
		return nil, err
	}
	isJSON := mt == "application/json" || strings.HasSuffix(mt, "+json")
	if !isJSON && mt != "application/x-www-form-urlencoded" {
		return nil, unsupported(mt, paramsMedia)
	}
	limit := min(h.opt.maxBody(), maxParamBodyBytes)
	lb, err := h.limit(nil, r, limit)
	if err != nil {
		return nil, err
	}
	body, err := io.ReadAll(lb)
	if err != nil {
		return nil, lb.check(err, "")
	}
	body = bytes.TrimPrefix(body, []byte("\xef\xbb\xbf")) // a UTF-8 byte order mark, as a CSV may have
	if isJSON {
		return jsonArgs(rt.params, body), nil
	}
	if t := bytes.TrimSpace(body); len(t) > 0 && t[0] == '{' {
		return nil, &httpError{status: http.StatusUnsupportedMediaType,
			detail: "the body looks like JSON but is sent as a form; set Content-Type: application/json"}
	}
	return queryArgs(rt.params, string(body)), nil
}

const aaMedia = "text/csv (the baseline's scenario,run,passed rows) or multipart/form-data with parts baseline and optional candidate"

// The uploads of /v1/aa: A/A CSVs (format=csv), or test reports, each file
// a run and each test a scenario.
var (
	aaCSVUpload = &upload{
		media:  "text/csv (the baseline's scenario,run,passed rows) or multipart/form-data with parts baseline and optional candidate",
		body:   func(mt string) bool { return mt == "text/csv" || mt == "application/csv" },
		bodyAs: "baseline",
		parts:  map[string]bool{"baseline": false, "candidate": false},
		hint:   "send parts baseline and optional candidate",
		need:   "baseline", missing: invalid("baseline", "the multipart body has no baseline part"),
	}
	aaReportUpload = &upload{
		media:  "multipart/form-data with one or more parts baseline (each a run) and optional candidate parts, or one report as the body",
		body:   isReportMedia,
		bodyAs: "baseline",
		parts:  map[string]bool{"baseline": true, "candidate": true},
		hint:   "send parts baseline and optional candidate, one per run",
		need:   "baseline", missing: invalid("baseline", "the multipart body has no baseline part"),
	}
)

func postAA(h *handler, w http.ResponseWriter, r *http.Request) error {
	rt := h.routes["aa"]
	a := queryArgs(rt.params, r.URL.RawQuery)
	format := formatCSV
	a.str("format", &format)
	in, err := schemaArgs(a, schema.AA)
	if err != nil {
		return err
	}
	opt := in.Options
	eval := evalArgs(a)
	if a.err != nil {
		return a.err
	}
	if err := checkFormat(format, aaFormats()); err != nil {
		return err
	}
	var base, cand *aa.Side
	if format == formatCSV {
		// readAASide: a scenario,run,passed,trials header makes it counts.
		err := h.readUpload(w, r, aaCSVUpload, nil, func(part string, r io.Reader) error {
			side, err := readAASide(bufio.NewReader(r))
			if part == "candidate" {
				cand = side
			} else {
				base = side
			}
			return err
		})
		if err != nil {
			return err
		}
	} else {
		l := ledger.New()
		l.SetCellLimit(MaxCells)
		candidates := 0
		armOf := func(part string) string {
			if part == "candidate" {
				candidates++
				return ledger.ArmPatched
			}
			return ledger.ArmBaseline
		}
		read := func(part string, r io.Reader) error {
			f := format
			if f == formatAuto {
				f = report.FormatAuto
			}
			return report.Read(r, report.Options{Format: f, Arm: armOf(part), Eval: eval}, l)
		}
		if err := h.readUpload(w, r, aaReportUpload, nil, read); err != nil {
			return err
		}
		if err := checkLedger(l, false, ""); err != nil {
			return err
		}
		var err error
		if base, err = aa.FromLedger(l, ledger.ArmBaseline); err != nil {
			return err
		}
		if candidates > 0 {
			if cand, err = aa.FromLedger(l, ledger.ArmPatched); err != nil {
				return err
			}
		}
	}
	if base != nil {
		if err := h.checkAA(base, cand, opt); err != nil {
			return err
		}
	}
	opt.Interrupt = r.Context().Err // the client gone, the platform's deadline
	res, err := aa.Check(base, cand, opt)
	if err != nil {
		return err // aa.Check names the side at fault
	}
	if err := h.addAALink(r, res, base, cand, opt, false); err != nil {
		return err
	}
	return h.writeResult(w, r, res, cacheNone)
}

// The uploads of /v1/ledger and /v1/flakes: test reports.
var (
	ledgerUpload = &upload{
		media:   "a report as the body (application/x-ndjson for JSON lines, application/xml for XML) or multipart/form-data with parts ledger, baseline or patched",
		body:    isReportMedia,
		bodyAs:  "ledger",
		parts:   map[string]bool{"ledger": true, "report": true, ledger.ArmBaseline: true, ledger.ArmPatched: true},
		hint:    "send parts ledger, baseline or patched, one report each",
		missing: invalid("ledger", "the multipart body has no report part"),
	}
	flakesUpload = &upload{
		media:   "multipart/form-data with one or more parts named report (each a run), or one report as the body",
		body:    isReportMedia,
		bodyAs:  "report",
		parts:   map[string]bool{"report": true},
		hint:    "send one or more parts named report, one run each",
		missing: invalid("report", "the multipart body has no report part"),
	}
)

func postLedger(h *handler, w http.ResponseWriter, r *http.Request) error {
	rt := h.routes["ledger"]
	a := queryArgs(rt.params, r.URL.RawQuery)
	format, arm, run := formatAuto, ledger.ArmBaseline, ""
	a.str("format", &format)
	a.str("arm", &arm)
	a.str("run", &run)
	if a.err != nil {
		return a.err
	}
	opt, err := schemaArgs(a, schema.Ledger)
	if err != nil {
		return err
	}
	if err := checkFormat(format, reportFormats()); err != nil {
		return err
	}
	if arm != ledger.ArmBaseline && arm != ledger.ArmPatched {
		return invalid("arm", "must be baseline or patched, got %q", arm)
	}
	var refuse error
	if run != "" {
		refuse = invalid("run", "names the run of a report sent as the body; multipart parts are numbered runs")
	}
	// Parts baseline and patched are runs of that arm; the body and parts
	// ledger or report are runs of the arm the query names.
	armOf := func(part string) string {
		if part == ledger.ArmBaseline || part == ledger.ArmPatched {
			return part
		}
		return arm
	}
	l := ledger.New()
	l.SetCellLimit(MaxCells)
	if err := h.readUpload(w, r, ledgerUpload, refuse, reportReader(l, format, run, armOf)); err != nil {
		return err
	}
	if err := checkLedger(l, true, "flakegate ledger FILE"); err != nil {
		return err
	}
	res, err := l.Result(opt)
	if err != nil {
		return err
	}
	if err := h.addLedgerLink(r, res, l, opt); err != nil {
		return err
	}
	return h.writeResult(w, r, res, cacheNone)
}

// postFlakes plans a rerun budget for every test whose retry history in the
// uploaded reports shows it flaking, as `flakegate budget -from` does.
func postFlakes(h *handler, w http.ResponseWriter, r *http.Request) error {
	rt := h.routes["flakes"]
	a := queryArgs(rt.params, r.URL.RawQuery)
	format := formatAuto
	a.str("format", &format)
	if a.err != nil {
		return a.err
	}
	in, err := budgetArgs(a)
	if err != nil {
		return err
	}
	if err := checkFormat(format, reportFormats()); err != nil {
		return err
	}
	// The settings are checked before the upload is read, and even when no
	// test flaked.
	if err := in.CheckSettings(); err != nil {
		return err
	}
	l := ledger.New()
	l.SetCellLimit(MaxCells)
	baseline := func(string) string { return ledger.ArmBaseline }
	if err := h.readUpload(w, r, flakesUpload, nil, reportReader(l, format, "", baseline)); err != nil {
		return err
	}
	if err := checkLedger(l, false, ""); err != nil {
		return err
	}
	if n := len(l.Flakes()); n > MaxTests {
		return tooMany("", n, MaxTests, "flaky tests", "send fewer reports, or run the CLI (flakegate budget -from FILE...), which has no such limit")
	}
	res, err := l.FlakeBudgets(in)
	if err != nil {
		return err
	}
	h.addFlakesLink(r, res)
	return h.writeResult(w, r, res, cacheNone)
}

// readAASide reads an A/A CSV upload: its rows (scenario,run,passed) or,
// when its header says so, its counts, within the deployment's limits.
func readAASide(br *bufio.Reader) (*aa.Side, error) {
	head, _ := br.Peek(4096)
	if aa.CSVKind(head) == "counts" {
		return readCounts(br)
	}
	return aa.ReadCSVWithin(br, csvLimits)
}
