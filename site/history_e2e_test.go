//go:build integration

package main

import (
	"archive/zip"
	"context"
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/flakegate/flakegate/core/history"
	"github.com/flakegate/flakegate/core/history/histsim"
)

// historyRuns plants a history with histsim (40 runs of 30 stable tests,
// two flaky ones failing 20% and 30% of the time, one outage failing half
// the suite) and writes each run as a JUnit report twice: as a file in a
// folder, and into a zip archive, as CI artifacts download.
func historyRuns(t *testing.T) (files []string, archive string) {
	dir := t.TempDir()
	archive = filepath.Join(dir, "artifacts.zip")
	zf, err := os.Create(archive)
	if err != nil {
		t.Fatal(err)
	}
	zw := zip.NewWriter(zf)
	n := 0
	c := histsim.Config{Seed: 27, Runs: 40, Stable: 30, Flaky: []float64{0.2, 0.3}, Outages: 1, OutageShare: [2]float64{0.5, 0.6}}
	_, err = histsim.Generate(c, func(meta history.RunMeta, results []history.TestResult) error {
		n++
		name := fmt.Sprintf("run-%03d.xml", n)
		w, err := zw.Create("reports/" + name)
		if err != nil {
			return err
		}
		if err := histsim.WriteJUnit(w, meta, results); err != nil {
			return err
		}
		path := filepath.Join(dir, name)
		f, err := os.Create(path)
		if err != nil {
			return err
		}
		defer f.Close()
		files = append(files, path)
		return histsim.WriteJUnit(f, meta, results)
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := zf.Close(); err != nil {
		t.Fatal(err)
	}
	return files, archive
}

// firstLine is the answer of flakegate history -markdown: its first line,
// without the bold.
func firstLine(md []byte) string {
	return strings.Trim(strings.SplitN(string(md), "\n", 2)[0], "*")
}

// TestHistoryPage drives the history view in headless Chromium at 1280
// and 390 px: a zip archive of a planted history dragged onto it, and the
// same runs' reports picked as files, give flakegate history -markdown's
// answer for the same inputs, word for word; the link flakegate history
// -site prints opens on the CLI's own figures (its Markdown, without the
// link line, is the page's); the example opens on its planted month; and
// the page never scrolls sideways.
func TestHistoryPage(t *testing.T) {
	files, archive := historyRuns(t)
	zipAnswer := firstLine(cli(t, append([]string{"history", "-markdown"}, archive)...))
	filesMD := cli(t, append([]string{"history", "-markdown"}, files...)...)
	if zipAnswer != firstLine(filesMD) {
		t.Fatalf("the CLI reads the archive as\n%s\nand the files as\n%s", zipAnswer, firstLine(filesMD))
	}
	if !strings.Contains(zipAnswer, "2 of 32 tests are flaky") || !strings.Contains(zipAnswer, "1 outage") {
		t.Fatalf("the planted history (2 flaky tests of 32, 1 outage) reads as %q", zipAnswer)
	}
	atEachWidth(t, func(t *testing.T, ctx context.Context, srv *httptest.Server, phone bool) {
		open(t, ctx, srv.URL+"/history")
		clickID(t, ctx, "example-history")
		waitFor(t, ctx, `(document.getElementById('answer-text')||{}).textContent.startsWith('3 of 63 tests are flaky in 200 runs')`)
		dropOn(t, ctx, "drop-history", archive)
		waitFor(t, ctx, `!!document.getElementById('answer-text')`)
		if got := evalJS[string](t, ctx, `document.getElementById('answer-text').textContent`); got != zipAnswer {
			t.Errorf("dropped zip: the page says\n%s\nthe CLI\n%s", got, zipAnswer)
		}
		if n := evalJS[string](t, ctx, `String(document.querySelectorAll('#flakes tbody tr').length)`); n != "2" {
			t.Errorf("dropped zip: %s rows of flaky tests, want 2", n)
		}

		upload(t, ctx, "file-history", files...)
		waitFor(t, ctx, `(document.getElementById('loaded-history')||{}).textContent === 'run-001.xml, run-002.xml, run-003.xml and 37 more: 40 runs'`)
		if got := evalJS[string](t, ctx, `document.getElementById('answer-text').textContent`); got != firstLine(filesMD) {
			t.Errorf("picked files: the page says\n%s\nthe CLI\n%s", got, firstLine(filesMD))
		}

		var res struct {
			Link string `json:"link"`
		}
		if err := json.Unmarshal(cli(t, append([]string{"history", "-json", "-site", srv.URL}, files...)...), &res); err != nil || !strings.HasPrefix(res.Link, srv.URL+"/history?history=") {
			t.Fatalf("no link from the CLI (%v): %q", err, res.Link)
		}
		open(t, ctx, res.Link)
		waitFor(t, ctx, `(document.getElementById('loaded-history')||{}).textContent === 'share link: 40 runs'`)
		if got := evalJS[string](t, ctx, `document.getElementById('answer-text').textContent`); got != firstLine(filesMD) {
			t.Errorf("the CLI's link: the page says\n%s\nthe CLI\n%s", got, firstLine(filesMD))
		}
		if got := evalJS[string](t, ctx, `document.getElementById('markdown').textContent`); got != string(filesMD) {
			t.Errorf("the CLI's link: the page's Markdown\n%s\nflakegate history -markdown\n%s", got, filesMD)
		}
		fitsAndShot(t, ctx, "history", phone)
	})
}
