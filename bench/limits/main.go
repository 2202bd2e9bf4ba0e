// Command limits is the load test of the API at its limits, on each
// platform: the local server, the Lambda bootstrap under the runtime
// emulator and the Worker under wrangler dev. For each it sends the worst
// request every route accepts (apitest.Worst: the most rates, tests,
// scenarios, runs and simulated draws the platform's limits let in), one
// at a time and then from several clients at once (one on Lambda, whose
// instance takes one invocation at a time), and reports per request
// the answer's size, the latency (p50, p99), the requests per second and
// the server's peak resident memory above its idle size. GET /v1/health
// is measured beside them as the floor: the figures are read as ratios to
// it, since the machine is shared.
//
//	go run ./bench/limits [-platforms local,lambda,worker] [-duration 10s] [-clients 2] [-out results.json]
//
// `make bench-limits` installs the tools and runs it. It fails when a worst
// request is not answered 200, or an answer reaches 6 MiB.
package main

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/flakegate/flakegate/bench/internal/proc"
	"github.com/flakegate/flakegate/functions/api"
	"github.com/flakegate/flakegate/functions/api/apitest"
	"github.com/flakegate/flakegate/functions/lambda/lambdatest"
	"github.com/flakegate/flakegate/functions/workers/wranglerdev"
)

func main() { proc.Main("bench/limits", run) }

// Result is one request's figures on one platform.
type Result struct {
	Platform    string  `json:"platform"`
	Request     string  `json:"request"`
	Status      int     `json:"status"`
	BodyBytes   int     `json:"body_bytes"`
	AnswerBytes int     `json:"answer_bytes"`
	Requests    int     `json:"requests"` // under load
	Failed      int     `json:"failed"`
	PerSecond   float64 `json:"requests_per_second"`
	P50ms       float64 `json:"p50_ms"`
	P99ms       float64 `json:"p99_ms"`
	// PeakRSSMiB is the server's resident memory at its peak while this
	// request was served, less its idle size, in MiB.
	PeakRSSMiB float64 `json:"peak_rss_above_idle_mib"`
}

// platform is a running server and how to send it a case.
type platform struct {
	name  string
	limit int64
	steps float64
	send  func(c apitest.Case, body []byte) (int, int, error) // status, answer bytes
	rss   func() (int64, error)                               // resident bytes of the server's processes
	stop  func()
	// serial is a platform that serves one request at a time: a Lambda
	// instance takes one invocation at a time (more at once are more
	// instances), and the emulator fails the requests it gets meanwhile.
	serial bool
}

func run(ctx context.Context, args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("limits", flag.ContinueOnError)
	platforms := fs.String("platforms", "local,lambda,worker", "the `platforms` to measure, comma-separated")
	duration := fs.Duration("duration", 10*time.Second, "load per request")
	clients := fs.Int("clients", 2, "concurrent clients under load (Lambda: always 1)")
	root := fs.String("root", ".", "the repository's `root`")
	out := fs.String("out", "", "write the results as JSON to this `file`")
	if err := fs.Parse(args); err != nil {
		return err
	}
	var results []Result
	var failed []string
	for _, name := range strings.Split(*platforms, ",") {
		dir, err := os.MkdirTemp("", "flakegate-limits-")
		if err != nil {
			return err
		}
		p, err := start(ctx, name, *root, dir)
		if err != nil {
			os.RemoveAll(dir)
			return fmt.Errorf("%s: %v", name, err)
		}
		n := *clients
		if p.serial {
			n = 1
		}
		rs, fails, err := measure(ctx, p, *duration, n, stdout)
		p.stop()
		os.RemoveAll(dir)
		if err != nil {
			return fmt.Errorf("%s: %v", name, err)
		}
		results = append(results, rs...)
		failed = append(failed, fails...)
	}
	return proc.Finish(*out, results, failed)
}

// measure runs the floor and the worst requests on p.
func measure(ctx context.Context, p *platform, duration time.Duration, clients int, stdout io.Writer) ([]Result, []string, error) {
	health := apitest.Case{Name: "floor: GET /v1/health", Method: "GET", URL: "/v1/health"}
	cases := append([]apitest.Case{health}, apitest.Worst(p.limit, p.steps)...)
	time.Sleep(time.Second)
	idle, err := p.rss()
	if err != nil {
		return nil, nil, err
	}
	fmt.Fprintf(stdout, "%s: idle RSS %.1f MiB, body limit %d bytes, work budget %.3g steps\n", p.name, proc.MiB(idle), p.limit, p.steps)
	var results []Result
	var failed []string
	var floor float64
	for _, c := range cases {
		body, _, err := c.Payload("", p.limit)
		if err != nil {
			return nil, nil, err
		}
		res := Result{Platform: p.name, Request: c.Name, BodyBytes: len(body)}
		// Sample memory throughout.
		var peak int64
		var mu sync.Mutex
		stop := make(chan struct{})
		var wg sync.WaitGroup
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				if v, err := p.rss(); err == nil {
					mu.Lock()
					peak = max(peak, v)
					mu.Unlock()
				}
				select {
				case <-stop:
					return
				case <-time.After(50 * time.Millisecond):
				}
			}
		}()
		status, answer, err := p.send(c, body)
		if err != nil {
			close(stop)
			wg.Wait()
			return nil, nil, fmt.Errorf("%s: %v", c.Name, err)
		}
		res.Status, res.AnswerBytes = status, answer
		lat, n, bad := load(ctx, p, c, body, duration, clients)
		close(stop)
		wg.Wait()
		res.Requests, res.Failed = n, bad
		res.PerSecond = float64(n) / duration.Seconds()
		res.P50ms, res.P99ms = percentile(lat, 0.50), percentile(lat, 0.99)
		res.PeakRSSMiB = proc.MiB(max(0, peak-idle))
		if c.Name == health.Name {
			floor = res.P50ms
		}
		ratio := ""
		if floor > 0 {
			ratio = fmt.Sprintf(" (%.0f× the floor)", res.P50ms/floor)
		}
		fmt.Fprintf(stdout, "  %-42s %3d  body %9d  answer %8d  %7.1f req/s  p50 %8.1f ms%s  p99 %8.1f ms  peak RSS +%.1f MiB  (%d requests, %d failed)\n",
			c.Name, res.Status, res.BodyBytes, res.AnswerBytes, res.PerSecond, res.P50ms, ratio, res.P99ms, res.PeakRSSMiB, res.Requests, res.Failed)
		if status != 200 || bad > 0 {
			failed = append(failed, fmt.Sprintf("%s: %s: status %d, %d of %d failed under load", p.name, c.Name, status, bad, n))
		}
		if answer >= 6<<20 {
			failed = append(failed, fmt.Sprintf("%s: %s: an answer of %d bytes", p.name, c.Name, answer))
		}
		results = append(results, res)
	}
	return results, failed, nil
}

