// Package ci holds the CI examples' test: it runs flakegate-gate.sh, as a
// workflow would, on the seeded flaky suite in core/report/testdata/reports/flaky.
package ci

import (
	"bytes"
	"encoding/json"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/flakegate/flakegate/core"
	"github.com/flakegate/flakegate/internal/runner"
)

// copySuite copies the seeded suite to dir and adds a "patch": an init that
// scales every failure rate (0 fixes the flakes, 2 makes TestTable/often
// fail every time).
func copySuite(t *testing.T, dir, scale string) {
	t.Helper()
	src := "../../core/report/testdata/reports/flaky"
	err := filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, path)
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(dir, rel), 0o755)
		}
		raw, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dir, rel), raw, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	patch := "package flaky\n\nimport \"os\"\n\nfunc init() { os.Setenv(\"FLAKY_RATE_SCALE\", \"" + scale + "\") }\n"
	if err := os.WriteFile(filepath.Join(dir, "scale.go"), []byte(patch), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestGateScript runs the script with 5 runs per arm (and -min-trials 5 to
// match) where the patch makes a test fail every time (the gate blocks:
// exit 1) and where it fixes it (the pass rate rose and the property check
// is owed, which does not block: exit 0), the baseline given as a directory
// in the first and as a git ref, as the workflow gives it, in the second.
// FLAKY_SEED fixes every outcome, so both are deterministic.
func TestGateScript(t *testing.T) {
	if _, err := exec.LookPath("sh"); err != nil {
		t.Fatal("the gate script needs sh: ", err)
	}
	tmp := t.TempDir()
	bin := buildCLI(t, tmp)
	script, err := filepath.Abs("flakegate-gate.sh")
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name                string
		baseScale, patScale string
		ref                 bool // the baseline is a commit of the patched checkout's repository
		exit                int
		verdict             string
	}{
		{"regression", "0", "2", false, 1, core.VerdictRegressed},
		{"fix from a ref", "2", "0", true, 0, core.VerdictImproved},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := filepath.Join(tmp, strings.ReplaceAll(c.name, " ", "-"))
			base, patched := filepath.Join(dir, "baseline"), filepath.Join(dir, "patched")
			if c.ref {
				// The baseline is the patched checkout's last commit; the
				// patch is its uncommitted change.
				copySuite(t, patched, c.baseScale)
				for _, args := range [][]string{{"init", "-q"}, {"add", "."}, {"commit", "-q", "-m", "baseline"}} {
					git := exec.Command("git", append([]string{"-c", "user.name=t", "-c", "user.email=t@example.com"}, args...)...)
					git.Dir = patched
					if out, err := git.CombinedOutput(); err != nil {
						t.Fatalf("git %v: %v\n%s", args, err, out)
					}
				}
				copySuite(t, patched, c.patScale)
				base = "HEAD"
			} else {
				copySuite(t, base, c.baseScale)
				copySuite(t, patched, c.patScale)
			}
			reports, ledgerPath := filepath.Join(dir, "reports"), filepath.Join(dir, "flake.jsonl")
			cmd := exec.Command("sh", script, base, patched)
			cmd.Dir = dir
			cmd.Env = append(os.Environ(), "RUNS=5", "REPORTS="+reports, "LEDGER="+ledgerPath, "FLAKEGATE="+bin,
				"FLAKEGATE_FLAGS=-min-trials 5 -json", "GO_TEST_FLAGS=-run TestStable|TestFlaky|TestTable -timeout 2m",
				"FLAKY_SEED=7", "GOWORK=off", "GOFLAGS=-mod=mod")
			stdout, stderr, code := runCmd(t, cmd)
			if code != c.exit {
				t.Fatalf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", code, c.exit, stdout, stderr)
			}
			for _, arm := range []string{"b", "p"} {
				got, _ := filepath.Glob(filepath.Join(reports, arm+"[0-9]*", "stdout"))
				if len(got) != 5 {
					t.Errorf("%s: %d kept reports, want 5", arm, len(got))
				}
			}
			st, err := runner.ReadState(ledgerPath)
			if err != nil || len(st.Records) != 10 {
				t.Fatalf("the ledger: %v, %d runs", err, len(st.Records))
			}
			var res runner.Result
			if err := json.Unmarshal([]byte(stdout), &res); err != nil {
				t.Fatalf("the CLI's -json output: %v\n%s", err, stdout)
			}
			if res.Runs != (runner.ArmRuns{Baseline: 5, Patched: 5}) || res.Verdict == nil {
				t.Fatalf("runs %+v, verdict %v", res.Runs, res.Verdict)
			}
			if c.ref && (res.Plan.Arms[0].Ref != "HEAD" || len(res.Plan.Arms[0].Commit) != 40) {
				t.Errorf("the baseline arm %+v", res.Plan.Arms[0])
			}
			found := false
			for _, tc := range res.Verdict.Tests {
				if tc.NodeID == "example.com/flaky.TestTable/often" {
					found = true
					if tc.Verdict != c.verdict || tc.Baseline.Trials != 5 || tc.Patched.Trials != 5 {
						t.Errorf("TestTable/often: %s %d/%d vs %d/%d, want %s", tc.Verdict,
							tc.Baseline.Passed, tc.Baseline.Trials, tc.Patched.Passed, tc.Patched.Trials, c.verdict)
					}
				}
				if strings.HasSuffix(tc.NodeID, "TestSkipped") || strings.HasSuffix(tc.NodeID, "TestHang") {
					t.Errorf("%s was not run and must not appear", tc.NodeID)
				}
			}
			if !found {
				t.Errorf("TestTable/often missing from %s", stdout)
			}
		})
	}
}

// The workflow runs the script that the test above runs, on the pull
// request's base commit.
func TestWorkflowUsesScript(t *testing.T) {
	raw, err := os.ReadFile("github-actions.yml")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`sh examples/ci/flakegate-gate.sh "${{ github.event.pull_request.base.sha }}" .`,
		"fetch-depth: 0", "actions/upload-artifact", "flakegate.jsonl"} {
		if !bytes.Contains(raw, []byte(want)) {
			t.Errorf("the workflow lacks %q", want)
		}
	}
}
