//go:build !js && integration

package main

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/andybalholm/brotli"

	"github.com/flakegate/flakegate/functions/api"
	"github.com/flakegate/flakegate/functions/api/apitest"
)

const (
	root      = "../.."
	corpusDir = "../api/testdata"
	// maxGzip is the Worker's wasm budget: start-up is paid on every request.
	maxGzip = 3_000_000
)

// buildWorker does what `make worker` does, into dir: the workers-assets-gen
// shim and app.wasm.
func buildWorker(t *testing.T, dir string) {
	t.Helper()
	gen := exec.Command("go", "run", "github.com/syumai/workers/cmd/workers-assets-gen", "-mode=go", "-o", dir)
	gen.Dir = root
	gen.Env = append(os.Environ(), "GOFLAGS=-mod=mod")
	if out, err := gen.CombinedOutput(); err != nil {
		t.Fatalf("workers-assets-gen: %v\n%s", err, out)
	}
	build := exec.Command("go", "build", "-trimpath", "-ldflags=-s -w", "-o", filepath.Join(dir, "app.wasm"), "./functions/workers")
	build.Dir = root
	build.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm", "GOFLAGS=-mod=mod")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("building app.wasm: %v\n%s", err, out)
	}
}

// devConfig is the repository's wrangler.toml pointed at a test build and a
// test site, without the [build] step (the test has built already).
func devConfig(t *testing.T, dir, workerDir, siteDir string) string {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join(root, "wrangler.toml"))
	if err != nil {
		t.Fatal(err)
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
			line = fmt.Sprintf("main = %q", filepath.Join(workerDir, "worker.mjs"))
			replaced++
		case section == "[assets]" && strings.HasPrefix(trim, "directory ="):
			line = fmt.Sprintf("directory = %q", siteDir)
			replaced++
		}
		out = append(out, line)
	}
	if replaced != 2 {
		t.Fatalf("wrangler.toml: expected a main and an [assets] directory to point at the test build, found %d", replaced)
	}
	cfg := filepath.Join(dir, "wrangler.toml")
	if err := os.WriteFile(cfg, []byte(strings.Join(out, "\n")), 0o644); err != nil {
		t.Fatal(err)
	}
	return cfg
}

// wranglerPath is the repository's wrangler, or a failure saying how to
// install it (and Node, which runs it). Tests call it before they build
// anything, so a missing tool fails at once.
func wranglerPath(t *testing.T) string {
	t.Helper()
	wrangler, err := filepath.Abs(filepath.Join(root, "node_modules", ".bin", "wrangler"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(wrangler); err != nil {
		t.Fatalf("wrangler is not installed at %s: run `make tools-functions` (npm ci from package-lock.json)", wrangler)
	}
	if _, err := exec.LookPath("node"); err != nil {
		t.Fatal("node is not on PATH: wrangler runs on Node 20 (apt-get install nodejs)")
	}
	return wrangler
}

// startWorker runs the Worker under `wrangler dev` (workerd, offline, on
// loopback) and returns its base URL once /v1/health answers.
func startWorker(t *testing.T, workerDir, siteDir string) string {
	t.Helper()
	wrangler := wranglerPath(t)
	dir := t.TempDir()
	cfg := devConfig(t, dir, workerDir, siteDir)
	port, inspector := apitest.FreePort(t), apitest.FreePort(t)
	logs := &apitest.Output{}
	cmd := exec.Command(wrangler, "dev", "--config", cfg, "--ip", "127.0.0.1", "--port", fmt.Sprint(port),
		"--inspector-port", fmt.Sprint(inspector), "--show-interactive-dev-session=false", "--log-level", "warn")
	cmd.Dir = dir
	cmd.Stdout, cmd.Stderr = logs, logs
	// Offline and quiet: no metrics, no update check, no Request.cf download.
	cmd.Env = append(os.Environ(), "WRANGLER_SEND_METRICS=false", "WRANGLER_HIDE_BANNER=true",
		"CLOUDFLARE_CF_FETCH_ENABLED=false", "CI=1", "HOME="+dir, "XDG_CONFIG_HOME="+filepath.Join(dir, "config"))
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true} // wrangler starts workerd: stop them together
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		syscall.Kill(-cmd.Process.Pid, syscall.SIGTERM)
		done := make(chan struct{})
		go func() { cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
			<-done
		}
		if t.Failed() {
			t.Logf("wrangler output:\n%s", logs.String())
		}
	})
	base := fmt.Sprintf("http://127.0.0.1:%d", port)
	deadline := time.Now().Add(90 * time.Second)
	client := &http.Client{Timeout: 10 * time.Second}
	for {
		resp, err := client.Get(base + "/v1/health")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == 200 {
				return base
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("wrangler dev did not answer /v1/health within 90s (last error %v):\n%s", err, logs.String())
		}
		time.Sleep(250 * time.Millisecond)
	}
}

