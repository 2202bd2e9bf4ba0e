package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/flakegate/flakegate/core"
	"github.com/flakegate/flakegate/core/history"
	"github.com/flakegate/flakegate/core/history/histsim"
	"github.com/flakegate/flakegate/core/quarantine"
	"github.com/flakegate/flakegate/internal/testfile"
)

// registryBefore is the registry the registry tests start from: the
// stable test pkg03.TestStable00003 quarantined since 2026-11-02 with a
// release below 5% at 95% (it passed every one of the past's runs, 290
// of them since, one every 2.4 hours from 2026-11-01, and passes in the
// run: its release is proven, the rule needing 71 clean runs from the
// opening, quarantine.CleanRunsChecked; the past's 10 runs of its first
// day show it holds every run since the opening), and the test the run
// newly fails, pkg07.TestStable00007, quarantined 2026-12-01 (it fails in
// the run: no release).
func registryBefore(t *testing.T) []byte {
	t.Helper()
	reg := &quarantine.Registry{Version: quarantine.Version, Tests: []quarantine.Entry{
		quarantine.NewEntry("pkg07.TestStable00007", "@db-team", "fails on the new runner image", "2026-12-01", "2026-12-31",
			core.Count{Passed: 9, Trials: 10}, 0.95, quarantine.DefaultRelease),
		quarantine.NewEntry("pkg03.TestStable00003", "@web-team", "timed out on the old runners", "2026-11-02", "2026-12-31",
			core.Count{Passed: 18, Trials: 20}, 0.95, quarantine.Release{Below: 0.05, Confidence: 0.95})}}
	var b bytes.Buffer
	if err := quarantine.Write(&b, reg); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// registryArgs is the triage that keeps testdata/triage/quarantine.json:
// the planted past and run, owner @flaky-team, today 2026-12-02 and the
// default 30 days. Both planted flakes (3% and 10%) are beyond the default
// cap of 3 reruns: k reruns catch a flake of rate r with chance
// 1 − (1 − r)^k, under 30% for 3 reruns and any r below 11%, short of the
// 95% target (docs/STATISTICS.md, Rerun budget).
func registryArgs(registry string, more ...string) []string {
	return append(append([]string{"triage", "-registry", registry, "-owner", "@flaky-team", "-today", "2026-12-02"}, more...),
		"-history", "testdata/triage/past.zip", "testdata/triage/run.xml")
}

// plantedFlakeCounts counts, in the seeded past (histsim, triagePast),
// the runs each planted flaky test failed: what a proposed entry's claim
// must freeze (the past has no outage to leave out).
func plantedFlakeCounts(t *testing.T) map[string]core.Count {
	t.Helper()
	out := map[string]core.Count{}
	_, err := histsim.Generate(triagePast, func(m history.RunMeta, rs []history.TestResult) error {
		for _, r := range rs {
			if !strings.HasPrefix(r.Test, "flaky/") {
				continue
			}
			name := strings.Replace(r.Test, "/", ".", 1) // as JUnit names it
			c := out[name]
			c.Trials++
			if r.Passed == r.Trials {
				c.Passed++
			}
			out[name] = c
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestTriageRegistry: the registry kept by triage. The JSON names the
// planted flakes as added and the proven stable test as released; the
// diff is the golden one; -write writes the registry the diff makes,
// whose entries are the planted flakes with claims counted from the
// planted past, the released entry gone; triaged again, the registry
// needs no change (an empty diff).
func TestTriageRegistry(t *testing.T) {
	checkGolden(t, "testdata/triage/quarantine.json", registryBefore(t))
	code, out, errs := cli(t, "", registryArgs("testdata/triage/quarantine.json", "-json")...)
	if code != exitOK {
		t.Fatalf("exit %d; %s", code, errs)
	}
	var res triageOutput
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatal(err)
	}
	counts := plantedFlakeCounts(t)
	wantAdded := slices.Sorted(func(yield func(string) bool) {
		for k := range counts {
			if !yield(k) {
				return
			}
		}
	})
	if rc := res.Registry; rc == nil || fmt.Sprint(rc.Added) != fmt.Sprint(wantAdded) || fmt.Sprint(rc.Released) != "[pkg03.TestStable00003]" || rc.Written {
		t.Fatalf("registry change %+v: want %v added, pkg03.TestStable00003 released", rc, wantAdded)
	}
	checkGoldens(t, "testdata/triage", []goldenCase{
		{"registry.diff", registryArgs("testdata/triage/quarantine.json", "-diff"), exitOK},
		{"registry.md", registryArgs("testdata/triage/quarantine.json", "-markdown"), exitOK},
	})
	if res.Registry.Diff != string(testfile.Read(t, "testdata/triage/registry.diff.golden")) {
		t.Errorf("the JSON's diff is not the one -diff prints")
	}

	path, _ := writeKept(t, registryBefore(t), exitOK)
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	reg, err := quarantine.Read(f, "2026-12-02")
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range reg.Tests {
		got = append(got, e.Test)
		if c, ok := counts[e.Test]; ok {
			if e.Claim.Passed != c.Passed || e.Claim.Trials != c.Trials || e.Owner != "@flaky-team" || e.Opened != "2026-12-02" ||
				e.Expires != "2027-01-01" || e.Release != quarantine.DefaultRelease {
				t.Errorf("%s: %+v; want the claim %d/%d counted from the planted past, owner @flaky-team, 2026-12-02 to 2027-01-01", e.Test, e, c.Passed, c.Trials)
			}
		}
	}
	if want := append(wantAdded, "pkg07.TestStable00007"); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("the registry written holds %v, want %v", got, want)
	}
	// Kept: nothing left to change.
	if code, out, errs := cli(t, "", registryArgs(path, "-diff")...); code != exitOK || out != "" {
		t.Errorf("triaged again: exit %d, diff %q; %s", code, out, errs)
	}
	if code, out, _ := cli(t, "", registryArgs(path, "-markdown")...); code != exitOK || !strings.Contains(out, "The registry needs no change") {
		t.Errorf("triaged again, the summary:\n%s", out)
	}
	// The diff's flags change the registry -registry names.
	for _, flag := range []string{"-diff", "-write"} {
		if code, _, _ := cli(t, "", "triage", flag, "-history", "testdata/triage/past.zip", "testdata/triage/run.xml"); code != exitUsage {
			t.Errorf("%s without -registry: exit %d, want %d", flag, code, exitUsage)
		}
	}
}

// writeKept writes before (nil: no file) as a registry in a folder of its
// own, runs the registry's triage with -write on it, which must exit with
// code, and returns its path and the bytes written.
func writeKept(t *testing.T, before []byte, code int) (string, []byte) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "quarantine.json")
	if before != nil {
		if err := os.WriteFile(path, before, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if got, _, errs := cli(t, "", registryArgs(path, "-write")...); got != code {
		t.Fatalf("-write: exit %d, want %d; %s", got, code, errs)
	}
	written, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return path, written
}
