//go:build !js

// Package wranglerdev builds the Worker and runs it under `wrangler dev`
// (workerd, offline, on loopback) for the Worker's tests and benchmark. The
// configuration is the repository's wrangler.toml with its main and assets
// pointed elsewhere, so what runs is what deploys.
package wranglerdev

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/chromedp/cdproto"
	"github.com/chromedp/chromedp/remote"

	"github.com/flakegate/flakegate/functions/api/apitest"
)

// Wrangler returns the path of the repository's wrangler (under root), or
// an error that says how to install it and Node, which runs it.
func Wrangler(root string) (string, error) {
	wrangler, err := filepath.Abs(filepath.Join(root, "node_modules", ".bin", "wrangler"))
	if err != nil {
		return "", err
	}
	if _, err := os.Stat(wrangler); err != nil {
		return "", fmt.Errorf("wrangler is not installed at %s: run `make tools-functions` (npm ci from package-lock.json)", wrangler)
	}
	if _, err := exec.LookPath("node"); err != nil {
		return "", errors.New("node is not on PATH: wrangler runs on Node 20 (apt-get install nodejs)")
	}
	return wrangler, nil
}

// Build does what `make worker` does, into dir: Go's wasm_exec.js, the shim
// and app.wasm, built with tags (none for the deployed Worker).
func Build(root, dir string, tags ...string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	goroot, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		return fmt.Errorf("go env GOROOT: %v", err)
	}
	for _, src := range []string{
		filepath.Join(strings.TrimSpace(string(goroot)), "lib", "wasm", "wasm_exec.js"),
		filepath.Join(root, "functions", "workers", "shim", "worker.mjs"),
	} {
		b, err := os.ReadFile(src)
		if err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(dir, filepath.Base(src)), b, 0o644); err != nil {
			return err
		}
	}
	out, err := filepath.Abs(filepath.Join(dir, "app.wasm"))
	if err != nil {
		return err
	}
	build := exec.Command("go", "build", "-trimpath", "-ldflags=-s -w", "-tags", strings.Join(tags, ","), "-o", out, "./functions/workers")
	build.Dir = root
	build.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm", "GOFLAGS=-mod=mod")
	if b, err := build.CombinedOutput(); err != nil {
		return fmt.Errorf("building app.wasm: %v\n%s", err, b)
	}
	return nil
}

// Config is the repository's wrangler.toml (under root) with its main and
// its assets directory replaced and its [build] step dropped (the caller
// has built already), written to dir.
func Config(root, dir, main, assets string) (string, error) {
	raw, err := os.ReadFile(filepath.Join(root, "wrangler.toml"))
	if err != nil {
		return "", err
	}
	var out []string
	section := ""
	replaced := 0
	for _, line := range strings.Split(string(raw), "\n") {
		trim := strings.TrimSpace(line)
		if strings.HasPrefix(trim, "[") {
			section = trim
		}
		switch {
		case section == "[build]":
			continue
		case section == "" && strings.HasPrefix(trim, "main ="):
			line = fmt.Sprintf("main = %q", main)
			replaced++
		case section == "[assets]" && strings.HasPrefix(trim, "directory ="):
			line = fmt.Sprintf("directory = %q", assets)
			replaced++
		}
		out = append(out, line)
	}
	if replaced != 2 {
		return "", fmt.Errorf("wrangler.toml: expected a main and an [assets] directory to replace, found %d", replaced)
	}
	cfg := filepath.Join(dir, "wrangler.toml")
	return cfg, os.WriteFile(cfg, []byte(strings.Join(out, "\n")), 0o644)
}

// Server is a running `wrangler dev`.
type Server struct {
	URL       string // http://127.0.0.1:port
	inspector int    // wrangler's devtools port
	cmd       *exec.Cmd
	logs      *apitest.Output
	done      chan struct{}

	// One devtools connection serves every IsolateHeap call: a connection
	// opened and dropped per call, hundreds of times, is what a rare
	// "disconnected: ::write(...): Broken pipe" in workerd followed, after
	// which the Worker stopped answering.
	inspMu sync.Mutex
	insp   *remote.Conn
	inspID int64

	nudgeAfter time.Duration // 0: nudgeAfter (nudge.go)
}

