package api

import (
	"archive/zip"
	"bufio"
	"bytes"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"

	"github.com/flakegate/flakegate/core"
	"github.com/flakegate/flakegate/core/history"
	schema "github.com/flakegate/flakegate/core/param"
	"github.com/flakegate/flakegate/core/report"
	"github.com/flakegate/flakegate/core/store"
	"github.com/flakegate/flakegate/internal/share"
	"github.com/flakegate/flakegate/internal/words"
)

// /v1/history reads many runs' reports (parts named report, each one run,
// a zip archive of runs or a history store, or a zip archive as the body)
// and answers
// which tests are flaky and which runs were outages (history.Result).

// Limits of one history request, beside the body limit: the results read
// (a test in a run), the runs, the files in zip archives and what they
// unpack to. A History keeps two bits per result and a few dozen bytes
// per run and test, so the memory of the worst request is a few MB.
// They are history's bounded-read limits, which the page applies too.
const (
	MaxHistoryResults       = history.MaxReadResults
	MaxHistoryRuns          = history.MaxReadRuns
	MaxHistoryTests         = history.MaxReadTests         // distinct test names
	MaxHistoryUnzippedBytes = history.MaxReadUnzippedBytes // what zip archives unpack to, over the request
)

// Uploads of the history route.
const (
	bodyHistoryZip       bodyKind = 200 + iota // a zip archive of reports as the body
	bodyMultipartHistory                       // parts manifest and report (repeated, each a report or a zip)
)

var historyUpload = &upload{
	media:  "multipart/form-data with parts report (a report, a zip archive of reports or a history store, repeated) and optional manifest first, or application/zip",
	body:   func(mt string) bool { return mt == "application/zip" || mt == "application/x-zip-compressed" },
	bodyAs: "archive",
	parts:  map[string]bool{"report": true, "manifest": false},
	hint:   "send parts report (repeated) and optional manifest first",
	need:   "report",
	missing: &core.Error{Kind: core.Invalid, Field: "report",
		Msg: "no report part: send the runs' reports, one part named report each, or a zip archive of them"},
}

func historyRoutes() []*route {
	return []*route{{
		path:    "history",
		summary: "The flaky tests in many CI runs' reports, with outages and tests failing together kept out as incidents",
		format:  "the reports' format, one of the names listed; auto detects it from each file's content",
		params:  inputs(schema.History),
		post:    postHistory,
		body:    []bodyKind{bodyHistoryZip, bodyMultipartHistory},
		results: "HistoryResult",
	}}
}

func postHistory(h *handler, w http.ResponseWriter, r *http.Request) error {
	a := queryArgs(h.routes["history"].params, r.URL.RawQuery)
	format := formatAuto
	a.str("format", &format)
	o, err := schemaArgs(a, schema.History)
	if err != nil {
		return err
	}
	if format, err = reportFormat(format); err != nil {
		return err
	}
	hr := &historyReader{h: history.New(), format: format, unzipLimit: h.opt.maxUnzipped(), note: h.opt.note()}
	hr.h.SetLimits(MaxHistoryTests, MaxCells)
	// The settings are checked before the upload is read.
	if err := o.Check(); err != nil {
		return err
	}
	if err := h.readUpload(w, r, historyUpload, nil, hr.read); err != nil {
		return err
	}
	res, err := hr.h.Result(o)
	if err != nil {
		return err
	}
	if len(res.Flakes)+len(res.Broken) > MaxTests {
		return tooMany("", len(res.Flakes)+len(res.Broken), MaxTests, "flaky and broken tests", "run the CLI (flakegate history), which has no such limit")
	}
	if site := h.site(r); site != "" {
		view, err := share.History(res)
		if err != nil {
			return err
		}
		words.SetLink(view, site, &res.Link, &res.LinkNote)
	}
	return h.writeResult(w, r, res, cacheNone)
}

// historyReader reads each uploaded file into a History, within the
// request's limits.
type historyReader struct {
	h        *history.History
	format   string
	manifest *history.Manifest
	reports  int
	results  int64
	unzipped int64
	// unzipLimit is the most the request's zip archives may unpack to, in
	// bytes; note is the deployment's LimitNote, as " (note)" or "".
	unzipLimit int64
	note       string
	// into, when set, takes the reports read as one run's results (the
	// run a triage judges) instead of adding them to h as runs; meta is
	// the first one's.
	into *[]history.TestResult
	meta *history.RunMeta
}

