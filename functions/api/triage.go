package api

import (
	"io"
	"net/http"
	"time"

	"github.com/flakegate/flakegate/core"
	"github.com/flakegate/flakegate/core/history"
	schema "github.com/flakegate/flakegate/core/param"
	"github.com/flakegate/flakegate/core/triage"
)

// /v1/triage judges one run's failures against past runs: multipart parts
// report (the past: reports or zip archives of them, each report one run,
// or history stores, as /v1/history reads them), run (this run's reports, read together as
// one run), and optional manifest (first) and quarantine (the registry).
// It answers triage.Result; stateless, within /v1/history's limits over
// the past and this run together.

// bodyMultipartTriage is the triage route's upload.
const bodyMultipartTriage bodyKind = 400

var triageUpload = &upload{
	media:  "multipart/form-data with parts report (the past runs' reports, zip archives or history stores, repeated), run (this run's reports, repeated), and optional manifest first and quarantine",
	body:   func(string) bool { return false },
	bodyAs: "report",
	parts:  map[string]bool{"report": true, "run": true, "manifest": false, "quarantine": false},
	hint:   "send parts report (the past, repeated), run (this run, repeated), and optional manifest first and quarantine",
	need:   "report",
	missing: &core.Error{Kind: core.Invalid, Field: "report",
		Msg: "no report part: send the past runs' reports, one part named report each, or zip archives of them"},
}

func triageRoutes() []*route {
	return []*route{{
		path:    "triage",
		summary: "Each failure of one CI run against the past runs: known flake, new, broken since a commit, quarantined, or part of an outage",
		format:  "the reports' format, one of the names listed; auto detects it from each file's content",
		params:  inputs(schema.Triage),
		post:    postTriage,
		body:    []bodyKind{bodyMultipartTriage},
		results: "TriageResult",
	}}
}

func postTriage(h *handler, w http.ResponseWriter, r *http.Request) error {
	a := queryArgs(h.routes["triage"].params, r.URL.RawQuery)
	format := formatAuto
	a.str("format", &format)
	o, err := schemaArgs(a, schema.Triage)
	if err != nil {
		return err
	}
	if format, err = reportFormat(format); err != nil {
		return err
	}
	// The settings are checked before the upload is read.
	if err := o.Check(); err != nil {
		return err
	}
	today := o.History.Today
	if today == "" {
		today = time.Now().UTC().Format(time.DateOnly)
	}
	var run []history.TestResult
	var meta history.RunMeta
	hr := &historyReader{h: history.New(), format: format, unzipLimit: h.opt.maxUnzipped(), note: h.opt.note()}
	hr.h.SetLimits(MaxHistoryTests, MaxCells)
	runs, regs := 0, 0
	read := func(part string, body io.Reader) error {
		switch part {
		case "quarantine":
			reg, err := readRegistry(body, today)
			if err != nil {
				return err
			}
			o.Quarantine = reg.Tests
			regs++
			return nil
		case "run":
			runs++
			hr.into, hr.meta = &run, &meta
			defer func() { hr.into, hr.meta = nil, nil }()
		}
		return hr.read(part, body)
	}
	if err := h.readUpload(w, r, triageUpload, nil, read); err != nil {
		return err
	}
	if runs == 0 {
		return &core.Error{Kind: core.Invalid, Field: "run", Msg: "no run part: send this run's reports, one part named run each"}
	}
	if regs > 0 {
		o.Today = today
	}
	res, err := hr.h.Result(o.History)
	if err != nil {
		return err
	}
	tr, err := triage.Triage(hr.h, res, meta, run, o)
	if err != nil {
		return err
	}
	if len(tr.Failures) > MaxTests {
		return tooMany("", len(tr.Failures), MaxTests, "failed tests", "run the CLI (flakegate triage), which has no such limit")
	}
	return h.writeResult(w, r, tr, cacheNone)
}
