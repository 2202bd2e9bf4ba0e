package api

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"mime"
	"mime/multipart"
	"net/http"
	"strings"

	"github.com/flakegate/flakegate/core"
	"github.com/flakegate/flakegate/core/aa"
	"github.com/flakegate/flakegate/core/aa/sim"
	"github.com/flakegate/flakegate/core/gate"
	"github.com/flakegate/flakegate/core/ledger"
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

// limitedBody streams a request body and refuses to go past the limit. It
// remembers hitting it, so that whatever a parser makes of the read error,
// the answer is a 413.
type limitedBody struct {
	r   io.Reader
	err *tooLarge
	hit bool
}

func (l *limitedBody) Read(p []byte) (int, error) {
	n, err := l.r.Read(p)
	var mbe *http.MaxBytesError
	if errors.As(err, &mbe) {
		l.hit = true
		return n, l.err
	}
	return n, err
}

// check returns the 413 when the limit was hit, and nil for nil. Otherwise a reader's
// *core.Error is named after file, and any other error is a body that broke
// off or was not what it claimed: the client's fault, a 400.
func (l *limitedBody) check(err error, file string) error {
	var ce *core.Error
	switch {
	case l.hit:
		return l.err
	case err == nil:
		return nil
	case errors.As(err, &ce):
		return core.WithFile(err, file)
	}
	return &core.Error{Kind: core.Invalid, File: file, Msg: "reading the upload: " + err.Error()}
}

// limit wraps r.Body in the byte limit and refuses a declared length over it
// before reading anything.
func (h *handler) limit(w http.ResponseWriter, r *http.Request, limit int64) (*limitedBody, error) {
	tl := &tooLarge{limit: limit, what: "request body", note: h.opt.LimitNote}
	if r.ContentLength > limit {
		return nil, tl
	}
	lb := &limitedBody{r: http.MaxBytesReader(w, r.Body, limit), err: tl}
	r.Body = io.NopCloser(lb)
	return lb, nil
}

// mediaType returns the request's media type in lower case, and its
// parameters. A missing or malformed Content-Type is a 415.
func mediaType(r *http.Request, want string) (string, map[string]string, error) {
	ct := r.Header.Get("Content-Type")
	if ct == "" {
		return "", nil, &httpError{status: http.StatusUnsupportedMediaType,
			detail: "the request has no Content-Type; send " + want}
	}
	mt, params, err := mime.ParseMediaType(ct)
	if err != nil {
		return "", nil, &httpError{status: http.StatusUnsupportedMediaType,
			detail: fmt.Sprintf("malformed Content-Type %q: %v; send %s", clip([]byte(ct)), err, want)}
	}
	return mt, params, nil
}

func unsupported(mt, want string) error {
	return &httpError{status: http.StatusUnsupportedMediaType,
		detail: fmt.Sprintf("this route does not read %s; send %s", mt, want)}
}

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

// Upload formats. csv is the A/A scenario,run,passed CSV; the others are
// the test reports report.Read reads, auto detecting which.
const (
	formatCSV  = "csv"
	formatAuto = "auto"
)

func reportFormats() []string {
	return []string{formatAuto, report.FormatLedger, report.FormatGoTest, report.FormatJUnit}
}

func aaFormats() []string { return append([]string{formatCSV}, reportFormats()...) }

func checkFormat(format string, allowed []string) error {
	for _, f := range allowed {
		if format == f {
			return nil
		}
	}
	return invalid("format", "unknown format %q; this route reads %s", format, strings.Join(allowed, ", "))
}

// coreFormat is the core's name of a report format.
func coreFormat(format string) string {
	if format == formatAuto {
		return report.FormatAuto
	}
	return format
}

// aaDepthArgs reads the in-depth and simulation settings, named as the
// CLI's flags are; the core checks their ranges.
func aaDepthArgs(a *args, opt *aa.Options) error {
	a.number("rule", &opt.Depth.Drop)
	seed := int64(opt.Depth.Seed)
	a.integer("seed", &seed)
	simulate := "false"
	a.str("simulate", &simulate)
	sim := sim.DefaultOptions
	sets, k, broken := int64(sim.Sets), int64(sim.RunsPerSide), int64(sim.Broken)
	a.integer("sets", &sets)
	a.integer("sim_k", &k)
	a.number("sim_drop", &sim.Drop)
	a.integer("broken", &broken)
	if a.err != nil {
		return a.err
	}
	if d := opt.Depth.Drop; !(d > 0 && d <= 1) {
		return invalid("rule", "must be a fraction in (0,1], got %v", d)
	}
	if seed < 0 || seed >= 1<<53 {
		return invalid("seed", "must be in [0, 2^53), got %d", seed)
	}
	opt.Depth.Seed = uint64(seed)
	switch simulate {
	case "false":
		if a.has("sets", "sim_k", "sim_drop", "broken") {
			return invalid("simulate", "sets, sim_k, sim_drop and broken need simulate=true")
		}
		return nil
	case "true":
	default:
		return invalid("simulate", "must be true or false, got %q", simulate)
	}
	const most = 1 << 30
	for _, f := range []struct {
		name string
		v    int64
	}{{"sets", sets}, {"sim_k", k}, {"broken", broken}} {
		if f.v < 0 || f.v > most {
			return invalid(f.name, "must be in [0, %d], got %d", most, f.v)
		}
	}
	sim.Sets, sim.RunsPerSide, sim.Broken = int(sets), int(k), int(broken)
	sim.Seed = opt.Depth.Seed
	opt.Simulate = &sim
	return nil
}

