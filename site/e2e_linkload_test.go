//go:build integration

package main

import (
	"context"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
	"github.com/flakegate/flakegate/internal/render/rendertest"
	"github.com/flakegate/flakegate/wasm/page/webtest"
)

// linkCase is a link the CLI (-site) made for one page, and the figures
// the page must show for it: the result's JSON without link and link_note,
// compared under prefix, leaving out the scopes in skip (figures the page
// shows beside the result, compared by other tests).
type linkCase struct {
	name, path string
	link       string
	want       []byte
	prefix     string
	skip       []string
	// answer, when set, is the sentence the page must open on instead of
	// figures compared one by one: the first line of the CLI's -markdown
	// (the history page shows a part of its result's figures).
	answer string
}

// expectLink checks the page shows c's result.
func expectLink(t *testing.T, ctx context.Context, what string, c linkCase) {
	t.Helper()
	if c.answer == "" {
		expectFields(t, ctx, what, c.prefix, c.want, c.skip...)
		return
	}
	// The calculator's answer is #answer-text; the server's, the lead of
	// its answer box.
	const answerJS = `((document.getElementById('answer-text') || document.querySelector('#answer .lead') || {}).textContent || '').trim()`
	if err := webtest.Poll(ctx, 10*time.Second, answerJS+` === `+strconv.Quote(c.answer)); err != nil {
		got, _ := chromedp.Run(ctx, chromedp.Evaluate[string](answerJS))
		t.Errorf("%s: the page says %q; want the CLI's %q", what, got, c.answer)
	}
}

// eachLink runs f as a subtest named width/link/what for each link at
// each of widths, in a fresh tab at that width.
func eachLink(t *testing.T, browser context.Context, links []linkCase, what string, f func(t *testing.T, ctx context.Context, w width, c linkCase)) {
	eachLinkAt(t, browser, widths, links, what, f)
}

// eachLinkAt is eachLink at the widths ws.
func eachLinkAt(t *testing.T, browser context.Context, ws []width, links []linkCase, what string, f func(t *testing.T, ctx context.Context, w width, c linkCase)) {
	for _, w := range ws {
		for _, c := range links {
			t.Run(w.name+"/"+c.name+"/"+what, func(t *testing.T) { f(t, freshTab(t, browser, w), w, c) })
		}
	}
}

// eachLinkAtOnce is eachLink with the subtests run side by side, each in
// a tab of one of three browsers of its own, for loads that mostly wait
// on a throttled network: twelve downloads of app.wasm at 1.6 Mbit/s are
// two minutes one after another. A browser throttles all its tabs
// together (one network service; six tabs at once took six times as
// long), so each browser loads one link at a time. It returns once every
// subtest has ended.
func eachLinkAtOnce(t *testing.T, _ context.Context, links []linkCase, what string, f func(t *testing.T, ctx context.Context, w width, c linkCase)) {
	const browsers = 3
	pool := make(chan context.Context, browsers)
	for range browsers {
		pool <- startBrowser(t)
	}
	t.Run(what, func(t *testing.T) {
		for _, w := range widths {
			for _, c := range links {
				t.Run(w.name+"/"+c.name, func(t *testing.T) {
					t.Parallel()
					browser := <-pool
					defer func() { pool <- browser }()
					f(t, freshTab(t, browser, w), w, c)
				})
			}
		}
	})
}

