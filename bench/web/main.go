// Command web measures the calculator as a user meets it, on this machine:
//
//   - app.wasm raw, gzip -9 and brotli (quality 11 and 5) sizes;
//   - cold load to the first computed figure of a share link (fresh
//     profile: no HTTP cache, no service worker) and the repeat visit;
//   - a 1,000,000-row A/A CSV chosen with the file picker, until its figures
//     are on the page, and the longest gap between frames meanwhile;
//   - keystroke → figures updated in the budget form;
//   - a link's first figure against the pre-rendered page's first paint
//     and time to interactive, on the local server, which renders query
//     links (first.go);
//   - the same cold and repeat loads of go-app's smallest page (package
//     floor, built from the same go-app), so the calculator's load times
//     come with the ratio to what go-app alone costs on this machine, and
//     of that page with the whole calculator linked in but never run
//     (floor/linked): what the calculator's code costs by its size alone.
//
// The site is served from 127.0.0.1 by an httptest server through package
// static, as the local server serves it: brotli or gzip copies chosen by
// Accept-Encoding; the floors' app.wasm gets the same copies and the same
// handler (FLAKEGATE_CHROMIUM_FLAGS adds switches for experiments, e.g.
// 'js-flags=--liftoff-only'); times are taken in
// the page with performance.now(), from navigation start or from the input
// event. Run it with `make web-bench` (it builds dist/site first):
//
//	go run ./bench/web -site dist/site -out bench/out/web.json
package main

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/andybalholm/brotli"
	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/profiler"
	"github.com/chromedp/chromedp"
	"github.com/flakegate/flakegate/bench/web/floor"
	"github.com/flakegate/flakegate/core"
	"github.com/flakegate/flakegate/core/aa"
	"github.com/flakegate/flakegate/core/gate"
	"github.com/flakegate/flakegate/internal/share"
	"github.com/flakegate/flakegate/internal/words"
	"github.com/flakegate/flakegate/wasm/page/webtest"
)

// Loads are a page's load times, in ms, until its first figure: cold (a
// fresh profile), each repeat visit, and again in the same tab.
type Loads struct {
	ColdMS    []float64 `json:"cold_ms"`
	RepeatMS  []float64 `json:"repeat_ms"`
	SameTabMS []float64 `json:"same_tab_ms"`
}

// FirstLoad is a page's cold load on the local server (first.go), in ms:
// until its first paint (a link's page: its first figure), and until it is
// interactive (go-app's smallest page: mounted).
type FirstLoad struct {
	FirstMS []float64 `json:"first_ms"`
	ReadyMS []float64 `json:"ready_ms"`
}

// Result is what the benchmark measured; times in milliseconds.
type Result struct {
	WasmRaw      int64 `json:"wasm_raw_bytes"`
	WasmGzip     int64 `json:"wasm_gzip9_bytes"`
	WasmBrotli11 int64 `json:"wasm_brotli11_bytes"`
	WasmBrotli5  int64 `json:"wasm_brotli5_bytes"`
	Budget       Loads `json:"budget_link"`
	AA           Loads `json:"aa_link"`
	// go-app's smallest page, and the same with the calculator linked in,
	// never run.
	FloorWasmRaw  int64     `json:"floor_wasm_raw_bytes"`
	Floor         Loads     `json:"goapp_floor"`
	LinkedWasmRaw int64     `json:"linked_wasm_raw_bytes"`
	Linked        Loads     `json:"linked_floor"`
	CSVRows       int       `json:"csv_rows"`
	CSVBytes      int64     `json:"csv_bytes"`
	CSVMS         []float64 `json:"csv_to_figures_ms"`
	CSVAllMS      []float64 `json:"csv_to_all_figures_ms"` // with the in-depth analyses
	CSVParseMS    []float64 `json:"csv_go_parse_ms"`
	CSVMaxFrameMS []float64 `json:"csv_longest_frame_gap_ms"`
	KeyMS         []float64 `json:"keystroke_to_dom_ms"`
	KeyPaintMS    []float64 `json:"keystroke_to_next_frame_ms"`
	// First paint and first figure, cold, on the local server (first.go).
	FloorFirst FirstLoad `json:"goapp_floor_first"`
	Plain      FirstLoad `json:"prerendered_first"`  // the pre-rendered page, no link
	Query      FirstLoad `json:"query_link_first"`   // a query link, rendered by the server
	Private    FirstLoad `json:"private_link_first"` // a private (fragment) link
}

