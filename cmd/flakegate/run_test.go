package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/creack/pty"

	"github.com/flakegate/flakegate/core"
	"github.com/flakegate/flakegate/core/ledger"
	"github.com/flakegate/flakegate/internal/runner"
)

// junitArgs runs runner/testdata/junit.sh in both arms: suite.stable
// passes, suite.flaky fails in every third baseline run (b3, b6, ...).
func junitArgs(t *testing.T, ledgerPath string, more ...string) []string {
	t.Helper()
	script, err := filepath.Abs("../../internal/runner/testdata/junit.sh")
	if err != nil {
		t.Fatal(err)
	}
	return append([]string{"run", "-ledger", ledgerPath, "-report", "$FLAKEGATE_TMPDIR/junit.xml",
		"-baseline", "sh " + script, "-patched", "sh " + script}, more...)
}

// The dry run's text is checked by TestGolden (testdata/run_dry.golden).
// Its figures come from elsewhere: 60 runs at 4 s are 4 minutes; 0.50
// against 0.85 separates at 28 trials per arm and 0.90 against 0.95 at 427
// (docs/STATISTICS.md, Trials per arm to separate two rates); a 5% flake is seen by 30 runs
// 1-0.95^30 = 78.5% of the time, and needs 59 for 95% (docs/STATISTICS.md, Rerun budget);
// 1-0.05^(1/30) = 9.5%. A dry run writes no ledger:
func TestRunDryWritesNothing(t *testing.T) {
	ledgerPath := filepath.Join(t.TempDir(), "l.jsonl")
	if code, _, errs := cli(t, "", junitArgs(t, ledgerPath, "-dry-run")...); code != exitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if _, err := os.Stat(ledgerPath); err == nil {
		t.Error("a dry run wrote the ledger")
	}
}

// TestRunDryJSON checks the plan's JSON and a measured cost.
func TestRunDryJSON(t *testing.T) {
	ledgerPath := filepath.Join(t.TempDir(), "l.jsonl")
	code, out, errs := cli(t, "", junitArgs(t, ledgerPath, "-dry-run", "-measure", "-json", "-n", "5", "-order", "random", "-seed", "3")...)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var plan struct {
		runner.Plan
		Measured []runner.Record `json:"measured"`
	}
	if err := json.Unmarshal([]byte(out), &plan); err != nil {
		t.Fatal(err)
	}
	want, _ := runner.Order([]string{ledger.ArmBaseline, ledger.ArmPatched}, 5, runner.OrderRandom, 3)
	if len(plan.SequenceIDs) != 10 || plan.SequenceIDs[0] != want[0].ID() || plan.CostSource != "measured" ||
		len(plan.Measured) != 2 || *plan.TrialsPerRun != 2 || plan.Order != "random" {
		t.Errorf("plan %s", out)
	}
}

// TestRunGate runs the JUnit command to the end: the verdict is the
// ledger's, the exit status the gate's, and the lines of progress say
// each run (standard error is not a terminal here).
func TestRunGate(t *testing.T) {
	ledgerPath := filepath.Join(t.TempDir(), "l.jsonl")
	code, out, errs := cli(t, "", junitArgs(t, ledgerPath, "-n", "3", "-min-trials", "3")...)
	// suite.flaky: 2/3 against 3/3, underpowered by nothing and not
	// separated: no-detectable-change; the gate passes.
	if code != exitOK {
		t.Fatalf("exit %d\n%s\n%s", code, out, errs)
	}
	containsAll(t, "stdout", out, "l.jsonl holds 3 baseline runs and 3 patched runs; this start ran 6 runs in ",
		"suite.flaky   2/3  66.7%", "gate: pass")
	lines := strings.Split(strings.TrimSpace(errs), "\n")
	if len(lines) != 7 || !strings.HasPrefix(lines[0], "6 runs to go (3 per arm, interleaved: b1 p1 b2 p2 b3 p3) into ") {
		t.Fatalf("progress:\n%s", errs)
	}
	line := regexp.MustCompile(`^\[(\d)/6\] ([bp]\d) (baseline|patched): (\d)/2 passed in [\d.]+ s( \(failed: suite\.flaky\))? · ` +
		`baseline \d/3 runs, [\d.]+% passed · patched \d/3 runs(, [\d.]+% passed)? · [\d.]+ s elapsed(, about [\d.]+ s left)?$`)
	wantRuns := []string{"b1", "p1", "b2", "p2", "b3", "p3"}
	for i, l := range lines[1:] {
		m := line.FindStringSubmatch(l)
		if m == nil || m[2] != wantRuns[i] || (m[5] != "") != (m[2] == "b3") {
			t.Errorf("progress line %d: %q", i+1, l)
		}
	}
	if !strings.Contains(lines[6], "baseline 3/3 runs, 83.3% passed · patched 3/3 runs, 100.0% passed") {
		t.Errorf("last line %q: 5 of 6 baseline trials passed", lines[6])
	}
	// The same ledger again: nothing to run, the same verdict.
	code, out2, errs := cli(t, "", junitArgs(t, ledgerPath, "-n", "3", "-min-trials", "3")...)
	if code != exitOK || !strings.Contains(errs, "nothing to run") || !strings.Contains(out2, "this start ran 0 runs") {
		t.Errorf("second start: exit %d\n%s\n%s", code, out2, errs)
	}
}

