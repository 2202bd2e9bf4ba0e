//go:build integration

package main

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/flakegate/flakegate/core/history"
	"github.com/flakegate/flakegate/core/history/histsim"
	"github.com/flakegate/flakegate/wasm/page/webtest"
)

// storeRuns plants a history with histsim (40 runs of 30 stable tests, two
// flaky ones failing 20% and 30% of the time, one outage failing half the
// suite), writes each run as a JUnit report and records it into a store
// with flakegate record, each run with its commit (c001…), time and job.
// It returns the store's path and, from the planted runs themselves, the
// runs (numbered in time order, as recorded) in which each test failed,
// and each run's time as recorded.
func storeRuns(t *testing.T) (string, map[string][]int, []string) {
	dir := t.TempDir()
	fgs := filepath.Join(dir, "runs.fgs")
	failed := map[string][]int{}
	n := 0
	c := histsim.Config{Seed: 27, Runs: 40, Stable: 30, Flaky: []float64{0.2, 0.3}, Outages: 1, OutageShare: [2]float64{0.5, 0.6}}
	var reports []string
	var metas []history.RunMeta
	_, err := histsim.Generate(c, func(meta history.RunMeta, results []history.TestResult) error {
		n++
		path := filepath.Join(dir, fmt.Sprintf("run-%03d.xml", n))
		f, err := os.Create(path)
		if err != nil {
			return err
		}
		defer f.Close()
		for _, r := range results {
			if r.Passed < r.Trials {
				// JUnit names "a/b" classname a, name b: "a.b".
				name := r.Test
				if k := strings.LastIndexByte(name, '/'); k >= 0 {
					name = name[:k] + "." + name[k+1:]
				}
				failed[name] = append(failed[name], n)
			}
		}
		reports, metas = append(reports, path), append(metas, meta)
		return histsim.WriteJUnit(f, meta, results)
	})
	if err != nil {
		t.Fatal(err)
	}
	var times []string
	for i, path := range reports {
		if i > 0 && !metas[i].Time.After(metas[i-1].Time) {
			t.Fatalf("the planted runs are not in time order at run %d", i+1)
		}
		times = append(times, metas[i].Time.UTC().Format(time.RFC3339))
		cli(t, "record", "-store", fgs, "-commit", fmt.Sprintf("c%03d", i+1), "-branch", "main", "-job", "ci/unit",
			"-run-id", "e2e:"+strconv.Itoa(i+1), "-time", times[i], path)
	}
	return fgs, failed, times
}