func main() {
	site := flag.String("site", "dist/site", "the built static site")
	out := flag.String("out", "bench/out/web.json", "where to write the JSON result")
	rows := flag.Int("rows", 1_000_000, "rows of the A/A CSV")
	reps := flag.Int("n", 5, "repetitions of each timing")
	flag.StringVar(&tracePkg, "trace-pkg", "", "with -only trace and an app.wasm that keeps names: list the functions of this package (e.g. encoding_json) compiled on first call")
	flag.DurationVar(&settle, "settle", 0, "stay on the page this long after the cold load before the repeat visits (lets V8 cache compiled code)")
	only := flag.String("only", "", "measure only this part: sizes, load, first, csv or keys (default all); profile or trace to see where a load's time goes")
	flag.Parse()
	if err := run(*site, *out, *rows, *reps, *only); err != nil {
		fmt.Fprintln(os.Stderr, "bench/web:", err)
		os.Exit(1)
	}
}

func run(site, out string, rows, reps int, only string) error {
	want := func(part string) bool { return only == "" || only == part }
	var r Result
	if err := sizes(filepath.Join(site, "web", "app.wasm"), &r); err != nil {
		return err
	}
	fmt.Printf("app.wasm: raw %s, gzip -9 %s, brotli q11 %s, brotli q5 %s\n",
		mb(r.WasmRaw), mb(r.WasmGzip), mb(r.WasmBrotli11), mb(r.WasmBrotli5))

	srv, _, err := webtest.Serve(site)
	if err != nil {
		return err
	}
	defer srv.Close()
	tmp, err := os.MkdirTemp("", "flakegate-bench-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)

	budgetLink, budgetSel, err := budgetShare(srv.URL)
	if err != nil {
		return err
	}
	aaLink, aaSel, err := aaShare(srv.URL)
	if err != nil {
		return err
	}
	var floorURL, linkedURL string
	if want("load") || want("first") {
		for _, p := range []struct {
			dir, pkg string
			size     *int64
			url      *string
		}{
			{"floor", "./bench/web/floor/app", &r.FloorWasmRaw, &floorURL},
			{"linked", "./bench/web/floor/linked", &r.LinkedWasmRaw, &linkedURL},
		} {
			dir := filepath.Join(tmp, p.dir)
			if *p.size, err = floor.Build(".", dir, p.pkg); err != nil {
				return err
			}
			fh, err := floor.Handler(dir)
			if err != nil {
				return err
			}
			fsrv := httptest.NewServer(fh)
			defer fsrv.Close()
			*p.url = fsrv.URL + "/"
		}
	}
	for i := 0; i < reps && want("load"); i++ {
		for _, l := range []struct {
			profile, link, sel string
			times              *Loads
		}{
			{"floorprofile", floorURL, floor.Selector, &r.Floor},
			{"linkedprofile", linkedURL, floor.Selector, &r.Linked},
			{"profile", budgetLink, budgetSel, &r.Budget},
			{"aaprofile", aaLink, aaSel, &r.AA},
		} {
			cold, repeat, same, err := loads(filepath.Join(tmp, l.profile+strconv.Itoa(i)), l.link, l.sel)
			if err != nil {
				return err
			}
			l.times.ColdMS = append(l.times.ColdMS, cold)
			l.times.RepeatMS = append(l.times.RepeatMS, repeat...)
			l.times.SameTabMS = append(l.times.SameTabMS, same)
		}
	}
	if want("load") {
		fmt.Printf("share link, cold load to first figure: budget %s, A/A %s\n", stats(r.Budget.ColdMS), stats(r.AA.ColdMS))
		fmt.Printf("share link, repeat visit:               budget %s, A/A %s\n", stats(r.Budget.RepeatMS), stats(r.AA.RepeatMS))
		fmt.Printf("share link, again in the same tab:      budget %s, A/A %s\n", stats(r.Budget.SameTabMS), stats(r.AA.SameTabMS))
		fmt.Printf("go-app's smallest page (app.wasm %s): cold %s, repeat %s, same tab %s\n", mb(r.FloorWasmRaw), stats(r.Floor.ColdMS), stats(r.Floor.RepeatMS), stats(r.Floor.SameTabMS))
		fmt.Printf("the same with the calculator linked in, never run (app.wasm %s): cold %s, repeat %s, same tab %s\n", mb(r.LinkedWasmRaw), stats(r.Linked.ColdMS), stats(r.Linked.RepeatMS), stats(r.Linked.SameTabMS))
		cf, rf := median(r.Floor.ColdMS), median(r.Floor.RepeatMS)
		fmt.Printf("calculator / go-app floor, medians: cold budget %.2f×, A/A %.2f×; repeat budget %.2f×, A/A %.2f×\n",
			median(r.Budget.ColdMS)/cf, median(r.AA.ColdMS)/cf, median(r.Budget.RepeatMS)/rf, median(r.AA.RepeatMS)/rf)
		cl, rl := median(r.Linked.ColdMS), median(r.Linked.RepeatMS)
		fmt.Printf("linked floor / go-app floor (the code's size), medians: cold %.2f×, repeat %.2f×; calculator / linked floor (running it): cold budget %.2f×, A/A %.2f×; repeat budget %.2f×, A/A %.2f×\n",
			cl/cf, rl/rf, median(r.Budget.ColdMS)/cl, median(r.AA.ColdMS)/cl, median(r.Budget.RepeatMS)/rl, median(r.AA.RepeatMS)/rl)
	}
	if want("first") {
		if err := firstBench(tmp, site, floorURL, budgetLink, reps, &r); err != nil {
			return err
		}
	}
	if only == "trace" {
		raw, err := os.ReadFile(filepath.Join(site, "web", "app.wasm"))
		if err != nil {
			return err
		}
		names := wasmFuncNames(raw)
		for i, l := range [][3]string{{"budget", budgetLink, budgetSel}, {"A/A", aaLink, aaSel}} {
			if err := traceLoad(filepath.Join(tmp, "trace"+strconv.Itoa(i)), l[0], l[1], l[2], names); err != nil {
				return err
			}
		}
	}
	if only == "profile" {
		profileKeys = true
		if err := keystrokes(filepath.Join(tmp, "profkeys"), srv.URL, 40, &r); err != nil {
			return err
		}
		for i, l := range [][2]string{{budgetLink, budgetSel}, {aaLink, aaSel}} {
			if err := profileLoad(filepath.Join(tmp, "prof"+strconv.Itoa(i)), l[0], l[1]); err != nil {
				return err
			}
		}
	}
	if want("csv") {
		if err := csvBench(tmp, srv.URL, rows, reps, &r); err != nil {
			return err
		}
	}
	if want("keys") {
		if err := keystrokes(filepath.Join(tmp, "keyprofile"), srv.URL, 40, &r); err != nil {
			return err
		}
	}

	if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
		return err
	}
	var b bytes.Buffer
	core.WriteJSON(&b, r)
	return os.WriteFile(out, b.Bytes(), 0o644)
}

