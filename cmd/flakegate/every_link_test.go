package main

import (
	"encoding/json"
	"html"
	"net/url"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/flakegate/flakegate/wasm/page"
	"github.com/flakegate/flakegate/wasm/page/fieldcheck"
	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

type comparePage struct {
	page.Compare
	ctx app.Context
}

func (p *comparePage) OnPreRender(ctx app.Context) { p.ctx = ctx }

type historyPage struct {
	page.History
	ctx app.Context
}

func (p *historyPage) OnPreRender(ctx app.Context) { p.ctx = ctx }

type quarantinePage struct {
	page.Quarantine
	ctx app.Context
}

func (p *quarantinePage) OnPreRender(ctx app.Context) { p.ctx = ctx }

// linkHTML loads, in go-app's test engine, the calculator page the link's
// path names, follows the link in its fragment form (the component reads
// the fragment; the server renders the query form) and returns the page's
// HTML.
func linkHTML(t *testing.T, link string) string {
	t.Helper()
	u, err := url.Parse(strings.Replace(link, "?", "#", 1))
	if err != nil {
		t.Fatal(err)
	}
	var c app.Composer
	var nav func(app.Context)
	var ctx *app.Context
	switch u.Path {
	case "/":
		p := &budgetPage{}
		c, nav, ctx = p, p.OnNav, &p.ctx
	case "/decide":
		p := &decidePage{}
		c, nav, ctx = p, p.OnNav, &p.ctx
	case "/aa":
		p := &aaPage{}
		c, nav, ctx = p, p.OnNav, &p.ctx
	case "/compare":
		p := &comparePage{}
		c, nav, ctx = p, p.OnNav, &p.ctx
	case "/history":
		p := &historyPage{}
		c, nav, ctx = p, p.OnNav, &p.ctx
	case "/quarantine":
		p := &quarantinePage{}
		c, nav, ctx = p, p.OnNav, &p.ctx
	default:
		t.Fatalf("link %s opens no calculator page", link)
	}
	e := app.NewTestEngine()
	if err := e.Load(c); err != nil {
		t.Fatal(err)
	}
	e.ConsumeAll()
	(*ctx).Page().ReplaceURL(u)
	nav(*ctx)
	(*ctx).Update()
	e.ConsumeAll()
	return app.HTMLString(c)
}

// linkCheck is one part of a printed result that a link's page must show:
// the figures under the page's scope prefix ("" for all of them) against
// the result's member at path ("" for the whole result; the link, its
// note and the members in drop left out), both ways (fieldcheck.Diff), but
// for the scopes in skip. A page that shows only some of a result's
// figures (history: its answer and the flaky tests' table) names the
// leaves it must show in only; its other figures must still be the
// result's. A check with lead also holds the page's answer to the
// command's own (the first line of its -markdown), with no verdict beside
// it: the link opens on what the command answered.
type linkCheck struct {
	prefix, path string
	skip, drop   []string
	only         *regexp.Regexp
	lead         bool
}

// leadRe finds the answer box's sentence in a page's HTML.
var leadRe = regexp.MustCompile(`<div [^>]*\bid="answer"[^>]*>\s*<p class="lead">\s*<strong>\s*([^<]*?)\s*</strong>`)

// checkLead holds the answer of a link's page (its HTML) to the answer
// sentence the command writes first in its -markdown (args without -json
// and -site), and finds no verdict on the page.
func checkLead(t *testing.T, args []string, doc string, page map[string]string) {
	t.Helper()
	_, md, errs := cli(t, "", append(append([]string(nil), args...), "-markdown")...)
	first, _, _ := strings.Cut(md, "\n")
	want := strings.TrimSuffix(strings.TrimPrefix(first, "**"), "**")
	m := leadRe.FindStringSubmatch(doc)
	if m == nil || want == "" {
		t.Fatalf("%v: no answer on the page or in the Markdown %q (%s)", args, md, errs)
	}
	if got := html.UnescapeString(m[1]); got != want {
		t.Errorf("%v: the page leads with %q, the command with %q", args, got, want)
	}
	if v, ok := page["verdict"]; ok {
		t.Errorf("%v: the page gives a verdict (%s) for the counts that stand for the rates", args, v)
	}
}

// TestEveryLinkShowsItsFigures follows the -site link of every command
// (the CLI's command table, and quarantine's verbs) natively in the
// calculator page it names, and compares the figures that page shows
// with the command's -json: each link must reproduce its own answer, not
// a page's example. A command added to the table without a case here
// fails.
func TestEveryLinkShowsItsFigures(t *testing.T) {
	dir := t.TempDir()
	reg := filepath.Join(dir, "quarantine.json")
	regArgs := []string{"-registry", reg, "-today", "2026-11-23"}
	script, _ := filepath.Abs("../../internal/runner/testdata/junit.sh")
	runArgs := func(ledger string, arms ...string) []string {
		return append([]string{"run", "-ledger", filepath.Join(dir, ledger), "-n", "3", "-report", "$FLAKEGATE_TMPDIR/junit.xml"}, arms...)
	}
	whole := []linkCheck{{}}
	noReports := []linkCheck{{prefix: "check", skip: []string{"warnings"}}}
	cases := map[string][]struct {
		args   []string
		checks []linkCheck
	}{
		"budget": {{[]string{"budget", "-target", "0.9", "-cost", "8", "-cap", "5", "-observe", "1/120", "0.05", "0.02", "0.001"}, whole}},
		"decide": {{[]string{"decide", "-baseline", "12/20", "-patched", "19/20", "-confidence", "0.9"}, []linkCheck{{skip: []string{"size", "ledger"}}}}},
		// The page leads with the size and its sizing section shows its
		// figures (the form's arms are the rates as counts, judged by
		// no verdict); its first case is the decide page's own example's
		// counts, the second another confidence.
		"size": {
			{[]string{"size", "0.5", "0.85"}, []linkCheck{{prefix: "size", lead: true}}},
			{[]string{"size", "-confidence", "0.9", "0.05", "0.25"}, []linkCheck{{prefix: "size", lead: true}}},
		},
		// A frozen claim is the baseline arm, the newer count the patched.
		"freeze": {{[]string{"freeze", "-claim", "90/100", "-newer", "80/100", "-date", "2026-01-01"},
			[]linkCheck{{prefix: "baseline", path: "claim", drop: []string{"confidence", "date"}}, {prefix: "patched", path: "newer"}}}},
		"ledger":  {{[]string{"ledger", "testdata/ledger.jsonl"}, []linkCheck{{prefix: "ledger"}}}},
		"aa":      {{[]string{"aa", "testdata/base.csv", "testdata/cand.csv"}, whole}, {[]string{"aa", "-k", "3", "testdata/base.csv"}, whole}},
		"compare": {{[]string{"compare", "-format", "samples", "-score", "correct", "testdata/compare/race-a.jsonl", "testdata/compare/race-b.jsonl"}, []linkCheck{{prefix: "compare", skip: []string{"warnings"}}}}},
		"history": {{[]string{"history", "-manifest", "testdata/history/manifest.csv", "testdata/history/month.zip"},
			[]linkCheck{{only: regexp.MustCompile(`^flakes\.[0-9]+\.(test|rate|lane):`)}}}},
		"run": {
			{runArgs("l.jsonl", "-baseline", "sh "+script, "-patched", "sh "+script), []linkCheck{{prefix: "ledger", path: "verdict"}}},
			{runArgs("aa.jsonl", "-baseline", "sh "+script, "-candidate", "sh "+script), []linkCheck{{path: "aa"}}},
		},
		// quarantine's verbs in the order a registry lives: each prints
		// its check, which the link reproduces. Only check reads a night's
		// reports: the others' links carry the registry alone, and their
		// page says that no reports were given where the CLI, asked to
		// check none, says nothing (add's warnings are about its -from
		// file, which the link does not carry).
		"quarantine": {
			{append([]string{"quarantine", "add", "-from", weekNights + "2026-11-20.xml", "-owner", "@shop", "-reason", "flaky in the nightly run",
				"-below", "0.01", "-expires", "2026-12-31", "example.com/shop.TestCart", "example.com/shop.TestLogin"}, regArgs...), noReports},
			{append([]string{"quarantine", "check", weekNights + "2026-11-23.json"}, regArgs...), []linkCheck{{prefix: "check"}}},
			{append([]string{"quarantine", "renew", "-expires", "2027-01-31", "example.com/shop.TestCart"}, regArgs...), noReports},
			{append([]string{"quarantine", "rename", "example.com/shop.TestCart", "example.com/shop.TestBasket"}, regArgs...), noReports},
			{append([]string{"quarantine", "remove", "example.com/shop.TestBasket"}, regArgs...), noReports},
			{append([]string{"quarantine", "list"}, regArgs...), noReports},
			{[]string{"quarantine", "runs", "-below", "0.02", "-confidence", "0.9"}, []linkCheck{{prefix: "rule"}}},
		},
	}
	// Commands that answer no calculator question print no link even
	// when given -site: record keeps runs, and no page shows one run's
	// triage against its past. One that starts printing a link fails here
	// until it has a case above.
	noLink := map[string][]string{
		"record": {"record", "-json", "-site", testSite, "-store", filepath.Join(dir, "runs.store"), "testdata/ledger.jsonl"},
		"triage": {"triage", "-json", "-site", testSite, "-history", "testdata/triage/past.zip", "testdata/triage/run.xml"},
	}
	for _, c := range commands {
		if args, ok := noLink[c.name]; ok {
			code, out, errs := cli(t, "", args...)
			if code == 2 || !strings.HasPrefix(out, "{") || strings.Contains(out, `"link"`) || strings.Contains(out, testSite) {
				t.Errorf("command %s should print no link; got exit %d: %s%s", c.name, code, out, errs)
			}
			continue
		}
		if len(cases[c.name]) == 0 {
			t.Errorf("command %s: no case follows its -site link", c.name)
		}
	}
	verbs := map[string]bool{}
	for _, c := range cases["quarantine"] {
		verbs[c.args[1]] = true
	}
	for v := range quarantineVerbs {
		if !verbs[v] {
			t.Errorf("quarantine %s: no case follows its -site link", v)
		}
	}
	for name, cs := range cases {
		for _, c := range cs {
			t.Run(strings.Join(c.args[:min(2, len(c.args))], " "), func(t *testing.T) {
				_, out, errs := cli(t, "", append(append([]string(nil), c.args...), "-json", "-site", testSite)...)
				var printed map[string]any
				if err := json.Unmarshal([]byte(out), &printed); err != nil {
					t.Fatalf("%s %v: %v: %s", name, c.args, err, errs)
				}
				for _, ch := range c.checks {
					part := printed
					if ch.path != "" {
						part, _ = printed[ch.path].(map[string]any)
					}
					link, _ := part["link"].(string)
					if link == "" {
						link, _ = printed["link"].(string)
					}
					if link == "" {
						t.Fatalf("%v prints no link: %s", c.args, out)
					}
					for _, k := range append([]string{"link", "link_note"}, ch.drop...) {
						delete(part, k)
					}
					js, _ := json.Marshal(part)
					doc := linkHTML(t, link)
					page, err := fieldcheck.FromHTML(doc)
					if err != nil {
						t.Fatal(err)
					}
					if ch.lead {
						checkLead(t, c.args, doc, page)
					}
					diffs, err := fieldcheck.Diff(page, ch.prefix, js, ch.skip...)
					if err != nil {
						t.Fatal(err)
					}
					for _, d := range diffs {
						switch {
						// go-app's native rendering writes an attribute
						// whose value is "" as a bare name, which reads as
						// "true" (wasm/page's checkCheck).
						case strings.HasSuffix(d, `.renamed_from: page shows "true", result has ""`):
						case ch.only != nil && strings.Contains(d, ": missing on the page") && !ch.only.MatchString(d):
						default:
							t.Errorf("%v: %s", c.args, d)
						}
					}
				}
			})
		}
	}
}
