// Command worker measures the Worker under `wrangler dev` against its floor:
// a plain JavaScript Worker that answers the same bytes, configured by the
// same wrangler.toml and run by the same wrangler at the same time. It
// sends GET /v1/budget to each in turn (one at a time, alternating which
// goes first, each over its own kept-alive connection) and prints the p50
// and p99 latencies and their ratios; the CPU time per request of the
// workerd processes (from /proc) and of the Go code inside the isolate
// (the shim's count of time spent in Go); and the memory of each over
// 10,000 more requests: V8's heap after a full collection (through the
// inspector), the Worker process's resident memory and, for the Go Worker,
// its live Go heap, wasm memory, the JavaScript values Go holds and its
// goroutines.
//
//	go run ./bench/worker [-n 2000] [-memory 10000] [-worker DIR]
//
// `make bench-worker` runs it. By default it builds the Worker's test build
// (-tags workertest: the deployed code plus a stats route, which the
// in-isolate figures need); -worker runs a Worker already built instead,
// such as an older one.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/flakegate/flakegate/bench/internal/proc"
	"github.com/flakegate/flakegate/functions/workers/wranglerdev"
)

// path is the request measured: a budget with an observed history
// and two rates, as a reviewer asks it.
const path = "/v1/budget?target=0.95&cost=8&cap=3&observe=1/120&rates=0.05,0.02"

func main() { proc.Exit("bench/worker", run(os.Args[1:], os.Stdout)) }

