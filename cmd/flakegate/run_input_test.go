package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestRunTrialBudgetInput: the FLAKE_BUDGET environment variable is read as -max-trials
// is, a whole number in decimal; anything else is refused with exit 2,
// never silently ignored (which ran without a cap).
func TestRunTrialBudgetInput(t *testing.T) {
	for _, v := range []string{"abc", "-5", "1e3", " 7", "7 ", "0x10", "7.0"} {
		t.Setenv("FLAKE_BUDGET", v)
		code, _, errs := cli(t, "", "run", "-baseline", "a", "-patched", "b", "-dry-run")
		if code != exitUsage || !strings.Contains(errs, "FLAKE_BUDGET: want a whole number of trials >= 0 in decimal") || !strings.Contains(errs, `got "`+v+`"`) {
			t.Errorf("FLAKE_BUDGET=%q: exit %d, stderr %q", v, code, errs)
		}
	}
	t.Setenv("FLAKE_BUDGET", "7")
	code, out, errs := cli(t, "", "run", "-baseline", "a", "-patched", "b", "-dry-run", "-ledger", filepath.Join(t.TempDir(), "l.jsonl"))
	if code != exitOK || !strings.Contains(out, "trial budget 7") {
		t.Errorf("FLAKE_BUDGET=7: exit %d, %s%s", code, out, errs)
	}
	// -max-trials wins over the variable, and is held to the same rule.
	t.Setenv("FLAKE_BUDGET", "abc")
	for _, c := range []struct {
		v    string
		code int
		want string
	}{{"5", exitOK, "trial budget 5"}, {"-5", exitUsage, "-max-trials: want a whole number of trials >= 0 (0 for no cap), got -5"}, {"1e3", exitUsage, `"1e3" is not a whole number in decimal`}} {
		code, out, errs := cli(t, "", "run", "-baseline", "a", "-patched", "b", "-dry-run", "-max-trials", c.v, "-ledger", filepath.Join(t.TempDir(), "l.jsonl"))
		if code != c.code || !strings.Contains(out+errs, c.want) {
			t.Errorf("-max-trials %s: exit %d, %s%s; want %d and %q", c.v, code, out, errs, c.code, c.want)
		}
	}
}

// TestRunFlagsOnce: an arm's command, directory or ref given twice is
// refused: the flag package would keep the last one silently.
func TestRunFlagsOnce(t *testing.T) {
	for _, args := range [][]string{
		{"-baseline", "a", "-baseline", "b", "-patched", "c"},
		{"-baseline", "a", "-patched", "b", "-patched", "c"},
		{"-baseline-ref", "main", "-baseline-ref", "dev", "--", "go", "test"},
	} {
		code, _, errs := cli(t, "", append([]string{"run", "-dry-run"}, args...)...)
		if code != exitUsage || !strings.Contains(errs, "given twice") || !strings.Contains(errs, "once") {
			t.Errorf("%q: exit %d, stderr %q", args, code, errs)
		}
	}
}

// TestRunDryGoTestWarnings: the plan warns of a go test that writes no
// JSON (its output is not a report) or may replay cached results (no
// -count), before any run is made; a command with both says nothing.
func TestRunDryGoTestWarnings(t *testing.T) {
	noJSON := "go test has no -json"
	noCount := "go test has no -count=1"
	for _, c := range []struct {
		args   []string
		want   []string
		absent []string
	}{
		{[]string{"-baseline", "go test ./...", "-patched", "go test ./..."}, []string{noJSON, noCount}, nil},
		{[]string{"-baseline", "go test -json ./...", "-patched", "go test -json ./..."}, []string{noCount}, []string{noJSON}},
		{[]string{"-baseline", "cd ../base && go test -count=1 ./...", "-patched", "go test -json -count=1 ./..."},
			[]string{"the baseline arm's go test has no -json"}, []string{noCount, "the patched arm's"}},
		{[]string{"-baseline", "go test -json -count=1 ./...", "-patched", "go test -json -count=1 ./..."}, nil, []string{noJSON, noCount}},
		{[]string{"-report", "$FLAKEGATE_TMPDIR/j.xml", "-baseline", "gotestsum --junitfile x -- -count=1", "-patched", "go test -count=1 ./..."}, nil, []string{"-json"}},
	} {
		args := append([]string{"run", "-dry-run", "-ledger", filepath.Join(t.TempDir(), "l.jsonl")}, c.args...)
		code, out, errs := cli(t, "", args...)
		if code != exitOK {
			t.Fatalf("%q: exit %d %s", c.args, code, errs)
		}
		for _, w := range c.want {
			if !strings.Contains(out, "warning: "+w) && !strings.Contains(out, w) {
				t.Errorf("%q: no warning %q in:\n%s", c.args, w, out)
			}
		}
		for _, w := range c.absent {
			if strings.Contains(out, w) {
				t.Errorf("%q: a warning with %q in:\n%s", c.args, w, out)
			}
		}
	}
}

// TestRunCannotStartExit2: an arm whose command cannot start (exit 127)
// stops the start after its first run, with exit 2, not after all N runs
// of both arms.
func TestRunCannotStartExit2(t *testing.T) {
	ledgerPath := filepath.Join(t.TempDir(), "l.jsonl")
	code, out, errs := cli(t, "", "run", "-n", "10", "-ledger", ledgerPath, "-progress", "off",
		"-baseline", "flakegate-no-such-test-command", "-patched", "flakegate-no-such-test-command")
	if code != exitUsage || !strings.Contains(out, "this start ran 1 run") ||
		!strings.Contains(out, "stopped early: the baseline arm's command cannot start (run b1: the command was not found (the shell's exit status 127)") {
		t.Errorf("exit %d\n%s%s", code, out, errs)
	}
}
