package api

import (
	"net/http"

	"github.com/flakegate/flakegate/core/gate"
	"github.com/flakegate/flakegate/core/ledger"
	schema "github.com/flakegate/flakegate/core/param"
)

// budgetArgs reads a budget's input (param.Budget); a runner's setting
// (setting, or runner=NAME=N) gives the cap, so the two are not given
// together.
func budgetArgs(a *args) (gate.BudgetInput, error) {
	in, err := schemaArgs(a, schema.Budget)
	if err == nil && in.Setting != nil && a.has("cap") {
		err = invalid("setting", "give cap (reruns) or setting (the runner's own count), not both")
	}
	return in, err
}

// inputs are the parameters of a calculator's schema, of only the keys
// named when there are any.
func inputs[T any](s *schema.Schema[T], keys ...string) []param {
	fields := s.Fields
	if len(keys) > 0 {
		fields = nil
		for _, k := range keys {
			f, _ := s.Field(k)
			fields = append(fields, f)
		}
	}
	return schemaParams(fields, s.Defaults(), map[string]int{"rates": MaxRates})
}

// routes is the table every request is dispatched by, and the OpenAPI
// document is generated from.
func routes() []*route {
	all := append([]*route{
		{
			path:    "budget",
			summary: "Reruns needed to catch a flake, their cost and the merge-gate lane",
			params:  inputs(schema.Budget),
			get:     paramsRoute((*handler).budget), post: paramsRoute((*handler).budget),
			results: "BudgetResult",
		},
		{
			path:    "decide",
			summary: "Two-arm verdict on a patch from baseline and patched pass counts",
			params:  inputs(schema.Decide),
			get:     paramsRoute(calc(schema.Decide, gate.Decide)), post: paramsRoute(calc(schema.Decide, gate.Decide)),
			results: "DecideResult",
		},
		{
			path:    "size",
			summary: "Trials per arm at which two pass rates' Wilson intervals separate",
			params:  inputs(schema.Size),
			get:     paramsRoute(calc(schema.Size, gate.Size)), post: paramsRoute(calc(schema.Size, gate.Size)),
			results: "SizeResult",
		},
		{
			path:    "freeze",
			summary: "Record a frozen pass-rate claim, or check it against a newer count",
			params:  inputs(schema.Freeze),
			get:     paramsRoute(calc(schema.Freeze, gate.Freeze)), post: paramsRoute(calc(schema.Freeze, gate.Freeze)),
			results: "FreezeResult",
		},
		{
			path:    "aa",
			summary: "A/A noise of an eval suite, and a candidate's regression check",
			params: append([]param{
				{name: "format", kind: kString, def: formatCSV, enum: aaFormats(),
					doc: "the uploads' format: the A/A CSV (rows, or scenario,run,passed,trials counts), or test reports and eval logs (each file a run, each test or sample a scenario)"},
			}, append(inputs(schema.AA), evalParams...)...),
			post:    postAA,
			body:    []bodyKind{bodyCSV, bodyMultipartAA},
			results: "AAResult",
		},
		{
			path:    "ledger",
			summary: "Per-test two-arm verdicts from a trial ledger or test reports",
			format:  reportsFormat,
			params: append([]param{
				{name: "arm", kind: kString, def: ledger.ArmBaseline, enum: []string{ledger.ArmBaseline, ledger.ArmPatched},
					doc: "the arm of a report sent as the body or as parts named ledger (a seed JSONL ledger names its own arms)"},
				{name: "run", kind: kString, doc: "the run name of a report sent as the body; numbered per arm when omitted (a seed JSONL ledger names its own runs)"},
			}, inputs(schema.Ledger)...),
			post:    postLedger,
			body:    []bodyKind{bodyJSONL, bodyMultipartLedger},
			results: "LedgerResult",
		},
		{
			path:    "flakes",
			summary: "Rerun budgets of every flaky test in uploaded test reports, from their retry history",
			format:  reportsFormat,
			params:  inputs(schema.Budget, "target", "cost", "cap", "confidence", "runner", "setting"),
			post:    postFlakes,
			body:    []bodyKind{bodyReport, bodyMultipartReports},
			results: "FlakesResult",
		},
		{
			path:    "openapi.json",
			summary: "This API's OpenAPI 3.1 description",
			get:     openapi,
			results: "OpenAPI",
		},
		{
			path:    "health",
			summary: "Liveness probe and this deployment's body limit",
			get:     health,
			results: "Health",
		},
	}, append(append(append(append(quarantineRoutes(), compareRoutes()...), historyRoutes()...), boardRoutes()...), triageRoutes()...)...)
	for _, rt := range all {
		if rt.format != "" {
			rt.params = append([]param{formatParam(rt.format)}, rt.params...)
		}
	}
	return all
}

// reportsFormat is the doc of the format parameter of the routes reading
// one test report per file.
const reportsFormat = "the reports' format, one of the names listed; auto detects it from the content"

// paramsRoute adapts a computation over args to GET (query) and POST (JSON
// object, or a urlencoded form).
func paramsRoute(compute func(h *handler, a *args) (any, error)) handlerFunc {
	return func(h *handler, w http.ResponseWriter, r *http.Request) error {
		rt := h.routes[r.URL.Path[len(Prefix):]]
		var a *args
		cache := cacheGET
		if r.Method == http.MethodPost {
			cache = cacheNone
			var err error
			if a, err = h.postArgs(rt, r); err != nil {
				return err
			}
		} else {
			a = queryArgs(rt.params, r.URL.RawQuery)
		}
		if a.err != nil {
			return a.err
		}
		res, err := compute(h, a)
		if err != nil {
			return err
		}
		h.addLink(r, res)
		return h.writeResult(w, r, res, cache)
	}
}

func (h *handler) budget(a *args) (any, error) {
	in, err := budgetArgs(a)
	if err != nil {
		return nil, err
	}
	if err := h.checkRates(in.Rates); err != nil {
		return nil, err
	}
	return gate.Budget(in)
}

// calc is a calculator read by schema s and answered by f.
func calc[T, R any](s *schema.Schema[T], f func(T) (R, error)) func(*handler, *args) (any, error) {
	return func(_ *handler, a *args) (any, error) {
		in, err := schemaArgs(a, s)
		if err != nil {
			return nil, err
		}
		return f(in)
	}
}

// Health is the answer of /v1/health.
type Health struct {
	Status       string `json:"status"`         // always "ok"
	API          string `json:"api"`            // the path prefix's version, "v1"
	MaxBodyBytes int64  `json:"max_body_bytes"` // this deployment's body limit
	Limits       Limits `json:"limits"`         // what one request may ask of this deployment
}

func health(h *handler, w http.ResponseWriter, r *http.Request) error {
	if a := queryArgs(nil, r.URL.RawQuery); a.err != nil {
		return a.err
	}
	return h.writeResult(w, r, Health{Status: "ok", API: "v1", MaxBodyBytes: h.opt.maxBody(), Limits: h.limits()}, cacheNone)
}

func openapi(h *handler, w http.ResponseWriter, r *http.Request) error {
	if a := queryArgs(nil, r.URL.RawQuery); a.err != nil {
		return a.err
	}
	h.send(w, r, "application/json", cacheOpenAPI, openAPIDoc)
	return nil
}