// TestRunJSONBlocks: with -json the result is runner.Result and a block is
// exit 1 (2 runs per arm against the default minimum of 20: underpowered),
// the verdict flakegate ledger gives the same ledger file.
func TestRunJSONBlocks(t *testing.T) {
	ledgerPath := filepath.Join(t.TempDir(), "l.jsonl")
	code, out, errs := cli(t, "", junitArgs(t, ledgerPath, "-n", "2", "-json", "-progress", "off")...)
	if code != exitBlock || errs != "" {
		t.Fatalf("exit %d, stderr %q", code, errs)
	}
	var res runner.Result
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatal(err)
	}
	if res.Verdict == nil || !res.Blocks || res.Runs != (runner.ArmRuns{Baseline: 2, Patched: 2}) || res.Ran != 4 ||
		res.Verdict.Tests[0].Verdict != core.VerdictUnderpowered || res.Gate != runner.GateLedger {
		t.Errorf("result %s", out)
	}
	// flakegate ledger reads the same file to the same verdict.
	code, again, errs := cli(t, "", "ledger", "-json", ledgerPath)
	want, _ := json.MarshalIndent(res.Verdict, "", "  ")
	if code != exitBlock || strings.TrimSpace(again) != string(want) {
		t.Errorf("flakegate ledger: exit %d %s\n%s\nwant\n%s", code, errs, again, want)
	}
}

// TestRunBudgetExit3 stops at the trial budget, given as a flag or as
// the FLAKE_BUDGET environment variable, says so, and exits 3 with what it has.
func TestRunBudgetExit3(t *testing.T) {
	for _, tc := range []struct {
		name string
		args []string
		env  string
	}{{"flag", []string{"-max-trials", "5"}, ""}, {"FLAKE_BUDGET", nil, "5"}} {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv("FLAKE_BUDGET", tc.env)
			ledgerPath := filepath.Join(t.TempDir(), "l.jsonl")
			code, out, _ := cli(t, "", junitArgs(t, ledgerPath, append([]string{"-n", "10"}, tc.args...)...)...)
			if code != exitBudget {
				t.Fatalf("exit %d\n%s", code, out)
			}
			// 2 trials a run: after 2 runs the ledger holds 4, a third would make 6.
			if !strings.Contains(out, "stopped early: the trial budget of 5 is reached: the ledger holds 4 trials") ||
				!strings.Contains(out, "holds 1 baseline run and 1 patched run") {
				t.Errorf("stdout:\n%s", out)
			}
		})
	}
	t.Run("time", func(t *testing.T) {
		ledgerPath := filepath.Join(t.TempDir(), "l.jsonl")
		t.Setenv("JUNIT_SLEEP", "30")
		code, out, _ := cli(t, "", junitArgs(t, ledgerPath, "-n", "2", "-max-time", "0.3")...)
		if code != exitBudget || !strings.Contains(out, "the time budget of 300ms ran out during run b1") {
			t.Errorf("exit %d\n%s", code, out)
		}
	})
}

// TestRunInterrupt: an interrupt stops the start with 130 and the runs kept.
func TestRunInterrupt(t *testing.T) {
	ledgerPath := filepath.Join(t.TempDir(), "l.jsonl")
	started := filepath.Join(t.TempDir(), "order")
	t.Setenv("JUNIT_SLEEP", "30")
	t.Setenv("JUNIT_ORDER", started) // junit.sh writes it as b1 starts
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		for {
			if _, err := os.Stat(started); err == nil {
				cancel()
				return
			}
			time.Sleep(10 * time.Millisecond)
		}
	}()
	var out, errb bytes.Buffer
	code := run(ctx, junitArgs(t, ledgerPath, "-n", "2"), strings.NewReader(""), &out, &errb)
	if code != exitInterrupt || !strings.Contains(out.String(), "stopped early: interrupted during run b1, which is not recorded") {
		t.Errorf("exit %d\n%s", code, out.String())
	}
}

