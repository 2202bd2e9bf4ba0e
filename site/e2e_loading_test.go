//go:build integration

package main

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/flakegate/flakegate/wasm/page/fieldcheck"
	"github.com/flakegate/flakegate/wasm/page/webtest"
)

// wasmGate serves the site, holding app.wasm back until released, or
// failing it, to see the page as it is while the calculator loads.
type wasmGate struct {
	site http.Handler
	mu   sync.Mutex
	hold chan struct{} // nil: serve at once
	fail bool
}

func (g *wasmGate) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path == "/web/app.wasm" {
		g.mu.Lock()
		hold, fail := g.hold, g.fail
		g.mu.Unlock()
		if fail {
			http.Error(w, "unavailable", http.StatusServiceUnavailable)
			return
		}
		if hold != nil {
			select {
			case <-hold:
			case <-r.Context().Done():
				return
			}
		}
	}
	g.site.ServeHTTP(w, r)
}

// gatedSite serves the built site through a wasmGate until the test ends.
func gatedSite(t *testing.T) (*wasmGate, *httptest.Server) {
	t.Helper()
	dir, _ := built(t)
	site, err := webtest.NewHandler(dir)
	if err != nil {
		t.Fatal(err)
	}
	gate := &wasmGate{site: site}
	srv := httptest.NewServer(gate)
	t.Cleanup(srv.Close)
	return gate, srv
}

// set holds app.wasm back (returning the release function), fails it, or
// (neither) serves it.
func (g *wasmGate) set(hold, fail bool) func() {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.fail = fail
	g.hold = nil
	if !hold {
		return func() {}
	}
	ch := make(chan struct{})
	g.hold = ch
	var once sync.Once
	return func() { once.Do(func() { close(ch) }) }
}

// visibleJS reports "" when the first figure on the page (a data-field
// element with a box) and the element of id are each the topmost element
// at their centre, or what covers them.
const visibleJS = `((id) => {
  const fig = Array.from(document.querySelectorAll('[data-field]')).find(e => { const r = e.getBoundingClientRect(); return r.width >= 4 && r.height >= 4; });
  const out = [];
  for (const [what, el] of [['a figure', fig], ['#' + id, document.getElementById(id)]]) {
    if (!el) { out.push(what + ' is missing'); continue; }
    el.scrollIntoView({block: 'center'});
    const r = el.getBoundingClientRect();
    const top = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    if (!top || !(top === el || el.contains(top))) out.push(what + ' is covered by ' + (top ? (top.id || top.className || top.tagName) : 'nothing'));
  }
  return out.join('; ');
})`

// noteJS describes the loader note: its share of the viewport and text.
const noteJS = `(() => {
  const l = document.getElementById('app-wasm-loader');
  if (!l) return {present: false, share: 0, text: ''};
  const r = l.getBoundingClientRect();
  return {present: true, share: (r.width * r.height) / (innerWidth * innerHeight), text: l.innerText, role: l.getAttribute('role') || ''};
})()`

type note struct {
	Present bool    `json:"present"`
	Share   float64 `json:"share"`
	Text    string  `json:"text"`
	Role    string  `json:"role"`
}