// RuntimeWait bounds how long wrangler dev may take to bring up its local
// runtime: workerd compiles the Worker's 11 MB of WebAssembly before the
// first answer. It happens at the start, and again whenever wrangler dev
// restarts the runtime. 90 s was too little for two whole `make test` runs
// at once on two cores (load average 27). A test client that talks to
// wrangler dev waits this long (Server.Client).
const RuntimeWait = 3 * time.Minute

const startWait = RuntimeWait

// Start runs `wrangler dev` with the configuration cfg, its state and home
// in dir, and returns once /v1/health answers 200 (or after startWait,
// with an error holding wrangler's output). The Worker runs with the Paid plan's
// limits (FLAKEGATE_PLAN=paid: api.WorkerOptions, which the tests compare
// its answers with); StartWith chooses.
func Start(root, dir, cfg string) (*Server, error) {
	return StartWith(root, dir, cfg, StartOptions{Vars: map[string]string{"FLAKEGATE_PLAN": "paid"}})
}

// StartOptions change how StartWith runs wrangler dev.
type StartOptions struct {
	// Probe is the path polled until it answers 200; "" means /v1/health.
	// A calculator page without a query ("/") is answered from the assets
	// without starting the Worker's Go instance.
	Probe string
	// Vars are the Worker's variables, overriding wrangler.toml's [vars]
	// (wrangler dev --var NAME:VALUE).
	Vars map[string]string
}

// StartWith is Start with options.
func StartWith(root, dir, cfg string, opt StartOptions) (*Server, error) {
	probe := opt.Probe
	if probe == "" {
		probe = "/v1/health"
	}
	wrangler, err := Wrangler(root)
	if err != nil {
		return nil, err
	}
	port, err := apitest.Port()
	if err != nil {
		return nil, err
	}
	inspector, err := apitest.Port()
	if err != nil {
		return nil, err
	}
	s := &Server{URL: fmt.Sprintf("http://127.0.0.1:%d", port), inspector: inspector, logs: &apitest.Output{}, done: make(chan struct{})}
	// At info, wrangler says when it reloads its runtime ("Reloading local
	// server"), which a failed test's output then shows; Logs leaves out
	// its line per request.
	args := []string{"dev", "--config", cfg, "--ip", "127.0.0.1", "--port", strconv.Itoa(port),
		"--inspector-port", strconv.Itoa(inspector), "--show-interactive-dev-session=false", "--log-level", "info"}
	for _, k := range slices.Sorted(maps.Keys(opt.Vars)) {
		args = append(args, "--var", k+":"+opt.Vars[k])
	}
	s.cmd = exec.Command(wrangler, args...)
	s.cmd.Dir = dir
	s.cmd.Stdout, s.cmd.Stderr = s.logs, s.logs
	// Offline and quiet: no metrics, no update check, no Request.cf download.
	s.cmd.Env = append(os.Environ(), "WRANGLER_SEND_METRICS=false", "WRANGLER_HIDE_BANNER=true",
		"CLOUDFLARE_CF_FETCH_ENABLED=false", "CI=1", "HOME="+dir, "XDG_CONFIG_HOME="+filepath.Join(dir, "config"))
	s.cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true} // wrangler starts workerd: stop them together
	if err := s.cmd.Start(); err != nil {
		return nil, err
	}
	go func() { s.cmd.Wait(); close(s.done) }()
	deadline := time.Now().Add(startWait)
	client := &http.Client{Timeout: 10 * time.Second}
	for {
		resp, err := client.Get(s.URL + probe)
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return s, nil
			}
		}
		select {
		case <-s.done:
			return nil, fmt.Errorf("wrangler dev exited before it answered %s:\n%s", probe, s.Logs())
		default:
		}
		if time.Now().After(deadline) {
			s.Stop()
			return nil, fmt.Errorf("wrangler dev did not answer %s within %v (last error %v):\n%s", probe, startWait, err, s.Logs())
		}
		time.Sleep(250 * time.Millisecond)
	}
}