func csvBench(tmp, base string, rows, reps int, r *Result) error {
	var err error
	csvPath := filepath.Join(tmp, "aa.csv")
	if r.CSVBytes, err = writeCSV(csvPath, rows); err != nil {
		return err
	}
	r.CSVRows = rows
	if err := csvRuns(filepath.Join(tmp, "csvprofile"), base, csvPath, rows, reps, r); err != nil {
		return err
	}
	fmt.Printf("%d-row CSV (%s) to figures: %s; with the in-depth analyses: %s; Go parse %s; longest frame gap until then %s\n",
		rows, mb(r.CSVBytes), stats(r.CSVMS), stats(r.CSVAllMS), stats(r.CSVParseMS), stats(r.CSVMaxFrameMS))
	return nil
}

func mb(n int64) string { return fmt.Sprintf("%.2f MB", float64(n)/1e6) }

// stats is "median X ms (min Y, max Z, n N)".
func stats(v []float64) string {
	if len(v) == 0 {
		return "none"
	}
	s := append([]float64(nil), v...)
	sort.Float64s(s)
	p95 := s[min(len(s)-1, int(float64(len(s))*0.95))]
	return fmt.Sprintf("median %.1f ms (min %.1f, p95 %.1f, max %.1f, n %d)", median(v), s[0], p95, s[len(s)-1], len(s))
}

