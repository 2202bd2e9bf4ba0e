//go:build !wasm && integration

package main

import (
	"context"
	"net/http/httptest"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// weekRegistries makes, with the CLI, the registries the quarantine page's
// examples were made from (page/quarantine_example.go): the tests that
// flaked on the week's first night, and the same registry after the checks
// of the next four nights were written. It returns their paths and the
// nights' folder.
func weekRegistries(t *testing.T) (first, later, nights string) {
	t.Helper()
	_, bin := built(t)
	nights, err := filepath.Abs(filepath.Join(repoRoot(), "core", "quarantine", "testdata", "week", "nights"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	run := func(args ...string) {
		t.Helper()
		out, err := exec.Command(bin, args...).CombinedOutput()
		if _, exit := err.(*exec.ExitError); err != nil && !exit {
			t.Fatalf("flakegate %v: %v\n%s", args, err, out)
		}
	}
	first, later = filepath.Join(dir, "first.json"), filepath.Join(dir, "later.json")
	for _, reg := range []string{first, later} {
		run("quarantine", "add", "-registry", reg, "-from", filepath.Join(nights, "2026-11-20.xml"), "-owner", "@shop-team",
			"-reason", "flaky in the nightly runs", "-today", "2026-11-20", "-days", "30")
	}
	for _, night := range []string{"2026-11-23.json", "2026-11-24.xml", "2026-11-25.xml", "2026-11-26.json"} {
		run("quarantine", "check", "-write", "-registry", later, "-today", strings.TrimSuffix(strings.TrimSuffix(night, ".json"), ".xml"), filepath.Join(nights, night))
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
			if l := location(t, ctx); !regexp.MustCompile(`[#&]today=\d{4}-\d{2}-\d{2}(&|$)`).MatchString(l) {
				t.Errorf("a blank date leaves the link without one: %s", l)
			}
		})
	})
}