// cliLinks asks the CLI for a link to every page (page.Pages), each with
// inputs other than the page's built-in example, so the pre-rendered
// figures are another view's.
func cliLinks(t *testing.T, site string) []linkCase {
	t.Helper()
	data := t.TempDir()
	base := writeFile(t, data, "base.csv", aaCSV(40, 6, func(s, r int) bool { return (s*13+r*7)%11 == 0 || (s%7 == 0 && r%2 == 1) }))
	cand := writeFile(t, data, "cand.csv", aaCSV(40, 3, func(s, r int) bool { return (s*11+r*5)%6 == 0 }))
	logs := filepath.Join(repoRoot(), "core", "compare", "testdata", "logs")
	nights := weekNights(t)
	reg := filepath.Join(data, "quarantine.json")
	add := []string{"quarantine", "add", "-registry", reg, "-today", "2026-11-20", "-from", filepath.Join(nights, "2026-11-20.xml"),
		"-owner", "@shop", "-reason", "flaky in the nightly run", "-below", "0.01", "-expires", "2026-12-31"}
	cli(t, add...)
	runs, _ := historyRuns(t)
	cases := []struct {
		name, path, prefix string
		skip               []string
		args               []string
	}{
		{"budget", "/", "", nil, []string{"budget", "-target", "0.9", "-cost", "8", "-cap", "5", "-observe", "1/120", "0.05", "0.02", "0.001"}},
		{"decide", "/decide", "", []string{"size", "ledger"}, []string{"decide", "-baseline", "12/20", "-patched", "19/20"}},
		{"aa", "/aa", "", nil, []string{"aa", base, cand}},
		{"quarantine", "/quarantine", "check", nil, []string{"quarantine", "check", "-registry", reg, "-today", "2026-11-23", filepath.Join(nights, "2026-11-23.json")}},
		// The comparison's warnings are left out on both sides: the CLI's
		// name the files by the paths it was given, which its link does not
		// carry.
		{"compare", "/compare", "compare", []string{"warnings"}, []string{"compare",
			filepath.Join(logs, "samples_arith_gen_2026-12-01T10-00-00.000001.jsonl"),
			filepath.Join(logs, "samples_arith_gen_2026-12-02T10-00-00.000001.jsonl")}},
		{"history", "/history", "", nil, append([]string{"history"}, runs...)},
	}
	var out []linkCase
	for _, c := range cases {
		link, want := rendertest.SplitLink(t, cli(t, append(c.args, "-json", "-site", site)...))
		if !strings.HasPrefix(link, site+c.path) {
			t.Fatalf("%s: the CLI's link %q does not open %s%s", c.name, link, site, c.path)
		}
		lc := linkCase{name: c.name, path: c.path, link: link, want: want, prefix: c.prefix, skip: c.skip}
		if c.name == "history" {
			lc.answer = firstLine(cli(t, append(c.args, "-markdown")...))
		}
		out = append(out, lc)
	}
	return out
}

// fragmentLink is link with its state in the fragment (a private link).
func fragmentLink(link string) string {
	if strings.Contains(link, "#") {
		return link
	}
	return strings.Replace(link, "?", "#", 1)
}

// queryLink is link with its state in the query string.
func queryLink(link string) string {
	base, frag, ok := strings.Cut(link, "#")
	if !ok {
		return link
	}
	base, _, _ = strings.Cut(base, "?")
	return base + "?" + frag
}

// frameWatchJS runs in every new document before its scripts, and looks
// before each frame is painted (requestAnimationFrame) for a figure of the
// pre-rendered page shown as if it were the link's: a data-field element
// with a box, visible (visibility and opacity included), outside the
// figures kept for tests (aria-hidden). It stops once the calculator's own
// render has replaced the pre-rendered <main>.
const frameWatchJS = `window.__fg = {frames: 0, prerendered: 0, shown: ''};
(function tick() {
  const log = window.__fg;
  const main = document.querySelector('main');
  log.frames++;
  if (main && main.hasAttribute('data-prerendered')) {
    log.prerendered++;
    if (!log.shown) {
      for (const el of main.querySelectorAll('[data-field]')) {
        if (el.closest('[aria-hidden]')) continue;
        const r = el.getBoundingClientRect();
        if (r.width > 0 && r.height > 0 && el.checkVisibility({visibilityProperty: true, opacityProperty: true})) {
          log.shown = el.dataset.field + ' "' + el.textContent + '" at frame ' + log.frames;
          break;
        }
      }
    }
  }
  if (!main || main.hasAttribute('data-prerendered')) requestAnimationFrame(tick);
})();`

type frameLog struct {
	Frames      int    `json:"frames"`
	Prerendered int    `json:"prerendered"`
	Shown       string `json:"shown"`
}

// watchFrames installs frameWatchJS for the tab's next documents.
func watchFrames(t *testing.T, ctx context.Context) {
	t.Helper()
	if _, err := chromedp.Call(ctx, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: frameWatchJS}); err != nil {
		t.Fatal(err)
	}
}

