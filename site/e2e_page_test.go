//go:build integration

package main

import (
	"context"
	"net/http/httptest"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/flakegate/flakegate/wasm/page/webtest"
)

// The pages as a reviewer meets them, at a desktop's and a phone's width:
// what the buttons copy, what the pages say first, how they read on a phone.

// widths are the viewports every test of this file runs at: a laptop and a
// phone (390 CSS px, the width of most current phones).
var widths = []width{
	{"1280", 1280, 900, false},
	{"390", 390, 844, true},
}

// width is a viewport: its name, its size in CSS px, and whether it is a
// phone's (touch, two device pixels a CSS px).
type width struct {
	name  string
	w, h  int64
	phone bool
}

// startBrowser builds the site (once per test binary) and starts headless
// chromium with a fresh profile until the test ends; a missing chromium
// fails the test.
func startBrowser(t *testing.T) context.Context {
	t.Helper()
	if _, err := webtest.Chromium(); err != nil {
		t.Fatal(err) // before building: a missing chromium is a failure
	}
	built(t)
	ctx, cancel, err := webtest.NewBrowser(context.Background(), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(cancel)
	return ctx
}

// browseSite is startBrowser and serveSite: a browser and the built site,
// both until the test ends.
func browseSite(t *testing.T) (context.Context, *httptest.Server) {
	t.Helper()
	return startBrowser(t), serveSite(t)
}

// atWidths runs f as a subtest at each of widths, in a fresh tab of
// browser at that width.
func atWidths(t *testing.T, browser context.Context, f func(t *testing.T, ctx context.Context, w width)) {
	for _, w := range widths {
		t.Run(w.name, func(t *testing.T) { f(t, freshTab(t, browser, w), w) })
	}
}

// serveSite serves the built site from 127.0.0.1 until the test ends.
func serveSite(t *testing.T) *httptest.Server {
	t.Helper()
	dir, _ := built(t)
	srv, _, err := webtest.Serve(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Close)
	return srv
}

// newTab opens a browser context that shares nothing with the others (no
// cache, no service worker, no storage), closed when t ends.
func newTab(t *testing.T, parent context.Context) context.Context {
	ctx, cancel := chromedp.NewContext(parent, chromedp.WithNewBrowserContext())
	t.Cleanup(cancel)
	return ctx
}

// freshTab is newTab at width w.
func freshTab(t *testing.T, parent context.Context, w width) context.Context {
	t.Helper()
	ctx := newTab(t, parent)
	opts := []chromedp.EmulateViewportOption{chromedp.EmulateScale(1)}
	if w.phone {
		opts = []chromedp.EmulateViewportOption{chromedp.EmulateMobile, chromedp.EmulateScale(2)}
	}
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(w.w, w.h, opts...)); err != nil {
		t.Fatal(err)
	}
	return ctx
}

// stubClipboard makes navigator.clipboard.writeText record its text in
// window.__copied (headless clipboards need a user gesture and a focused
// window).
func stubClipboard(t *testing.T, ctx context.Context) {
	t.Helper()
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`navigator.clipboard.writeText = async (t) => { window.__copied = t; }; window.__copied = undefined; true`)); err != nil {
		t.Fatal(err)
	}
}

// copied clicks the button with id and returns what it put on the
// clipboard.
func copied(t *testing.T, ctx context.Context, id string) string {
	t.Helper()
	stubClipboard(t, ctx)
	click, cancel := context.WithTimeout(ctx, 60*time.Second)
	defer cancel()
	if err := chromedp.Do(click, chromedp.Click(chromedp.ID(id))); err != nil {
		t.Fatalf("clicking #%s: %v", id, err)
	}
	if err := webtest.Poll(ctx, 30*time.Second, `typeof window.__copied === 'string'`); err != nil {
		t.Fatalf("#%s copied nothing: %v", id, err)
	}
	s, err := chromedp.Run(ctx, chromedp.Evaluate[string](`window.__copied`))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// settled waits until the page has applied every input: the in-depth A/A
// analyses are done and the address bar holds the state. The page writes
// the address bar from a timer task it queues from the next animation
// frame (keepInURL, after the paint); a frame and a task queued after it
// run after the page's, so once they have run the write is done, however
// slow the machine.
func settled(t *testing.T, ctx context.Context) {
	t.Helper()
	poll(t, ctx, 60*time.Second, `!document.getElementById('depth-pending') && !document.querySelector('progress')`)
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`new Promise(r => requestAnimationFrame(() => setTimeout(() => r(true), 0)))`, chromedp.EvalAwaitPromise)); err != nil {
		t.Fatal(err)
	}
}