// TestWorker builds the Worker, checks its size, runs it under wrangler dev
// and sends it the whole corpus; every answer must equal the in-process
// handler's byte for byte. It also checks the assets side of wrangler.toml
// and logs the median latency of GET /v1/budget next to the same handler
// served by net/http on loopback.
func TestWorker(t *testing.T) {
	wranglerPath(t)
	workerDir, siteDir := t.TempDir(), t.TempDir()
	buildWorker(t, workerDir)
	checkSize(t, filepath.Join(workerDir, "app.wasm"))
	index := "<!doctype html><title>flakegate test site</title>"
	os.WriteFile(filepath.Join(siteDir, "index.html"), []byte(index), 0o644)
	base := startWorker(t, workerDir, siteDir)

	cases, err := apitest.Load(corpusDir)
	if err != nil {
		t.Fatal(err)
	}
	h := api.New(api.Options{})
	client := &http.Client{Timeout: 120 * time.Second}
	for _, c := range cases {
		want, err := apitest.InProcess(h, c, corpusDir, api.DefaultMaxBodyBytes)
		if err != nil {
			t.Fatal(err)
		}
		req, err := c.NewRequest(corpusDir, base, api.DefaultMaxBodyBytes)
		if err != nil {
			t.Fatal(err)
		}
		start := time.Now()
		resp, err := client.Do(req)
		if d := time.Since(start); d > 2*time.Second {
			t.Logf("%s took %v", c.Name, d)
		}
		if err != nil {
			t.Errorf("%s: %v", c.Name, err)
			continue
		}
		body, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err != nil {
			t.Errorf("%s: reading: %v", c.Name, err)
			continue
		}
		got := apitest.Response{Status: resp.StatusCode, Header: apitest.Pick(resp.Header), Body: body}
		if d := apitest.Diff(want, got); d != "" {
			t.Errorf("%s: %s", c.Name, d)
		}
	}

	// Outside /v1/ the assets answer; a page that names no file gets
	// index.html (single-page-application).
	for _, path := range []string{"/", "/decide"} {
		req, _ := http.NewRequest("GET", base+path, nil)
		req.Header.Set("Sec-Fetch-Mode", "navigate")
		req.Header.Set("Accept", "text/html")
		resp, err := client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 || string(body) != index {
			t.Errorf("GET %s: %d %q, want the site's index.html", path, resp.StatusCode, body)
		}
	}

	local := httptest.NewServer(h)
	defer local.Close()
	w := median(t, client, base+"/v1/budget?target=0.95&cost=8&cap=3&observe=1/120&rates=0.05,0.02", 40)
	l := median(t, client, local.URL+"/v1/budget?target=0.95&cost=8&cap=3&observe=1/120&rates=0.05,0.02", 40)
	t.Logf("median latency of GET /v1/budget over 40 requests: wrangler dev %v, net/http on loopback %v", w, l)
}

func median(t *testing.T, client *http.Client, url string, n int) time.Duration {
	t.Helper()
	ds := make([]time.Duration, 0, n)
	for range n {
		start := time.Now()
		resp, err := client.Get(url)
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 {
			t.Fatalf("GET %s: %d", url, resp.StatusCode)
		}
		ds = append(ds, time.Since(start))
	}
	slices.Sort(ds)
	return ds[n/2]
}

// checkSize holds the wasm under the gzip budget and logs its raw, gzip and
// brotli sizes.
func checkSize(t *testing.T, path string) {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var gz, br bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&gz, gzip.BestCompression)
	zw.Write(raw)
	zw.Close()
	bw := brotli.NewWriterLevel(&br, brotli.BestCompression)
	bw.Write(raw)
	bw.Close()
	t.Logf("worker app.wasm: %d bytes raw, %d gzip -9, %d brotli -11", len(raw), gz.Len(), br.Len())
	if gz.Len() >= maxGzip {
		t.Errorf("worker app.wasm is %d bytes gzipped, over the %d budget", gz.Len(), maxGzip)
	}
	if !regexp.MustCompile(`^\x00asm`).Match(raw) {
		t.Errorf("%s is not WebAssembly", path)
	}
}