// median of v; NaN when v is empty.
func median(v []float64) float64 {
	if len(v) == 0 {
		return math.NaN()
	}
	s := append([]float64(nil), v...)
	sort.Float64s(s)
	if len(s)%2 == 0 {
		return (s[len(s)/2-1] + s[len(s)/2]) / 2
	}
	return s[len(s)/2]
}

func sizes(path string, r *Result) error {
	raw, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	r.WasmRaw = int64(len(raw))
	var g bytes.Buffer
	gw, _ := gzip.NewWriterLevel(&g, gzip.BestCompression)
	gw.Write(raw)
	gw.Close()
	r.WasmGzip = int64(g.Len())
	for _, q := range []int{11, 5} {
		var b bytes.Buffer
		bw := brotli.NewWriterLevel(&b, q)
		bw.Write(raw)
		bw.Close()
		if q == 11 {
			r.WasmBrotli11 = int64(b.Len())
		} else {
			r.WasmBrotli5 = int64(b.Len())
		}
	}
	return nil
}

// budgetInput is the budget of the benchmarks' link: its first figure
// differs from the pre-rendered defaults.
func budgetInput() gate.BudgetInput {
	cost := 8.0
	return gate.BudgetInput{Target: 0.9, Cap: 5, Confidence: 0.95, CostSeconds: &cost,
		Rates: []float64{0.05, 0.02, 0.001}, Observed: &core.Count{Passed: 1, Trials: 120}}
}

// budgetShare is the budget link, and the selector of its first figure.
func budgetShare(base string) (string, string, error) {
	res, err := gate.Budget(budgetInput())
	if err != nil {
		return "", "", err
	}
	link := base + "/#cap=5&cost=8&observe=1%2F120&rates=0.05%2C0.02%2C0.001&target=0.9"
	sel := fmt.Sprintf(`tr[data-scope="rows.0"] [data-field="reruns"][value="%d"]`, *res.Rows[0].Reruns)
	return link, sel, nil
}

// budgetAnswer is the budget link's answer sentence (words.BudgetAnswer).
func budgetAnswer() (string, error) {
	res, err := gate.Budget(budgetInput())
	if err != nil {
		return "", err
	}
	return words.BudgetAnswer(res), nil
}

// aaShare is an A/A link for a 300-scenario, 10-run suite.
func aaShare(base string) (string, string, error) {
	var b strings.Builder
	b.WriteString("scenario,run,passed\n")
	rng := rand.New(rand.NewPCG(1, 2))
	for r := 0; r < 10; r++ {
		for s := 0; s < 300; s++ {
			p := 1
			if rng.Float64() < 0.08 {
				p = 0
			}
			fmt.Fprintf(&b, "s%03d,r%d,%d\n", s, r, p)
		}
	}
	side, err := aa.ReadCSV(strings.NewReader(b.String()))
	if err != nil {
		return "", "", err
	}
	enc, err := share.EncodeAA(share.AAState{Baseline: side})
	if err != nil {
		return "", "", err
	}
	return base + "/aa#aa=" + enc, `[data-field="rows"][value="3000"]`, nil
}