func postAA(h *handler, w http.ResponseWriter, r *http.Request) error {
	rt := h.routes["aa"]
	a := queryArgs(rt.params, r.URL.RawQuery)
	opt := aa.DefaultOptions
	format := formatCSV
	a.str("format", &format)
	a.integers("k", &opt.Ks)
	a.numbers("drops", &opt.Drops)
	if err := aaDepthArgs(a, &opt); err != nil {
		return err
	}
	if err := checkFormat(format, aaFormats()); err != nil {
		return err
	}
	if format != formatCSV {
		return h.aaReports(w, r, coreFormat(format), opt)
	}
	mt, _, err := mediaType(r, aaMedia)
	if err != nil {
		return err
	}
	lb, err := h.limit(w, r, h.opt.maxBody())
	if err != nil {
		return err
	}
	var base, cand *aa.Side
	switch mt {
	case "text/csv", "application/csv":
		if base, err = aa.ReadCSV(lb); err != nil {
			return lb.check(err, "baseline")
		}
	case "multipart/form-data":
		err = eachPart(r, lb, func(name string, p *multipart.Part) error {
			var dst **aa.Side
			switch name {
			case "baseline":
				dst = &base
			case "candidate":
				dst = &cand
			default:
				return invalid(name, "unknown part %q; send parts baseline and optional candidate (options go in the query)", name)
			}
			if *dst != nil {
				return invalid(name, "part %q given twice", name)
			}
			side, err := aa.ReadCSV(p)
			if err != nil {
				return lb.check(err, name)
			}
			*dst = side
			return nil
		})
		if err != nil {
			return err
		}
		if base == nil {
			return invalid("baseline", "the multipart body has no baseline part")
		}
	default:
		return unsupported(mt, aaMedia)
	}
	res, err := aa.Check(base, cand, opt)
	if err != nil {
		return err // aa.Check names the side at fault
	}
	return h.writeResult(w, res, cacheNone)
}

const aaReportMedia = "multipart/form-data with one or more parts baseline (each a run) and optional candidate parts, or one report as the body"

// aaReports reads test reports as A/A runs: each file is a run, each test a
// scenario. Parts baseline and candidate may repeat.
func (h *handler) aaReports(w http.ResponseWriter, r *http.Request, format string, opt aa.Options) error {
	mt, _, err := mediaType(r, aaReportMedia)
	if err != nil {
		return err
	}
	lb, err := h.limit(w, r, h.opt.maxBody())
	if err != nil {
		return err
	}
	l := ledger.New()
	candidates := 0
	switch {
	case mt == "multipart/form-data":
		err = eachPart(r, lb, func(name string, p *multipart.Part) error {
			arm := ledger.ArmBaseline
			switch name {
			case "baseline":
			case "candidate":
				arm = ledger.ArmPatched
				candidates++
			default:
				return invalid(name, "unknown part %q; send parts baseline and optional candidate, one per run (options go in the query)", name)
			}
			return lb.check(report.Read(p, report.Options{Format: format, Arm: arm}, l), partFile(name, p))
		})
	case reportMedia[mt]:
		err = lb.check(report.Read(lb, report.Options{Format: format, Arm: ledger.ArmBaseline}, l), "baseline")
	default:
		return unsupported(mt, aaReportMedia)
	}
	if err != nil {
		return err
	}
	base, err := aa.FromLedger(l, ledger.ArmBaseline)
	if err != nil {
		return err
	}
	var cand *aa.Side
	if candidates > 0 {
		if cand, err = aa.FromLedger(l, ledger.ArmPatched); err != nil {
			return err
		}
	}
	res, err := aa.Check(base, cand, opt)
	if err != nil {
		return err
	}
	return h.writeResult(w, res, cacheNone)
}

// partFile names a part in errors: its filename when it has one.
func partFile(name string, p *multipart.Part) string {
	if fn := p.FileName(); fn != "" {
		return fn
	}
	return name
}

// eachPart streams the parts of a multipart body in order, with no
// temporary files (Workers has none), and hands each named part to fn.
func eachPart(r *http.Request, lb *limitedBody, fn func(name string, p *multipart.Part) error) error {
	mr, err := r.MultipartReader()
	if err != nil {
		return invalid("", "malformed multipart body: %v", err)
	}
	for {
		p, err := mr.NextPart()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return lb.check(invalid("", "malformed multipart body: %v", err), "")
		}
		name := p.FormName()
		if name == "" {
			p.Close()
			return invalid("", "a multipart part has no form name; name the parts as the route says")
		}
		err = fn(name, p)
		p.Close()
		if err != nil {
			return err
		}
	}
}

