//go:build integration

package main

import (
	"context"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/accessibility"
	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"github.com/flakegate/flakegate/wasm/page/webtest"
)

// heard is the text a screen reader finds on the page: the names and
// values of the accessibility tree's nodes that are not ignored.
func heard(t *testing.T, ctx context.Context) string {
	t.Helper()
	res, err := chromedp.Run(ctx, func(ctx context.Context, tg *chromedp.Target) (accessibility.GetFullAXTreeResult, error) {
		return cdp.Call(ctx, tg, accessibility.GetFullAXTree, accessibility.GetFullAXTreeParams{})
	})
	if err != nil {
		t.Fatal(err)
	}
	tree := res.Nodes
	var b strings.Builder
	for _, n := range tree {
		if n.Ignored {
			continue
		}
		for _, v := range []*accessibility.Value{n.Name, n.Value} {
			if v != nil && len(v.Value) > 0 {
				b.WriteString(string(v.Value))
				b.WriteByte(' ')
			}
		}
	}
	return b.String()
}

// snake is a JSON name (observed_upper, over_cap): the page's data, not
// its words. A runner's flag (--runs_per_test) is the runner's word.
var snake = regexp.MustCompile(`(?:^|[^-\w])([a-z]+_[a-z_]+)\b`)

// What every page must let a person read, at both widths: expandable
// sections that look expandable, a skip link for keyboards, no raw data
// for screen readers, captions and plot labels a phone can read, and the
// words the answers were missing.
func TestPageReadsForEveryone(t *testing.T) {
	reports := repoRoot() + "/core/report/testdata/reports/gotest/"
	atEachWidth(t, func(t *testing.T, ctx context.Context, srv *httptest.Server, phone bool) {
		for _, pg := range []struct{ name, path string }{
			{"budget", "/#observe=3%2F40"},
			{"decide", "/decide"},
			{"aa", "/aa"},
			{"quarantine", "/quarantine"},
			{"compare", "/compare"},
		} {
			t.Run(pg.name, func(t *testing.T) {
				open(t, ctx, srv.URL+pg.path)
				switch pg.name {
				case "compare":
					clickID(t, ctx, "example-compare")
					waitFor(t, ctx, `!!document.getElementById('answer-text')`)
				case "decide":
					// The arms' table first, then the reports' table.
					if s := evalJS[string](t, ctx, captionsJS); s != "" {
						t.Errorf("captions narrower than their tables: %s", s)
					}
					dragOnto(t, ctx, "ledger", fileOf(t, reports+"count5.json"))
					dragOnto(t, ctx, "patched-reports", fileOf(t, reports+"seed2.json"))
					waitFor(t, ctx, `!!document.querySelector('[data-scope=ledger] table')`)
				case "aa":
					// Before any data the answer's live region draws nothing,
					// and says no bare dash.
					if h := evalJS[string](t, ctx, `String(document.getElementById('answer').getBoundingClientRect().height)`); h != "0" {
						t.Errorf("the empty answer region is %s px high", h)
					}
					if err := chromedp.Do(ctx, chromedp.Click(chromedp.ID("example-aa"))); err != nil {
						t.Fatal(err)
					}
					waitFor(t, ctx, `!!document.querySelector('[data-field=scenarios]')`)
					settled(t, ctx)
				}
				// Item 5: a summary keeps its disclosure marker.
				if s := evalJS[string](t, ctx, `[...document.querySelectorAll('details > summary')].filter(s => getComputedStyle(s).display !== 'list-item').map(s => s.textContent).join('|')`); s != "" {
					t.Errorf("summaries without their marker: %s", s)
				}
				// Item 6: raw data is not read out.
				// inspect_ai is a tool's own name, which the compare page
				// says.
				if tok := snake.FindAllString(strings.ReplaceAll(heard(t, ctx), "inspect_ai", "inspect-ai"), 5); len(tok) > 0 {
					// FindAllString keeps the character before each name.
					t.Errorf("a screen reader hears the page's data names: %v", tok)
				}
				for _, raw := range []string{"within the cap", "over the cap", " fits "} {
					if strings.Contains(heard(t, ctx), raw) {
						t.Errorf("a screen reader hears the hidden field %q", raw)
					}
				}
				// Item 4: a caption is as wide as its table, not a word a line.
				if s := evalJS[string](t, ctx, captionsJS); s != "" {
					t.Errorf("captions narrower than their tables: %s", s)
				}
				// Item 4: the labels of the plot shown do not overlap.
				if s := evalJS[string](t, ctx, plotOverlapJS); s != "" {
					t.Errorf("plot labels overlap: %s", s)
				}
			})
		}
		t.Run("skip", func(t *testing.T) {
			open(t, ctx, srv.URL+"/")
			evalJS[string](t, ctx, `document.activeElement.blur(), ''`)
			if err := chromedp.Do(ctx, chromedp.KeyEvent(kb.Tab)); err != nil {
				t.Fatal(err)
			}
			if id := evalJS[string](t, ctx, `document.activeElement.id`); id != "skip" {
				t.Fatalf("the first Tab reaches #%s, not the skip link", id)
			}
			if err := chromedp.Do(ctx, chromedp.KeyEvent(kb.Enter)); err != nil {
				t.Fatal(err)
			}
			if err := webtest.Poll(ctx, 5*time.Second, `document.activeElement.id === 'main'`); err != nil {
				t.Errorf("the skip link leaves the focus on #%s", evalJS[string](t, ctx, `document.activeElement.id`))
			}
			if u := location(t, ctx); strings.Contains(u, "#main") {
				t.Errorf("the skip link replaced the view's link: %s", u)
			}
		})
		t.Run("words", func(t *testing.T) {
			// A 0.001 s run with a cap that covers a 1% flake's 299 reruns.
			open(t, ctx, srv.URL+"/#cap=1000&cost=0.001&rates=0.01")
			want := mdFirstLine(string(cli(t, "budget", "-markdown", "-cap", "1000", "-cost", "0.001", "-rates", "0.01")))
			waitText(t, ctx, "budget answer", answerLeadJS, want)
			if strings.HasPrefix(want, "The gate passes:") {
				t.Errorf("the answer passes while the row refuses the green: %s", want)
			}
			if s := evalJS[string](t, ctx, `document.querySelector('#answer ul').textContent`); !strings.Contains(s, "at 0.001 s") {
				t.Errorf("row sentence %q", s)
			}
			open(t, ctx, srv.URL+"/decide#baseline=999999000%2F1000000000&patched=999999999%2F1000000000")
			if s := evalJS[string](t, ctx, answerLeadJS); strings.Contains(s, "100.0%") || !strings.Contains(s, "99.9999999%") {
				t.Errorf("decide answer %q", s)
			}
			// "zzzz" is base64url that DEFLATE cannot read: flate says
			// "corrupt input before offset 1".
			open(t, ctx, srv.URL+"/aa#aa=zzzz")
			if s := evalJS[string](t, ctx, `document.querySelector('[data-error=link]')?.textContent ?? ''`); s == "" || strings.Contains(s, "flate") || strings.Contains(s, "offset") || !strings.Contains(s, "damaged") {
				t.Errorf("damaged link says %q", s)
			}
		})
	})
}

// captionsJS lists the captions narrower than most of their table's width.
const captionsJS = `[...document.querySelectorAll('caption')].filter(c => c.getBoundingClientRect().width < 0.8 * c.closest('table').getBoundingClientRect().width).map(c => c.textContent + ' ' + Math.round(c.getBoundingClientRect().width) + 'px').join('|')`

// plotOverlapJS lists the pairs of labels of the plots on show whose boxes
// overlap by more than a pixel.
const plotOverlapJS = `(() => {
  const out = [];
  for (const svg of document.querySelectorAll('svg.plot')) {
    if (getComputedStyle(svg).display === 'none' || svg.getBoundingClientRect().width === 0) continue;
    const ts = [...svg.querySelectorAll('text')].map(t => [t.textContent, t.getBoundingClientRect()]);
    for (let i = 0; i < ts.length; i++) for (let j = i + 1; j < ts.length; j++) {
      const [a, r] = ts[i], [b, q] = ts[j];
      const w = Math.min(r.right, q.right) - Math.max(r.left, q.left), h = Math.min(r.bottom, q.bottom) - Math.max(r.top, q.top);
      if (w > 1 && h > 1) out.push(a + ' / ' + b);
    }
  }
  return out.join('|');
})()`
