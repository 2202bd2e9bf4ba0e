//go:build !wasm && integration

package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/flakegate/flakegate/page/webtest"
	"github.com/flakegate/flakegate/render/rendertest"
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
	_, bin := built(t)
	console := webtest.Watch(browser)
	dir := t.TempDir()

	// The week's registry: the tests that flaked in the first night's
	// JUnit report (core/quarantine/testdata/week: real go test and
	// gotestsum runs), TestCart first, with an expiry before the check.
	nights, err := filepath.Abs(filepath.Join(repoRoot(), "core", "quarantine", "testdata", "week", "nights"))
	if err != nil {
		t.Fatal(err)
	}
	reg := filepath.Join(dir, "quarantine.json")
	for _, g := range []struct{ owner, below, expires string }{{"@late", "0.05", "2026-11-22"}, {"@shop", "0.01", "2026-12-31"}} {
		args := []string{"quarantine", "add", "-registry", reg, "-today", "2026-11-20", "-from", filepath.Join(nights, "2026-11-20.xml"),
			"-owner", g.owner, "-reason", "flaky in the nightly run", "-below", g.below, "-expires", g.expires}
		if g.owner == "@late" {
			args = append(args, "example.com/shop.TestCart")
		}
		if out, err := exec.Command(bin, args...).CombinedOutput(); err != nil {
			t.Fatalf("flakegate %v: %v\n%s", args, err, out)
		}
	}
	if b, err := os.ReadFile(reg); err != nil || strings.Count(string(b), `"test":`) < 10 {
		t.Fatalf("the registry has fewer than ten tests: %v\n%s", err, b)
	}

	ctx, cancelTab := chromedp.NewContext(browser, chromedp.WithNewBrowserContext())
	defer cancelTab()

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
		fresh, cancelFresh := chromedp.NewContext(browser, chromedp.WithNewBrowserContext())
		defer cancelFresh()
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