// StartTest is Start for a test: the server is stopped when t ends, and
// wrangler's output is logged when t has failed; a server that does not
// start fails t.
func StartTest(t testing.TB, root, dir, cfg string) *Server {
	t.Helper()
	s, err := Start(root, dir, cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		s.Stop()
		if t.Failed() {
			t.Logf("wrangler output:\n%s", s.Logs())
		} else if ev := s.Events(); ev != "" {
			t.Logf("wrangler dev reloaded its runtime or held a request:\n%s", ev)
		}
	})
	return s
}

// Logs returns what wrangler and workerd printed so far, without the line
// wrangler prints for every request it forwards.
func (s *Server) Logs() string {
	var b strings.Builder
	for line := range strings.Lines(s.logs.String()) {
		if !requestLine.MatchString(line) {
			b.WriteString(line)
		}
	}
	return b.String()
}

// Events returns the lines of Logs that say wrangler dev reloaded its
// runtime after the start, or that a request waited long enough to be
// nudged (nudge.go): what a suite's runs count to see how often it happens.
func (s *Server) Events() string {
	var b strings.Builder
	for line := range strings.Lines(s.Logs()) {
		if strings.Contains(line, "Reloading local server") || strings.HasPrefix(line, "wranglerdev: ") {
			b.WriteString(line)
		}
	}
	return b.String()
}

// requestLine is wrangler's info line for a request it forwarded, such as
// "[wrangler:info] GET /v1/health 200 OK (3ms)".
var requestLine = regexp.MustCompile(`^\[wrangler[^\]]*:info\] [A-Z]+ \S+ \d{3} `)

// Stop ends wrangler and workerd: SIGTERM, then SIGKILL after 10 s.
func (s *Server) Stop() {
	s.inspMu.Lock()
	if s.insp != nil {
		s.insp.Close()
		s.insp = nil
	}
	s.inspMu.Unlock()
	syscall.Kill(-s.cmd.Process.Pid, syscall.SIGTERM)
	select {
	case <-s.done:
	case <-time.After(10 * time.Second):
		syscall.Kill(-s.cmd.Process.Pid, syscall.SIGKILL)
		<-s.done
	}
}

// Usage is the CPU time (user and system) and resident memory of the
// workerd processes behind a Server. wrangler dev runs two: one that serves
// the port and forwards each request, and one that runs the Worker.
type Usage struct {
	CPU       time.Duration // both processes
	WorkerCPU time.Duration // the Worker's process alone
	WorkerRSS int64         // the Worker's process, in bytes
}

// WorkerPID is the process id of the workerd process that runs the Worker
// (the one with the inspector).
func (s *Server) WorkerPID() (int, error) {
	pid, _, err := s.usage()
	return pid, err
}

// Usage reads the workerd processes' figures from /proc.
func (s *Server) Usage() (Usage, error) {
	_, u, err := s.usage()
	return u, err
}

func (s *Server) usage() (int, Usage, error) {
	ents, err := os.ReadDir("/proc")
	if err != nil {
		return 0, Usage{}, err
	}
	var u Usage
	found, worker := 0, 0
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		st, err := readStat(pid)
		if err != nil || st.pgrp != s.cmd.Process.Pid || st.comm != "workerd" {
			continue
		}
		found++
		u.CPU += st.cpu
		// The Worker's process is the one with the inspector.
		if cmdline, err := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid)); err == nil && bytes.Contains(cmdline, []byte("--inspector-addr")) {
			u.WorkerCPU, u.WorkerRSS, worker = st.cpu, st.rss, pid
		}
	}
	if found == 0 || u.WorkerRSS == 0 {
		return 0, Usage{}, fmt.Errorf("found %d workerd processes in wrangler's process group, and not the Worker's", found)
	}
	return worker, u, nil
}

// IsolateHeap returns the bytes the Worker's V8 heap holds after a full
// garbage collection (JavaScript objects; the wasm memory is apart). It
// asks through wrangler's devtools port, as DevTools would: a heap snapshot
// (whose chunks it drops), which collects garbage first, then
// Runtime.getHeapUsage. HeapProfiler.collectGarbage would be the direct
// way, but workerd does not answer it.
func (s *Server) IsolateHeap() (int64, error) {
	s.inspMu.Lock()
	defer s.inspMu.Unlock()
	n, err := s.isolateHeap()
	if err != nil && s.insp != nil {
		// A connection the proxy dropped: once more on a fresh one.
		s.insp.Close()
		s.insp = nil
		n, err = s.isolateHeap()
	}
	return n, err
}

