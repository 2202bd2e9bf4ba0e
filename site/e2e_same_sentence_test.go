//go:build integration

package main

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/flakegate/flakegate/internal/render/rendertest"
	"github.com/flakegate/flakegate/wasm/page"
	"github.com/flakegate/flakegate/wasm/page/webtest"
)

// Done means: on every page, for every way of giving it input (typed,
// an example, a link, dropped files), the answer sentence at the top, the
// first line of the page's Markdown and the first line of the CLI's
// -markdown for the same input are one sentence.
func TestAnswerIsTheMarkdownsFirstLineAndTheCLIs(t *testing.T) {
	browser, srv := browseSite(t)
	dir := t.TempDir()
	reports := filepath.Join(repoRoot(), "core", "report", "testdata", "reports", "gotest")
	count5, seed2 := filepath.Join(reports, "count5.json"), filepath.Join(reports, "seed2.json")
	exBase, exCand := page.ExampleAACSV()
	base := aaCSV(60, 8, func(s, r int) bool { return (s*13+r*7)%17 == 0 || (s%9 == 0 && r%2 == 1) })
	cand := aaCSV(60, 5, func(s, r int) bool { return (s*11+r*5)%9 == 0 })
	files := map[string]string{}
	for name, text := range map[string]string{"base.csv": base, "cand.csv": cand, "example-base.csv": exBase, "example-cand.csv": exCand} {
		files[name] = writeFile(t, dir, name, text)
	}
	logs := filepath.Join(repoRoot(), "core", "compare", "testdata", "logs")
	logA := filepath.Join(logs, "samples_arith_gen_2026-12-01T10-00-00.000001.jsonl")
	logB := filepath.Join(logs, "samples_arith_gen_2026-12-02T10-00-00.000001.jsonl")
	first, later, nights := weekRegistries(t)
	night1, night5 := filepath.Join(nights, "2026-11-23.json"), filepath.Join(nights, "2026-11-27.xml")
	linkOf := func(t *testing.T, args ...string) string {
		link, _ := rendertest.SplitLink(t, cli(t, append(args, "-json", "-site", srv.URL)...))
		if link == "" {
			t.Fatalf("flakegate %v gave no link", args)
		}
		return link
	}
	click := func(id string) func(t *testing.T, ctx context.Context) {
		return func(t *testing.T, ctx context.Context) { clickID(t, ctx, id) }
	}
	paste := func(kv ...string) func(t *testing.T, ctx context.Context) {
		return func(t *testing.T, ctx context.Context) {
			for i := 0; i+1 < len(kv); i += 2 {
				if err := webtest.Paste(ctx, kv[i], kv[i+1]); err != nil {
					t.Fatal(err)
				}
				waitFor(t, ctx, `!!document.getElementById('loaded-`+kv[i][len("text-"):]+`')`)
			}
		}
	}
	typed := func(kv ...string) func(t *testing.T, ctx context.Context) {
		return func(t *testing.T, ctx context.Context) {
			for i := 0; i+1 < len(kv); i += 2 {
				typeIn(t, ctx, kv[i], kv[i+1])
			}
		}
	}
	drop := func(kv ...string) func(t *testing.T, ctx context.Context) {
		return func(t *testing.T, ctx context.Context) {
			for i := 0; i+1 < len(kv); i += 2 {
				dragOnto(t, ctx, kv[i], fileOf(t, kv[i+1]))
				settled(t, ctx)
			}
		}
	}
	for i, c := range []struct {
		name, path string
		do         func(t *testing.T, ctx context.Context)
		cli        []string
	}{
		{"budget typed", "/", typed("in-cap", "5"), []string{"budget", "-cap", "5", "-rates", "0.05,0.02,0.01"}},
		{"budget example", "/", click("example-1"), []string{"budget", "-rates", "0.02", "-cost", "8"}},
		{"budget link", "", nil, []string{"budget", "-cap", "1000", "-cost", "0.001", "-rates", "0.01"}},
		{"decide typed", "/decide", typed("in-baseline", "30/60", "in-patched", "51/60"), []string{"decide", "-baseline", "30/60", "-patched", "51/60"}},
		{"decide example", "/decide", click("example-0"), []string{"decide", "-baseline", "10/20", "-patched", "17/20"}},
		{"decide link", "", nil, []string{"decide", "-baseline", "999999000/1000000000", "-patched", "999999999/1000000000"}},
		{"decide reports' link", "", nil, []string{"ledger", count5, "-patched", seed2}},
		{"decide dropped reports", "/decide", drop("ledger", count5, "patched-reports", seed2), []string{"ledger", count5, "-patched", seed2}},
		{"aa pasted", "/aa", paste("text-baseline", base, "text-candidate", cand), []string{"aa", files["base.csv"], files["cand.csv"]}},
		{"aa example", "/aa", click("example-aa"), []string{"aa", files["example-base.csv"], files["example-cand.csv"]}},
		{"aa dropped", "/aa", drop("baseline", files["base.csv"], "candidate", files["cand.csv"]), []string{"aa", files["base.csv"], files["cand.csv"]}},
		{"aa link", "", nil, []string{"aa", files["base.csv"], files["cand.csv"]}},
		{"quarantine typed", "/quarantine", typed("in-below", "0.001"), []string{"quarantine", "runs", "-below", "0.001"}},
		{"quarantine example", "/quarantine", click("example-3"), []string{"quarantine", "check", "-registry", later, "-today", "2026-11-27", night5}},
		{"quarantine dropped", "/quarantine#today=2026-11-23", drop("registry", first, "reports", night1), []string{"quarantine", "check", "-registry", first, "-today", "2026-11-23", night1}},
		{"quarantine link", "", nil, []string{"quarantine", "check", "-registry", first, "-today", "2026-11-23", night1}},
		{"compare dropped", "/compare", drop("compare-a", logA, "compare-b", logB), []string{"compare", logA, logB}},
		{"compare link", "", nil, []string{"compare", logA, logB}},
		// The example's logs are made in the page: no CLI to ask, so
		// the answer and the Markdown's first line are held to each other.
		{"compare example", "/compare", click("example-compare"), nil},
	} {
		// One width a case, the two in turn (the order above is chosen for
		// it): each page meets both, and so do typed input, examples, links
		// and dropped files over the pages. The sentence is the page's
		// text, the same at either width (TestPagePhone and
		// TestPageScreenshots hold the layout); a load of the calculator
		// is what these tests' time is made of.
		w := widths[i%len(widths)]
		if c.cli == nil {
			t.Run(c.name+"/"+w.name, func(t *testing.T) {
				ctx := freshTab(t, browser, w)
				open(t, ctx, srv.URL+c.path)
				c.do(t, ctx)
				waitFor(t, ctx, `!!document.getElementById('markdown')`)
				lead := evalJS[string](t, ctx, `String(`+answerLeadJS+`)`)
				waitText(t, ctx, "the Markdown's first line", markdownLeadJS, lead)
			})
			continue
		}
		want := mdFirstLine(string(cli(t, append(c.cli, "-markdown")...)))
		path := c.path
		if path == "" {
			path = linkOf(t, c.cli...)
		} else {
			path = srv.URL + path
		}
		t.Run(c.name+"/"+w.name, func(t *testing.T) {
			ctx := freshTab(t, browser, w)
			open(t, ctx, path)
			if c.do != nil {
				c.do(t, ctx)
			}
			waitText(t, ctx, "the answer at the top", answerLeadJS, want)
			waitText(t, ctx, "the Markdown's first line", markdownLeadJS, want)
		})
	}
}
