package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/flakegate/flakegate/core/quarantine"
	"github.com/flakegate/flakegate/internal/testfile"
)

// TestQuarantineTAPNights: TAP carries no time, so two nights' reports can
// be the same bytes; they are two runs all the same. On GitHub Actions the
// run id and attempt tell them apart: the same file under run 100 and run
// 101 counts twice, and given again under run 101 it is counted already.
// Outside CI the file's place and modification time do: the same file
// checked twice counts once, and once rewritten it counts again.
func TestQuarantineTAPNights(t *testing.T) {
	src := testfile.Read(t, "../../core/report/testdata/reports/tap/node_attempt1.tap")
	dir := t.TempDir()
	tap := filepath.Join(dir, "nightly.tap")
	if err := os.WriteFile(tap, src, 0o644); err != nil {
		t.Fatal(err)
	}
	reg := filepath.Join(dir, "quarantine.json")
	if code, _, errs := cli(t, "", "quarantine", "add", "-registry", reg, "-today", "2026-11-20", "-claim", "57/60",
		"-owner", "@team", "-reason", "flaky", "adds"); code != exitOK {
		t.Fatal(errs)
	}
	runs := func() int64 {
		t.Helper()
		b := testfile.Read(t, reg)
		r, err := quarantine.Parse(b, "2026-11-30")
		if err != nil {
			t.Fatal(err)
		}
		return r.Tests[0].Since.Runs
	}
	check := func(date string) string {
		t.Helper()
		code, out, errs := cli(t, "", "quarantine", "check", "-write", "-registry", reg, "-today", date, tap)
		if code != exitOK || errs != "" {
			t.Fatalf("%s: exit %d %s", date, code, errs)
		}
		return out
	}
	t.Setenv("GITHUB_RUN_ATTEMPT", "1")
	t.Setenv("GITHUB_RUN_ID", "100")
	check("2026-11-23")
	t.Setenv("GITHUB_RUN_ID", "101")
	check("2026-11-24")
	if n := runs(); n != 2 {
		t.Errorf("two nights' identical TAP under two CI runs: %d runs counted, want 2", n)
	}
	if out := check("2026-11-24"); runs() != 2 || !strings.Contains(out, "is a run counted already, on 2026-11-24: not counted again") {
		t.Errorf("the same CI run's report again: %d runs\n%s", runs(), out)
	}
	t.Setenv("GITHUB_RUN_ATTEMPT", "2") // a re-run of the job ran the tests again
	check("2026-11-24")
	if n := runs(); n != 3 {
		t.Errorf("a second attempt: %d runs, want 3", n)
	}
	// Outside CI: the file's place and modification time.
	t.Setenv("GITHUB_RUN_ID", "")
	t.Setenv("CI_JOB_ID", "")
	check("2026-11-25")
	check("2026-11-25")
	if n := runs(); n != 4 {
		t.Errorf("one file checked twice outside CI: %d runs, want 4", n)
	}
	later := time.Date(2026, 11, 26, 2, 0, 0, 0, time.UTC)
	if err := os.Chtimes(tap, later, later); err != nil { // the next night writes the same bytes again
		t.Fatal(err)
	}
	check("2026-11-26")
	if n := runs(); n != 5 {
		t.Errorf("the next night's identical TAP: %d runs, want 5", n)
	}
}

// TestQuarantineImprovingNotice: on the week's third night TestUpload
// (47/60, then 20/20 each night) is stale because it got better: the check
// gives it a notice saying how many clean runs remain, not an error: the
// 180 a fresh quarantine below 2% needs (docs/STATISTICS.md), less its 3
// clean runs counted.
func TestQuarantineImprovingNotice(t *testing.T) {
	reg := weekRegistryAt(t, "2026-11-25")
	_, out, _ := cli(t, "", "quarantine", "check", "-annotations", "-registry", reg, "-today", "2026-11-25", weekNights+"2026-11-25.xml")
	want := "::notice file=" + escapeProperty(reg) + ",title=flakegate%3A quarantined example.com/shop.TestUpload is improving::example.com/shop.TestUpload: improving: "
	if !strings.Contains(out, want) || !strings.Contains(out, "177 more clean runs would prove it below 2% if none fails (3 runs counted, 0 with a failure)") ||
		strings.Contains(out, "::error file="+escapeProperty(reg)+",title=flakegate%3A quarantined example.com/shop.TestUpload") {
		t.Errorf("annotations:\n%s\nwant %q", out, want)
	}
}