const ledgerMedia = "a report as the body (application/x-ndjson for a JSONL ledger or go test -json, application/xml for JUnit) or multipart/form-data with parts ledger, baseline or patched"

// reportMedia are the media types a report body may be sent as.
var reportMedia = map[string]bool{
	"application/x-ndjson":    true,
	"application/jsonl":       true,
	"application/x-jsonl":     true,
	"application/jsonlines":   true,
	"application/x-jsonlines": true,
	"application/json-lines":  true,
	"application/json":        true,
	"text/plain":              true,
	"application/xml":         true,
	"text/xml":                true,
	"application/junit+xml":   true,
}

func postLedger(h *handler, w http.ResponseWriter, r *http.Request) error {
	rt := h.routes["ledger"]
	a := queryArgs(rt.params, r.URL.RawQuery)
	opt := ledger.DefaultOptions
	format, arm, run := formatAuto, ledger.ArmBaseline, ""
	a.str("format", &format)
	a.str("arm", &arm)
	a.str("run", &run)
	a.integer("min_trials", &opt.MinTrials)
	a.number("confidence", &opt.Confidence)
	a.str("property", &opt.Property)
	if a.err != nil {
		return a.err
	}
	if err := checkFormat(format, reportFormats()); err != nil {
		return err
	}
	if arm != ledger.ArmBaseline && arm != ledger.ArmPatched {
		return invalid("arm", "must be baseline or patched, got %q", arm)
	}
	mt, _, err := mediaType(r, ledgerMedia)
	if err != nil {
		return err
	}
	lb, err := h.limit(w, r, h.opt.maxBody())
	if err != nil {
		return err
	}
	l := ledger.New()
	switch {
	case reportMedia[mt]:
		ro := report.Options{Format: coreFormat(format), Arm: arm, Run: run}
		if err := report.Read(lb, ro, l); err != nil {
			return lb.check(err, "ledger")
		}
	case mt == "multipart/form-data":
		if run != "" {
			return invalid("run", "names the run of a report sent as the body; multipart parts are numbered runs")
		}
		parts := 0
		err := eachPart(r, lb, func(name string, p *multipart.Part) error {
			partArm := arm
			switch name {
			case "ledger", "report":
			case ledger.ArmBaseline, ledger.ArmPatched:
				partArm = name
			default:
				return invalid(name, "unknown part %q; send parts ledger, baseline or patched, one report each (options go in the query)", name)
			}
			parts++
			ro := report.Options{Format: coreFormat(format), Arm: partArm}
			return lb.check(report.Read(p, ro, l), partFile(name, p))
		})
		if err != nil {
			return err
		}
		if parts == 0 {
			return invalid("ledger", "the multipart body has no report part")
		}
	default:
		return unsupported(mt, ledgerMedia)
	}
	res, err := l.Result(opt)
	if err != nil {
		return err
	}
	return h.writeResult(w, res, cacheNone)
}

const flakesMedia = "multipart/form-data with one or more parts named report (each a run), or one report as the body"

// postFlakes plans a rerun budget for every test whose retry history in the
// uploaded reports shows it flaking, as `flakegate budget -from` does.
func postFlakes(h *handler, w http.ResponseWriter, r *http.Request) error {
	rt := h.routes["flakes"]
	a := queryArgs(rt.params, r.URL.RawQuery)
	in := gate.DefaultBudgetInput
	format := formatAuto
	a.str("format", &format)
	a.number("target", &in.Target)
	a.optNumber("cost_seconds", &in.CostSeconds)
	a.integer("cap", &in.Cap)
	a.number("confidence", &in.Confidence)
	if a.err != nil {
		return a.err
	}
	if err := checkFormat(format, reportFormats()); err != nil {
		return err
	}
	// The settings are checked before the upload is read, and even when no
	// test flaked.
	probe := in
	probe.Rates = []float64{0.5}
	if _, err := gate.Budget(probe); err != nil {
		return err
	}
	mt, _, err := mediaType(r, flakesMedia)
	if err != nil {
		return err
	}
	lb, err := h.limit(w, r, h.opt.maxBody())
	if err != nil {
		return err
	}
	l := ledger.New()
	ro := report.Options{Format: coreFormat(format), Arm: ledger.ArmBaseline}
	switch {
	case reportMedia[mt]:
		err = lb.check(report.Read(lb, ro, l), "report")
	case mt == "multipart/form-data":
		parts := 0
		err = eachPart(r, lb, func(name string, p *multipart.Part) error {
			if name != "report" {
				return invalid(name, "unknown part %q; send one or more parts named report, one run each (options go in the query)", name)
			}
			parts++
			return lb.check(report.Read(p, ro, l), partFile(name, p))
		})
		if err == nil && parts == 0 {
			err = invalid("report", "the multipart body has no report part")
		}
	default:
		return unsupported(mt, flakesMedia)
	}
	if err != nil {
		return err
	}
	res, err := l.FlakeBudgets(in)
	if err != nil {
		return err
	}
	return h.writeResult(w, res, cacheNone)
}