func (s *Server) isolateHeap() (int64, error) {
	ctx, cancel := context.WithTimeout(context.Background(), RuntimeWait)
	defer cancel()
	if s.insp == nil {
		ws := fmt.Sprintf("ws://127.0.0.1:%d/ws", s.inspector)
		// wrangler's inspector proxy wants an Origin, and a loopback one.
		c, err := remote.DialContext(ctx, ws, remote.WithConnHTTPHeader(http.Header{"Origin": {"http://127.0.0.1"}}))
		if err != nil {
			return 0, fmt.Errorf("the Worker's inspector at %s: %v", ws, err)
		}
		s.insp = c
	}
	c := s.insp
	call := func(method, params string) (json.RawMessage, error) {
		s.inspID++
		id := s.inspID
		msg := &cdproto.Message{ID: id, Method: cdproto.MethodType(method)}
		if params != "" {
			msg.Params = []byte(params)
		}
		if err := c.Write(ctx, msg); err != nil {
			return nil, err
		}
		for {
			var m cdproto.Message
			if err := c.Read(ctx, &m); err != nil {
				return nil, fmt.Errorf("%s: %v", method, err)
			}
			if m.ID != id {
				continue // events, such as the snapshot's chunks
			}
			if m.Error != nil {
				return nil, fmt.Errorf("%s: %v", method, m.Error)
			}
			return json.RawMessage(m.Result), nil
		}
	}
	if _, err := call("HeapProfiler.takeHeapSnapshot", `{"reportProgress":false}`); err != nil {
		return 0, err
	}
	raw, err := call("Runtime.getHeapUsage", "")
	if err != nil {
		return 0, err
	}
	var usage struct {
		UsedSize int64 `json:"usedSize"`
	}
	if err := json.Unmarshal(raw, &usage); err != nil {
		return 0, fmt.Errorf("Runtime.getHeapUsage: %v", err)
	}
	return usage.UsedSize, nil
}

type stat struct {
	comm string
	pgrp int
	cpu  time.Duration
	rss  int64
}

// clockTick is USER_HZ, the unit of /proc/pid/stat's times: 100 on Linux.
const clockTick = 100

func readStat(pid int) (stat, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return stat{}, err
	}
	// pid (comm) state ppid pgrp ... ; comm may hold spaces: split after ')'.
	open, close := bytes.IndexByte(b, '('), bytes.LastIndexByte(b, ')')
	if open < 0 || close < open {
		return stat{}, fmt.Errorf("/proc/%d/stat: unexpected format", pid)
	}
	f := strings.Fields(string(b[close+1:]))
	if len(f) < 22 {
		return stat{}, fmt.Errorf("/proc/%d/stat: %d fields", pid, len(f))
	}
	// f[0] is field 3 (state): pgrp is field 5, utime 14, stime 15, rss 24.
	num := func(field int) int64 { n, _ := strconv.ParseInt(f[field-3], 10, 64); return n }
	ticks := num(14) + num(15)
	return stat{
		comm: string(b[open+1 : close]),
		pgrp: int(num(5)),
		cpu:  time.Duration(ticks) * time.Second / clockTick,
		rss:  num(24) * int64(os.Getpagesize()),
	}, nil
}

// Workspace checks that wrangler is installed under root, and makes a
// temporary directory (named after prefix) holding site/, a one-page
// site with index as its index.html. It returns the directory and the
// site's; the caller removes the directory.
func Workspace(root, prefix, index string) (dir, site string, err error) {
	if _, err := Wrangler(root); err != nil {
		return "", "", err
	}
	if dir, err = os.MkdirTemp("", prefix); err != nil {
		return "", "", err
	}
	site = filepath.Join(dir, "site")
	if err = os.MkdirAll(site, 0o755); err == nil {
		err = os.WriteFile(filepath.Join(site, "index.html"), []byte(index), 0o644)
	}
	if err != nil {
		os.RemoveAll(dir)
		return "", "", err
	}
	return dir, site, nil
}