// throttle limits the tab's network to 1.6 Mbit/s down (200,000 bytes/s)
// and 750 kbit/s up with 150 ms of latency: a slow mobile connection,
// under which app.wasm (1.8 MB in brotli) takes about nine seconds.
func throttle(t *testing.T, ctx context.Context) {
	t.Helper()
	if _, err := chromedp.Call(ctx, network.Enable, network.EnableParams{}); err != nil {
		t.Fatal(err)
	}
	if _, err := chromedp.Call(ctx, network.EmulateNetworkConditionsByRule, network.EmulateNetworkConditionsByRuleParams{
		MatchedNetworkConditions: []*network.Conditions{{Latency: 150, DownloadThroughput: 1.6e6 / 8, UploadThroughput: 750e3 / 8}},
	}); err != nil {
		t.Fatal(err)
	}
}

// goTo points the tab at url without waiting for the load event.
func goTo(t *testing.T, ctx context.Context, url string) {
	t.Helper()
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`location.href = `+strconv.Quote(url)+`; true`)); err != nil {
		t.Fatal(err)
	}
}

// loadingJS describes the page while the calculator is not running: the
// pre-rendered view's visibility, the note standing in for it and the
// loader's note in the corner.
const loadingJS = `(() => {
  const main = document.querySelector('main[data-prerendered]');
  const view = main && main.querySelector('.view');
  const note = document.getElementById('example-note');
  const corner = document.getElementById('app-wasm-loader');
  const retry = document.getElementById('retry-load');
  return {
    prerendered: !!main,
    viewShown: !!view && view.checkVisibility({visibilityProperty: true}),
    note: note && note.checkVisibility({visibilityProperty: true}) ? note.innerText : '',
    corner: corner ? corner.innerText : '',
    role: corner ? corner.getAttribute('role') || '' : '',
    retry: !!retry && retry.checkVisibility() && retry.getBoundingClientRect().height >= 44,
  };
})()`

type loadingView struct {
	Prerendered bool   `json:"prerendered"`
	ViewShown   bool   `json:"viewShown"`
	Note        string `json:"note"`
	Corner      string `json:"corner"`
	Role        string `json:"role"`
	Retry       bool   `json:"retry"`
}

func loading(t *testing.T, ctx context.Context) loadingView {
	t.Helper()
	return evalJS[loadingView](t, ctx, loadingJS)
}

// The page is pre-rendered with its built-in example, and the calculator
// (app.wasm, 1.8 MB) takes seconds on a slow network. For every page, at
// 1280 and 390 px, a private (fragment) link the CLI made is opened at
// 1.6 Mbit/s: before every frame until the calculator has computed the
// link, no figure of the pre-rendered example may be shown, and a note
// says why; then the page shows the CLI's figures for the link (the CLI's
// -json is the reference, as in the other browser tests). The same link as
// a query link on this static server (which does not render links) is held
// to the same rule, with app.wasm held back, and the corner note says the
// figures are not the link's.
func TestLinkNeverShowsTheExample(t *testing.T) {
	browser := startBrowser(t)
	gate, srv := gatedSite(t)
	links := cliLinks(t, srv.URL)

	eachLinkAtOnce(t, browser, links, "fragment at 1.6 Mbit/s", func(t *testing.T, ctx context.Context, _ width, c linkCase) {
		watchFrames(t, ctx)
		throttle(t, ctx)
		start := time.Now()
		goTo(t, ctx, fragmentLink(c.link))
		// app.js, deferred, has run and written the loader's label.
		poll(t, ctx, 30*time.Second, `!!document.getElementById('app-wasm-loader-label') && typeof flakegateEarly === 'object'`)
		if v := loading(t, ctx); v.Prerendered && (v.ViewShown || !strings.Contains(v.Note, "figures appear here once it has computed them") ||
			!strings.Contains(v.Corner, "the built-in example's are hidden")) {
			t.Errorf("while the calculator loads: %+v; want the example hidden behind a note, and the corner note saying so", v)
		}
		if err := webtest.WaitReady(ctx, 120*time.Second); err != nil {
			t.Fatal(err)
		}
		took := time.Since(start)
		expectLink(t, ctx, c.name+" link", c)
		log := evalJS[frameLog](t, ctx, `window.__fg`)
		if log.Shown != "" {
			t.Errorf("before the calculator computed the link, the page showed the example's %s", log.Shown)
		}
		if log.Prerendered == 0 {
			t.Errorf("no frame of the pre-rendered page was seen (%+v): the test did not watch the load", log)
		}
		t.Logf("%d frames of the pre-rendered page, none with the example's figures; the link's figures after %v", log.Prerendered, took.Round(10*time.Millisecond))
	})
	for _, w := range widths {
		t.Run(w.name+"/query links not rendered by the server", func(t *testing.T) {
			release := gate.set(true, false)
			defer release()
			for _, c := range links {
				ctx := freshTab(t, browser, w)
				goTo(t, ctx, queryLink(c.link))
				poll(t, ctx, 20*time.Second, `!!document.getElementById('app-wasm-loader-label') && typeof flakegateEarly === 'object'`)
				if v := loading(t, ctx); !v.Prerendered || v.ViewShown || !strings.Contains(v.Corner, "the built-in example's are hidden") {
					t.Errorf("%s: a query link on a page not rendered for it: %+v; want the example hidden and the corner note saying so", c.name, v)
				}
				chromedp.Cancel(ctx) // one link's tab at a time
			}
		})
	}
}

