package api

import (
	"net/http"

	"github.com/flakegate/flakegate/core"
	"github.com/flakegate/flakegate/core/gate"
	"github.com/flakegate/flakegate/core/ledger"
)

var confidenceParam = param{name: "confidence", kind: kNumber, def: "0.95",
	doc: "confidence level of the Wilson intervals, in (0,1)"}

// runnerParam and settingParam write a budget in a test runner's own retry
// setting.
var (
	runnerParam = param{name: "runner", kind: kString, enum: gate.RunnerNames(),
		doc: "the test runner whose retry setting the answer is written in: gotestsum --rerun-fails, Bazel --flaky_test_attempts or --runs_per_test, " +
			"pytest-rerunfailures --reruns, Maven Surefire rerunFailingTestsCount, Gradle test-retry maxRetries, Jest jest.retryTimes, Playwright --retries"}
	settingParam = param{name: "setting", kind: kInteger,
		doc: "today's setting of the runner as it counts it (retries, or attempts and runs with the first included); it gives the cap, so give cap or setting, not both"}
)

// runnerArgs reads the runner and its setting into in.
func runnerArgs(a *args, in *gate.BudgetInput) {
	a.str("runner", &in.Runner)
	if a.has("setting") {
		var n int64
		a.integer("setting", &n)
		in.Setting = &n
		if a.err == nil && a.has("cap") {
			a.err = invalid("setting", "give cap (reruns) or setting (the runner's own count), not both")
		}
	}
}

// routes is the table every request is dispatched by, and the OpenAPI
// document is generated from.
func routes() []*route {
	return append([]*route{
		{
			path:    "budget",
			summary: "Reruns needed to catch a flake, their cost and the merge-gate lane",
			params: []param{
				{name: "target", kind: kNumber, def: "0.95", doc: "detection power wanted, in (0,1)"},
				{name: "cost_seconds", alias: "cost", kind: kNumber, doc: "runner seconds per run, >= 0; omit when unknown"},
				{name: "cap", kind: kInteger, def: "3", doc: "reruns the gate allows today, >= 0"},
				{name: "observe", kind: kCount, keys: [2]string{"fails", "runs"},
					doc: "an observed failure history as fails/runs; its upper Wilson bound is planned for first"},
				{name: "rates", kind: kNumbers, most: MaxRates, doc: "per-run failure rates, each in [0,1]; at most 1,000 per request"},
				confidenceParam,
				runnerParam, settingParam,
			},
			get: paramsRoute(budget), post: paramsRoute(budget),
			results: "BudgetResult",
		},
		{
			path:    "decide",
			summary: "Two-arm verdict on a patch from baseline and patched pass counts",
			params: []param{
				{name: "baseline", kind: kCount, required: true, keys: [2]string{"passed", "trials"},
					doc: "the baseline arm as passed/trials"},
				{name: "patched", kind: kCount, required: true, keys: [2]string{"passed", "trials"},
					doc: "the patched arm as passed/trials"},
				{name: "min_trials", kind: kInteger, def: "20", doc: "fewest trials an arm needs for a verdict, >= 1"},
				confidenceParam,
				{name: "property", kind: kString, def: core.PropertyUnknown,
					enum: []string{core.PropertyPassed, core.PropertyFailed, core.PropertyUnknown},
					doc:  "result of the deterministic property check"},
			},
			get: paramsRoute(decide), post: paramsRoute(decide),
			results: "DecideResult",
		},
		{
			path:    "size",
			summary: "Trials per arm at which two pass rates' Wilson intervals separate",
			params: []param{
				{name: "baseline", kind: kNumber, required: true, doc: "baseline pass rate in [0,1]"},
				{name: "patched", kind: kNumber, required: true, doc: "patched pass rate in [0,1]"},
				confidenceParam,
			},
			get: paramsRoute(size), post: paramsRoute(size),
			results: "SizeResult",
		},
		{
			path:    "freeze",
			summary: "Record a frozen pass-rate claim, or check it against a newer count",
			params: []param{
				{name: "claim", kind: kCount, required: true, keys: [2]string{"passed", "trials"},
					doc: "the frozen claim as passed/trials"},
				{name: "date", kind: kString, doc: "the claim's measurement date, YYYY-MM-DD"},
				{name: "newer", kind: kCount, keys: [2]string{"passed", "trials"},
					doc: "a newer count of the same test as passed/trials"},
				confidenceParam,
				{name: "comparable", kind: kNumber, def: "0.5",
					doc: "least ratio of newer to claimed trials that can overturn the claim, in (0,1]"},
			},
			get: paramsRoute(freeze), post: paramsRoute(freeze),
			results: "FreezeResult",
		},
		{
			path:    "aa",
			summary: "A/A noise of an eval suite, and a candidate's regression check",
			params: append([]param{
				{name: "format", kind: kString, def: formatCSV, enum: aaFormats(),
					doc: "the uploads' format: the A/A CSV (rows, or scenario,run,passed,trials counts), or test reports and eval logs (each file a run, each test or sample a scenario)"},
				{name: "k", kind: kIntegers, def: "1,2,4,8", doc: "runs per side to list alarm thresholds for"},
				{name: "drops", kind: kNumbers, def: "0.02,0.03,0.05", doc: "drops, as fractions in (0,1], to size runs per side for"},
				{name: "rule", kind: kNumber, def: "0.02", doc: "the fixed-drop rule's drop to count false alarms of, a fraction in (0,1]"},
				{name: "seed", kind: kInteger, def: "1", doc: "seed of the trend test's permutations and of the simulation, in [0, 2^53)"},
				{name: "simulate", kind: kString, def: "false", enum: []string{"false", "true"},
					doc: "also simulate which gates catch which shape of regression (CPU-heavy; capped by the core)"},
				{name: "sets", kind: kInteger, def: "4000", doc: "simulated comparisons per shape, with simulate=true"},
				{name: "sim_k", kind: kInteger, def: "4", doc: "runs per side in the simulation"},
				{name: "sim_drop", kind: kNumber, def: "0.02", doc: "size of the planted regression in the simulation, a fraction"},
				{name: "broken", kind: kInteger, def: "0", doc: "stable scenarios the broken shape breaks; 0 means the drop times the scenarios"},
			}, evalParams...),
			post:    postAA,
			body:    []bodyKind{bodyCSV, bodyMultipartAA},
			results: "AAResult",
		},
		{
			path:    "ledger",
			summary: "Per-test two-arm verdicts from a trial ledger or test reports",
			params: []param{
				{name: "format", kind: kString, def: formatAuto, enum: reportFormats(),
					doc: "the reports' format, one of the names listed; auto detects it from the content"},
				{name: "arm", kind: kString, def: ledger.ArmBaseline, enum: []string{ledger.ArmBaseline, ledger.ArmPatched},
					doc: "the arm of a report sent as the body or as parts named ledger (a seed JSONL ledger names its own arms)"},
				{name: "run", kind: kString, doc: "the run name of a report sent as the body; numbered per arm when omitted (a seed JSONL ledger names its own runs)"},
				{name: "min_trials", kind: kInteger, def: "20", doc: "fewest trials an arm needs for a verdict, >= 1"},
				confidenceParam,
				{name: "property", kind: kString, def: core.PropertyUnknown,
					enum: []string{core.PropertyPassed, core.PropertyFailed, core.PropertyUnknown},
					doc:  "result of the deterministic property check, applied to every test"},
			},
			post:    postLedger,
			body:    []bodyKind{bodyJSONL, bodyMultipartLedger},
			results: "LedgerResult",
		},
		{
			path:    "flakes",
			summary: "Rerun budgets of every flaky test in uploaded test reports, from their retry history",
			params: []param{
				{name: "format", kind: kString, def: formatAuto, enum: reportFormats(),
					doc: "the reports' format, one of the names listed; auto detects it from the content"},
				{name: "target", kind: kNumber, def: "0.95", doc: "detection power wanted, in (0,1)"},
				{name: "cost_seconds", alias: "cost", kind: kNumber, doc: "runner seconds per run, >= 0; omit when unknown"},
				{name: "cap", kind: kInteger, def: "3", doc: "reruns the gate allows today, >= 0"},
				confidenceParam,
				runnerParam, settingParam,
			},
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
	}, append(append(quarantineRoutes(), compareRoutes()...), historyRoutes()...)...)
}

// paramsRoute adapts a computation over args to GET (query) and POST (JSON
// object, or a urlencoded form).
func paramsRoute(compute func(a *args) (any, error)) handlerFunc {
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
		res, err := compute(a)
		if err != nil {
			return err
		}
		h.addLink(r, res)
		return h.writeResult(w, r, res, cache)
	}
}

