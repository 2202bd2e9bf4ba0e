package main

import (
	"archive/zip"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/flakegate/flakegate/core/history"
	"github.com/flakegate/flakegate/core/history/histsim"
	"github.com/flakegate/flakegate/core/quarantine"
	"github.com/flakegate/flakegate/internal/testfile"
)

// plantedMonth is the golden tests' history: 150 runs of 40 stable tests
// and 4 flaky ones (3%, 8%, 15%, 30%), 2 outages failing 50% to 80% of the
// suite, 3 tests failing together in 3 runs, a broken test, a rename,
// tests added and removed.
var plantedMonth = histsim.Config{Seed: 27, Runs: 150, Stable: 40, Flaky: []float64{0.03, 0.08, 0.15, 0.3},
	Outages: 2, OutageShare: [2]float64{0.5, 0.8}, Groups: 1, GroupSize: 3, GroupRuns: 3, Broken: 1, BrokenCommits: 6,
	Renamed: 1, Added: 2, Removed: 2}

// monthFiles writes the planted month as a zip of JUnit reports (one per
// run, its start in the testsuite's timestamp) and a manifest giving each
// file's run, commit and branch, deterministically.
func monthFiles(t *testing.T) (zipBytes, manifest []byte, truth histsim.Truth) {
	t.Helper()
	var zb, mb bytes.Buffer
	zw := zip.NewWriter(&zb)
	mb.WriteString("file,run,commit,branch\n")
	truth, err := histsim.Generate(plantedMonth, func(m history.RunMeta, rs []history.TestResult) error {
		name := "reports/" + m.Name + ".xml"
		w, err := zw.CreateHeader(&zip.FileHeader{Name: name, Method: zip.Deflate, Modified: time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)})
		if err != nil {
			return err
		}
		fmt.Fprintf(&mb, "%s,%s,%s,%s\n", name, m.Name, m.Commit, m.Branch)
		return histsim.WriteJUnit(w, m, rs)
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return zb.Bytes(), mb.Bytes(), truth
}

// TestHistoryFixtures holds testdata/history/month.zip and manifest.csv to
// what the seeded generator writes (go test -update rewrites them).
func TestHistoryFixtures(t *testing.T) {
	z, m, _ := monthFiles(t)
	checkGolden(t, "testdata/history/month.zip", z)
	checkGolden(t, "testdata/history/manifest.csv", m)
}

// TestHistoryGolden holds the text and Markdown of the planted month.
func TestHistoryGolden(t *testing.T) {
	checkGoldens(t, "testdata", []goldenCase{
		{"history_month", []string{"history", "-manifest", "testdata/history/manifest.csv", "-cost", "30", "testdata/history/month.zip"}, exitBlock},
		{"history_month_md", []string{"history", "-markdown", "-manifest", "testdata/history/manifest.csv", "testdata/history/month.zip"}, exitBlock},
		{"history_real", []string{"history", reportsDir + "gotest/seed2.json", reportsDir + "gotest/count5.json"}, exitOK},
	})
}

// TestHistoryFindsThePlanted checks the JSON of the planted month against
// its truth: every planted flake found (JUnit names them class.name, the
// planted "flaky/TestFlaky000" is "flaky.TestFlaky000"), both outages
// incidents, the group an incident, no stable test flagged.
func TestHistoryFindsThePlanted(t *testing.T) {
	_, _, truth := monthFiles(t)
	code, out, errs := cli(t, "", "history", "-json", "-manifest", "testdata/history/manifest.csv", "testdata/history/month.zip")
	if code != exitBlock {
		t.Fatalf("exit %d; %s", code, errs)
	}
	var res history.Result
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatal(err)
	}
	flagged := map[string]bool{}
	for _, f := range res.Flakes {
		flagged[f.Test] = true
	}
	junit := func(n string) string { return strings.Replace(n, "/", ".", 1) }
	for name := range truth.Flaky {
		if !flagged[junit(name)] {
			t.Errorf("planted flake %s not found", name)
		}
	}
	for _, name := range truth.Stable {
		if flagged[junit(name)] {
			t.Errorf("stable %s flagged", name)
		}
	}
	kinds := map[string]int{}
	for _, inc := range res.Incidents {
		kinds[inc.Kind]++
	}
	if kinds[history.IncidentOutage] != 2 || kinds[history.IncidentGroup] != 1 {
		t.Errorf("incidents %v, want 2 outages and 1 group", kinds)
	}
	if res.Order != "time" {
		t.Errorf("order %q: the JUnit timestamps give every run a time", res.Order)
	}
	if res.Naive <= len(truth.Flaky)+1 {
		t.Errorf("the naive rule flags %d tests: the outages should make it flag stable tests too", res.Naive)
	}
}

