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
// takes in the Worker under workerd (bench/workercpu, `make
// bench-worker-cpu`; docs/API.md has the figures) so that the largest
// request each admits stays within FreeCPUMillis, with room for the
// request's fixed part (1 to 4 ms) and a slower machine. Each is a bound
// on the input, known before the work: the body's declared or counted
// bytes, the rates listed, aa.Work's steps, the zip entries' sizes.
const (
	// FreeCPUMillis is the Workers Free plan's CPU time per request, ms.
	FreeCPUMillis = 10
	// FreeMaxBodyBytes is the Free plan's body limit: the dearest upload
	// per byte measured, a quarantine registry with a JUnit report, takes
	// about 0.75 µs a byte (36 KB in 27 ms), so 8 KiB is about 6 ms; the
	// line formats take under 0.1 µs a byte.
	FreeMaxBodyBytes = 8 << 10
	// FreeWorkSteps is the Free plan's A/A work budget (aa.Work steps):
	// the Worker's simulation takes about 3.1 ns a step, so 1e6 steps
	// are about 3 ms.
	FreeWorkSteps = 1e6
	// FreeMaxRates is the most rates one budget request plans there:
	// about 21 µs a rate (1,000 in 21 ms), so 200 are about 4 ms.
	FreeMaxRates = 200
	// FreeMaxUnzippedBytes is what a history request's zip archives may
	// unpack to there: reports read from a zip take about 0.4 µs an
	// unpacked byte (18 KB in 7.4 ms), so 12 KiB is about 5 ms.
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
