package ci

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestActionCompare runs the action's step with command compare: reports
// are side A's eval logs, patched side B's (two lm-evaluation-harness runs
// of 20 documents; core/compare's logs_test.go checks the figures by hand:
// 6 wrong to right, 2 right to wrong, McNemar p = 0.29). compare only
// informs: the step passes, its summary is flakegate's own -markdown, and
// a missing side is an error.
func TestActionCompare(t *testing.T) {
	tmp := t.TempDir()
	bin := buildCLI(t, tmp)
	logs, err := filepath.Abs("../../core/compare/testdata/logs")
	if err != nil {
		t.Fatal(err)
	}
	a, b := "samples_arith_gen_2026-12-01T10-00-00.000001.jsonl", "samples_arith_gen_2026-12-02T10-00-00.000001.jsonl"
	s := runStep(t, bin, logs, map[string]string{"COMMAND": "compare", "REPORTS": a, "PATCHED": b})
	if s.code != 0 || s.outputs["verdict"] != "pass" || s.outputs["blocks"] != "false" {
		t.Fatalf("exit %d, outputs %v, stderr %s", s.code, s.outputs, s.stderr)
	}
	cmd := exec.Command(bin, "compare", "-markdown", a, b)
	cmd.Dir = logs
	want, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	if s.summary != string(want) {
		t.Errorf("summary differs from flakegate compare -markdown:\n%s\n---\n%s", s.summary, want)
	}
	if !strings.Contains(s.stdout, "::notice title=flakegate::B answers 20.0 points more questions right") {
		t.Errorf("no answer annotation in %q", s.stdout)
	}
	s = runStep(t, bin, logs, map[string]string{"COMMAND": "compare", "REPORTS": a})
	if s.code != 2 || s.outputs["verdict"] != "error" || !strings.Contains(s.stdout, "needs both sides") {
		t.Errorf("one side: exit %d, outputs %v, stdout %q", s.code, s.outputs, s.stdout)
	}
}