// TestHistoryQuarantine proposes entries for the flakes the cap cannot
// see, owned by CODEOWNERS, and -write adds them to a registry the
// quarantine reader accepts.
func TestHistoryQuarantine(t *testing.T) {
	reg := filepath.Join(t.TempDir(), "quarantine.json")
	args := []string{"history", "-json", "-today", "2026-12-01", "-quarantine", reg, "-codeowners", "testdata/history/CODEOWNERS",
		"-manifest", "testdata/history/manifest.csv", "testdata/history/month.zip"}
	code, out, errs := cli(t, "", args...)
	if code != exitBlock {
		t.Fatalf("exit %d; %s", code, errs)
	}
	var got struct {
		Quarantine historyQuarantine `json:"quarantine"`
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	if len(got.Quarantine.Proposed) == 0 || got.Quarantine.Written {
		t.Fatalf("proposed %d, written %v; want some proposed, none written", len(got.Quarantine.Proposed), got.Quarantine.Written)
	}
	for _, e := range got.Quarantine.Proposed {
		want := "@ci-team"
		if strings.HasPrefix(e.Test, "flaky.") {
			want = "@flaky-owners"
		}
		if e.Owner != want || e.Opened != "2026-12-01" || e.Expires != "2026-12-31" {
			t.Errorf("%s: owner %q opened %s expires %s; want %s, 2026-12-01, 2026-12-31", e.Test, e.Owner, e.Opened, e.Expires, want)
		}
	}
	if _, err := os.Stat(reg); err == nil {
		t.Fatal("the registry was written without -write")
	}
	code, _, errs = cli(t, "", append(args[:1], append([]string{"-write"}, args[1:]...)...)...)
	if code != exitOK {
		t.Fatalf("with -write: exit %d (every flake the cap cannot see is now quarantined); %s", code, errs)
	}
	f, err := os.Open(reg)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r, err := quarantine.Read(f, "2026-12-01")
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Tests) != len(got.Quarantine.Proposed) {
		t.Errorf("registry holds %d tests, want the %d proposed", len(r.Tests), len(got.Quarantine.Proposed))
	}
}

// TestHistoryInputs: folders, globs, exit statuses for bad input.
func TestHistoryInputs(t *testing.T) {
	dir := t.TempDir()
	for _, n := range []string{"seed2.json", "count5.json"} {
		b := testfile.Read(t, reportsDir+"gotest/"+n)
		os.WriteFile(filepath.Join(dir, n), b, 0o644)
	}
	os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("not a report"), 0o644)
	bad := filepath.Join(t.TempDir(), "artifact.zip")
	os.WriteFile(bad, []byte("PK\x03\x04 cut short"), 0o644)
	_, want, _ := cli(t, "", "history", "-json", reportsDir+"gotest/seed2.json", reportsDir+"gotest/count5.json")
	for _, args := range [][]string{{dir}, {filepath.Join(dir, "*.json")}} {
		_, got, errs := cli(t, "", append([]string{"history", "-json"}, args...)...)
		var a, b history.Result
		json.Unmarshal([]byte(got), &a)
		json.Unmarshal([]byte(want), &b)
		if a.Runs != 2 || a.Flaky != b.Flaky || a.Tests != b.Tests {
			t.Errorf("%v: %d runs, %d flaky of %d tests; want 2 runs as the files give %d of %d (%s)", args, a.Runs, a.Flaky, a.Tests, b.Flaky, b.Tests, errs)
		}
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"history"}, "name the runs' reports"},
		{[]string{"history", filepath.Join(dir, "notes.txt")}, "notes.txt"},
		{[]string{"history", filepath.Join(dir, "none*.xml")}, "no file matches"},
		{[]string{"history", "-manifest", filepath.Join(dir, "notes.txt"), dir}, "no file column"},
		{[]string{"history", "-write", dir}, "-write adds to the registry"},
		{[]string{"history", bad}, "artifact.zip: not a zip archive flakegate can read"},
	} {
		code, _, errs := cli(t, "", tc.args...)
		if code != exitUsage || !strings.Contains(errs, tc.want) {
			t.Errorf("%v: exit %d, stderr %q; want 2 and %q", tc.args, code, errs, tc.want)
		}
	}
}