// TestRunArmFails: when every run of an arm fails on its own there is
// nothing to gate: exit 2, with the errors shown.
func TestRunArmFails(t *testing.T) {
	ledgerPath := filepath.Join(t.TempDir(), "l.jsonl")
	script, _ := filepath.Abs("../../internal/runner/testdata/junit.sh")
	code, out, errs := cli(t, "", "run", "-ledger", ledgerPath, "-n", "2", "-report", "$FLAKEGATE_TMPDIR/junit.xml",
		"-baseline", "sh "+script, "-patched", "exit 7")
	if code != exitUsage || !strings.Contains(errs, "no run of the patched arm has trials") ||
		!strings.Contains(out, "2 runs failed on their own") || !strings.Contains(out, "p1 patched: no report matches") {
		t.Errorf("exit %d\n%s\n%s", code, out, errs)
	}
}

// TestRunAA gates an eval's candidate with the A/A check, and runs the
// baseline's A/A check alone.
func TestRunAA(t *testing.T) {
	script, _ := filepath.Abs("../../internal/runner/testdata/junit.sh")
	ledgerPath := filepath.Join(t.TempDir(), "l.jsonl")
	code, out, errs := cli(t, "", "run", "-ledger", ledgerPath, "-n", "3", "-report", "$FLAKEGATE_TMPDIR/junit.xml", "-json",
		"-baseline", "sh "+script, "-candidate", "sh "+script)
	if code != exitOK {
		t.Fatalf("exit %d\n%s\n%s", code, out, errs)
	}
	var res runner.Result
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatal(err)
	}
	// Per run: 2 scenarios; b3 passes 1, every other run 2 (junit.sh).
	if res.Gate != runner.GateAA || res.AA == nil || res.AA.Candidate == nil || res.AA.Scenarios != 2 || res.AA.Runs != 3 {
		t.Fatalf("result %s", out)
	}
	ledgerPath2 := filepath.Join(t.TempDir(), "l.jsonl")
	code, out, errs = cli(t, "", "run", "-ledger", ledgerPath2, "-n", "3", "-report", "$FLAKEGATE_TMPDIR/junit.xml", "-aa",
		"-baseline", "sh "+script)
	if code != exitOK || !strings.Contains(out, "l.jsonl holds 3 baseline runs; this start ran 3 runs") ||
		!strings.Contains(out, "2 scenarios, 3 runs") || !strings.Contains(errs, "3 runs to go (3 per arm, interleaved: b1 b2 b3)") {
		t.Errorf("exit %d\n%s\n%s", code, out, errs)
	}
}

// TestRunUsage checks the command line's mistakes: exit 2 and a sentence.
func TestRunUsage(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"run"}, "give the command to run"},
		{[]string{"run", "--", "go", "test"}, "one command needs two places to run"},
		{[]string{"run", "-baseline", "a"}, "give the patched arm's command line"},
		{[]string{"run", "-baseline", "a", "-patched", "b", "-candidate", "c"}, "-patched or -candidate, not both"},
		{[]string{"run", "-baseline", "a", "-patched", "b", "--", "go"}, "not both"},
		{[]string{"run", "-baseline", "a", "-patched", "b", "-measure"}, "-measure times runs for the plan of a -dry-run"},
		{[]string{"run", "-baseline", "a", "-patched", "b", "-n", "0"}, "-n: runs per arm must be at least 1"},
		{[]string{"run", "-baseline", "a", "-patched", "b", "-order", "sorted"}, `order must be interleave or random, got "sorted"`},
		{[]string{"run", "-baseline", "a", "-patched", "b", "-max-time", "soon"}, `"soon" is not a duration`},
		{[]string{"run", "-baseline", "a", "-patched", "b", "-separate", "0.5"}, "want two pass rates"},
		{[]string{"run", "-baseline", "a", "-patched", "b", "-progress", "loud"}, "-progress must be auto, bar, lines or off"},
		{[]string{"run", "-baseline", "a", "-patched", "b", "-baseline-dir", "/nonexistent/dir", "-dry-run"}, "directory /nonexistent/dir does not exist"},
		{[]string{"run", "-baseline", "a", "-patched", "b", "-report", "[", "-dry-run"}, "report pattern"},
		{[]string{"run", "-baseline", "a", "-patched", "b", "-format", "csv", "-dry-run"}, `format must be one of ledger, gotest, junit`},
		{[]string{"run", "-baseline", "a", "-patched", "b", "-min-trials", "0", "-dry-run"}, "min"},
	} {
		code, _, errs := cli(t, "", tc.args...)
		if code != exitUsage || !strings.Contains(errs, tc.want) {
			t.Errorf("%q: exit %d, stderr %q; want 2 and %q", tc.args, code, errs, tc.want)
		}
	}
}