func run(args []string, out io.Writer) error {
	fs := flag.NewFlagSet("worker", flag.ContinueOnError)
	n := fs.Int("n", 2000, "requests measured per Worker")
	warm := fs.Int("warm", 300, "requests per Worker before measuring")
	memory := fs.Int("memory", 10_000, "requests per Worker in the memory run (0: none)")
	prebuilt := fs.String("worker", "", "a built Worker `dir` (worker.mjs, app.wasm) to measure instead of building one")
	root := fs.String("root", ".", "the repository")
	if err := fs.Parse(args); err != nil {
		return err
	}
	tmp, site, err := wranglerdev.Workspace(*root, "flakegate-bench-worker-", "<!doctype html><title>bench</title>")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)

	goDir := *prebuilt
	if goDir == "" {
		goDir = filepath.Join(tmp, "go")
		fmt.Fprintln(out, "building the Worker (-tags workertest)…")
		if err := wranglerdev.Build(*root, goDir, "workertest"); err != nil {
			return err
		}
	}
	goSrv, err := start(*root, tmp, "go-wrangler", filepath.Join(goDir, "worker.mjs"), site)
	if err != nil {
		return err
	}
	defer goSrv.Stop()
	client := &http.Client{Timeout: 60 * time.Second}
	want, err := get(client, goSrv.URL+path)
	if err != nil {
		return err
	}
	floorDir := filepath.Join(tmp, "floor")
	if err := writeFloor(floorDir, want); err != nil {
		return err
	}
	floorSrv, err := start(*root, tmp, "floor-wrangler", filepath.Join(floorDir, "worker.mjs"), site)
	if err != nil {
		return err
	}
	defer floorSrv.Stop()
	if got, err := get(client, floorSrv.URL+path); err != nil {
		return err
	} else if string(got.body) != string(want.body) || got.status != want.status {
		return fmt.Errorf("the floor answers %d and %d bytes, the Worker %d and %d bytes", got.status, len(got.body), want.status, len(want.body))
	}

	targets := []*target{{name: "Go Worker", srv: goSrv}, {name: "JS floor", srv: floorSrv}}
	for _, tg := range targets {
		tg.client = &http.Client{Timeout: 60 * time.Second, Transport: &http.Transport{MaxIdleConnsPerHost: 1}}
		for range *warm {
			if _, err := tg.do(); err != nil {
				return err
			}
		}
	}
	goBefore := stats(client, goSrv.URL)
	for _, tg := range targets {
		if tg.before, err = tg.srv.Usage(); err != nil {
			return err
		}
	}
	for i := range *n {
		for j := range targets {
			tg := targets[(i+j)%2] // alternate which goes first
			d, err := tg.do()
			if err != nil {
				return err
			}
			tg.lat = append(tg.lat, d)
		}
	}
	for _, tg := range targets {
		if tg.after, err = tg.srv.Usage(); err != nil {
			return err
		}
	}
	goAfter := stats(client, goSrv.URL)

	g, f := targets[0], targets[1]
	fmt.Fprintf(out, "\nGET %s under wrangler dev, %d requests to each, alternating, one at a time\n", path, *n)
	fmt.Fprintf(out, "%-10s %10s %10s %16s %16s\n", "", "p50", "p99", "CPU/request", "(Worker process)")
	for _, tg := range targets {
		slices.Sort(tg.lat)
		fmt.Fprintf(out, "%-10s %10s %10s %16s %16s\n", tg.name, ms(tg.p(50)), ms(tg.p(99)),
			ms((tg.after.CPU-tg.before.CPU)/time.Duration(*n)), ms((tg.after.WorkerCPU-tg.before.WorkerCPU)/time.Duration(*n)))
	}
	fmt.Fprintf(out, "ratio      %9.2f× %9.2f× %15.2f× %15.2f×   (Go Worker / floor; target p50 ≤ 2×)\n",
		ratio(g.p(50), f.p(50)), ratio(g.p(99), f.p(99)),
		ratio(g.after.CPU-g.before.CPU, f.after.CPU-f.before.CPU),
		ratio(g.after.WorkerCPU-g.before.WorkerCPU, f.after.WorkerCPU-f.before.WorkerCPU))
	if goBefore != nil && goAfter != nil {
		served := goAfter.Shim.Served - goBefore.Shim.Served
		fmt.Fprintf(out, "inside the isolate: %.3f ms of Go per request (performance.now() around each call into Go, %d requests, instance %d of %d started); the Go start-up took %.1f ms, once\n",
			(goAfter.Shim.BusyMs-goBefore.Shim.BusyMs)/float64(served), served, goAfter.Shim.Instance, goAfter.Shim.Started, goAfter.Shim.StartMs)
	} else {
		fmt.Fprintln(out, "inside the isolate: no figures (this Worker has no stats route)")
	}

	if *memory > 0 {
		fmt.Fprintf(out, "\nmemory over %d more requests to each\n", *memory)
		for _, tg := range targets {
			// The Worker process's usage, V8's heap and the Go figures, in that order.
			measure := func() (wranglerdev.Usage, int64, *goStats, error) {
				u, err := tg.srv.Usage()
				if err != nil {
					return u, 0, nil, err
				}
				heap, err := tg.srv.IsolateHeap()
				if err != nil {
					return u, 0, nil, err
				}
				return u, heap, stats(client, tg.srv.URL), nil
			}
			before, heapBefore, sb, err := measure()
			if err != nil {
				return err
			}
			start := time.Now()
			for range *memory {
				if _, err := tg.do(); err != nil {
					return err
				}
			}
			took := time.Since(start)
			after, heapAfter, sa, err := measure()
			if err != nil {
				return err
			}
			fmt.Fprintf(out, "%-10s V8 heap after a full collection %d → %d bytes; Worker process resident %.1f → %.1f MiB (%s)",
				tg.name, heapBefore, heapAfter, proc.MiB(before.WorkerRSS), proc.MiB(after.WorkerRSS), took.Round(time.Millisecond))
			if sb != nil && sa != nil {
				fmt.Fprintf(out, "; Go live heap %d → %d bytes, wasm memory %.2f → %.2f MiB, JS values held by Go %d → %d, goroutines %d → %d, instance %d → %d",
					sb.HeapAlloc, sa.HeapAlloc, proc.MiB(sb.Shim.WasmMemory), proc.MiB(sa.Shim.WasmMemory), sb.Shim.JSRefs, sa.Shim.JSRefs,
					sb.Goroutines, sa.Goroutines, sb.Shim.Instance, sa.Shim.Instance)
			}
			fmt.Fprintln(out)
		}
	}
	return nil
}