// load sends c from clients goroutines for d, and returns the latencies of
// the answers, the count and the failures (not 200).
func load(ctx context.Context, p *platform, c apitest.Case, body []byte, d time.Duration, clients int) ([]time.Duration, int, int) {
	var mu sync.Mutex
	var lat []time.Duration
	bad := 0
	end := time.Now().Add(d)
	var wg sync.WaitGroup
	for range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for time.Now().Before(end) && ctx.Err() == nil {
				t0 := time.Now()
				status, _, err := p.send(c, body)
				took := time.Since(t0)
				mu.Lock()
				lat = append(lat, took)
				if err != nil || status != 200 {
					bad++
				}
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	return lat, len(lat), bad
}

func percentile(lat []time.Duration, q float64) float64 {
	if len(lat) == 0 {
		return 0
	}
	s := slices.Clone(lat)
	slices.Sort(s)
	i := min(len(s)-1, int(q*float64(len(s))))
	return float64(s[i].Microseconds()) / 1000
}

// start starts one platform.
func start(ctx context.Context, name, root, dir string) (*platform, error) {
	client := &http.Client{Timeout: 120 * time.Second, Transport: &http.Transport{DisableCompression: true, MaxIdleConnsPerHost: 16}}
	httpSend := func(base string) func(apitest.Case, []byte) (int, int, error) {
		return func(c apitest.Case, body []byte) (int, int, error) {
			req, err := http.NewRequest(c.Method, base+c.URL, bytes.NewReader(body))
			if err != nil {
				return 0, 0, err
			}
			req.Header = c.Headers("")
			resp, err := client.Do(req)
			if err != nil {
				return 0, 0, err
			}
			n, err := io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			return resp.StatusCode, int(n), err
		}
	}
	switch name {
	case "local":
		bin := filepath.Join(dir, "flakegate-serve")
		build := exec.Command("go", "build", "-trimpath", "-o", bin, "./cmd/flakegate-serve")
		build.Dir = root
		if out, err := build.CombinedOutput(); err != nil {
			return nil, fmt.Errorf("building the server: %v\n%s", err, out)
		}
		base, pid, stop, err := proc.StartServer(ctx, bin, dir, nil)
		if err != nil {
			return nil, err
		}
		return &platform{name: "local server", limit: api.DefaultMaxBodyBytes, steps: api.DefaultWorkSteps,
			send: httpSend(base), rss: func() (int64, error) { return proc.TreeRSS(pid) }, stop: stop}, nil
	case "lambda":
		e, err := lambdatest.Start(root, dir)
		if err != nil {
			return nil, err
		}
		return &platform{name: "Lambda (emulator)", limit: api.LambdaMaxBodyBytes, steps: api.LambdaWorkSteps,
			send: func(c apitest.Case, body []byte) (int, int, error) {
				c.Gen, c.Body = nil, string(body)
				ev, err := lambdatest.Event(c, "", api.LambdaMaxBodyBytes, false)
				if err != nil {
					return 0, 0, err
				}
				status, _, answer, err := lambdatest.Invoke(client, e.URL, ev)
				return status, len(answer), err
			},
			rss: func() (int64, error) { return proc.TreeRSS(e.Pid()) }, stop: e.Stop, serial: true}, nil
	case "worker":
		wdir, site := filepath.Join(dir, "worker"), filepath.Join(dir, "site")
		if err := wranglerdev.Build(root, wdir); err != nil {
			return nil, err
		}
		os.MkdirAll(site, 0o755)
		os.WriteFile(filepath.Join(site, "index.html"), []byte("<!doctype html><title>flakegate</title>"), 0o644)
		cfg, err := wranglerdev.Config(root, dir, filepath.Join(wdir, "worker.mjs"), site)
		if err != nil {
			return nil, err
		}
		s, err := wranglerdev.Start(root, dir, cfg)
		if err != nil {
			return nil, err
		}
		return &platform{name: "Worker (wrangler dev)", limit: api.DefaultMaxBodyBytes, steps: api.WorkerWorkSteps,
			send: httpSend(s.URL), rss: func() (int64, error) {
				u, err := s.Usage()
				return u.WorkerRSS, err
			}, stop: s.Stop}, nil
	}
	return nil, fmt.Errorf("unknown platform %q: local, lambda or worker", name)
}