// markJS records, in window.__fg, the performance.now() at which each
// selector first matches.
func markJS(selectors map[string]string) string {
	js, _ := json.Marshal(selectors)
	return `window.__fg = {marks: {}};
(() => {
  const want = ` + string(js) + `;
  const check = () => {
    for (const [name, sel] of Object.entries(want)) {
      if (!(name in window.__fg.marks) && document.querySelector(sel)) { window.__fg.marks[name] = performance.now(); performance.mark('fg-' + name); }
    }
  };
  new MutationObserver(check).observe(document, {subtree: true, childList: true, attributes: true});
})();`
}

func inject(js string) chromedp.Action[chromedp.Void] {
	return chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		_, err := cdp.Call(ctx, t, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: js})
		return err
	})
}

func mark(ctx context.Context, name string, timeout time.Duration) (float64, error) {
	expr := `window.__fg && window.__fg.marks[` + strconv.Quote(name) + `] !== undefined`
	if err := webtest.Poll(ctx, timeout, expr); err != nil {
		return 0, err
	}
	return chromedp.Run(ctx, chromedp.Evaluate[float64](`window.__fg.marks[`+strconv.Quote(name)+`]`))
}

// phasesJS reports when app.wasm finished arriving and when Go's main
// started (the mark site/main.go sets), from navigation start.
const phasesJS = `(() => {
  const w = performance.getEntriesByType('resource').find(e => e.name.endsWith('/web/app.wasm'));
  const d = performance.getEntriesByType('navigation')[0];
  const m = n => { const e = performance.getEntriesByName(n)[0]; return e ? e.startTime.toFixed(0) : '?'; };
  return 'html ' + (d ? d.responseEnd.toFixed(0) : '?') + ' ms, app.wasm received ' + (w ? w.responseEnd.toFixed(0) : '?') +
    ' ms, compiled ' + m('wasm-ready') + ' ms, Go main ' + m('go-main') + ' ms, first Render ' + m('render') + ' ms, OnNav ' + m('nav') + '–' + m('nav-done') + ' ms';
})()`

var settle time.Duration

// loads opens link in a fresh profile (cold), then three more times in the
// same browser, each in a new tab (repeat visits, served by the service
// worker), and once more in the first tab after it has moved to another
// page of the site (the same renderer process, which keeps the compiled
// module).
func loads(profile, link, sel string) (cold float64, repeat []float64, sameTab float64, err error) {
	ctx, cancel, err := webtest.NewBrowser(context.Background(), profile)
	if err != nil {
		return 0, nil, 0, err
	}
	defer cancel()
	if err := chromedp.Do(ctx, inject(markJS(map[string]string{"figure": sel}))); err != nil {
		return 0, nil, 0, err
	}
	if err := chromedp.Do(ctx, chromedp.Navigate(link)); err != nil {
		return 0, nil, 0, err
	}
	cold, err = mark(ctx, "figure", 30*time.Second)
	if err != nil {
		return 0, nil, 0, err
	}
	phases, _ := chromedp.Run(ctx, chromedp.Evaluate[string](phasesJS))
	fmt.Printf("  cold: %s, figure %.0f ms\n", phases, cold)
	// Let the service worker finish caching before the repeat visits.
	if err := webtest.Poll(ctx, 30*time.Second, `navigator.serviceWorker.controller !== null`); err != nil {
		return 0, nil, 0, err
	}
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`caches.keys().then(async ks => { for (const k of ks) { if ((await (await caches.open(k)).keys()).length >= 10) return true } return false })`, chromedp.EvalAwaitPromise)); err != nil {
		return 0, nil, 0, err
	}
	time.Sleep(settle)
	for i := 0; i < 3; i++ {
		// A new tab, as a person opening the link again would.
		tab, cancelTab := chromedp.NewContext(ctx)
		if err := chromedp.Do(tab, inject(markJS(map[string]string{"figure": sel})), chromedp.Navigate(link)); err != nil {
			cancelTab()
			return 0, nil, 0, err
		}
		ms, err := mark(tab, "figure", 30*time.Second)
		if err == nil && i == 0 {
			phases, _ := chromedp.Run(tab, chromedp.Evaluate[string](phasesJS))
			fmt.Printf("  repeat: %s, figure %.0f ms\n", phases, ms)
		}
		cancelTab()
		if err != nil {
			return 0, nil, 0, err
		}
		repeat = append(repeat, ms)
	}
	u, err := url.Parse(link)
	if err != nil {
		return 0, nil, 0, err
	}
	u.Path, u.Fragment = "/manifest.webmanifest", ""
	if err := chromedp.Do(ctx, chromedp.Navigate(u.String())); err != nil {
		return 0, nil, 0, err
	}
	if err := chromedp.Do(ctx, chromedp.Navigate(link)); err != nil {
		return 0, nil, 0, err
	}
	if sameTab, err = mark(ctx, "figure", 30*time.Second); err != nil {
		return 0, nil, 0, err
	}
	return cold, repeat, sameTab, nil
}