type target struct {
	name          string
	srv           *wranglerdev.Server
	client        *http.Client
	lat           []time.Duration
	before, after wranglerdev.Usage
}

func (tg *target) do() (time.Duration, error) {
	start := time.Now()
	resp, err := tg.client.Get(tg.srv.URL + path)
	if err != nil {
		return 0, err
	}
	_, err = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	d := time.Since(start)
	if err == nil && resp.StatusCode != http.StatusOK {
		err = fmt.Errorf("%s: status %d", tg.name, resp.StatusCode)
	}
	return d, err
}

// p is the q-th percentile of the sorted latencies (nearest rank).
func (tg *target) p(q int) time.Duration {
	i := (len(tg.lat)*q + 99) / 100
	return tg.lat[max(0, min(len(tg.lat)-1, i-1))]
}

func start(root, tmp, name, main, site string) (*wranglerdev.Server, error) {
	dir := filepath.Join(tmp, name)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	cfg, err := wranglerdev.Config(root, dir, main, site)
	if err != nil {
		return nil, err
	}
	return wranglerdev.Start(root, dir, cfg)
}

type answer struct {
	status int
	header http.Header
	body   []byte
}

func get(client *http.Client, url string) (answer, error) {
	resp, err := client.Get(url)
	if err != nil {
		return answer{}, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		return answer{}, fmt.Errorf("GET %s: %d %s", url, resp.StatusCode, b)
	}
	return answer{resp.StatusCode, resp.Header, b}, err
}

// writeFloor writes the floor Worker: the answer a as constants, returned
// for the measured path; 200 for /v1/health, 404 for anything else.
func writeFloor(dir string, a answer) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	headers := map[string]string{}
	for k := range a.header {
		switch strings.ToLower(k) {
		case "date", "content-length", "connection", "keep-alive", "transfer-encoding":
			continue
		}
		headers[k] = strings.Join(a.header.Values(k), ", ")
	}
	hj, _ := json.Marshal(headers)
	bj, _ := json.Marshal(string(a.body))
	pj, _ := json.Marshal(path)
	src := fmt.Sprintf(`// The floor: a plain JavaScript Worker that answers the Go Worker's bytes.
const PATH = %s;
const BODY = %s;
const HEADERS = %s;
export default {
  async fetch(request) {
    const u = new URL(request.url);
    if (u.pathname === "/v1/health") return new Response("ok"); // wranglerdev.Start waits for it
    if (u.pathname + u.search !== PATH) return new Response("not found", { status: 404 });
    return new Response(BODY, { status: %d, headers: HEADERS });
  },
};
`, pj, bj, hj, a.status)
	return os.WriteFile(filepath.Join(dir, "worker.mjs"), []byte(src), 0o644)
}

// goStats is the test build's /v1/_test/stats, as far as the benchmark
// reads it.
type goStats struct {
	Shim struct {
		Instance   int     `json:"instance"`
		Started    int     `json:"started"`
		Served     int     `json:"served"`
		BusyMs     float64 `json:"busy_ms"`
		StartMs    float64 `json:"start_ms"`
		WasmMemory int64   `json:"wasm_memory_bytes"`
		JSRefs     int     `json:"js_refs"`
	} `json:"shim"`
	Goroutines int   `json:"goroutines"`
	HeapAlloc  int64 `json:"heap_alloc_bytes"`
}

// stats returns the Worker's figures, or nil when it has no stats route.
func stats(client *http.Client, base string) *goStats {
	resp, err := client.Get(base + "/v1/_test/stats")
	if err != nil {
		return nil
	}
	defer resp.Body.Close()
	var s goStats
	if resp.StatusCode != http.StatusOK || json.NewDecoder(resp.Body).Decode(&s) != nil {
		return nil
	}
	return &s
}

func ms(d time.Duration) string { return fmt.Sprintf("%.3f ms", float64(d)/1e6) }

func ratio(a, b time.Duration) float64 {
	if b == 0 {
		return 0
	}
	return float64(a) / float64(b)
}