func (hr *historyReader) read(part string, r io.Reader) error {
	name := part
	if p, ok := r.(*multipart.Part); ok {
		name = partFile(part, p)
	}
	if part == "manifest" {
		if hr.reports > 0 {
			return &core.Error{Kind: core.Invalid, Msg: "the manifest part comes before the reports it describes"}
		}
		m, err := history.ReadManifest(r)
		if err != nil {
			return core.WithFile(err, name)
		}
		hr.manifest = m
		return nil
	}
	hr.reports++
	br := bufio.NewReader(r)
	head, _ := br.Peek(len(store.Magic))
	if bytes.HasPrefix(head, []byte("PK\x03\x04")) {
		return hr.zip(name, br)
	}
	if store.IsStore(head) && hr.into == nil {
		return hr.readStorePart(name, br)
	}
	if part == historyUpload.bodyAs {
		return &core.Error{Kind: core.Invalid, File: name, Msg: "the body is not a zip archive: send one, or the reports as multipart parts named report"}
	}
	return hr.run(name, "", br)
}

// zip reads an archive (held in memory: the body limit bounds it), each
// file one run, in the order of their names.
func (hr *historyReader) zip(name string, r io.Reader) error {
	data, err := io.ReadAll(r)
	if err != nil {
		return err
	}
	z, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		return &core.Error{Kind: core.Invalid, File: name, Msg: history.ZipProblem(err)}
	}
	for _, f := range history.ReportEntries(z) {
		left := hr.unzipLimit - hr.unzipped
		if f.UncompressedSize64 > uint64(left) {
			return &core.Error{Kind: core.TooLarge, Msg: fmt.Sprintf(
				"the zip archives unpack to more than this server's limit of %s%s; run the CLI (flakegate history archive.zip), which has no such limit",
				byteSize(hr.unzipLimit), hr.note)}
		}
		rc, err := f.Open()
		if err != nil {
			return &core.Error{Kind: core.Invalid, File: name + ":" + f.Name, Msg: history.ZipProblem(err)}
		}
		cr := &countReader{r: report.LimitReader(rc, left)}
		err = hr.run(name+":"+f.Name, f.Name, cr)
		rc.Close()
		if err != nil && history.IsZipError(err) {
			err = &core.Error{Kind: core.Invalid, File: name + ":" + f.Name, Msg: history.ZipProblem(err)}
		}
		hr.unzipped += cr.n
		if err != nil {
			return err
		}
	}
	return nil
}

// run reads one report as one run, named by the manifest when it lists
// the file.
func (hr *historyReader) run(name, entry string, r io.Reader) error {
	if hr.h.Runs() >= MaxHistoryRuns {
		return tooMany("", hr.h.Runs()+1, MaxHistoryRuns, "runs", "run the CLI (flakegate history), which has no such limit")
	}
	meta := history.RunMeta{Name: name, File: name}
	if hr.manifest != nil {
		m, ok := hr.manifest.Lookup(entry)
		if !ok || entry == "" {
			m, ok = hr.manifest.Lookup(name)
		}
		if ok {
			m.File = name
			if m.Name == "" {
				m.Name = name
			}
			meta = m
		}
	}
	if hr.into != nil {
		p, err := history.ParseRun(meta, r, report.Options{Format: hr.format}, MaxCells)
		if err != nil {
			return err
		}
		if hr.meta.Name == "" {
			*hr.meta = p.Meta()
		}
		rs := p.Results()
		*hr.into = append(*hr.into, rs...)
		hr.results += int64(len(rs))
	} else {
		before := hr.h.Results()
		if err := hr.h.ReadRun(meta, r, report.Options{Format: hr.format}); err != nil {
			return err
		}
		hr.results += hr.h.Results() - before
	}
	if hr.results > MaxHistoryResults {
		return tooMany("", int(hr.results), MaxHistoryResults, "test results (a test in a run)", "run the CLI (flakegate history), which has no such limit")
	}
	return nil
}

type countReader struct {
	r io.Reader
	n int64
}

func (c *countReader) Read(b []byte) (int, error) {
	n, err := c.r.Read(b)
	c.n += int64(n)
	return n, err
}