// writeCSV writes rows of scenario,run,passed: 1000 scenarios per run, an
// 8% failure rate from a fixed seed.
func writeCSV(path string, rows int) (int64, error) {
	f, err := os.Create(path)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	bw := bufio.NewWriterSize(f, 1<<20)
	bw.WriteString("scenario,run,passed\n")
	rng := rand.New(rand.NewPCG(3, 4))
	const scenarios = 1000
	for i := 0; i < rows; i++ {
		p := "1"
		if rng.Float64() < 0.08 {
			p = "0"
		}
		bw.WriteString("scenario_" + strconv.Itoa(i%scenarios) + ",run_" + strconv.Itoa(i/scenarios) + "," + p + "\n")
	}
	if err := bw.Flush(); err != nil {
		return 0, err
	}
	fi, err := f.Stat()
	if err != nil {
		return 0, err
	}
	return fi.Size(), nil
}

// frameJS records the change event's time and the longest gap between
// animation frames from then on.
const frameJS = `window.__frames = {start: null, maxGap: 0, last: null};
document.addEventListener('change', () => { window.__frames.start = performance.now(); window.__frames.last = performance.now(); window.__frames.maxGap = 0; }, true);
(function loop(t) { const f = window.__frames; if (f.last !== null) { f.maxGap = Math.max(f.maxGap, t - f.last); f.last = t; } requestAnimationFrame(loop); })(performance.now());`

func csvRuns(profile, base, csvPath string, rows, reps int, r *Result) error {
	ctx, cancel, err := webtest.NewBrowser(context.Background(), profile)
	if err != nil {
		return err
	}
	defer cancel()
	abs, _ := filepath.Abs(csvPath)
	// The headline figures come first ("done"); the in-depth analyses
	// follow, computed off the UI goroutine ("all": #depth-pending gone).
	sel := fmt.Sprintf(`[data-field="rows"][value="%d"]`, rows)
	all := fmt.Sprintf(`#result:has(%s):not(:has(#depth-pending))`, sel)
	for i := 0; i < reps; i++ {
		if err := chromedp.Do(ctx, inject(markJS(map[string]string{"done": sel, "all": all})+frameJS), chromedp.Navigate(base+"/aa")); err != nil {
			return err
		}
		if err := webtest.WaitReady(ctx, 30*time.Second); err != nil {
			return err
		}
		if err := chromedp.Do(ctx, chromedp.SetUploadFiles(chromedp.ID("file-baseline"), []string{abs})); err != nil {
			return err
		}
		done, err := mark(ctx, "done", 120*time.Second)
		if err != nil {
			return err
		}
		whole, err := mark(ctx, "all", 120*time.Second)
		if err != nil {
			return err
		}
		var f struct {
			Start  float64 `json:"start"`
			MaxGap float64 `json:"maxGap"`
		}
		raw, err := chromedp.Run(ctx, chromedp.Evaluate[string](`JSON.stringify(window.__frames)`))
		if err != nil {
			return err
		}
		json.Unmarshal([]byte(raw), &f)
		parse, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`document.getElementById('loaded-baseline').dataset.ms`))
		p, _ := strconv.ParseFloat(parse, 64)
		r.CSVMS = append(r.CSVMS, done-f.Start)
		r.CSVAllMS = append(r.CSVAllMS, whole-f.Start)
		r.CSVParseMS = append(r.CSVParseMS, p)
		r.CSVMaxFrameMS = append(r.CSVMaxFrameMS, f.MaxGap)
	}
	return nil
}

