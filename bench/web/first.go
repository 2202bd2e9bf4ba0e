package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/flakegate/flakegate/bench/web/floor"
	"github.com/flakegate/flakegate/wasm/page/webtest"
)

// What a link costs before its own answer is on the screen, cold (a fresh
// profile each load), on the local server, which renders a query link's
// answer into the page it sends:
//
//   - the pre-rendered page (no link): its first paint (First Contentful
//     Paint) and its time to interactive (the calculator mounted: the
//     loader's note gone);
//   - a query link: its first figure, the moment its own figure is both in
//     the page and painted (the later of the figure's arrival and the
//     first paint), and its time to interactive;
//   - the same link as a private (fragment) link, which no server sees:
//     its first figure comes from the calculator;
//   - go-app's smallest page (floor), measured in the same run: its first
//     paint and its component mounted.
//
// Every time is a median from navigation start, and is given as a ratio to
// the floor's mount; the target is a query link's first figure within 1.1×
// the pre-rendered page's first paint.

// firstJS records, in window.__fp, the first paint, when the JavaScript
// expression shown first holds, and when the page became interactive (the
// loader's note, once seen, is gone).
func firstJS(shown string) string {
	return `window.__fp = {};
(() => {
  const fp = window.__fp, shown = () => ` + shown + `;
  new PerformanceObserver((l) => { for (const e of l.getEntries()) if (e.name === 'first-contentful-paint') fp.fcp = e.startTime; }).observe({type: 'paint', buffered: true});
  const check = () => {
    if (fp.match === undefined && shown()) fp.match = performance.now();
    if (document.getElementById('app-wasm-loader')) fp.loader = true;
    else if (fp.loader && fp.ready === undefined) fp.ready = performance.now();
  };
  new MutationObserver(check).observe(document, {subtree: true, childList: true, attributes: true});
})();`
}

type firstTimes struct {
	FCP   float64 `json:"fcp"`
	Match float64 `json:"match"`
	Ready float64 `json:"ready"`
}

// firstLoad opens link cold in a fresh profile and returns its first
// paint, when shown first held and its time to interactive, in ms from
// navigation start.
func firstLoad(profile, link, shown string) (firstTimes, error) {
	ctx, cancel, err := webtest.NewBrowser(context.Background(), profile)
	if err != nil {
		return firstTimes{}, err
	}
	defer cancel()
	if err := chromedp.Do(ctx, inject(firstJS(shown)), chromedp.Navigate(link)); err != nil {
		return firstTimes{}, err
	}
	if err := webtest.Poll(ctx, 60*time.Second, `window.__fp && window.__fp.fcp !== undefined && window.__fp.match !== undefined && window.__fp.ready !== undefined`); err != nil {
		js, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`JSON.stringify(window.__fp)`))
		return firstTimes{}, fmt.Errorf("%s: %v (%s)", link, err, js)
	}
	js, err := chromedp.Run(ctx, chromedp.Evaluate[string](`JSON.stringify(window.__fp)`))
	if err != nil {
		return firstTimes{}, err
	}
	var t firstTimes
	if err := json.Unmarshal([]byte(js), &t); err != nil {
		return firstTimes{}, err
	}
	return t, nil
}

// figure is when a link's own figure is on the screen: in the page, and
// painted.
func (t firstTimes) figure() float64 { return max(t.Match, t.FCP) }

// firstBench runs the loads above reps times, interleaved, and prints the
// medians and their ratios.
func firstBench(tmp, site, floorURL, budgetLink string, reps int, r *Result) error {
	srv, err := webtest.StartLocalServer(".", tmp, site)
	if err != nil {
		return err
	}
	defer srv.Stop()
	u, err := url.Parse(budgetLink)
	if err != nil {
		return err
	}
	state := strings.TrimPrefix(u.EscapedFragment(), "#")
	plain := srv.URL + "/"
	query := srv.URL + "/?" + state
	private := srv.URL + "/#" + state
	// A link's own answer is on the page once the answer box holds its
	// sentence (words.BudgetAnswer, which the calculator and the server
	// both write); the pre-rendered page's example answer is another.
	answer, err := budgetAnswer()
	if err != nil {
		return err
	}
	linkShown := `((document.getElementById('answer') || {}).textContent || '').includes(` + strconv.Quote(answer) + `)`
	const floorShown = `!!document.querySelector(` + "`" + floor.Selector + "`" + `)`
	const plainShown = `!!document.getElementById('answer')`
	var floorT, plainT, queryT, privateT []firstTimes
	n := 0
	for i := 0; i < reps; i++ {
		for _, l := range []struct {
			link, sel string
			into      *[]firstTimes
		}{
			{floorURL, floorShown, &floorT},
			{plain, plainShown, &plainT},
			{query, linkShown, &queryT},
			{private, linkShown, &privateT},
		} {
			n++
			t, err := firstLoad(filepath.Join(tmp, "first"+strconv.Itoa(n)), l.link, l.sel)
			if err != nil {
				return err
			}
			*l.into = append(*l.into, t)
		}
	}
	col := func(ts []firstTimes, f func(firstTimes) float64) []float64 {
		out := make([]float64, len(ts))
		for i, t := range ts {
			out[i] = f(t)
		}
		return out
	}
	fcp := func(t firstTimes) float64 { return t.FCP }
	fig := func(t firstTimes) float64 { return t.figure() }
	ready := func(t firstTimes) float64 { return t.Ready }
	r.Plain.FirstMS = col(plainT, fcp)
	r.Plain.ReadyMS = col(plainT, ready)
	r.Query.FirstMS = col(queryT, fig)
	r.Query.ReadyMS = col(queryT, ready)
	r.Private.FirstMS = col(privateT, fig)
	r.Private.ReadyMS = col(privateT, ready)
	r.FloorFirst.FirstMS = col(floorT, fcp)
	r.FloorFirst.ReadyMS = col(floorT, fig)
	floorMount := median(r.FloorFirst.ReadyMS)
	ratio := func(v []float64) string {
		return fmt.Sprintf("%.0f ms, %.2f× the floor", median(v), median(v)/floorMount)
	}
	fmt.Printf("go-app's smallest page: first paint %s; mounted %s\n", stats(r.FloorFirst.FirstMS), stats(r.FloorFirst.ReadyMS))
	fmt.Printf("pre-rendered page, no link: first paint %s; interactive %s\n", stats(r.Plain.FirstMS), stats(r.Plain.ReadyMS))
	fmt.Printf("query link (rendered by the local server): first figure %s; interactive %s\n", stats(r.Query.FirstMS), stats(r.Query.ReadyMS))
	fmt.Printf("private (fragment) link: first figure %s; interactive %s\n", stats(r.Private.FirstMS), stats(r.Private.ReadyMS))
	fmt.Printf("as ratios to the floor's mount (medians): pre-rendered first paint %s; query link's first figure %s, interactive %s; private link's first figure %s, interactive %s; pre-rendered page interactive %s\n",
		ratio(r.Plain.FirstMS), ratio(r.Query.FirstMS), ratio(r.Query.ReadyMS), ratio(r.Private.FirstMS), ratio(r.Private.ReadyMS), ratio(r.Plain.ReadyMS))
	fmt.Printf("a query link's first figure / the pre-rendered page's first paint: %.2f× (target 1.1×); a private link's: %.2f×\n",
		median(r.Query.FirstMS)/median(r.Plain.FirstMS), median(r.Private.FirstMS)/median(r.Plain.FirstMS))
	return nil
}
