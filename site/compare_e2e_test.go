//go:build integration

package main

import (
	"context"
	"encoding/json"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestComparePage drives the comparison page in headless Chromium: the two
// lm-evaluation-harness runs of core/compare's fixtures (checked by hand
// there) picked on the two sides give flakegate compare's answer, word for
// word; and the link flakegate compare -site prints opens on the same
// answer.
func TestComparePage(t *testing.T) {
	browser, srv := browseSite(t)
	logs, err := filepath.Abs(filepath.Join(repoRoot(), "core", "compare", "testdata", "logs"))
	if err != nil {
		t.Fatal(err)
	}
	a := filepath.Join(logs, "samples_arith_gen_2026-12-01T10-00-00.000001.jsonl")
	b := filepath.Join(logs, "samples_arith_gen_2026-12-02T10-00-00.000001.jsonl")
	var want struct {
		Link string `json:"link"`
	}
	if err := json.Unmarshal(cli(t, "compare", "-json", "-site", srv.URL, a, b), &want); err != nil || want.Link == "" {
		t.Fatalf("no link from the CLI: %v", err)
	}
	answer := strings.SplitN(string(cli(t, "compare", a, b)), "\n", 2)[0]

	ctx := newTab(t, browser)
	open(t, ctx, srv.URL+"/compare")
	for id, file := range map[string]string{"file-compare-a": a, "file-compare-b": b} {
		if err := chromedp.Do(ctx, chromedp.SetUploadFiles(chromedp.ID(id), []string{file})); err != nil {
			t.Fatal(err)
		}
	}
	poll(t, ctx, 20*time.Second, `!!document.getElementById('answer-text')`)
	if got := evalJS[string](t, ctx, `document.getElementById('answer-text').textContent`); got != answer {
		t.Errorf("dropped logs: the page says\n%s\nthe CLI\n%s", got, answer)
	}

	open(t, ctx, want.Link)
	poll(t, ctx, 20*time.Second, `!!document.getElementById('answer-text')`)
	if got := evalJS[string](t, ctx, `document.getElementById('answer-text').textContent`); got != answer {
		t.Errorf("the CLI's link: the page says\n%s\nthe CLI\n%s", got, answer)
	}
}

// TestComparePageWidths: a comparison with epochs and clusters (the race
// samples of cmd/flakegate's tests, through flakegate compare -site's
// link) shows every figure of flakegate compare -json and never makes the
// page scroll sideways, on a phone or at 1280 px; its screenshots go to the
// e2e artifacts.
func TestComparePageWidths(t *testing.T) {
	race := filepath.Join(repoRoot(), "cmd", "flakegate", "testdata", "compare", "race-")
	atEachWidth(t, func(t *testing.T, ctx context.Context, srv *httptest.Server, phone bool) {
		var res struct {
			Link string `json:"link"`
		}
		args := []string{"compare", "-json", "-format", "samples", "-score", "correct", "-cluster", "passage", race + "a.jsonl", race + "b.jsonl"}
		out := cli(t, append(args, "-site", srv.URL)...)
		if err := json.Unmarshal(out, &res); err != nil || res.Link == "" {
			t.Fatalf("no link: %v", err)
		}
		open(t, ctx, res.Link)
		waitFor(t, ctx, `!!document.getElementById('answer-text')`)
		// Every figure of the CLI's JSON (without the link, which the page
		// is) is on the page, and every figure on the page is in it.
		expectFields(t, ctx, "comparison", "compare", cli(t, args...))
		fitsAndShot(t, ctx, "compare", phone)
	})
}