// keyJS times each keystroke: keydown → first change of a figure in the
// DOM, and → the next animation frame after it.
const keyJS = `window.__ks = {dom: [], paint: []};
(() => {
  let t0 = null;
  document.addEventListener('keydown', () => { t0 = performance.now(); }, true);
  new MutationObserver(() => {
    if (t0 === null) return;
    const start = t0; t0 = null;
    window.__ks.dom.push(performance.now() - start);
    requestAnimationFrame(() => window.__ks.paint.push(performance.now() - start));
  }).observe(document, {subtree: true, childList: true, characterData: true, attributes: true, attributeFilter: ['value']});
})();`

// keystrokes times n keystrokes in the budget form into r, and prints the
// times.
func keystrokes(profile, base string, n int, r *Result) error {
	ctx, cancel, err := webtest.NewBrowser(context.Background(), profile)
	if err != nil {
		return err
	}
	defer cancel()
	if err := chromedp.Do(ctx, inject(keyJS), chromedp.Navigate(base+"/#rates="+url.QueryEscape("0.05"))); err != nil {
		return err
	}
	if err := webtest.WaitReady(ctx, 30*time.Second); err != nil {
		return err
	}
	if err := webtest.TypeInto(ctx, "in-rates", "0.05"); err != nil {
		return err
	}
	time.Sleep(200 * time.Millisecond)
	chromedp.Run(ctx, chromedp.Evaluate[bool](`(() => { const el = document.getElementById('in-rates'); el.focus(); el.setSelectionRange(el.value.length, el.value.length); window.__ks = {dom: [], paint: []}; return true })()`))
	if profileKeys {
		if err := chromedp.Do(ctx, startProfiler); err != nil {
			return err
		}
	}
	for i := 0; i < n; i++ {
		// Alternate a digit and Backspace: 0.05 → 0.051 → 0.05 → 0.052 …,
		// so every keystroke changes the figures.
		key := strconv.Itoa(1 + (i/2)%9)
		if i%2 == 1 {
			key = "\b"
		}
		if err := chromedp.Do(ctx, chromedp.KeyEvent(key)); err != nil {
			return err
		}
		if err := webtest.Poll(ctx, 5*time.Second, fmt.Sprintf(`window.__ks.paint.length >= %d`, i+1)); err != nil {
			return fmt.Errorf("keystroke %d (%q): %w", i, key, err)
		}
	}
	if profileKeys {
		p, err := stopProfiler(ctx)
		if err != nil {
			return err
		}
		fmt.Printf("  %d keystrokes:\n", n)
		printProfile(p, 25)
	}
	raw, err := chromedp.Run(ctx, chromedp.Evaluate[string](`JSON.stringify(window.__ks)`))
	if err != nil {
		return err
	}
	var ks struct{ Dom, Paint []float64 }
	json.Unmarshal([]byte(raw), &ks)
	r.KeyMS, r.KeyPaintMS = ks.Dom, ks.Paint
	fmt.Printf("keystroke in the budget form → figures in the DOM: %s; → next frame %s\n", stats(r.KeyMS), stats(r.KeyPaintMS))
	return nil
}

