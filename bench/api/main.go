// Command api is the load check of the local server: it starts
// flakegate-serve on a free loopback port, drives it with wrk from a second
// process (GET /v1/budget, then POST /v1/aa with a seed-sized CSV of 200
// scenarios × 20 runs), samples the server's resident memory meanwhile, and
// fails unless every request succeeded and memory stayed flat.
//
//	go run ./bench/api -server bin/flakegate-serve -duration 30s
//
// `make bench-api` builds the server and runs it for 30 s per route.
package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/flakegate/flakegate/bench/internal/proc"
)

func main() { proc.Main("bench/api", run) }

// Result is one route's load run.
type Result struct {
	Route       string  `json:"route"`
	Seconds     float64 `json:"seconds"`
	Requests    int64   `json:"requests"`
	RequestsSec float64 `json:"requests_per_second"`
	LatencyP50  string  `json:"latency_p50"`
	LatencyP99  string  `json:"latency_p99"`
	Non2xx      int64   `json:"non_2xx"`
	SocketErrs  int64   `json:"socket_errors"`
	// Resident memory of the server, in MiB: the peak in the first and in
	// the last third of the run.
	RSSFirstMiB float64 `json:"rss_first_third_mib"`
	RSSLastMiB  float64 `json:"rss_last_third_mib"`
	// CPU time the server spent per request, user and system, in ms: on a
	// shared machine this holds where requests per second do not.
	CPUPerRequestMs float64 `json:"cpu_per_request_ms"`
}

