// Command workercpu measures what the Worker costs Cloudflare's CPU-time
// limits, under `wrangler dev` (workerd, offline): the CPU time of each
// endpoint's request, typical (from the request corpus) and at the most a
// plan accepts (apitest.Worst, at the limits the Worker's /v1/health
// reports for that plan), and its cold start in parts: the module's load
// (the wasm compiled, the shim evaluated; the Go Worker's start-up less a
// plain JavaScript Worker's, configured by the same wrangler.toml), and
// the Go program's start with its first answer (the first request's CPU
// less a warm one's).
//
//	go run ./bench/workercpu [-plan free] [-n 15] [-starts 3] [-out results.json]
//
// `make bench-worker` runs it after bench/worker. A request's CPU time is
// that of the main thread of the workerd process that runs the Worker,
// where the isolate runs, read from /proc (schedstat, in nanoseconds)
// around it: the median of n. It counts workerd's own HTTP work beside the
// isolate's, so it overstates what Cloudflare bills a request; the same
// measure of a plain JavaScript Worker's answer, printed as the floor, is
// that part. Start-up, which spans threads that come and go, is the whole
// process's, from /proc/pid/stat (hundredths of a second).
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/flakegate/flakegate/bench/internal/proc"
	"github.com/flakegate/flakegate/functions/api"
	"github.com/flakegate/flakegate/functions/api/apitest"
	"github.com/flakegate/flakegate/functions/workers/wranglerdev"
)

func main() { proc.Main("bench/workercpu", run) }

// typical are the corpus's requests measured as each endpoint's typical
// one: a reviewer's question, or a few small reports.
var typical = []string{
	"health", "budget-get-worked-example", "decide-get-no-change", "size-get", "freeze-get-stale",
	"aa-multipart", "aa-simulate", "ledger-jsonl", "flakes-gotest-runs", "quarantine-check-reports",
	"compare-lmeval", "history-zip-body", "openapi",
}

// Result is one request's CPU time under workerd.
type Result struct {
	Request   string  `json:"request"`
	Kind      string  `json:"kind"` // typical or max
	Status    int     `json:"status"`
	BodyBytes int64   `json:"body_bytes"`
	Samples   int     `json:"samples"`
	CPUms     float64 `json:"cpu_ms"`     // median
	CPUMinMs  float64 `json:"cpu_min_ms"` // least
}

// Start is the cold start, each part the median of the starts.
type Start struct {
	Starts int `json:"starts"`
	// ModuleMs is the Worker process's CPU up to its first answer (an
	// asset) for the Go Worker less that for the JavaScript one.
	ModuleMs    float64 `json:"module_ms"`
	GoStartupMs float64 `json:"go_worker_startup_ms"` // the Go Worker's process, to its first answer
	JSStartupMs float64 `json:"js_worker_startup_ms"` // the plain JavaScript Worker's
	// FirstMs is the first API request's CPU: the Go program's start and
	// its first answer (GET /v1/health); WarmMs a later one's.
	FirstMs  float64 `json:"first_request_ms"`
	WarmMs   float64 `json:"warm_request_ms"`
	GoRunMs  float64 `json:"go_start_ms"` // FirstMs - WarmMs
	WasmSize int64   `json:"wasm_bytes"`
	// Floor is a request a plain JavaScript Worker answers: workerd's own
	// work, which the figures of the Go Worker's requests include.
	Floor Result `json:"floor"`
	// FloorBody is the same with a 4 MB body the Worker does not read.
	FloorBody Result `json:"floor_4mb_body"`
}

