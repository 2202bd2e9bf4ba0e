//go:build integration

package main

import (
	"context"
	"net/http/httptest"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/flakegate/flakegate/internal/render/rendertest"
	"github.com/flakegate/flakegate/internal/testfile"
	"github.com/flakegate/flakegate/wasm/page/webtest"
)

// TestQuarantinePage drives the quarantine page in headless Chromium and
// holds every figure it shows to the CLI's JSON for the same input:
//
//   - the clean runs of a release rule typed in, to flakegate quarantine
//     runs -json;
//   - a registry file dropped on the page, to flakegate quarantine check
//     -json on that file and date without reports (the check of the
//     registry's own evidence, with its caveat);
//   - the link that flakegate quarantine check -site gives after a night
//     of real reports (the week's nightly go test -json report), to that
//     check's -json, and Copy as Markdown there to its -markdown -site.
func TestQuarantinePage(t *testing.T) {
	browser, srv := browseSite(t)
	console := webtest.Watch(browser)
	dir := t.TempDir()

	// The week's registry: the tests that flaked in the first night's
	// JUnit report (core/quarantine/testdata/week: real go test and
	// gotestsum runs), TestCart first, with an expiry before the check.
	nights := weekNights(t)
	reg := filepath.Join(dir, "quarantine.json")
	for _, g := range []struct{ owner, below, expires string }{{"@late", "0.05", "2026-11-22"}, {"@shop", "0.01", "2026-12-31"}} {
		args := []string{"quarantine", "add", "-registry", reg, "-today", "2026-11-20", "-from", filepath.Join(nights, "2026-11-20.xml"),
			"-owner", g.owner, "-reason", "flaky in the nightly run", "-below", g.below, "-expires", g.expires}
		if g.owner == "@late" {
			args = append(args, "example.com/shop.TestCart")
		}
		cli(t, args...)
	}
	if b := testfile.Read(t, reg); strings.Count(string(b), `"test":`) < 10 {
		t.Fatalf("the registry has fewer than ten tests:\n%s", b)
	}

	ctx := newTab(t, browser)

	t.Run("release rule", func(t *testing.T) {
		open(t, ctx, srv.URL+"/quarantine")
		typeIn(t, ctx, "in-below", "0.001")
		if err := webtest.Poll(ctx, 5*time.Second, `document.querySelector('[data-scope=rule] [data-field=clean_runs]')?.getAttribute('value') === '2995'`); err != nil {
			t.Fatal(err) // docs/STATISTICS.md's figure for 0.1% at 95%
		}
		expectFields(t, ctx, "rule", "rule", cli(t, "quarantine", "runs", "-below", "0.001", "-json"))
	})

	t.Run("registry dropped", func(t *testing.T) {
		open(t, ctx, srv.URL+"/quarantine#today=2026-11-23")
		if err := chromedp.Do(ctx, chromedp.SetUploadFiles(chromedp.ID("file-registry"), []string{reg})); err != nil {
			t.Fatal(err)
		}
		poll(t, ctx, 10*time.Second, `!!document.querySelector('[data-scope=check]')`)
		// A registry without reports is what quarantine check without
		// report files checks, caveat included.
		want := cli(t, "quarantine", "check", "-json", "-registry", reg, "-today", "2026-11-23")
		page := expectFields(t, ctx, "dropped registry", "check", want)
		if page["check.states.expired"] != "1" || len(page) < 300 {
			t.Errorf("%d figures, %s expired; want TestCart expired", len(page), page["check.states.expired"])
		}
		if l := location(t, ctx); !strings.Contains(l, "registry=") || !strings.Contains(l, "today=2026-11-23") {
			t.Errorf("the address bar does not hold the registry and the date: %s", l)
		}
	})

	t.Run("the CLI's link after a night", func(t *testing.T) {
		night := filepath.Join(nights, "2026-11-23.json")
		args := []string{"quarantine", "check", "-registry", reg, "-today", "2026-11-23", "-site", srv.URL, night}
		link, want := rendertest.SplitLink(t, cli(t, append(args, "-json")...))
		if !strings.HasPrefix(link, srv.URL+"/quarantine?") {
			t.Fatalf("link %q", link)
		}
		fresh := newTab(t, browser)
		open(t, fresh, link)
		page := expectFields(t, fresh, "CLI link", "check", want)
		if page["check.reports"] != "true" || page["check.runs"] != "1" {
			t.Errorf("the page does not show the night's report: reports %s runs %s", page["check.reports"], page["check.runs"])
		}
		md := string(cli(t, append(args, "-markdown")...))
		if got := copied(t, fresh, "copy-md"); got != md {
			t.Errorf("Copy as Markdown gave\n%s\n--- the CLI prints\n%s", got, md)
		}
	})
	for _, e := range console.Errors() {
		t.Errorf("console: %s", e)
	}
}

// weekNights is the folder of the week's nightly reports
// (core/quarantine/testdata/week: real go test and gotestsum runs).
func weekNights(t *testing.T) string {
	t.Helper()
	nights, err := filepath.Abs(filepath.Join(repoRoot(), "core", "quarantine", "testdata", "week", "nights"))
	if err != nil {
		t.Fatal(err)
	}
	return nights
}

