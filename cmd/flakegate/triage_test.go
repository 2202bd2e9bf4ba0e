package main

import (
	"archive/zip"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/flakegate/flakegate/core"
	"github.com/flakegate/flakegate/core/history"
	"github.com/flakegate/flakegate/core/history/histsim"
	"github.com/flakegate/flakegate/core/quarantine"
	"github.com/flakegate/flakegate/core/triage"
)

// triagePast is the triage tests' past: 300 runs of 200 stable tests in
// 40 suites of 5 (histsim names stable test i "pkg(i mod 40)/…") and two
// flaky tests at 3% and 10%.
var triagePast = histsim.Config{Seed: 31, Runs: 300, Stable: 200, Flaky: []float64{0.03, 0.1}}

// triageRunFailing are the failures planted in the run to triage: the 3%
// flake, a stable test that never failed (a new breakage), and all five
// tests of suite pkg12 at once (an outage of that suite).
var triageRunFailing = []string{"flaky/TestFlaky000", "pkg07/TestStable00007",
	"pkg12/TestStable00012", "pkg12/TestStable00052", "pkg12/TestStable00092", "pkg12/TestStable00132", "pkg12/TestStable00172"}

// triageFiles writes the past as a zip of JUnit reports and the run to
// triage as one JUnit report, deterministically.
func triageFiles(t *testing.T) (past, run []byte) {
	t.Helper()
	var zb, rb bytes.Buffer
	zw := zip.NewWriter(&zb)
	var names []string
	_, err := histsim.Generate(triagePast, func(m history.RunMeta, rs []history.TestResult) error {
		if names == nil {
			for _, r := range rs {
				names = append(names, r.Test)
			}
		}
		w, err := zw.CreateHeader(&zip.FileHeader{Name: "past/" + m.Name + ".xml", Method: zip.Deflate, Modified: time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)})
		if err != nil {
			return err
		}
		return histsim.WriteJUnit(w, m, rs)
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	var rs []history.TestResult
	for _, n := range names {
		p := int64(1)
		if slices.Contains(triageRunFailing, n) {
			p = 0
		}
		rs = append(rs, history.TestResult{Test: n, Passed: p, Trials: 1})
	}
	meta := history.RunMeta{Name: "pr-1", Time: time.Date(2026, 12, 2, 9, 0, 0, 0, time.UTC)}
	if err := histsim.WriteJUnit(&rb, meta, rs); err != nil {
		t.Fatal(err)
	}
	return zb.Bytes(), rb.Bytes()
}

// TestTriageFixtures holds testdata/triage/past.zip and run.xml to what
// the seeded generator writes (go test -update rewrites them).
func TestTriageFixtures(t *testing.T) {
	past, run := triageFiles(t)
	checkGolden(t, "testdata/triage/past.zip", past)
	checkGolden(t, "testdata/triage/run.xml", run)
}

// TestTriageGolden holds the text and the Markdown a pull request gets for
// the planted run: one known flake, one new failure, one outage.
func TestTriageGolden(t *testing.T) {
	checkGoldens(t, "testdata/triage", []goldenCase{
		{"text", []string{"triage", "-history", "testdata/triage/past.zip", "testdata/triage/run.xml"}, exitBlock},
		{"markdown", []string{"triage", "-markdown", "-history", "testdata/triage/past.zip", "testdata/triage/run.xml"}, exitBlock},
	})
}

// TestTriageClasses checks the JSON against the planted truth: the 3%
// flake a known flake, the stable test new (and blocking), the five
// failures of pkg12 an outage of that suite; the exit status blocks on the
// new failure. Bad settings are input errors (status 2).
func TestTriageClasses(t *testing.T) {
	code, out, errs := cli(t, "", "triage", "-json", "-history", "testdata/triage/past.zip", "testdata/triage/run.xml")
	if code != exitBlock {
		t.Fatalf("exit %d; %s", code, errs)
	}
	var res triage.Result
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatal(err)
	}
	junit := func(n string) string { return strings.Replace(n, "/", ".", 1) }
	want := map[string]string{junit(triageRunFailing[0]): triage.ClassFlake, junit(triageRunFailing[1]): triage.ClassNew}
	for _, n := range triageRunFailing[2:] {
		want[junit(n)] = triage.ClassOutage
	}
	if len(res.Failures) != len(want) {
		t.Fatalf("%d failures, want %d", len(res.Failures), len(want))
	}
	for _, f := range res.Failures {
		if f.Class != want[f.Test] {
			t.Errorf("%s: %s, want %s", f.Test, f.Class, want[f.Test])
		}
		if f.Blocks != (f.Class == triage.ClassNew) {
			t.Errorf("%s: blocks %v", f.Test, f.Blocks)
		}
	}
	if len(res.Suites) != 1 || res.Suites[0].Suite != "pkg12" || res.Outage.Outage {
		t.Errorf("outages %+v and the rest %+v: want suite pkg12 alone", res.Suites, res.Outage)
	}
	// Settings out of range, no past, a past that is not there: input errors.
	for _, tc := range []struct {
		args []string
		code int
	}{
		{[]string{"triage", "-history", "testdata/triage/past.zip", "-min-rate", "150%", "testdata/triage/run.xml"}, exitUsage},
		{[]string{"triage", "testdata/triage/run.xml"}, exitUsage},
		{[]string{"triage", "-history", "testdata/triage/nothing.zip", "testdata/triage/run.xml"}, exitUsage},
	} {
		if code, _, errs := cli(t, "", tc.args...); code != tc.code {
			t.Errorf("%v: exit %d, want %d; %s", tc.args, code, tc.code, errs)
		}
	}
}

