package main

import (
	"encoding/json"
	"html"
	"regexp"
	"testing"

	"github.com/flakegate/flakegate/wasm/page"
	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// The calculator's pages, loaded natively in go-app's test engine: each
// captures its context when the engine mounts it, to follow links.
type budgetPage struct {
	page.Budget
	ctx app.Context
}

func (p *budgetPage) OnPreRender(ctx app.Context) { p.ctx = ctx }

type decidePage struct {
	page.Decide
	ctx app.Context
}

func (p *decidePage) OnPreRender(ctx app.Context) { p.ctx = ctx }

type aaPage struct {
	page.AA
	ctx app.Context
}

func (p *aaPage) OnPreRender(ctx app.Context) { p.ctx = ctx }

var preMarkdown = regexp.MustCompile(`(?s)<pre id="markdown">(.*?)</pre>`)

// TestPageMarkdownIsTheCLIs: the page opened at the link the CLI made for
// a result shows, under "Markdown", the CLI's -markdown summary of that
// result byte for byte: both come from one function of package words, and
// this holds the page to calling it with the same result. (The Chromium
// test in package site holds "Copy as Markdown", link included, to the
// CLI's -markdown -site output.)
func TestPageMarkdownIsTheCLIs(t *testing.T) {
	for _, c := range []struct {
		name string
		args []string
	}{
		{"budget", []string{"budget", "-target", "0.9", "-cost", "8", "-cap", "5", "-observe", "1/120", "0.05", "0.02", "0.001"}},
		{"budget without rates", []string{"budget", "-observe", "2/40", "-cap", "0"}},
		{"budget in gotestsum's setting", []string{"budget", "-runner", "gotestsum=2", "-cost", "8", "0.02"}},
		{"budget in Bazel's attempts", []string{"budget", "-runner", "bazel-flaky-attempts=3", "-observe", "1/120", "0.5"}},
		{"budget cap as Bazel runs", []string{"budget", "-runner", "bazel-runs-per-test", "-cap", "4", "0.05"}},
		{"decide", []string{"decide", "-baseline", "30/60", "-patched", "51/60", "-property", "passed"}},
		{"decide underpowered", []string{"decide", "-baseline", "2/5", "-patched", "5/5", "-min-trials", "3", "-confidence", "0.9"}},
		{"aa", []string{"aa", "testdata/base.csv", "testdata/cand.csv"}},
		{"aa baseline", []string{"aa", "testdata/base.csv"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, js, errs := cli(t, "", append(c.args, "-json", "-site", testSite)...)
			var res struct {
				Link string `json:"link"`
			}
			if err := json.Unmarshal([]byte(js), &res); err != nil || res.Link == "" {
				t.Fatalf("no link: %v %s", err, errs)
			}
			_, want, _ := cli(t, "", append(c.args, "-markdown")...)
			shown := linkHTML(t, res.Link)
			m := preMarkdown.FindStringSubmatch(shown)
			if m == nil {
				t.Fatalf("no Markdown on the page at %s", res.Link)
			}
			if got := html.UnescapeString(m[1]); got != want {
				t.Errorf("the page at %s shows\n%s\n--- the CLI prints\n%s", res.Link, got, want)
			}
		})
	}
}