// TestCodeowners matches test ids to CODEOWNERS rules, by GitHub's
// documented examples (docs "About code owners": the last match wins,
// "*.js" anywhere, "/docs/" anchored, "apps/" at any depth, "docs/*" one
// level).
func TestCodeowners(t *testing.T) {
	c, err := readCodeowners(strings.NewReader("* @global\n*.js @js-owner #comment\n/build/logs/ @doctocat\napps/ @octocat\ndocs/* docs@example.com\n/tests/unit/ @unit\n"))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ path, want string }{
		{"src/a.go", "@global"}, {"web/x/app.js", "@js-owner"}, {"build/logs/a.log", "@doctocat"}, {"x/build/logs/a.log", "@global"},
		{"deep/apps/a.go", "@octocat"}, {"docs/a.md", "docs@example.com"}, {"docs/sub/a.md", "@global"},
	} {
		if got, _ := c.owners(tc.path); got != tc.want {
			t.Errorf("%s: owner %q, want %q", tc.path, got, tc.want)
		}
	}
	for _, tc := range []struct{ test, want string }{
		{"tests/unit/test_login.py::test_ok", "@unit"},
		{"example.com/mod/tests/unit.TestX/case", "@unit"},
		{"tests.unit.test_login.TestLogin.test_ok", "@unit"},
		{"web/app.spec.js › logs in", "@js-owner"},
		{"TestBare", ""},
	} {
		if got := c.ownerOf(tc.test); got != tc.want {
			t.Errorf("%s: owner %q, want %q", tc.test, got, tc.want)
		}
	}
}

// TestHistoryMinOutageTests: the fewest failed tests of an outage reaches
// the history from its flag, an input added through the schema alone. The
// fixture's most-failed runs are counted here from the reports
// themselves (their <failure elements), not from the history's answer: a
// run is an outage only when that many tests may make one.
func TestHistoryMinOutageTests(t *testing.T) {
	zr, err := zip.OpenReader("testdata/history/month.zip")
	if err != nil {
		t.Fatal(err)
	}
	defer zr.Close()
	most := 0
	for _, f := range zr.File {
		r, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		b, err := io.ReadAll(r)
		r.Close()
		if err != nil {
			t.Fatal(err)
		}
		most = max(most, bytes.Count(b, []byte("<failure")))
	}
	outages := func(min int) int {
		code, out, errs := cli(t, "", "history", "-json", "-min-outage-tests", strconv.Itoa(min), "testdata/history/month.zip")
		if code != exitOK && code != exitBlock {
			t.Fatalf("-min-outage-tests %d: exit %d: %s", min, code, errs)
		}
		var res struct {
			Incidents []struct {
				Kind string `json:"kind"`
			} `json:"incidents"`
		}
		if err := json.Unmarshal([]byte(out), &res); err != nil {
			t.Fatal(err)
		}
		n := 0
		for _, in := range res.Incidents {
			if in.Kind == "outage" {
				n++
			}
		}
		return n
	}
	if n := outages(most); n == 0 {
		t.Errorf("-min-outage-tests %d (the most failed tests of a run): no outage", most)
	}
	if n := outages(most + 1); n != 0 {
		t.Errorf("-min-outage-tests %d (more than any run failed): %d outages", most+1, n)
	}
	if code, _, errs := cli(t, "", "history", "-min-outage-tests", "1", "testdata/history/month.zip"); code != exitUsage || !strings.Contains(errs, "-min-outage-tests: must be at least 2, got 1") {
		t.Errorf("-min-outage-tests 1: exit %d, %s", code, errs)
	}
}