// TestTriageQuarantineAndAnnotations quarantines the newly failing test in
// a registry: its failure is then quarantined, nothing blocks (exit 0) and
// the run's annotations are notices; a test quarantined since the past's
// second day (the past runs every 2.4 hours from 2026-11-01: 290 runs
// since) that passed every past run and this one has its release (below
// 5% at 95%) proven; -block-flakes makes the known flake
// block (exit 1, an ::error naming it on the run's report); once the entry
// has expired the test is new again.
func TestTriageQuarantineAndAnnotations(t *testing.T) {
	dir := t.TempDir()
	reg := &quarantine.Registry{Version: quarantine.Version, Tests: []quarantine.Entry{
		quarantine.NewEntry("pkg07.TestStable00007", "@db-team", "fails on the new runner image", "2026-12-01", "2026-12-31",
			core.Count{Passed: 9, Trials: 10}, 0.95, quarantine.DefaultRelease),
		quarantine.NewEntry("pkg03.TestStable00003", "@web-team", "timed out on the old runners", "2026-11-02", "2026-12-31",
			core.Count{Passed: 18, Trials: 20}, 0.95, quarantine.Release{Below: 0.05, Confidence: 0.95})}}
	var b bytes.Buffer
	if err := quarantine.Write(&b, reg); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "quarantine.json")
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	args := []string{"triage", "-annotations", "-today", "2026-12-02", "-quarantine", path, "-history", "testdata/triage/past.zip", "testdata/triage/run.xml"}
	code, out, errs := cli(t, "", args...)
	if code != exitOK {
		t.Fatalf("exit %d; %s", code, errs)
	}
	containsAll(t, "stdout", out, "::notice file=testdata/triage/run.xml,title=flakegate%3A pkg07.TestStable00007 (quarantined)::",
		"quarantined until 2026-12-31, owner @db-team", "::notice title=flakegate::Nothing in this run is a new or broken failure",
		"pkg03.TestStable00003: 0 failures in 291 runs since its quarantine on 2026-11-02 prove its failure rate below 5.0% at 95% confidence")
	code, out, errs = cli(t, "", append([]string{args[0], "-block-flakes"}, args[1:]...)...)
	if code != exitBlock {
		t.Fatalf("-block-flakes: exit %d; %s", code, errs)
	}
	containsAll(t, "stdout", out, "::error file=testdata/triage/run.xml,title=flakegate%3A flaky.TestFlaky000 (known-flake)::")
	// Past its expiry the entry no longer shields the test: it is new again.
	args[3] = "2027-01-05"
	if code, out, errs = cli(t, "", args...); code != exitBlock || !strings.Contains(out, "pkg07.TestStable00007 (new)") {
		t.Errorf("expired entry: exit %d, want 1; %s%s", code, out, errs)
	}
}

// TestTriageStore records the planted past, one report a run, into a
// history store (flakegate record) and triages the run against it: the
// classes are those the reports themselves give with -history.
func TestTriageStore(t *testing.T) {
	dir := t.TempDir()
	store := filepath.Join(dir, "runs.fgs")
	z, err := zip.OpenReader("testdata/triage/past.zip")
	if err != nil {
		t.Fatal(err)
	}
	defer z.Close()
	for _, f := range z.File {
		rc, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		var b bytes.Buffer
		b.ReadFrom(rc)
		rc.Close()
		path := filepath.Join(dir, filepath.Base(f.Name))
		if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		if code, _, errs := cli(t, "", "record", "-store", store, path); code != exitOK {
			t.Fatalf("record %s: exit %d; %s", f.Name, code, errs)
		}
	}
	classes := func(args ...string) map[string]string {
		t.Helper()
		code, out, errs := cli(t, "", append([]string{"triage", "-json"}, args...)...)
		if code != exitBlock {
			t.Fatalf("%v: exit %d; %s", args, code, errs)
		}
		var res triage.Result
		if err := json.Unmarshal([]byte(out), &res); err != nil {
			t.Fatal(err)
		}
		m := map[string]string{}
		for _, f := range res.Failures {
			m[f.Test] = f.Class
		}
		return m
	}
	fromStore := classes("-store", store, "testdata/triage/run.xml")
	fromReports := classes("-history", "testdata/triage/past.zip", "testdata/triage/run.xml")
	if len(fromStore) != 7 || fmt.Sprint(fromStore) != fmt.Sprint(fromReports) {
		t.Errorf("from the store %v, from the reports %v", fromStore, fromReports)
	}
}