// Problem 1: "Copy as Markdown" copied the result of the page's first
// render. After any edit, what the button copies must equal what a fresh
// load of the page's link copies (and say what the page says). What is
// copied does not depend on the window: each edit runs at one width, the
// two widths taken in turn, so both are tried.
func TestPageCopyIsCurrent(t *testing.T) {
	browser, srv := browseSite(t)
	// typed is an edit: text typed into the input #id, then a wait until
	// the JavaScript expression until holds.
	typed := func(id, text, until string) func(*testing.T, context.Context) {
		return func(t *testing.T, ctx context.Context) {
			typeIn(t, ctx, id, text)
			poll(t, ctx, 10*time.Second, until)
		}
	}
	base := aaCSV(60, 8, func(s, r int) bool { return (s*13+r*7)%17 == 0 || (s%9 == 0 && r%2 == 1) })
	cand := aaCSV(60, 5, func(s, r int) bool { return (s*11+r*5)%9 == 0 })
	for k, w := range widths {
		t.Run(w.name, func(t *testing.T) {
			for i, pg := range []struct {
				name, path string
				edit       func(t *testing.T, ctx context.Context)
			}{
				{"budget", "/", typed("in-cap", "5", `document.querySelector('[data-field=cap]')?.getAttribute('value') === '5'`)},
				{"decide", "/decide", typed("in-min_trials", "60", `document.querySelector('[data-field=verdict]')?.getAttribute('value') === 'underpowered'`)},
				{"budget-example", "/", func(t *testing.T, ctx context.Context) {
					if err := chromedp.Do(ctx, chromedp.Click(chromedp.ID("example-1"))); err != nil {
						t.Fatal(err)
					}
					poll(t, ctx, 10*time.Second, `document.querySelector('[data-field=cost_seconds]')?.getAttribute('value') === '8'`)
				}},
				{"decide-reports", "/decide", func(t *testing.T, ctx context.Context) {
					// Reports of both arms, then a setting: the copy holds
					// every test, tabulated with the new setting.
					dir := filepath.Join(repoRoot(), "core", "report", "testdata", "reports", "junit")
					for _, up := range []struct{ id, file string }{{"file-ledger", "pytest.xml"}, {"file-patched-reports", "pytest_reruns.xml"}} {
						abs, _ := filepath.Abs(filepath.Join(dir, up.file))
						if err := chromedp.Do(ctx, chromedp.SetUploadFiles(chromedp.ID(up.id), []string{abs})); err != nil {
							t.Fatal(err)
						}
					}
					poll(t, ctx, 10*time.Second, `!!document.querySelector('[data-scope=ledger] [data-field=nodeid]') && document.getElementById('ledger-files').children.length === 2`)
					copied(t, ctx, "copy-md")
					typed("in-min_trials", "2", `document.querySelector('[data-scope=ledger] [data-field=min_trials]')?.getAttribute('value') === '2'`)(t, ctx)
				}},
				{"quarantine", "/quarantine", typed("in-below", "2%", `document.querySelector('[data-field=below]')?.getAttribute('value') === '0.02'`)},
				{"aa", "/aa", func(t *testing.T, ctx context.Context) {
					// A result without a candidate first, then the candidate:
					// the button must not keep the first result.
					if err := webtest.Paste(ctx, "text-baseline", base); err != nil {
						t.Fatal(err)
					}
					poll(t, ctx, 10*time.Second, `!!document.querySelector('[data-field=scenarios]')`)
					settled(t, ctx)
					copied(t, ctx, "copy-md")
					if err := webtest.Paste(ctx, "text-candidate", cand); err != nil {
						t.Fatal(err)
					}
					poll(t, ctx, 10*time.Second, `!!document.querySelector('[data-scope=candidate] [data-field=verdict]')`)
				}},
			} {
				if i%len(widths) != k {
					continue
				}
				t.Run(pg.name, func(t *testing.T) {
					ctx := freshTab(t, browser, w)
					open(t, ctx, srv.URL+pg.path)
					if pg.path != "/aa" { // the A/A page has nothing to copy until a baseline is read
						copied(t, ctx, "copy-md") // the first render's handler is mounted and used
					}
					pg.edit(t, ctx)
					settled(t, ctx)
					link := location(t, ctx)
					got := copied(t, ctx, "copy-md")
					shown, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.getElementById('markdown').textContent`))
					if err != nil {
						t.Fatal(err)
					}

					fresh := freshTab(t, browser, w)
					open(t, fresh, link)
					settled(t, fresh)
					want := copied(t, fresh, "copy-md")
					if got != want {
						t.Errorf("after an edit the button copied\n%s\nwhile a fresh load of %s copies\n%s", got, link, want)
					}
					// The copy is the Markdown the page shows, with the link.
					if got != shown+"\n[Open in flakegate]("+link+")\n" {
						t.Errorf("copied Markdown differs from the one on the page:\ncopied %s\nshown %s", strconv.Quote(got), strconv.Quote(shown))
					}
				})
			}
		})
	}
}
