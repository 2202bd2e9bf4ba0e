package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/flakegate/flakegate/core/quarantine"
)

// TestWordsAgree: counts and their words agree in number, and the CLI's
// messages point where the help is. Each case is a phrase the CLI used to
// get wrong ("1 run per arm give", "1 of 1 rates need", "a 80.2% flake",
// "1 run failed on their own").
func TestWordsAgree(t *testing.T) {
	dir := t.TempDir()
	code, out, _ := cli(t, "", "run", "-dry-run", "-n", "1", "-ledger", filepath.Join(dir, "l.jsonl"), "-baseline", "a", "-patched", "b")
	if code != exitOK || !strings.Contains(out, "1 run per arm gives each test 1 trial per arm") {
		t.Errorf("run -n 1 -dry-run: %s", out)
	}
	_, out, _ = cli(t, "", "budget", "-cap", "1", "0.2")
	if !strings.Contains(out, "1 of 1 rate needs more reruns than the cap of 1; a green run does not rule it out") {
		t.Errorf("budget: %s", out)
	}
	// 1 rerun sees a 80.2% flake... (1-(1-p)^1 = p: the rate whose one
	// rerun power is 80.2% is 80.2%).
	_, out, _ = cli(t, "", "budget", "-cap", "1", "-annotations", "0.802")
	if !strings.Contains(out, "title=flakegate%3A an 80.2%25 flake") || !strings.Contains(out, "catches an 80.2% flake") || strings.Contains(out, " a 80.2%") {
		t.Errorf("budget 0.802: %s", out)
	}
	code, out, _ = cli(t, "", "run", "-n", "1", "-ledger", filepath.Join(dir, "e.jsonl"), "-progress", "off",
		"-baseline", "exit 3", "-patched", "exit 3")
	if code != exitUsage || !strings.Contains(out, "2 runs failed on their own") {
		t.Errorf("two failed runs: exit %d %s", code, out)
	}
	_, out, _ = cli(t, "", "run", "-n", "1", "-ledger", filepath.Join(dir, "f.jsonl"), "-progress", "off",
		"-baseline", passingRun, "-patched", "exit 3")
	if !strings.Contains(out, "1 run failed on its own: no trials, not test failures; the next start runs it again") {
		t.Errorf("one failed run: %s", out)
	}
}

// passingRun writes one go test -json run of a passing test.
const passingRun = `printf '%s\n' '{"Action":"run","Package":"p","Test":"TestA"}' '{"Action":"pass","Package":"p","Test":"TestA"}'`

// TestVerbHelp: a mistake in a quarantine verb's flags points at that
// verb's help, and the top-level usage lists every verb.
func TestVerbHelp(t *testing.T) {
	for verb := range quarantineVerbs {
		code, _, errs := cli(t, "", "quarantine", verb, "-no-such-flag")
		if code != exitUsage || !strings.Contains(errs, "run 'flakegate quarantine "+verb+" -h' for usage") {
			t.Errorf("quarantine %s -no-such-flag: exit %d, %q", verb, code, errs)
		}
	}
	_, _, errs := cli(t, "")
	for _, line := range strings.Split(errs, "\n") {
		if !strings.HasPrefix(line, "  quarantine ") {
			continue
		}
		for verb := range quarantineVerbs {
			if !strings.Contains(line, verb) {
				t.Errorf("the usage's quarantine line lacks %s: %q", verb, line)
			}
		}
		return
	}
	t.Errorf("no quarantine line in the usage:\n%s", errs)
}

// TestLedgerPositionsAgree: a fault in a ledger line is written
// file:line:column: by flakegate run as by flakegate ledger (the column
// counted by hand: the line ends after column 17).
func TestLedgerPositionsAgree(t *testing.T) {
	bad := filepath.Join(t.TempDir(), "bad.jsonl")
	row := `{"run":"b1","arm":"baseline","nodeid":"t","when":"call","outcome":"passed","ts":1}`
	if err := os.WriteFile(bad, []byte(row+"\n"+`{"run":"b1","arm"`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, _, fromLedger := cli(t, "", "ledger", bad)
	_, _, fromRun := cli(t, "", "run", "-dry-run", "-ledger", bad, "-baseline", "a", "-patched", "b")
	for _, errs := range []string{fromLedger, fromRun} {
		if !strings.Contains(errs, bad+":2:18: ") {
			t.Errorf("stderr %q: want %s:2:18:", errs, bad)
		}
	}
}

// TestThousands: counts are written 2,995, as the README writes them.
func TestThousands(t *testing.T) {
	_, out, _ := cli(t, "", "quarantine", "runs", "-below", "0.001")
	want := "3,621 clean runs from the start of a quarantine release a test below 0.1%"
	if n := int64(quarantine.CleanRuns(0.001, 0.95)); n != 2995 || !strings.HasPrefix(out, want) || !strings.Contains(out, "(2,995 in a row") {
		t.Errorf("%d: %q, want %q and 2,995", n, out, want)
	}
}

// TestUnderpoweredSaysHowMany: a test that blocks for too few trials keeps
// the decision table's action (quarantine) and says how many more trials
// each arm needs: examples/flake.jsonl has 60 of each arm per test, so a
// minimum of 100 needs 40 more of each.
func TestUnderpoweredSaysHowMany(t *testing.T) {
	code, out, _ := cli(t, "", "ledger", "-min-trials", "100", "../../examples/flake.jsonl")
	if code != exitBlock || !strings.Contains(out, "blocks: quarantine") ||
		!strings.Contains(out, "tests/test_retry_budget.py::test_retry_budget: a verdict needs 40 more baseline trials and 40 more patched trials") {
		t.Errorf("exit %d\n%s", code, out)
	}
	_, md, _ := cli(t, "", "ledger", "-min-trials", "100", "-markdown", "../../examples/flake.jsonl")
	if !strings.Contains(md, "an arm has fewer than 100 trials (baseline 60, patched 60); a verdict needs 40 more baseline trials and 40 more patched trials") {
		t.Errorf("markdown:\n%s", md)
	}
	_, out, _ = cli(t, "", "decide", "-baseline", "5/5", "-patched", "1/5")
	if !strings.Contains(out, "too few to tell: a verdict needs 15 more baseline trials and 15 more patched trials") {
		t.Errorf("decide:\n%s", out)
	}
}

// TestEveryCommandTakesCIOutputs: the README says -json-out, -markdown-out
// and -annotations work on any command, and the action passes them to
// every one: each command's and each quarantine verb's help lists them.
func TestEveryCommandTakesCIOutputs(t *testing.T) {
	var cmds [][]string
	for _, c := range commands {
		if c.name != "quarantine" {
			cmds = append(cmds, []string{c.name})
		}
	}
	for verb := range quarantineVerbs {
		cmds = append(cmds, []string{"quarantine", verb})
	}
	for _, c := range cmds {
		code, _, errs := cli(t, "", append(c, "-h")...)
		for _, f := range []string{"-json-out", "-markdown-out", "-annotations"} {
			if code != exitOK || !strings.Contains(errs, "\n  "+f) {
				t.Errorf("%v -h: exit %d, no %s in:\n%s", c, code, f, errs)
			}
		}
	}
}