// A failed app.wasm (blocked by the browser, or a server error) says so in
// place, in plain words and never the browser's own, with a Retry button;
// the example's figures stay hidden for a link; Retry loads the
// calculator, which then shows the link's figures (the CLI's). Every link
// is tried at both widths, each cause at one of them (blocked at 1280 px,
// a 503 at 390 px, where the Retry button's size is checked on a phone's
// screen): the note and Retry are the loader's, the same on every page.
func TestFailedLoadRetries(t *testing.T) {
	browser := startBrowser(t)
	gate, srv := gatedSite(t)
	links := cliLinks(t, srv.URL)

	for i, how := range []string{"blocked", "503"} {
		eachLinkAt(t, browser, widths[i:i+1], links, how, func(t *testing.T, ctx context.Context, w width, c linkCase) {
			if _, err := chromedp.Call(ctx, network.Enable, network.EnableParams{}); err != nil {
				t.Fatal(err)
			}
			block := func(on bool) {
				t.Helper()
				var pats []*network.BlockPattern
				if on {
					pats = []*network.BlockPattern{{URLPattern: srv.URL + "/web/app.wasm", Block: true}}
				}
				if _, err := chromedp.Call(ctx, network.SetBlockedURLs, network.SetBlockedURLsParams{URLPatterns: pats}); err != nil {
					t.Fatal(err)
				}
			}
			if how == "blocked" {
				block(true)
			} else {
				gate.set(false, true)
			}
			goTo(t, ctx, fragmentLink(c.link))
			if err := webtest.Poll(ctx, 30*time.Second, `!!document.querySelector('#app-wasm-loader.fg-failed')`); err != nil {
				t.Fatalf("no failure note: %v (%+v)", err, loading(t, ctx))
			}
			v := loading(t, ctx)
			cause := "the browser could not download its code"
			if how == "503" {
				cause = "the server answered 503"
			}
			if !strings.Contains(v.Corner, "The calculator could not load: "+cause) || v.Role != "alert" || !v.Retry {
				t.Errorf("failure note %+v; want an alert saying %q, with a Retry button", v, cause)
			}
			for _, lib := range []string{"TypeError", "Failed to fetch", "WebAssembly", "HTTP status"} {
				if strings.Contains(v.Corner, lib) {
					t.Errorf("the failure note shows the browser's words %q: %s", lib, v.Corner)
				}
			}
			if v.ViewShown || !strings.Contains(v.Note, "could not load") {
				t.Errorf("after a failed load of a link: %+v; want the example hidden, and the note saying the calculator did not load", v)
			}
			screenshot(t, ctx, "failed-"+how+"-"+c.name+"-"+w.name)
			block(false)
			gate.set(false, false)
			if err := chromedp.Do(ctx, chromedp.Click(chromedp.ID("retry-load"))); err != nil {
				t.Fatal(err)
			}
			if err := webtest.WaitReady(ctx, 90*time.Second); err != nil {
				t.Fatalf("Retry: %v (%+v)", err, loading(t, ctx))
			}
			expectLink(t, ctx, c.name+" after Retry", c)
		})
	}
}