// profileLoad opens link in a fresh profile under V8's sampling profiler
// and prints the functions with the most self time until the figure shows,
// then (keys > 0) the same for that many keystrokes in the budget form.
func profileLoad(profile, link, sel string) error {
	ctx, cancel, err := webtest.NewBrowser(context.Background(), profile)
	if err != nil {
		return err
	}
	defer cancel()
	if err := chromedp.Do(ctx, inject(markJS(map[string]string{"figure": sel})), startProfiler, chromedp.Navigate(link)); err != nil {
		return err
	}
	ms, err := mark(ctx, "figure", 30*time.Second)
	if err != nil {
		return err
	}
	phases, _ := chromedp.Run(ctx, chromedp.Evaluate[string](phasesJS))
	fmt.Printf("  %s, figure %.0f ms\n", phases, ms)
	prof, err := stopProfiler(ctx)
	if err != nil {
		return err
	}
	printProfile(prof, 30)
	return nil
}

// profileKeys makes keystrokes record a V8 profile (-only profile).
var profileKeys bool

var startProfiler = chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
	if _, err := cdp.Call(ctx, t, profiler.Enable, cdp.Empty{}); err != nil {
		return err
	}
	if _, err := cdp.Call(ctx, t, profiler.SetSamplingInterval, profiler.SetSamplingIntervalParams{Interval: 200}); err != nil {
		return err
	}
	_, err := cdp.Call(ctx, t, profiler.Start, cdp.Empty{})
	return err
})

func stopProfiler(ctx context.Context) (*profiler.Profile, error) {
	var prof *profiler.Profile
	err := chromedp.Do(ctx, chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		res, err := cdp.Call(ctx, t, profiler.Stop, cdp.Empty{})
		prof = res.Profile
		return err
	}))
	return prof, err
}

func printProfile(p *profiler.Profile, top int) {
	byID := map[int64]*profiler.ProfileNode{}
	for _, n := range p.Nodes {
		byID[n.ID] = n
	}
	parent := map[int64]int64{}
	for _, n := range p.Nodes {
		for _, c := range n.Children {
			parent[c] = n.ID
		}
	}
	self, incl := map[string]float64{}, map[string]float64{}
	var total float64
	for i, id := range p.Samples {
		if i >= len(p.TimeDeltas) {
			break
		}
		n := byID[id]
		if n == nil {
			continue
		}
		name := n.CallFrame.FunctionName
		if name == "" {
			name = "(anonymous) " + filepath.Base(n.CallFrame.URL)
		}
		d := float64(p.TimeDeltas[i]) / 1000
		self[name] += d
		total += d
		seen := map[string]bool{}
		for id, ok := n.ID, true; ok; id, ok = parent[id] {
			fn := byID[id].CallFrame.FunctionName
			if !seen[fn] {
				seen[fn] = true
				incl[fn] += d
			}
		}
	}
	fmt.Printf("  self time, %.0f ms sampled:\n", total)
	printTop(self, top, "    %7.1f ms  %s\n", 1)
	for k := range incl {
		if !strings.Contains(k, ".") {
			delete(incl, k)
		}
	}
	fmt.Printf("  inclusive time of Go functions:\n")
	printTop(incl, top*2, "    %7.1f ms  %s\n", 1)
}

// printTop prints the n largest values of m, each divided by unit, with
// format (a number, then the key), largest first.
func printTop(m map[string]float64, n int, format string, unit float64) {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		if m[keys[i]] != m[keys[j]] {
			return m[keys[i]] > m[keys[j]]
		}
		return keys[i] < keys[j]
	})
	for _, k := range keys[:min(n, len(keys))] {
		fmt.Printf(format, m[k]/unit, k)
	}
}