// storeSite serves the built site and, at /stores/runs.fgs, the store:
// a store= link fetches from the page's own origin, as its
// Content-Security-Policy (connect-src 'self') allows.
func storeSite(t *testing.T, fgs string) *httptest.Server {
	dir, _ := built(t)
	site, err := webtest.NewHandler(dir)
	if err != nil {
		t.Fatal(err)
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/stores/runs.fgs", func(w http.ResponseWriter, r *http.Request) { http.ServeFile(w, r, fgs) })
	mux.HandleFunc("/stores/", http.NotFound)
	mux.Handle("/", site)
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv
}

// cellsJS lists the picture's failure marks as "test #run" from their
// hover titles.
const cellsJS = `Array.from(document.querySelectorAll('#timeline svg.plot-wide rect.hm-fail')).map(r => {
  const m = r.querySelector('title').textContent.match(/^(\S+) .* in run #(\d+) · /); return m ? m[1] + ' #' + m[2] : '?'; })`

// TestHistoryStorePage drives the history page in headless Chromium at
// 1280 and 390 px with a store that flakegate record built from planted
// reports: opened by a store= link (fetched by the page) and dropped on
// the drop zone, it answers with flakegate history's sentence for the
// store, its picture has a mark for exactly each planted failure of the
// flaky tests (in the run it was planted in), a column's hover title
// names its run's commit, time and job, a link to a missing store says
// the server's answer, and the page never scrolls sideways.
func TestHistoryStorePage(t *testing.T) {
	fgs, failed, times := storeRuns(t)
	answer := firstLine(cli(t, "history", "-markdown", fgs))
	if !strings.Contains(answer, "2 of 32 tests are flaky in 40 runs") || !strings.Contains(answer, "1 outage") {
		t.Fatalf("the planted history (2 flaky tests of 32, 1 outage) reads as %q", answer)
	}
	// The flaky tests are the ones planted flaky (histsim names them
	// flaky/…); every run they failed in is a mark, outage included.
	var want []string
	for test, runs := range failed {
		if strings.HasPrefix(test, "flaky") {
			for _, r := range runs {
				want = append(want, test+" #"+strconv.Itoa(r))
			}
		}
	}
	sort.Strings(want)
	if len(want) < 4 {
		t.Fatalf("only %d planted failures of the flaky tests", len(want))
	}
	srv := storeSite(t, fgs)
	browser := startBrowser(t)
	atWidths(t, browser, func(t *testing.T, ctx context.Context, w width) {
		console := webtest.Watch(ctx)
		open(t, ctx, srv.URL+"/history?store="+url.QueryEscape(srv.URL+"/stores/runs.fgs"))
		waitFor(t, ctx, `!!document.getElementById('timeline')`)
		if got := evalJS[string](t, ctx, `document.getElementById('answer-text').textContent`); got != answer {
			t.Errorf("store link: the page says\n%s\nflakegate history\n%s", got, answer)
		}
		if got := evalJS[string](t, ctx, `document.getElementById('loaded-history').textContent`); got != "runs.fgs: 40 runs" {
			t.Errorf("store link: loaded %q", got)
		}
		got := evalJS[[]string](t, ctx, cellsJS)
		sort.Strings(got)
		if !slices.Equal(got, want) {
			t.Errorf("store link: the picture's marks\n%q\nthe planted failures\n%q", got, want)
		}
		// Run 7's column: its name (the report's path, as recorded),
		// commit, time and job on hover.
		title := evalJS[string](t, ctx, `document.querySelectorAll('#timeline svg.plot-wide rect.hm-col')[6].querySelector('title').textContent`)
		if w := "run-007.xml · commit c007 on main · " + times[6] + " · job ci/unit"; !strings.HasPrefix(title, "Run #7 · ") || !strings.HasSuffix(title, w) {
			t.Errorf("run 7's hover title: %q, want Run #7 · …%s", title, w)
		}
		if n := evalJS[int](t, ctx, `document.querySelectorAll('#timeline svg.plot-wide rect.hm-col.hm-outage').length`); n != 1 {
			t.Errorf("%d outage columns, want 1", n)
		}
		// The answer first, then the picture, then the tables.
		if got := evalJS[string](t, ctx, answerFirstJS); !strings.HasPrefix(got, "answer :: "+answer) {
			t.Errorf("the answer is not first: %s", got)
		}
		fitsAndShot(t, ctx, "history-store", w.phone)

		// A path on the site is a store link too.
		open(t, ctx, srv.URL+"/history?store=/stores/runs.fgs")
		waitFor(t, ctx, `(document.getElementById('loaded-history')||{}).textContent === 'runs.fgs: 40 runs'`)
		if got := evalJS[string](t, ctx, `document.getElementById('answer-text').textContent`); got != answer {
			t.Errorf("store path link: the page says\n%s\nflakegate history\n%s", got, answer)
		}

		// The same store dropped on the page.
		open(t, ctx, srv.URL+"/history")
		dropOn(t, ctx, "drop-history", fgs)
		waitFor(t, ctx, `!!document.getElementById('timeline')`)
		if got := evalJS[string](t, ctx, `document.getElementById('answer-text').textContent`); got != answer {
			t.Errorf("dropped store: the page says\n%s\nflakegate history\n%s", got, answer)
		}
		got = evalJS[[]string](t, ctx, cellsJS)
		sort.Strings(got)
		if !slices.Equal(got, want) {
			t.Errorf("dropped store: the picture's marks\n%q\nthe planted failures\n%q", got, want)
		}

		// A link to a store that is not there says so.
		open(t, ctx, srv.URL+"/history?store="+url.QueryEscape(srv.URL+"/stores/missing.fgs"))
		waitFor(t, ctx, `!!document.getElementById('err-history')`)
		if msg := evalJS[string](t, ctx, `document.getElementById('err-history').textContent`); !strings.Contains(msg, "the server answered 404") {
			t.Errorf("missing store: %q", msg)
		}
		for _, e := range console.Errors() {
			if !strings.Contains(e, "404") { // the missing store's fetch
				t.Errorf("console: %s", e)
			}
		}
	})
}