func run(ctx context.Context, args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("workercpu", flag.ContinueOnError)
	plan := fs.String("plan", "free", "the `plan` the Worker is configured for (FLAKEGATE_PLAN): free or paid")
	n := fs.Int("n", 15, "requests measured per request kind (fewer for one that takes seconds: 20 s of CPU at most)")
	starts := fs.Int("starts", 3, "cold starts measured of each Worker (0: none)")
	root := fs.String("root", ".", "the repository's `root`")
	out := fs.String("out", "", "write the results as JSON to this `file`")
	only := fs.String("only", "", "measure only the requests whose names match this `regexp`")
	if err := fs.Parse(args); err != nil {
		return err
	}
	tmp, site, err := wranglerdev.Workspace(*root, "flakegate-bench-workercpu-", "<!doctype html><title>bench</title>")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	goDir := filepath.Join(tmp, "go")
	fmt.Fprintln(stdout, "building the Worker…")
	if err := wranglerdev.Build(*root, goDir); err != nil {
		return err
	}
	jsDir := filepath.Join(tmp, "js")
	if err := os.MkdirAll(jsDir, 0o755); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(jsDir, "worker.mjs"), []byte(floorJS), 0o644); err != nil {
		return err
	}
	vars := map[string]string{"FLAKEGATE_PLAN": *plan}
	client := &http.Client{Timeout: 5 * time.Minute}
	k := 0
	server := func(main string) (*wranglerdev.Server, error) {
		k++
		dir := filepath.Join(tmp, fmt.Sprint("wrangler-", k))
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return nil, err
		}
		cfg, err := wranglerdev.Config(*root, dir, main, site)
		if err != nil {
			return nil, err
		}
		// "/" is an asset, answered without starting Go.
		return wranglerdev.StartWith(*root, dir, cfg, wranglerdev.StartOptions{Probe: "/", Vars: vars})
	}

	st, err := coldStart(ctx, client, server, filepath.Join(goDir, "worker.mjs"), filepath.Join(jsDir, "worker.mjs"), *starts)
	if err != nil {
		return err
	}
	if fi, err := os.Stat(filepath.Join(goDir, "app.wasm")); err == nil {
		st.WasmSize = fi.Size()
	}
	if st.Starts > 0 {
		fmt.Fprintf(stdout, "\ncold start, median of %d fresh workerd processes (CPU time of the Worker's process):\n", st.Starts)
		fmt.Fprintf(stdout, "  start-up to its first answer (an asset): Go Worker %.0f ms, plain JavaScript Worker %.0f ms: the module (%.1f MB of wasm compiled, the shim) %.0f ms\n",
			st.GoStartupMs, st.JSStartupMs, float64(st.WasmSize)/1e6, st.ModuleMs)
		fmt.Fprintf(stdout, "  first API request (GET /v1/health) %.1f ms, a warm one %.2f ms: the Go program's start %.1f ms\n",
			st.FirstMs, st.WarmMs, st.GoRunMs)
	}

	// The floor: what workerd spends on a request a plain JavaScript
	// Worker answers, measured as the Go Worker's requests are.
	floorSrv, err := server(filepath.Join(jsDir, "worker.mjs"))
	if err != nil {
		return err
	}
	floorPID, err := floorSrv.WorkerPID()
	if err == nil {
		st.Floor, err = measure(client, floorSrv.URL, floorPID, apitest.Case{Name: "floor", Method: "GET", URL: "/v1/health"}, "", 0, 3*max(*n, 10))
	}
	if err == nil {
		// workerd reads a body the Worker leaves unread too: its cost, apart.
		body := apitest.Case{Name: "floor-4MB-body", Method: "POST", URL: "/v1/health",
			Header: map[string]string{"Content-Type": "text/plain"}, Body: strings.Repeat("flakegate\n", 400_000)}
		st.FloorBody, err = measure(client, floorSrv.URL, floorPID, body, "", 0, *n)
	}
	floorSrv.Stop()
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "  the floor, a request a plain JavaScript Worker answers: %.2f ms (least %.2f ms); with a 4 MB body it leaves unread %.2f ms\n",
		st.Floor.CPUms, st.Floor.CPUMinMs, st.FloorBody.CPUms)

	srv, err := server(filepath.Join(goDir, "worker.mjs"))
	if err != nil {
		return err
	}
	defer srv.Stop()
	pid, err := srv.WorkerPID()
	if err != nil {
		return err
	}
	var health api.Health
	if err := getJSON(client, srv.URL+"/v1/health", &health); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "\nthe Worker on the %s plan: body limit %d bytes, A/A work %.3g steps\n", *plan, health.Limits.MaxBodyBytes, health.Limits.WorkSteps)

	cases, err := apitest.Load(filepath.Join(*root, "functions", "api", "testdata"))
	if err != nil {
		return err
	}
	var todo []struct {
		kind string
		c    apitest.Case
	}
	for _, name := range typical {
		i := slices.IndexFunc(cases, func(c apitest.Case) bool { return c.Name == name })
		if i < 0 {
			return fmt.Errorf("no corpus case %s", name)
		}
		todo = append(todo, struct {
			kind string
			c    apitest.Case
		}{"typical", cases[i]})
	}
	for _, c := range apitest.Worst(health.Limits.MaxBodyBytes, health.Limits.WorkSteps) {
		todo = append(todo, struct {
			kind string
			c    apitest.Case
		}{"max", within(c, health.Limits)})
	}
	dir := filepath.Join(*root, "functions", "api", "testdata")
	fmt.Fprintf(stdout, "\n%-8s %-44s %6s %12s %10s %10s %13s %8s\n", "", "request", "status", "body bytes", "CPU p50", "CPU min", "p50 - floor", "samples")
	var results []Result
	pick, err := regexp.Compile(*only)
	if err != nil {
		return err
	}
	for _, t := range todo {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if !pick.MatchString(t.c.Name) {
			continue
		}
		r, err := measure(client, srv.URL, pid, t.c, dir, health.Limits.MaxBodyBytes, *n)
		if err != nil {
			return fmt.Errorf("%s: %v", t.c.Name, err)
		}
		r.Kind = t.kind
		results = append(results, r)
		fmt.Fprintf(stdout, "%-8s %-58s %6d %12d %7.2f ms %7.2f ms %10.2f ms %8d\n", r.Kind, r.Request, r.Status, r.BodyBytes, r.CPUms, r.CPUMinMs, r.CPUms-st.Floor.CPUms, r.Samples)
	}
	return proc.Finish(*out, struct {
		Plan     string   `json:"plan"`
		Start    Start    `json:"cold_start"`
		Requests []Result `json:"requests"`
	}{*plan, st, results}, nil)
}