// weekRegistries makes, with the CLI, the registries the quarantine page's
// examples were made from (page/quarantine_example.go): the tests that
// flaked on the week's first night, and the same registry after the checks
// of the next four nights were written. It returns their paths and the
// nights' folder.
func weekRegistries(t *testing.T) (first, later, nights string) {
	t.Helper()
	nights = weekNights(t)
	dir := t.TempDir()
	first, later = filepath.Join(dir, "first.json"), filepath.Join(dir, "later.json")
	for _, reg := range []string{first, later} {
		cli(t, "quarantine", "add", "-registry", reg, "-from", filepath.Join(nights, "2026-11-20.xml"), "-owner", "@shop-team",
			"-reason", "flaky in the nightly runs", "-today", "2026-11-20", "-days", "30")
	}
	for _, night := range []string{"2026-11-23.json", "2026-11-24.xml", "2026-11-25.xml", "2026-11-26.json"} {
		cli(t, "quarantine", "check", "-write", "-registry", later, "-today", strings.TrimSuffix(strings.TrimSuffix(night, ".json"), ".xml"), filepath.Join(nights, night))
	}
	return first, later, nights
}

// withoutLink is a Markdown summary without its closing link line (and the
// blank line before it): the summary the CLI writes without -site.
func withoutLink(md string) string {
	if i := strings.LastIndex(md, "\n\n[Open in flakegate]("); i >= 0 {
		return md[:i+1]
	}
	return md
}

const pageMarkdownJS = `document.getElementById('markdown')?.textContent ?? ''`

// The quarantine page is a whole page: its examples are one click away and
// are the CLI's checks; a registry dropped with the night's reports beside
// it is checked as `flakegate quarantine check` checks them, caveats
// included; the answer comes first; the table is cards on a phone; the
// link always holds the date.
func TestQuarantineWholePage(t *testing.T) {
	first, later, nights := weekRegistries(t)
	night1, night5 := filepath.Join(nights, "2026-11-23.json"), filepath.Join(nights, "2026-11-27.xml")
	atEachWidth(t, func(t *testing.T, ctx context.Context, srv *httptest.Server, phone bool) {
		t.Run("example", func(t *testing.T) {
			open(t, ctx, srv.URL+"/quarantine")
			clickID(t, ctx, "example-3")
			// The example was written by the same command run in the nights'
			// folder, so its caveat names the report as "2026-11-27.xml".
			md := string(cliIn(t, nights, "quarantine", "check", "-markdown", "-registry", later, "-today", "2026-11-27", filepath.Base(night5)))
			waitText(t, ctx, "the example's answer", answerLeadJS, mdFirstLine(md))
			waitText(t, ctx, "the example's Markdown", pageMarkdownJS, withoutLink(md))
			if s := evalJS[string](t, ctx, `(() => { const a = document.getElementById('answer'), c = document.getElementById('check'); return a && c && (a.compareDocumentPosition(c) & Node.DOCUMENT_POSITION_FOLLOWING) ? '' : 'the answer is not before the table' })()`); s != "" {
				t.Error(s)
			}
			if phone {
				// Cards: nothing scrolls sideways, no header row is shown.
				if s := evalJS[string](t, ctx, `(() => { const w = document.querySelector('#check .table-wrap'); const h = w.querySelector('thead').getBoundingClientRect().height; return w.scrollWidth > w.clientWidth + 1 || h > 1 ? 'scrolls ' + w.scrollWidth + '/' + w.clientWidth + ', header ' + h : '' })()`); s != "" {
					t.Errorf("the registry's table is no cards on a phone: %s", s)
				}
			}
		})
		t.Run("dropped", func(t *testing.T) {
			open(t, ctx, srv.URL+"/quarantine#today=2026-11-23")
			dragOnto(t, ctx, "registry", fileOf(t, first))
			waitFor(t, ctx, `!!document.getElementById('check')`)
			md := string(cli(t, "quarantine", "check", "-markdown", "-registry", first, "-today", "2026-11-23"))
			waitText(t, ctx, "the answer without reports", answerLeadJS, mdFirstLine(md))
			waitText(t, ctx, "the Markdown without reports", pageMarkdownJS, withoutLink(md))
			expectFields(t, ctx, "without reports", "check", cli(t, "quarantine", "check", "-json", "-registry", first, "-today", "2026-11-23"))

			dragOnto(t, ctx, "reports", fileOf(t, night1))
			waitFor(t, ctx, `document.getElementById('report-files')?.children.length === 1`)
			md = string(cli(t, "quarantine", "check", "-markdown", "-registry", first, "-today", "2026-11-23", night1))
			waitText(t, ctx, "the answer with the night's reports", answerLeadJS, mdFirstLine(md))
			waitText(t, ctx, "the Markdown with the night's reports", pageMarkdownJS, withoutLink(md))
			expectFields(t, ctx, "with the night's reports", "check", cli(t, "quarantine", "check", "-json", "-registry", first, "-today", "2026-11-23", night1))
			settled(t, ctx)
			// The link reopens the same check, reports included.
			link := location(t, ctx)
			open(t, ctx, link)
			waitText(t, ctx, "the link's answer", answerLeadJS, mdFirstLine(md))
		})
		t.Run("date", func(t *testing.T) {
			open(t, ctx, srv.URL+"/quarantine#today=2026-11-23")
			typeIn(t, ctx, "in-today", "")
			settled(t, ctx)
			if l := location(t, ctx); !regexp.MustCompile(`[?#&]today=\d{4}-\d{2}-\d{2}(&|$)`).MatchString(l) {
				t.Errorf("a blank date leaves the link without one: %s", l)
			}
		})
	})
}
