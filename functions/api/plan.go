package api

import "fmt"

// Cloudflare Workers plans, as FLAKEGATE_PLAN (wrangler.toml's [vars])
// names them. Each allows a request some CPU time: the Free plan 10 ms,
// the Paid plan 30 s by default (up to 5 minutes with [limits] cpu_ms). A
// request past it is cut off by the platform with its own error page
// (error 1102), so the Worker refuses, before the work starts, a request
// whose input would take more, with a 413 problem that names the limit
// and where to go instead.
const (
	WorkerPlanFree = "free"
	WorkerPlanPaid = "paid"
)

// The Free plan's limits, sized from the CPU time each part of a request
// takes in the Worker under workerd (`make bench-worker`, bench/workercpu;
// docs/API.md has the figures): the largest request each admits stays
// within FreeCPUMillis with a margin for a slower machine.
const (
	// FreeCPUMillis is the Workers Free plan's CPU time per request, ms.
	FreeCPUMillis = 10
	// FreeMaxBodyBytes is the Free plan's body limit: the upload the
	// dearest route per byte reads within the plan's CPU time.
	FreeMaxBodyBytes = 8 << 10
	// FreeWorkSteps is the Free plan's A/A work budget (aa.Work steps).
	FreeWorkSteps = 1e6
	// FreeMaxRates is the most rates one budget request plans there.
	FreeMaxRates = 200
	// FreeMaxUnzippedBytes is what a history request's zip archives may
	// unpack to there: the body limit's worth of reports.
	FreeMaxUnzippedBytes = 12 << 10
)

// freeNote is the Free plan's LimitNote: which limit, and how to go on.
var freeNote = fmt.Sprintf("the Workers Free plan allows %d ms of CPU time per request, and this much input would take more; "+
	"for more, deploy on the Workers Paid plan with FLAKEGATE_PLAN = %q in wrangler.toml, "+
	"or run the CLI (flakegate) or the local server (make run), which have no such limit", FreeCPUMillis, WorkerPlanPaid)

// WorkerPlanOptions are the Worker's options on the Cloudflare Workers
// plan named: "paid" is WorkerOptions, sized for the Paid plan's 30 s of
// CPU; "free" bounds each request within the Free plan's 10 ms. Any other
// name is an error that says which names there are.
func WorkerPlanOptions(plan string) (Options, error) {
	opt := WorkerOptions()
	switch plan {
	case WorkerPlanPaid:
		return opt, nil
	case WorkerPlanFree:
		opt.MaxBodyBytes = FreeMaxBodyBytes
		opt.WorkSteps = FreeWorkSteps
		opt.MaxRates = FreeMaxRates
		opt.MaxUnzippedBytes = FreeMaxUnzippedBytes
		opt.LimitNote = freeNote
	default:
		return Options{}, fmt.Errorf("FLAKEGATE_PLAN is %q: name the Workers plan the Worker is deployed on, %q or %q", plan, WorkerPlanFree, WorkerPlanPaid)
	}
	opt.Plan = plan
	return opt, nil
}