func budget(a *args) (any, error) {
	in := gate.DefaultBudgetInput
	a.number("target", &in.Target)
	a.optNumber("cost_seconds", &in.CostSeconds)
	a.integer("cap", &in.Cap)
	a.count("observe", &in.Observed)
	a.numbers("rates", &in.Rates)
	a.number("confidence", &in.Confidence)
	runnerArgs(a, &in)
	if a.err != nil {
		return nil, a.err
	}
	if err := checkRates(in.Rates); err != nil {
		return nil, err
	}
	return gate.Budget(in)
}

func decide(a *args) (any, error) {
	in := gate.DefaultDecideInput
	var b, p *core.Count
	a.count("baseline", &b)
	a.count("patched", &p)
	a.integer("min_trials", &in.MinTrials)
	a.number("confidence", &in.Confidence)
	a.str("property", &in.Property)
	if a.err != nil {
		return nil, a.err
	}
	in.Baseline, in.Patched = *b, *p
	return gate.Decide(in)
}

func size(a *args) (any, error) {
	in := gate.SizeInput{Confidence: core.DefaultConfidence}
	a.number("baseline", &in.Baseline)
	a.number("patched", &in.Patched)
	a.number("confidence", &in.Confidence)
	if a.err != nil {
		return nil, a.err
	}
	return gate.Size(in)
}

func freeze(a *args) (any, error) {
	in := gate.DefaultFreezeInput
	var c *core.Count
	a.count("claim", &c)
	a.str("date", &in.Date)
	a.count("newer", &in.Newer)
	a.number("confidence", &in.Confidence)
	a.number("comparable", &in.Comparable)
	if a.err != nil {
		return nil, a.err
	}
	in.Claim = *c
	return gate.Freeze(in)
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