func loaderNote(t *testing.T, ctx context.Context) note {
	t.Helper()
	n, err := chromedp.Run(ctx, chromedp.Evaluate[note](noteJS))
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// startLoad points the tab at url without waiting for the load event
// (which waits for the preloaded app.wasm) and waits until the
// pre-rendered page and app.js are in.
func startLoad(t *testing.T, ctx context.Context, url string) {
	t.Helper()
	goTo(t, ctx, url)
	poll(t, ctx, 20*time.Second, `location.href === `+strconv.Quote(url)+` && document.readyState !== 'loading' && !!document.getElementById('in-cap') && typeof flakegateEarly === 'object'`)
}

// A full-screen "Loading the calculator…" once
// hid the pre-rendered page for 1–3 s, and a failed load left its error
// on that screen. Now the page stays readable and editable with a small
// note; what is typed meanwhile is computed once the calculator is up
// (the figures must equal the CLI's for the same inputs, the independent
// reference the other browser tests use); a failed load says so in the
// note, with a Retry button (TestFailedLoadRetries), and the pre-rendered
// figures (the CLI's defaults, the page's own without a link) stay readable.
func TestPageWhileLoading(t *testing.T) {
	browser := startBrowser(t)
	gate, srv := gatedSite(t)
	defaults := cli(t, "budget", "-json", "-rates", "0.05,0.02,0.01")
	typed := cli(t, "budget", "-json", "-rates", "0.05,0.02,0.01", "-cap", "5", "-target", "0.9")

	for _, w := range widths {
		t.Run(w.name, func(t *testing.T) {
			t.Run("edits kept", func(t *testing.T) {
				ctx := freshTab(t, browser, w)
				release := gate.set(true, false)
				defer release()
				startLoad(t, ctx, srv.URL+"/")
				if n := loaderNote(t, ctx); !n.Present || n.Share > 0.12 || !strings.Contains(n.Text, "Loading the calculator") {
					t.Errorf("while loading, the note is %+v; want a small note saying the calculator is loading", n)
				}
				if msg, err := chromedp.Run(ctx, chromedp.Evaluate[string](visibleJS+`('in-cap')`)); err != nil || msg != "" {
					t.Errorf("while loading: %s %v", msg, err)
				}
				screenshot(t, ctx, "loading-"+w.name)
				typeIn(t, ctx, "in-cap", "5")
				typeIn(t, ctx, "in-target", "0.9")
				release()
				if err := webtest.WaitReady(ctx, 30*time.Second); err != nil {
					t.Fatal(err)
				}
				expectFields(t, ctx, "edits made while loading", "", typed)
				if err := webtest.Poll(ctx, 5*time.Second, `document.getElementById('in-cap').value === '5' && document.getElementById('in-target').value === '0.9' && location.search.includes('cap=5') && location.search.includes('target=0.9')`); err != nil {
					state, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`document.getElementById('in-cap').value + ' ' + document.getElementById('in-target').value + ' ' + location.search`))
					t.Errorf("the edits are not in the fields and the link: %s (%v)", state, err)
				}
				if id, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`document.activeElement ? document.activeElement.id : ''`)); id != "in-target" {
					t.Errorf("focus is on %q, want in-target, where the person was typing", id)
				}
			})
			t.Run("failed load", func(t *testing.T) {
				ctx := freshTab(t, browser, w)
				gate.set(false, true)
				defer gate.set(false, false)
				startLoad(t, ctx, srv.URL+"/")
				if err := webtest.Poll(ctx, 20*time.Second, `!!document.querySelector('#app-wasm-loader.fg-failed')`); err != nil {
					t.Fatalf("no failure note: %v (note %+v)", err, loaderNote(t, ctx))
				}
				n := loaderNote(t, ctx)
				if !strings.Contains(n.Text, "could not load: the server answered 503") || !strings.Contains(n.Text, "Retry") || n.Role != "alert" || n.Share > 0.25 {
					t.Errorf("the failure note is %+v; want a small alert saying why the calculator could not load, with Retry", n)
				}
				if msg, err := chromedp.Run(ctx, chromedp.Evaluate[string](visibleJS+`('in-cap')`)); err != nil || msg != "" {
					t.Errorf("after a failed load: %s %v", msg, err)
				}
				prerenderedFigures(t, ctx, defaults)
				screenshot(t, ctx, "load-failed-"+w.name)
			})
		})
	}
}

// prerenderedFigures compares the pre-rendered page's figures with the
// CLI's result. go-app's server-side renderer writes an attribute whose
// value is "true" as a bare attribute (value=""), so the booleans'
// machine values are not in the pre-rendered HTML (their words are);
// those fields are left out, every other one must match.
func prerenderedFigures(t *testing.T, ctx context.Context, want []byte) {
	t.Helper()
	page, err := webtest.Fields(ctx)
	if err != nil {
		t.Fatal(err)
	}
	bare := map[string]bool{}
	for k, v := range page {
		if v == "" {
			bare[k] = true
		}
	}
	diffs, err := fieldcheck.Diff(page, "", want)
	if err != nil {
		t.Fatal(err)
	}
	if len(page) < 10 {
		t.Errorf("only %d pre-rendered figures on the page", len(page))
	}
	for _, d := range diffs {
		k, _, _ := strings.Cut(d, ":")
		if !bare[k] {
			t.Errorf("pre-rendered figures after a failed load: %s", d)
		}
	}
}
