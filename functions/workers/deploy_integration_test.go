//go:build !js && integration

package main

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/flakegate/flakegate/functions/api"
	"github.com/flakegate/flakegate/functions/api/apitest"
	"github.com/flakegate/flakegate/functions/workers/wranglerdev"
	"github.com/flakegate/flakegate/internal/testfile"
)

// planSizes are the Workers plans' limits on a Worker's size, compressed
// (gzip) as uploaded: 3 MiB on Free, 10 MiB on Paid (Cloudflare's Workers
// limits page, "Worker size").
var planSizes = map[string]int{api.WorkerPlanFree: 3 << 20, api.WorkerPlanPaid: 10 << 20}

// tomlPlan is the plan wrangler.toml's [vars] names.
func tomlPlan(t *testing.T) string {
	t.Helper()
	m := regexp.MustCompile(`(?m)^FLAKEGATE_PLAN = "([^"]*)"`).FindSubmatch(testfile.Read(t, "../../wrangler.toml"))
	if m == nil {
		t.Fatal(`wrangler.toml has no FLAKEGATE_PLAN = "..." in [vars]`)
	}
	return string(m[1])
}

// deployedConfig builds the deployed Worker and writes wrangler.toml for
// it, with a one-page site, into a directory that goes when t ends.
func deployedConfig(t *testing.T) (dir, cfg string) {
	t.Helper()
	workerDir := buildWorker(t)
	dir, site, err := wranglerdev.Workspace(root, "flakegate-deploy-", testIndex)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	if cfg, err = wranglerdev.Config(root, dir, filepath.Join(workerDir, "worker.mjs"), site); err != nil {
		t.Fatal(err)
	}
	return dir, cfg
}

// TestWorkerDeployDryRun runs `wrangler deploy --dry-run --outdir` on the
// deployed build with the repository's wrangler.toml (offline: it bundles
// and stops before uploading), and holds the bundle it writes, compressed
// as Cloudflare counts it, to the size limit of the plan wrangler.toml
// names.
func TestWorkerDeployDryRun(t *testing.T) {
	needWrangler(t)
	plan := tomlPlan(t)
	limit, ok := planSizes[plan]
	if !ok {
		t.Fatalf("wrangler.toml's FLAKEGATE_PLAN is %q, not a plan", plan)
	}
	dir, cfg := deployedConfig(t)
	wrangler, _ := wranglerdev.Wrangler(root)
	out := filepath.Join(dir, "bundle")
	cmd := exec.Command(wrangler, "deploy", "--dry-run", "--outdir", out, "--config", cfg)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "WRANGLER_SEND_METRICS=false", "WRANGLER_HIDE_BANNER=true", "CI=1",
		"HOME="+dir, "XDG_CONFIG_HOME="+filepath.Join(dir, "config"))
	log, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("wrangler deploy --dry-run: %v\n%s", err, log)
	}
	t.Logf("wrangler deploy --dry-run:\n%s", log)

	ents, err := os.ReadDir(out)
	if err != nil {
		t.Fatal(err)
	}
	var raw, gz int
	var files []string
	wasm := false
	for _, e := range ents {
		if e.IsDir() || strings.HasSuffix(e.Name(), ".map") || e.Name() == "README.md" {
			continue // wrangler's note on the folder, and source maps, are not the Worker
		}
		b, err := os.ReadFile(filepath.Join(out, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		var buf bytes.Buffer
		zw, _ := gzip.NewWriterLevel(&buf, gzip.DefaultCompression)
		zw.Write(b)
		zw.Close()
		raw, gz = raw+len(b), gz+buf.Len()
		files = append(files, fmt.Sprintf("%s (%d bytes, %d gzip)", e.Name(), len(b), buf.Len()))
		wasm = wasm || bytes.HasPrefix(b, []byte("\x00asm"))
	}
	if !wasm {
		t.Errorf("the bundle in %s holds no WebAssembly module: %v", out, files)
	}
	t.Logf("bundle: %s; in all %d bytes, %d gzip: %.1f%% of the %s plan's %d, %d bytes to spare",
		strings.Join(files, ", "), raw, gz, 100*float64(gz)/float64(limit), plan, limit, limit-gz)
	if gz > limit {
		t.Errorf("the bundle is %d bytes gzip, over the %s plan's limit of %d", gz, plan, limit)
	}
	// wrangler's own count, as it prints it: "Total Upload: … KiB / gzip: … KiB".
	if m := regexp.MustCompile(`gzip: ([\d.]+) KiB`).FindSubmatch(log); m == nil {
		t.Errorf("wrangler printed no gzip size")
	} else {
		var kib float64
		fmt.Sscan(string(m[1]), &kib)
		if kib*1024 > float64(limit) {
			t.Errorf("wrangler counts %.2f KiB gzip, over the %s plan's limit of %d bytes", kib, plan, limit)
		}
	}
}

// TestWorkerPlan runs the deployed build with wrangler.toml's own [vars]
// (FLAKEGATE_PLAN = "free") under wrangler dev: /v1/health states the
// plan, a request within its CPU time is answered, and requests whose
// input would pass it get the API's 413 problem naming the plan's limit
// and the ways on, byte for byte as the handler with the Free plan's
// options answers them.
func TestWorkerPlan(t *testing.T) {
	needWrangler(t)
	if plan := tomlPlan(t); plan != api.WorkerPlanFree {
		t.Fatalf("wrangler.toml names the %q plan; this test checks the free plan's refusals", plan)
	}
	dir, cfg := deployedConfig(t)
	s, err := wranglerdev.StartWith(root, dir, cfg, wranglerdev.StartOptions{}) // wrangler.toml's [vars]
	if err != nil {
		t.Fatal(err)
	}
	defer s.Stop()
	client := s.Client(nil)
	resp, err := client.Get(s.URL + "/v1/health")
	if err != nil {
		t.Fatal(err)
	}
	var health api.Health
	err = json.NewDecoder(resp.Body).Decode(&health)
	resp.Body.Close()
	if err != nil || health.Limits.Plan != api.WorkerPlanFree || health.Limits.MaxBodyBytes != api.FreeMaxBodyBytes {
		t.Fatalf("health: %v %+v", err, health.Limits)
	}
	opt, err := api.WorkerPlanOptions(api.WorkerPlanFree)
	if err != nil {
		t.Fatal(err)
	}
	h := api.New(opt)
	for _, c := range apitest.PlanCases(api.FreeMaxRates, api.FreeMaxBodyBytes) {
		sameAnswer(t, client, h, s.URL, c)
	}
	if t.Failed() {
		t.Logf("wrangler output:\n%s", s.Logs())
	}
}
