//go:build integration

package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
	"github.com/flakegate/flakegate/internal/render/rendertest"
	"github.com/flakegate/flakegate/wasm/page/fieldcheck"
	"github.com/flakegate/flakegate/wasm/page/webtest"
)

// End-to-end: the site is built as `make site` builds it, served from
// 127.0.0.1, and driven in headless Chromium. For each calculator the test
// types inputs and checks that every data-field on the page equals the
// CLI's -json output for the same inputs (and that the page shows no figure
// the CLI does not print); it pastes and uploads CSVs, opens the share links
// in a fresh browser context, checks the console for errors (CSP violations
// included) and saves screenshots under dist/e2e/ for a person to look at.

var (
	siteOnce sync.Once
	siteDir  string
	siteErr  error
)

func repoRoot() string { return ".." }

// built builds the site (once per test binary) and the CLI
// (rendertest.Build). FLAKEGATE_E2E_SITE names a site already built from
// this tree instead (make test builds dist/site first, as `make site`
// does, and passes it: building it again here, brotli at its highest
// setting included, took minutes of a busy machine); the tests only read
// it.
func built(t *testing.T) (string, string) {
	t.Helper()
	siteOnce.Do(func() {
		if dir := os.Getenv("FLAKEGATE_E2E_SITE"); dir != "" {
			siteDir = dir
			if _, err := os.Stat(filepath.Join(dir, "web", "app.wasm.br")); err != nil {
				siteErr = fmt.Errorf("FLAKEGATE_E2E_SITE=%s is not a built site: %w", dir, err)
			}
			return
		}
		dir, err := os.MkdirTemp("", "flakegate-site-")
		if err != nil {
			siteErr = err
			return
		}
		siteDir = filepath.Join(dir, "site")
		siteErr = webtest.BuildSite(repoRoot(), siteDir, "e2e-test")
	})
	if siteErr != nil {
		t.Fatal(siteErr)
	}
	return siteDir, rendertest.Build(t, repoRoot(), "./cmd/flakegate")
}

// cli runs the CLI and returns its standard output.
func cli(t *testing.T, args ...string) []byte {
	t.Helper()
	return cliIn(t, "", args...)
}

// cliIn runs the CLI in dir ("" for this folder) and returns its standard
// output; a gate that blocks exits non-zero but still prints, so only a
// run that prints nothing fails t.
func cliIn(t *testing.T, dir string, args ...string) []byte {
	t.Helper()
	_, bin := built(t)
	cmd := exec.Command(bin, args...)
	cmd.Dir = dir
	out, err := cmd.Output()
	if err != nil && len(out) == 0 {
		var stderr string
		if ee, ok := err.(*exec.ExitError); ok {
			stderr = string(ee.Stderr)
		}
		t.Fatalf("flakegate %s: %v %s", strings.Join(args, " "), err, stderr)
	}
	return out
}