// TestRunProgressBar runs with standard error on a pseudo-terminal: the
// progress is one bar redrawn in place (carriage return, erase to the end
// of the line), with runs per arm, pass rates and the time; errors print
// above it on lines of their own.
func TestRunProgressBar(t *testing.T) {
	ptmx, tty, err := pty.Open()
	if err != nil {
		t.Fatal(err)
	}
	defer ptmx.Close()
	if err := pty.Setsize(ptmx, &pty.Winsize{Rows: 24, Cols: 200}); err != nil {
		t.Fatal(err)
	}
	t.Setenv("TERM", "xterm")
	var screen bytes.Buffer
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		io.Copy(&screen, ptmx)
	}()
	ledgerPath := filepath.Join(t.TempDir(), "l.jsonl")
	t.Setenv("JUNIT_FAIL_RUN", "p2")
	var out bytes.Buffer
	code := run(context.Background(), junitArgs(t, ledgerPath, "-n", "2", "-min-trials", "1"), strings.NewReader(""), &out, tty)
	tty.Close()
	wg.Wait()
	if code != exitOK {
		t.Fatalf("exit %d\n%s\n%q", code, out.String(), screen.String())
	}
	s := screen.String()
	containsAll(t, "the terminal", s,
		"4 runs to go (2 per arm, interleaved: b1 p1 b2 p2) into ",
		"\r░░░░░░░░░░░░░░░░░░░░░░░░ 0/4 · baseline 0/2 runs · patched 0/2 runs · ",
		" · running b1\x1b[K",
		"\r\x1b[Kp2 patched: error: no report matches",
		"\r████████████████████████ 4/4 · baseline 2/2 runs 100.0% passed · patched 1/2 runs 100.0% passed (1 error) · ")
	// The terminal turns \n into \r\n; every redraw starts with \r.
	if n := strings.Count(s, "\r████████████"); n < 1 || strings.Contains(s, "passed\n") {
		t.Errorf("bar redraws: %q", s)
	}
	if code := strings.Count(out.String(), "gate: pass"); code != 1 {
		t.Errorf("stdout %q", out.String())
	}
}

// TestRunMarkdown: flakegate run -markdown is the summary flakegate ledger
// -markdown gives the same ledger file, link included, with a line on what
// the start ran before the link; its exit status is the gate's (2 runs
// per arm against the default minimum of 20: underpowered, exit 1).
func TestRunMarkdown(t *testing.T) {
	ledgerPath := filepath.Join(t.TempDir(), "l.jsonl")
	code, out, errs := cli(t, "", junitArgs(t, ledgerPath, "-n", "2", "-markdown", "-site", testSite, "-progress", "off")...)
	if code != exitBlock || errs != "" {
		t.Fatalf("exit %d, stderr %q\n%s", code, errs, out)
	}
	_, summary, _ := cli(t, "", "ledger", "-markdown", "-site", testSite, ledgerPath)
	i := strings.LastIndex(summary, "\n[Open in flakegate](")
	if i < 0 {
		t.Fatalf("no link in flakegate ledger's summary:\n%s", summary)
	}
	ran := regexp.MustCompile(`\nThe ledger holds 2 baseline runs and 2 patched runs, each a fresh process; this start ran 4 runs in [^\n]+\.\n`)
	if !strings.HasPrefix(out, summary[:i]) || !strings.HasSuffix(out, summary[i:]) || !ran.MatchString(out[i:len(out)-len(summary)+i]) {
		t.Errorf("run -markdown:\n%s\n--- flakegate ledger -markdown:\n%s", out, summary)
	}
	// -json: the verdict carries the link flakegate ledger -json gives.
	_, js, _ := cli(t, "", junitArgs(t, ledgerPath, "-n", "2", "-json", "-site", testSite, "-progress", "off")...)
	_, ljs, _ := cli(t, "", "ledger", "-json", "-site", testSite, ledgerPath)
	var res runner.Result
	var want ledger.Result
	if err := json.Unmarshal([]byte(js), &res); err != nil || json.Unmarshal([]byte(ljs), &want) != nil || res.Verdict == nil ||
		want.Link == "" || res.Verdict.Link != want.Link {
		t.Errorf("run -json -site: %v\n%s\n--- flakegate ledger -json -site:\n%s", err, js, ljs)
	}
	code, _, errs = cli(t, "", junitArgs(t, ledgerPath, "-n", "2", "-markdown", "-dry-run")...)
	if code != exitUsage || !strings.Contains(errs, "-markdown") {
		t.Errorf("-markdown -dry-run: exit %d %q", code, errs)
	}
}