// A query link opens offline: go-app's service worker, having cached the
// pages on the first visit, answers a page asked for with a query string
// with the cached page of its path (third_party/go-app, fetchPage), and
// the page computes the link's figures (the CLI's). Offline here is the
// server gone: its port refuses connections.
func TestQueryLinkOffline(t *testing.T) {
	browser := startBrowser(t)
	dir, _ := built(t)
	srv, _, err := webtest.Serve(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	links := cliLinks(t, srv.URL)
	ctx := newTab(t, browser)
	open(t, ctx, srv.URL+"/")
	poll(t, ctx, 30*time.Second, `navigator.serviceWorker.controller !== null`)
	// The worker fills its cache once it is installed.
	for deadline := time.Now().Add(60 * time.Second); ; {
		n, err := chromedp.Run(ctx, chromedp.Evaluate[int](`caches.keys().then(async ks => { let n = 0; for (const k of ks) n = Math.max(n, (await (await caches.open(k)).keys()).length); return n; })`, chromedp.EvalAwaitPromise))
		if err == nil && n >= 10 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the service worker's cache holds %d files (%v)", n, err)
		}
		time.Sleep(100 * time.Millisecond)
	}
	srv.Close()
	for _, c := range links {
		link := queryLink(c.link)
		if !strings.Contains(link, "?") {
			t.Fatalf("%s: no query link: %s", c.name, link)
		}
		open(t, ctx, link)
		expectLink(t, ctx, c.name+" query link offline", c)
		if got := location(t, ctx); got != link {
			t.Errorf("%s: offline, the address bar holds %s; want the link %s", c.name, got, link)
		}
	}
}

// paintWatchJS runs in every new document before its scripts and records,
// before each frame (requestAnimationFrame), the time, how many figures
// <main> shows (data-field elements with a box, visible, outside those
// kept for tests; the answer box counts as one, since a server-rendered
// page keeps its figures under "All figures", closed), whether the
// calculator has taken the page over (its <main> is not the pre-rendered
// one), and, to tell why a frame shows none, how far the page is parsed
// (document.readyState, whether the rendered region has arrived) and the
// root's classes. It stops a second after the takeover.
const paintWatchJS = `window.__fp = {ticks: []};
(function tick() {
  const fp = window.__fp;
  const main = document.querySelector('main');
  let n = 0;
  if (main) {
    for (const el of main.querySelectorAll('[data-field]')) {
      if (el.closest('[aria-hidden]')) continue;
      const r = el.getBoundingClientRect();
      if (r.width > 0 && r.height > 0 && el.checkVisibility({visibilityProperty: true, opacityProperty: true})) n++;
    }
    const a = document.getElementById('answer');
    if (a && a.textContent.trim() && a.checkVisibility({visibilityProperty: true, opacityProperty: true})) n++;
  }
  const client = !!main && !main.hasAttribute('data-prerendered');
  const root = document.documentElement;
  fp.ticks.push([performance.now(), n, client, document.readyState,
    !!document.querySelector('[data-rendered="server"]'), root ? root.className : '']);
  if (client && fp.client === undefined) fp.client = performance.now();
  if (fp.client === undefined || performance.now() - fp.client < 1000) requestAnimationFrame(tick);
})();`

type paintLog struct {
	Ticks  [][6]any `json:"ticks"`
	FCP    float64  `json:"fcp"`
	Client *float64 `json:"client"`
}

// readPaints returns the frames recorded and the first paint's time: the
// time its frame was painted (paintTime), not its startTime, which in
// Chromium is the frame's presentationTime, when the compositor showed it
// (on a busy machine seconds later, after frames painted since).
func readPaints(t *testing.T, ctx context.Context) paintLog {
	t.Helper()
	return evalJS[paintLog](t, ctx, `Object.assign({}, window.__fp, {fcp: ((e) => e.paintTime ?? e.startTime)(performance.getEntriesByName('first-contentful-paint')[0] || {startTime: -1})})`)
}