// within fits a worst request to a plan's smaller limits, where it can: the
// budget asks for the plan's most rates, and a CSV or JSON Lines body is
// cut to the plan's body limit at a line's end. Others are sent as they
// are, and a plan that refuses them answers 413.
func within(c apitest.Case, l api.Limits) apitest.Case {
	if strings.HasPrefix(c.Name, "worst-budget-") {
		return apitest.WorstBudget(l.Rates)
	}
	ct := c.Header["Content-Type"]
	if c.Gen == nil || (ct != "text/csv" && ct != "application/x-ndjson") {
		return c
	}
	var b bytes.Buffer
	c.Gen(&b)
	if int64(b.Len()) <= l.MaxBodyBytes {
		return c
	}
	cut := b.Bytes()[:l.MaxBodyBytes]
	cut = cut[:bytes.LastIndexByte(cut, '\n')+1]
	c.Name, c.Gen, c.Body = fmt.Sprintf("%s, cut to %d bytes", c.Name, len(cut)), nil, string(cut)
	return c
}

// floorJS is a Worker that answers every request itself, from JavaScript.
const floorJS = `export default { async fetch() { return new Response("ok"); } };
`

// coldStart starts each Worker starts times and measures its start-up;
// for the Go Worker also its first request and a warm one.
func coldStart(ctx context.Context, client *http.Client, server func(string) (*wranglerdev.Server, error), goMain, jsMain string, starts int) (Start, error) {
	var goUp, jsUp, first, warm []float64
	for range starts {
		for _, main := range []string{jsMain, goMain} {
			if ctx.Err() != nil {
				return Start{}, ctx.Err()
			}
			srv, err := server(main)
			if err != nil {
				return Start{}, err
			}
			u, err := srv.Usage()
			if err != nil {
				srv.Stop()
				return Start{}, err
			}
			if main == jsMain {
				jsUp = append(jsUp, ms(u.WorkerCPU))
				srv.Stop()
				continue
			}
			goUp = append(goUp, ms(u.WorkerCPU))
			pid, err := srv.WorkerPID()
			if err == nil {
				var f, w []float64
				for i := range 11 {
					var d time.Duration
					var status int
					if d, status, err = timed(client, pid, srv.URL, apitest.Case{Method: "GET", URL: "/v1/health"}, "", 0); err == nil && status != 200 {
						err = fmt.Errorf("GET /v1/health: %d", status)
					}
					if err != nil {
						break
					}
					if i == 0 {
						f = append(f, ms(d))
					} else {
						w = append(w, ms(d))
					}
				}
				first = append(first, f...)
				warm = append(warm, median(w))
			}
			srv.Stop()
			if err != nil {
				return Start{}, err
			}
		}
	}
	s := Start{Starts: starts, GoStartupMs: median(goUp), JSStartupMs: median(jsUp), FirstMs: median(first), WarmMs: median(warm)}
	s.ModuleMs = s.GoStartupMs - s.JSStartupMs
	s.GoRunMs = s.FirstMs - s.WarmMs
	return s, nil
}

