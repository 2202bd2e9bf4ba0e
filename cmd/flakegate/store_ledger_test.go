package main

import (
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/flakegate/flakegate/core/history"
	"github.com/flakegate/flakegate/core/history/histsim"
)

// retriedReports writes a planted history as one report per run, JUnit
// and go test -json in turn, where a failed flaky test was retried and
// passed its second attempt in every other run (the retries budget -from
// counts, the last outcome quarantine check counts), and returns their
// paths.
func retriedReports(t *testing.T, dir string, runs int) []string {
	t.Helper()
	cfg := histsim.Config{Seed: 31, Runs: runs, Stable: 12, Flaky: []float64{0.2, 0.4}, Outages: 1, OutageShare: [2]float64{0.5, 0.8}}
	return editedReports(t, dir, cfg, func(k int, rs []history.TestResult) {
		for i := range rs {
			if rs[i].Passed == 0 && k%2 == 0 {
				rs[i].Passed, rs[i].Trials = 1, 2 // failed, then passed
			}
		}
	})
}

// sameFromStore records each report into a store, runs the command on the
// store and on the reports, and wants the same -json bytes.
func sameFromStore(t *testing.T, paths []string, command func(inputs ...string) []string) {
	t.Helper()
	fgs := filepath.Join(t.TempDir(), "runs.fgs")
	for _, p := range paths {
		mustCLI(t, "record", "-store", fgs, p)
	}
	fromReports := mustCLI(t, command(paths...)...)
	fromStore := mustCLI(t, command(fgs)...)
	if fromReports != fromStore {
		t.Fatalf("%s differs from a store\nreports: %.1500s\nstore:   %.1500s", command()[0], fromReports, fromStore)
	}
}

// budget -from and quarantine check give the same answer (-json bytes)
// from a store as from the reports recorded into it: planted runs with
// retries, and real reports of several formats (retried and flaky ones
// among them). The reference is each command on the reports themselves.
func TestStoreSameAsReportsForBudgetAndCheck(t *testing.T) {
	noCI(t)
	planted := retriedReports(t, t.TempDir(), 40)
	real := []string{
		"/work/shared/real-reports/gotest-json/go-test-json-flaky-rerun.out",
		"/work/shared/real-reports/gotest-json/go-test-json.out",
		"/work/shared/real-reports/surefire/TEST-io.olamy.FlakyTest.xml",
		"/work/shared/real-reports/surefire/sodadata-flaky-surefire-report.xml",
		"/work/shared/real-reports/gotestsum/junitxml-report.golden.xml",
	}
	budget := func(inputs ...string) []string {
		args := []string{"budget", "-json", "-cost", "8"}
		for _, in := range inputs {
			args = append(args, "-from", in)
		}
		return args
	}
	reg := filepath.Join(t.TempDir(), "quarantine.json")
	mustCLI(t, "quarantine", "add", "-registry", reg, "-today", "2026-11-01", "-claim", "40/50", "-owner", "o", "-reason", "r", "-days", "90", "flaky.TestFlaky000")
	check := func(inputs ...string) []string {
		return append([]string{"quarantine", "check", "-json", "-registry", reg, "-today", "2026-11-20"}, inputs...)
	}
	for _, set := range [][]string{planted, real} {
		sameFromStore(t, set, budget)
		sameFromStore(t, set, check)
	}
	if out := mustCLI(t, budget(planted...)...); !regexp.MustCompile(`"recovered_runs": [1-9]`).MatchString(out) {
		t.Fatalf("the planted retries do not show as recovered runs: %.800s", out)
	}
	if out := mustCLI(t, check(planted...)...); !strings.Contains(out, `"reported": {`) {
		t.Fatalf("the quarantined test was not counted: %.800s", out)
	}
}