func artifacts(t *testing.T) string {
	dir := os.Getenv("FLAKEGATE_E2E_ARTIFACTS")
	if dir == "" {
		dir = filepath.Join(repoRoot(), "dist", "e2e")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

// sideways is how far the page scrolls sideways, in CSS px (0 or less
// when it fits its window).
func sideways(t *testing.T, ctx context.Context) int {
	t.Helper()
	return evalJS[int](t, ctx, `document.documentElement.scrollWidth - window.innerWidth`)
}

// fitsAndShot checks that the page does not scroll sideways and saves its
// screenshot as name-1280 or, on a phone, name-390.
func fitsAndShot(t *testing.T, ctx context.Context, name string, phone bool) {
	t.Helper()
	if w := sideways(t, ctx); w > 0 {
		t.Errorf("phone %v: the page scrolls sideways by %d px", phone, w)
	}
	if phone {
		screenshot(t, ctx, name+"-390")
	} else {
		screenshot(t, ctx, name+"-1280")
	}
}

func screenshot(t *testing.T, ctx context.Context, name string) {
	t.Helper()
	png, err := webtest.Screenshot(ctx)
	if err != nil {
		t.Errorf("screenshot %s: %v", name, err)
		return
	}
	p := filepath.Join(artifacts(t), name+".png")
	if err := os.WriteFile(p, png, 0o644); err != nil {
		t.Error(err)
	}
}

// expectFields waits until the page's figures under prefix equal the JSON,
// then reports any remaining difference.
func expectFields(t *testing.T, ctx context.Context, what, prefix string, want []byte, exclude ...string) map[string]string {
	t.Helper()
	var diffs []string
	var page map[string]string
	deadline := time.Now().Add(10 * time.Second)
	for {
		if _, err := webtest.OpenAll(ctx); err != nil {
			t.Fatalf("%s: opening disclosures: %v", what, err)
		}
		var err error
		page, err = webtest.Fields(ctx)
		if err != nil {
			t.Fatalf("%s: reading fields: %v", what, err)
		}
		diffs, err = fieldcheck.Diff(page, prefix, want, exclude...)
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		if len(diffs) == 0 || time.Now().After(deadline) {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	for _, d := range diffs {
		t.Errorf("%s: %s", what, d)
	}
	return page
}

func location(t *testing.T, ctx context.Context) string {
	t.Helper()
	u, err := chromedp.Run(ctx, chromedp.Location())
	if err != nil {
		t.Fatal(err)
	}
	return u
}

func open(t *testing.T, ctx context.Context, url string) {
	t.Helper()
	if err := chromedp.Do(ctx, chromedp.Navigate(url)); err != nil {
		t.Fatalf("navigate %s: %v", url, err)
	}
	// A loaded machine compiles app.wasm slowly: the wait is for the page
	// to run, with room for that.
	if err := webtest.WaitReady(ctx, 90*time.Second); err != nil {
		state, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`location.href + ' :: ' + document.body.innerText.slice(0, 300)`))
		t.Fatalf("%v\npage: %s", err, state)
	}
}

// swWatchJS, run at a document's start, keeps in window.__sw what the page
// sees of its service workers, each step with its time since the page
// started (performance.now(), ms): the registration found, a new version
// found, each state of the new worker, and a change of controller.
const swWatchJS = `(() => {
  const log = window.__sw = [];
  const note = (what) => log.push(Math.round(performance.now()) + ' ms ' + what);
  if (!('serviceWorker' in navigator)) { note('no service workers'); return; }
  note('controlled: ' + !!navigator.serviceWorker.controller);
  navigator.serviceWorker.addEventListener('controllerchange', () => note('controllerchange'));
  const follow = (w, name) => { if (w) { note(name + ' ' + w.state); w.addEventListener('statechange', () => note(name + ' ' + w.state)); } };
  navigator.serviceWorker.getRegistration().then((r) => {
    if (!r) { note('no registration'); return; }
    note('registration: installing ' + (r.installing && r.installing.state) + ', waiting ' + (r.waiting && r.waiting.state) + ', active ' + (r.active && r.active.state));
    follow(r.installing || r.waiting, 'new worker');
    r.addEventListener('updatefound', () => { note('updatefound'); follow(r.installing, 'new worker'); });
  });
})()`

// openWatchingWorkers opens url with swWatchJS running in its document.
func openWatchingWorkers(t *testing.T, ctx context.Context, url string) {
	t.Helper()
	watch, err := chromedp.Call(ctx, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: swWatchJS})
	if err != nil {
		t.Fatal(err)
	}
	open(t, ctx, url)
	if _, err := chromedp.Call(ctx, page.RemoveScriptToEvaluateOnNewDocument, page.RemoveScriptToEvaluateOnNewDocumentParams{Identifier: watch.Identifier}); err != nil {
		t.Fatal(err)
	}
}

// swState describes the page's service worker registration and caches,
// for a failed test's message.
func swState(ctx context.Context) string {
	js := `navigator.serviceWorker.getRegistration().then(async r => JSON.stringify({
  controller: navigator.serviceWorker.controller && navigator.serviceWorker.controller.scriptURL,
  installing: r && r.installing && r.installing.state,
  waiting: r && r.waiting && r.waiting.state,
  active: r && r.active && r.active.state,
  caches: await caches.keys(),
  updatedBeforeWasm: typeof goappUpdatedBeforeWasmLoaded !== 'undefined' ? goappUpdatedBeforeWasmLoaded : null,
  version: (document.getElementById('version') || {}).textContent || null,
  steps: window.__sw || null,
  now: Math.round(performance.now()) + ' ms',
}))`
	s, err := chromedp.Run(ctx, chromedp.Evaluate[string](js, chromedp.EvalAwaitPromise))
	if err != nil {
		return "unknown (" + err.Error() + ")"
	}
	return s
}

// poll waits up to d for the JavaScript expression expr to be true on
// ctx's page; t fails and stops when it is not.
func poll(t *testing.T, ctx context.Context, d time.Duration, expr string) {
	t.Helper()
	if err := webtest.Poll(ctx, d, expr); err != nil {
		t.Fatal(err)
	}
}

func typeIn(t *testing.T, ctx context.Context, id, text string) {
	t.Helper()
	if err := webtest.TypeInto(ctx, id, text); err != nil {
		t.Fatalf("typing %q into #%s: %v", text, id, err)
	}
}

func writeFile(t *testing.T, dir, name, data string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func aaCSV(scenarios, runs int, fail func(s, r int) bool) string {
	var b strings.Builder
	b.WriteString("scenario,run,passed\n")
	for r := 0; r < runs; r++ {
		for s := 0; s < scenarios; s++ {
			p := 1
			if fail(s, r) {
				p = 0
			}
			fmt.Fprintf(&b, "case_%03d,run%d,%d\n", s, r+1, p)
		}
	}
	return b.String()
}

func TestEndToEnd(t *testing.T) {
	if _, err := webtest.Chromium(); err != nil {
		t.Fatal(err) // before building: a missing chromium is a failure
	}
	dir, _ := built(t)
	srv, handler, err := webtest.Serve(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	ctx, cancel, err := webtest.NewBrowser(context.Background(), t.TempDir())
	if err != nil {
		t.Fatal(err) // a missing chromium is a failure
	}
	defer cancel()
	console := webtest.Watch(ctx)
	data := t.TempDir()
	links := map[string]string{}
	want := map[string][]byte{}

	t.Run("budget", func(t *testing.T) {
		open(t, ctx, srv.URL+"/")
		// The defaults first: what the CLI says for the same inputs.
		expectFields(t, ctx, "budget defaults", "", cli(t, "budget", "-json", "-rates", "0.05,0.02,0.01"))
		typeIn(t, ctx, "in-target", "0.9")
		typeIn(t, ctx, "in-cost", "8")
		typeIn(t, ctx, "in-cap", "5")
		typeIn(t, ctx, "in-rates", "0.05, 0.02, 0.001")
		typeIn(t, ctx, "in-observe", "1/120")
		want["budget"] = cli(t, "budget", "-json", "-target", "0.9", "-cost", "8", "-cap", "5", "-rates", "0.05,0.02,0.001", "-observe", "1/120")
		expectFields(t, ctx, "budget typed", "", want["budget"])
		screenshot(t, ctx, "budget-desktop")
		links["budget"] = location(t, ctx)
		// The copy buttons hand the link and a Markdown summary to the
		// clipboard (stubbed here: headless clipboards need a user gesture).
		if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`navigator.clipboard.writeText = async (t) => { window.__copied = t; }; true`)); err != nil {
			t.Fatal(err)
		}
		if err := chromedp.Do(ctx, chromedp.Click(chromedp.ID("copy-link"))); err != nil {
			t.Fatal(err)
		}
		if err := webtest.Poll(ctx, 5*time.Second, `window.__copied === location.href && document.getElementById('status').textContent === 'Link copied.'`); err != nil {
			t.Error(err)
		}
		if err := chromedp.Do(ctx, chromedp.Click(chromedp.ID("copy-md"))); err != nil {
			t.Fatal(err)
		}
		if err := webtest.Poll(ctx, 5*time.Second, `typeof window.__copied === 'string' && window.__copied.includes('[Open in flakegate](' + location.href + ')') && window.__copied.includes('| 5.0% | 45 |')`); err != nil {
			md, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`String(window.__copied)`))
			t.Errorf("%v\ncopied: %s", err, md)
		}
		if strings.Contains(links["budget"], "#") || !strings.Contains(links["budget"], "?cap=5") {
			t.Errorf("budget state is not in the query string: %s", links["budget"])
		}
		// An invalid entry is marked at its field, and no figure stays on the page.
		typeIn(t, ctx, "in-target", "1.5")
		if err := webtest.Poll(ctx, 5*time.Second, `!!document.querySelector('[data-error="target"]') && document.querySelectorAll('[data-field]').length === 0 && document.getElementById('in-target').getAttribute('aria-invalid') === 'true'`); err != nil {
			t.Error(err)
		}
		typeIn(t, ctx, "in-target", "0.9")
		expectFields(t, ctx, "budget restored", "", want["budget"])
		// Opening the earlier link again from the address bar, after an
		// edit rewrote it, brings its figures back.
		typeIn(t, ctx, "in-cap", "7")
		poll(t, ctx, 5*time.Second, `location.search.includes('cap=7')`)
		goTo(t, ctx, links["budget"])
		expectFields(t, ctx, "budget link reopened", "", want["budget"])
		if err := webtest.Poll(ctx, 5*time.Second, `document.getElementById('in-cap').value === '5'`); err != nil {
			t.Error(err)
		}
		// A link without some of the fields, opened in the same tab,
		// empties their inputs: the boxes show what the figures use.
		if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`location.href = '/#observe=2%2F40&rates='; true`)); err != nil {
			t.Fatal(err)
		}
		expectFields(t, ctx, "budget link without cost and rates", "", cli(t, "budget", "-json", "-observe", "2/40"))
		if err := webtest.Poll(ctx, 5*time.Second, `['target','cost','cap','rates'].map(k => document.getElementById('in-'+k).value).join('|') === '0.95||3|' && document.getElementById('in-observe').value === '2/40'`); err != nil {
			got, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`['target','cost','cap','rates','observe'].map(k => document.getElementById('in-'+k).value).join('|')`))
			t.Errorf("%v: inputs %q", err, got)
		}
	})

	ledgerPath := filepath.Join(repoRoot(), "core", "ledger", "testdata", "ledger", "seed_20x20.jsonl")
	t.Run("decide", func(t *testing.T) {
		open(t, ctx, srv.URL+"/decide")
		typeIn(t, ctx, "in-baseline", "30/60")
		typeIn(t, ctx, "in-patched", "51/60")
		if err := webtest.Select(ctx, "in-property", "passed"); err != nil {
			t.Fatal(err)
		}
		want["decide"] = cli(t, "decide", "-json", "-baseline", "30/60", "-patched", "51/60", "-property", "passed")
		expectFields(t, ctx, "decide", "", want["decide"], "size", "ledger")
		want["size"] = cli(t, "size", "-json", "-baseline", "0.5", "-patched", "0.85")
		page := expectFields(t, ctx, "size", "size", want["size"])
		if page["size.trials_per_arm"] != "28" { // docs/STATISTICS.md: 0.50 vs 0.85 → 28
			t.Errorf("trials per arm %q, want 28", page["size.trials_per_arm"])
		}
		abs, _ := filepath.Abs(ledgerPath)
		if err := chromedp.Do(ctx, chromedp.SetUploadFiles(chromedp.ID("file-ledger"), []string{abs})); err != nil {
			t.Fatal(err)
		}
		want["ledger"] = cli(t, "ledger", "-json", "-property", "passed", ledgerPath)
		expectFields(t, ctx, "ledger", "ledger", want["ledger"])
		screenshot(t, ctx, "decide-desktop")
		links["decide"] = location(t, ctx)
		if !strings.Contains(links["decide"], "ledger=") {
			t.Errorf("the decide link does not carry the ledger: %s", links["decide"])
		}
	})

	base := aaCSV(60, 8, func(s, r int) bool { return (s*13+r*7)%17 == 0 || (s%9 == 0 && r%2 == 1) })
	cand := aaCSV(60, 5, func(s, r int) bool { return (s*11+r*5)%9 == 0 })
	basePath := writeFile(t, data, "base.csv", base)
	candPath := writeFile(t, data, "cand.csv", cand)
	t.Run("aa", func(t *testing.T) {
		open(t, ctx, srv.URL+"/aa")
		if err := webtest.Paste(ctx, "text-baseline", base); err != nil {
			t.Fatal(err)
		}
		if err := chromedp.Do(ctx, chromedp.SetUploadFiles(chromedp.ID("file-candidate"), []string{candPath})); err != nil {
			t.Fatal(err)
		}
		want["aa"] = cli(t, "aa", "-json", basePath, candPath)
		expectFields(t, ctx, "aa", "", want["aa"])
		screenshot(t, ctx, "aa-desktop")
		links["aa"] = location(t, ctx)
		if !strings.Contains(links["aa"], "?aa=") {
			t.Errorf("A/A link holds no statistics: %s", links["aa"])
		}
		// A bad row in a pasted CSV is reported with its line and column.
		if err := webtest.Paste(ctx, "text-candidate", "scenario,run,passed\ncase_001,run1,maybe\n"); err != nil {
			t.Fatal(err)
		}
		if err := webtest.Poll(ctx, 5*time.Second, `(document.querySelector('[data-error="candidate"]')||{}).textContent?.includes('pasted text:2:')`); err != nil {
			t.Error(err)
		}
	})

	// Share links reopen every figure in a fresh browser context (no cache,
	// no service worker, no storage shared with the first).
	t.Run("share-links", func(t *testing.T) {
		fresh := newTab(t, ctx)
		freshConsole := webtest.Watch(fresh)
		for _, c := range []struct {
			name    string
			prefix  string
			json    []byte
			exclude []string
		}{
			{"budget", "", want["budget"], nil},
			// The decide link holds the dropped ledger, which is what the
			// page judges then: its table, with the form's settings.
			{"decide", "ledger", want["ledger"], nil},
			{"aa", "", want["aa"], nil},
		} {
			if links[c.name] == "" {
				t.Errorf("%s: no link recorded", c.name)
				continue
			}
			open(t, fresh, links[c.name])
			expectFields(t, fresh, c.name+" link", c.prefix, c.json, c.exclude...)
		}
		// Phone width: the A/A view and the budget view.
		if err := chromedp.Do(fresh, chromedp.EmulateViewport(390, 844, chromedp.EmulateMobile, chromedp.EmulateScale(2))); err != nil {
			t.Fatal(err)
		}
		open(t, fresh, links["aa"])
		expectFields(t, fresh, "aa link on a phone", "", want["aa"])
		screenshot(t, fresh, "aa-phone")
		open(t, fresh, links["budget"])
		screenshot(t, fresh, "budget-phone")
		// Nothing may overflow the phone's width.
		if err := webtest.Poll(fresh, 2*time.Second, `document.documentElement.scrollWidth <= window.innerWidth + 1`); err != nil {
			w, _ := chromedp.Run(fresh, chromedp.Evaluate[string](`document.documentElement.scrollWidth + ' > ' + window.innerWidth`))
			t.Errorf("page wider than a phone: %s", w)
		}
		for _, e := range freshConsole.Errors() {
			t.Errorf("console (fresh context): %s", e)
		}
	})

	// Once visited, the site works offline: go-app's service worker serves
	// the pages from its cache, and the fragment carries the state.
	t.Run("offline", func(t *testing.T) {
		poll(t, ctx, 20*time.Second, `navigator.serviceWorker.controller !== null`)
		if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`caches.keys().then(async ks => { for (const k of ks) { const c = await caches.open(k); if ((await c.keys()).length >= 10) return true; } throw new Error('cache not filled: ' + ks); })`, chromedp.EvalAwaitPromise)); err != nil {
			t.Fatal(err)
		}
		handler.SetOffline(true)
		defer handler.SetOffline(false)
		for _, c := range []struct{ name, prefix, want string }{{"aa", "", "aa"}, {"budget", "", "budget"}, {"decide", "ledger", "ledger"}} {
			open(t, ctx, links[c.name])
			expectFields(t, ctx, c.name+" offline", c.prefix, want[c.want])
		}
	})

	// A deploy is noticed: generate the site with a new version, switch
	// the server to it at once (as a host does), revisit, and the reload
	// banner appears; reloading runs the new version.
	t.Run("update-banner", func(t *testing.T) {
		next := t.TempDir()
		if err := Generate(Options{Out: next, Wasm: filepath.Join(dir, "web", "app.wasm"), Version: "e2e-test-2", Previous: dir}); err != nil {
			t.Fatal(err)
		}
		if err := handler.Deploy(next); err != nil {
			t.Fatal(err)
		}
		// The service worker's steps as the revisited page sees them, with
		// their times since the page started, for a timeout's message.
		openWatchingWorkers(t, ctx, srv.URL+"/")
		// The banner waits for the new version's service worker to fetch
		// and cache the whole site, app.wasm included, and to take over.
		// On a timeout the service worker's state says which step it had
		// reached.
		if err := webtest.Poll(ctx, 60*time.Second, `!!document.getElementById('reload')`); err != nil {
			t.Fatalf("%v; service workers %s", err, swState(ctx))
		}
		t.Logf("banner shown; service workers %s", swState(ctx))
		screenshot(t, ctx, "update-banner")
		if err := chromedp.Do(ctx, chromedp.Click(chromedp.ID("reload"))); err != nil {
			t.Fatal(err)
		}
		if err := webtest.Poll(ctx, 20*time.Second, `(document.getElementById('version')||{}).textContent === 'e2e-test-2'`); err != nil {
			dbg, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`caches.keys().then(ks => JSON.stringify({caches: ks, version: (document.getElementById('version')||{}).textContent, env: typeof goappEnv !== 'undefined' ? goappEnv.GOAPP_VERSION : null}))`, chromedp.EvalAwaitPromise))
			t.Errorf("%v; page state %s", err, dbg)
		}
	})

	// A new version found before the page that must announce it has its
	// registration: an earlier page's look for it fires updatefound while
	// this page is still loading under the old worker, so this page never
	// hears that event. The server holds app.wasm, which the new worker
	// caches as it installs, until this page has loaded; then the new
	// worker takes over, and the page must still show the banner.
	t.Run("update-found-before-the-page", func(t *testing.T) {
		third := t.TempDir()
		if err := Generate(Options{Out: third, Wasm: filepath.Join(dir, "web", "app.wasm"), Version: "e2e-test-3", Previous: dir}); err != nil {
			t.Fatal(err)
		}
		release := handler.Hold("/web/app.wasm")
		defer release()
		asked := handler.Hits("/web/app.wasm")
		if err := handler.Deploy(third); err != nil {
			t.Fatal(err)
		}
		if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`navigator.serviceWorker.getRegistration().then((r) => r.update()).then(() => true)`, chromedp.EvalAwaitPromise)); err != nil {
			t.Fatal(err)
		}
		for deadline := time.Now().Add(60 * time.Second); handler.Hits("/web/app.wasm") == asked; time.Sleep(50 * time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatalf("the new version's worker did not ask for app.wasm in 60 s; service workers %s", swState(ctx))
			}
		}
		openWatchingWorkers(t, ctx, srv.URL+"/decide")
		// The premise: the page is the version before, and it found the
		// new worker already there when it looked.
		if err := webtest.Poll(ctx, 5*time.Second, `(document.getElementById('version')||{}).textContent === 'e2e-test-2' && (window.__sw||[]).some((s) => s.includes('registration: installing') && !s.includes('installing null, waiting null'))`); err != nil {
			t.Fatalf("%v; service workers %s", err, swState(ctx))
		}
		release()
		if err := webtest.Poll(ctx, 60*time.Second, `!!document.getElementById('reload')`); err != nil {
			t.Fatalf("%v; service workers %s", err, swState(ctx))
		}
		t.Logf("banner shown; service workers %s", swState(ctx))
		if err := chromedp.Do(ctx, chromedp.Click(chromedp.ID("reload"))); err != nil {
			t.Fatal(err)
		}
		if err := webtest.Poll(ctx, 20*time.Second, `(document.getElementById('version')||{}).textContent === 'e2e-test-3'`); err != nil {
			t.Errorf("%v; service workers %s", err, swState(ctx))
		}
	})

	t.Run("console", func(t *testing.T) {
		for _, e := range console.Errors() {
			t.Errorf("console: %s", e)
		}
	})
}