// measure sends c twice to warm up, then until n have been measured or 20
// s of CPU have gone (3 at least).
func measure(client *http.Client, base string, pid int, c apitest.Case, dir string, limit int64, n int) (Result, error) {
	r := Result{Request: c.Name}
	var samples []float64
	var spent time.Duration
	for i := 0; i < n+2; i++ {
		d, status, err := timed(client, pid, base, c, dir, limit)
		if err != nil {
			return r, err
		}
		r.Status = status
		if i < 2 {
			continue
		}
		samples = append(samples, ms(d))
		if spent += d; spent > 20*time.Second && len(samples) >= 3 {
			break
		}
	}
	if req, err := c.NewRequest(dir, base, limit); err == nil && req.Body != nil {
		r.BodyBytes, _ = io.Copy(io.Discard, req.Body)
	}
	r.Samples, r.CPUms, r.CPUMinMs = len(samples), median(samples), slices.Min(samples)
	return r, nil
}

// timed sends c and returns the CPU time the Worker's process took over
// it, and the status.
func timed(client *http.Client, pid int, base string, c apitest.Case, dir string, limit int64) (time.Duration, int, error) {
	req, err := c.NewRequest(dir, base, limit)
	if err != nil {
		return 0, 0, err
	}
	before, err := proc.MainThreadCPU(pid)
	if err != nil {
		return 0, 0, err
	}
	resp, err := client.Do(req)
	if err != nil {
		return 0, 0, err
	}
	_, err = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	if err != nil {
		return 0, 0, err
	}
	after, err := proc.MainThreadCPU(pid)
	return after - before, resp.StatusCode, err
}

func getJSON(client *http.Client, url string, v any) error {
	resp, err := client.Get(url)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != 200 {
		b, _ := io.ReadAll(resp.Body)
		return fmt.Errorf("GET %s: %d %s", url, resp.StatusCode, strings.TrimSpace(string(b)))
	}
	return json.NewDecoder(resp.Body).Decode(v)
}

func ms(d time.Duration) float64 { return float64(d) / 1e6 }

func median(x []float64) float64 {
	if len(x) == 0 {
		return 0
	}
	s := slices.Clone(x)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}