func run(ctx context.Context, args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("api", flag.ContinueOnError)
	server := fs.String("server", "bin/flakegate-serve", "the local server `binary`")
	duration := fs.Duration("duration", 30*time.Second, "load per route")
	conns := fs.Int("connections", 16, "concurrent connections (bounded load)")
	out := fs.String("out", "", "write the results as JSON to this `file`")
	peer := fs.String("peer", "", "also time POST /v1/aa on this other server `binary` (say, one built from an earlier commit), alternating with -server, and print the ratio")
	rounds := fs.Int("rounds", 3, "with -peer: alternations of the two servers, each -duration/rounds long")
	if err := fs.Parse(args); err != nil {
		return err
	}
	wrk, err := exec.LookPath("wrk")
	if err != nil {
		return errors.New("wrk is not installed: run `make tools-functions` (apt package wrk)")
	}
	dir, err := os.MkdirTemp("", "flakegate-bench-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	csvPath := filepath.Join(dir, "baseline.csv")
	if err := os.WriteFile(csvPath, SeedCSV(200, 20), 0o644); err != nil {
		return err
	}
	script := filepath.Join(dir, "aa.lua")
	lua := fmt.Sprintf("wrk.method = \"POST\"\nwrk.headers[\"Content-Type\"] = \"text/csv\"\nlocal f = assert(io.open(%q, \"rb\"))\nwrk.body = f:read(\"*a\")\nf:close()\n", csvPath)
	if err := os.WriteFile(script, []byte(lua), 0o644); err != nil {
		return err
	}

	base, srvPid, stopServer, err := proc.StartServer(ctx, *server, dir, os.Stderr)
	if err != nil {
		return err
	}
	defer stopServer()

	budget := base + "/v1/budget?target=0.95&cost=8&cap=3&observe=1/120&rates=0.05,0.02"
	if err := probe(budget, "", nil); err != nil {
		return err
	}
	csv, _ := os.ReadFile(csvPath)
	if err := probe(base+"/v1/aa", "text/csv", csv); err != nil {
		return err
	}
	var results []Result
	var failed []string
	for _, r := range []struct {
		name string
		args []string
	}{
		{"GET /v1/budget", []string{budget}},
		{"POST /v1/aa (200 scenarios x 20 runs)", []string{"-s", script, base + "/v1/aa"}},
	} {
		res, err := load(ctx, wrk, srvPid, *duration, *conns, r.args)
		if err != nil {
			return fmt.Errorf("%s: %v", r.name, err)
		}
		res.Route = r.name
		results = append(results, res)
		fmt.Fprintf(stdout, "%-40s %9.0f req/s  p50 %-8s p99 %-8s  %d requests, %d non-2xx, %d socket errors, RSS %.1f → %.1f MiB, server CPU %.2f ms a request\n",
			res.Route, res.RequestsSec, res.LatencyP50, res.LatencyP99, res.Requests, res.Non2xx, res.SocketErrs, res.RSSFirstMiB, res.RSSLastMiB, res.CPUPerRequestMs)
		if res.Non2xx != 0 || res.SocketErrs != 0 || res.Requests == 0 {
			failed = append(failed, r.name+": requests failed")
		}
		// Flat: the last third's peak within 25% (and 16 MiB) of the first's.
		if res.RSSLastMiB > res.RSSFirstMiB*1.25 && res.RSSLastMiB-res.RSSFirstMiB > 16 {
			failed = append(failed, fmt.Sprintf("%s: memory grew from %.1f to %.1f MiB", r.name, res.RSSFirstMiB, res.RSSLastMiB))
		}
	}
	if *peer != "" {
		if err := comparePeer(ctx, stdout, wrk, *server, *peer, dir, script, *duration, *conns, *rounds); err != nil {
			return err
		}
	}
	return proc.Finish(*out, results, failed)
}

// comparePeer times POST /v1/aa on two servers in turns (rounds of each,
// one server running at a time), checks that they answer the same bytes,
// and prints each one's requests per second over all its rounds and their
// ratio: on a shared machine the ratio holds where the absolute rates do
// not.
func comparePeer(ctx context.Context, stdout io.Writer, wrk, server, peer, dir, script string, d time.Duration, conns, rounds int) error {
	csv, err := os.ReadFile(filepath.Join(dir, "baseline.csv"))
	if err != nil {
		return err
	}
	rounds = max(rounds, 1)
	per := max(d/time.Duration(rounds), time.Second)
	type tally struct {
		requests int64
		seconds  float64
		cpuMs    float64 // the server's CPU time, over all rounds
		body     []byte
	}
	var t [2]tally
	for round := 0; round < rounds; round++ {
		for i, bin := range []string{server, peer} {
			base, pid, stop, err := proc.StartServer(ctx, bin, dir, os.Stderr)
			if err != nil {
				return fmt.Errorf("%s: %v", bin, err)
			}
			if t[i].body == nil {
				// Links in the answer name the server's own origin.
				if t[i].body, err = answer(base+"/v1/aa", csv); err == nil {
					t[i].body = bytes.ReplaceAll(t[i].body, []byte(base), []byte("http://origin"))
				}
			}
			var res Result
			if err == nil {
				res, err = load(ctx, wrk, pid, per, conns, []string{"-s", script, base + "/v1/aa"})
			}
			stop()
			if err != nil {
				return fmt.Errorf("%s: %v", bin, err)
			}
			if res.Non2xx != 0 || res.SocketErrs != 0 {
				return fmt.Errorf("%s: %d non-2xx answers, %d socket errors", bin, res.Non2xx, res.SocketErrs)
			}
			t[i].requests += res.Requests
			t[i].seconds += res.Seconds
			t[i].cpuMs += res.CPUPerRequestMs * float64(res.Requests)
		}
	}
	same := "the same bytes"
	if !bytes.Equal(t[0].body, t[1].body) {
		same = "DIFFERENT bytes"
	}
	rate := func(x tally) float64 { return float64(x.requests) / x.seconds }
	cpu := func(x tally) float64 { return x.cpuMs / float64(x.requests) }
	fmt.Fprintf(stdout, "POST /v1/aa, %d alternating rounds of %s:\n", rounds, per)
	fmt.Fprintf(stdout, "  %-40s %9.0f req/s, server CPU %.3f ms a request\n", server, rate(t[0]), cpu(t[0]))
	fmt.Fprintf(stdout, "  %-40s %9.0f req/s, server CPU %.3f ms a request (peer)\n", peer, rate(t[1]), cpu(t[1]))
	fmt.Fprintf(stdout, "  ratio to the peer: %.2f by requests per second, %.2f by server CPU a request; the two answer %s\n",
		rate(t[0])/rate(t[1]), cpu(t[1])/cpu(t[0]), same)
	return nil
}

// answer is the body of one POST of csv.
func answer(url string, csv []byte) ([]byte, error) {
	resp, err := http.Post(url, "text/csv", bytes.NewReader(csv))
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err == nil && resp.StatusCode != 200 {
		err = fmt.Errorf("POST /v1/aa: %d %s", resp.StatusCode, b)
	}
	return b, err
}

// probe checks one request answers 200 before it is repeated under load.
func probe(url, contentType string, body []byte) error {
	var resp *http.Response
	var err error
	if body == nil {
		resp, err = http.Get(url)
	} else {
		resp, err = http.Post(url, contentType, strings.NewReader(string(body)))
	}
	if err != nil {
		return err
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 {
		return fmt.Errorf("probe %s: %d %s", url, resp.StatusCode, b)
	}
	return nil
}

// load runs wrk for d while sampling the server's RSS.
func load(ctx context.Context, wrk string, pid int, d time.Duration, conns int, args []string) (Result, error) {
	secs := int(d.Round(time.Second) / time.Second)
	if secs < 1 {
		secs = 1
	}
	cmdArgs := append([]string{"-t", "1", "-c", strconv.Itoa(conns), "-d", strconv.Itoa(secs) + "s", "--latency", "--timeout", "10s"}, args...)
	cmd := exec.CommandContext(ctx, wrk, cmdArgs...)
	var outBuf strings.Builder
	cmd.Stdout, cmd.Stderr = &outBuf, &outBuf
	cpu0, cpuErr := proc.CPUTicks(pid)
	start := time.Now()
	if err := cmd.Start(); err != nil {
		return Result{}, err
	}
	type sample struct {
		at  time.Duration
		rss float64
	}
	var samples []sample
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	tick := time.NewTicker(250 * time.Millisecond)
	defer tick.Stop()
	for waiting := true; waiting; {
		select {
		case err := <-done:
			if err != nil {
				return Result{}, fmt.Errorf("wrk: %v\n%s", err, outBuf.String())
			}
			waiting = false
		case <-tick.C:
			if rss, err := proc.RSS(pid); err == nil {
				samples = append(samples, sample{time.Since(start), proc.MiB(rss)})
			}
		}
	}
	cpu1, cpuErr1 := proc.CPUTicks(pid)
	res, err := parseWrk(outBuf.String())
	if err != nil {
		return res, err
	}
	if cpuErr == nil && cpuErr1 == nil && res.Requests > 0 {
		res.CPUPerRequestMs = float64(cpu1-cpu0) * 10 / float64(res.Requests) // USER_HZ is 100 on Linux
	}
	third := d / 3
	for _, s := range samples {
		if s.at <= third {
			res.RSSFirstMiB = max(res.RSSFirstMiB, s.rss)
		}
		if s.at >= d-third {
			res.RSSLastMiB = max(res.RSSLastMiB, s.rss)
		}
	}
	return res, nil
}

// parseWrk reads wrk's summary.
func parseWrk(s string) (Result, error) {
	var r Result
	m := regexp.MustCompile(`(\d+) requests in ([\d.]+)(m?s)`).FindStringSubmatch(s)
	if m == nil {
		return r, fmt.Errorf("no request count in wrk's output:\n%s", s)
	}
	r.Requests, _ = strconv.ParseInt(m[1], 10, 64)
	r.Seconds, _ = strconv.ParseFloat(m[2], 64)
	if m[3] == "ms" {
		r.Seconds /= 1000
	}
	if m := regexp.MustCompile(`Requests/sec:\s+([\d.]+)`).FindStringSubmatch(s); m != nil {
		r.RequestsSec, _ = strconv.ParseFloat(m[1], 64)
	}
	if m := regexp.MustCompile(`Non-2xx or 3xx responses:\s+(\d+)`).FindStringSubmatch(s); m != nil {
		r.Non2xx, _ = strconv.ParseInt(m[1], 10, 64)
	}
	if m := regexp.MustCompile(`Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)`).FindStringSubmatch(s); m != nil {
		for _, x := range m[1:] {
			n, _ := strconv.ParseInt(x, 10, 64)
			r.SocketErrs += n
		}
	}
	if m := regexp.MustCompile(`\s50%\s+(\S+)`).FindStringSubmatch(s); m != nil {
		r.LatencyP50 = m[1]
	}
	if m := regexp.MustCompile(`\s99%\s+(\S+)`).FindStringSubmatch(s); m != nil {
		r.LatencyP99 = m[1]
	}
	return r, nil
}

// SeedCSV is a baseline of a typical A/A suite's size: scenarios × runs rows of
// scenario,run,passed, each scenario with its own pass rate, drawn from a
// fixed seed so every run of the bench sends the same bytes.
func SeedCSV(scenarios, runs int) []byte {
	rng := rand.New(rand.NewPCG(4, 200))
	rates := make([]float64, scenarios)
	for i := range rates {
		rates[i] = 0.5 + 0.5*rng.Float64()
	}
	var b strings.Builder
	b.WriteString("scenario,run,passed\n")
	for r := 1; r <= runs; r++ {
		for s := range scenarios {
			p := 0
			if rng.Float64() < rates[s] {
				p = 1
			}
			fmt.Fprintf(&b, "scenario-%03d,run-%02d,%d\n", s+1, r, p)
		}
	}
	return []byte(b.String())
}