// A query link made by the CLI (-site), opened on the local server (which
// renders the link's answer into the page it sends, package render), shows
// the link's own figures in the first paint, at both widths and at 1.6
// Mbit/s: the frame painted first holds figures, and the calculator takes
// the page over without a frame that holds none; once it has, the page's
// figures equal the CLI's -json. With app.wasm blocked, what the server
// sent is read back: its figures are the CLI's, shown, with no note that
// they are the example's.
func TestQueryLinkFirstPaint(t *testing.T) {
	browser := startBrowser(t)
	dir, _ := built(t)
	srv, err := webtest.StartLocalServer(repoRoot(), t.TempDir(), dir)
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Stop()
	links := cliLinks(t, srv.URL)
	eachLink(t, browser, links, "as sent", func(t *testing.T, ctx context.Context, _ width, c linkCase) {
		if _, err := chromedp.Call(ctx, network.Enable, network.EnableParams{}); err != nil {
			t.Fatal(err)
		}
		if _, err := chromedp.Call(ctx, network.SetBlockedURLs, network.SetBlockedURLsParams{URLPatterns: []*network.BlockPattern{{URLPattern: srv.URL + "/web/app.wasm", Block: true}}}); err != nil {
			t.Fatal(err)
		}
		goTo(t, ctx, queryLink(c.link))
		poll(t, ctx, 30*time.Second, `!!document.querySelector('#app-wasm-loader.fg-failed')`)
		if v := loading(t, ctx); !v.ViewShown || v.Note != "" {
			t.Errorf("the page the server rendered for the link: %+v; want its figures shown, with no note that they are the example's", v)
		}
		if !evalJS[bool](t, ctx, `!!document.querySelector('[data-rendered="server"]')`) {
			t.Fatal("the local server did not render the link")
		}
		expectLink(t, ctx, c.name+" as the server sent it", c)
	})
	for _, slow := range []bool{false, true} {
		what, each := "first paint", eachLink
		if slow {
			what, each = what+" at 1.6 Mbit/s", eachLinkAtOnce
		}
		each(t, browser, links, what, func(t *testing.T, ctx context.Context, _ width, c linkCase) {
			if _, err := chromedp.Call(ctx, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: paintWatchJS}); err != nil {
				t.Fatal(err)
			}
			if slow {
				throttle(t, ctx)
			}
			goTo(t, ctx, queryLink(c.link))
			if err := webtest.Poll(ctx, 120*time.Second, `!!window.__fp && window.__fp.client !== undefined && performance.now() - window.__fp.client > 1100`); err != nil {
				t.Fatalf("%v\npage: %+v; app.wasm: %s", err, loading(t, ctx), evalJS[string](t, ctx, `JSON.stringify(performance.getEntriesByType('resource').filter(e => e.name.endsWith('app.wasm')).map(e => [e.initiatorType, e.startTime, e.responseEnd, e.transferSize]))`))
			}
			l := readPaints(t, ctx)
			if l.FCP < 0 {
				t.Fatal("no first paint recorded")
			}
			// The frame painted first is the last one begun at or
			// before the first paint's time.
			first := -1
			for i, tk := range l.Ticks {
				if tk[0].(float64) <= l.FCP {
					first = i
				}
			}
			if first < 0 {
				t.Fatalf("no frame before the first paint at %.0f ms", l.FCP)
			}
			if n := tk1(l.Ticks[first]); n == 0 {
				t.Errorf("the first paint (%.0f ms) shows no figure (its frame at %.0f ms: document %v, rendered region parsed %v, root class %q)",
					l.FCP, l.Ticks[first][0], l.Ticks[first][3], l.Ticks[first][4], l.Ticks[first][5])
			}
			for _, tk := range l.Ticks[first:] {
				if tk1(tk) == 0 {
					t.Errorf("at %.0f ms, after the first paint, a frame shows no figure (client %v, document %v, rendered region parsed %v, root class %q)", tk[0].(float64), tk[2], tk[3], tk[4], tk[5])
					break
				}
			}
			expectLink(t, ctx, c.name+" taken over", c)
			t.Logf("first paint %.0f ms with %d figures; the calculator took over at %.0f ms", l.FCP, tk1(l.Ticks[first]), *l.Client)
		})
	}
}

// tk1 is a frame's count of figures shown.
func tk1(tk [6]any) int { return int(tk[1].(float64)) }
