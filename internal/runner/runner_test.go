package runner

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/flakegate/flakegate/core"
	"github.com/flakegate/flakegate/core/gate"
	"github.com/flakegate/flakegate/core/ledger"
)

// helperEnv, when set, makes the test binary a flakegate run of the
// Config in it (JSON), so that a test can kill a start with SIGKILL.
const helperEnv = "FLAKEGATE_RUNNER_TEST_HELPER"

func TestMain(m *testing.M) {
	if raw := os.Getenv(helperEnv); raw != "" {
		var cfg Config
		if err := json.Unmarshal([]byte(raw), &cfg); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(2)
		}
		if _, err := Run(context.Background(), cfg); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(2)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// testdata returns the absolute path of a file in testdata.
func testdata(t *testing.T, name string) string {
	t.Helper()
	p, err := filepath.Abs(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// env is the test process's environment with more variables.
func env(kv ...string) []string { return append(os.Environ(), kv...) }

// plantedConfig runs the planted Go package in both arms with go test -json.
// FLAKY_SEED 0 at rate 0.5 fails TestPlanted in b2 and b3 (a SHA-256 of the
// seed and the run id; the tally, not this comment, is what the tests
// check); the patched arm's rate is 0.
func plantedConfig(t *testing.T, n int, tally string, extra ...string) Config {
	t.Helper()
	dir := testdata(t, "flaky")
	argv := []string{"go", "test", "-json", "-count=1", "."}
	cfg := DefaultConfig
	cfg.Ledger = filepath.Join(t.TempDir(), "flake.jsonl")
	cfg.RunsPerArm = n
	cfg.Arms = []Arm{{Name: ledger.ArmBaseline, Argv: argv, Dir: dir}, {Name: ledger.ArmPatched, Argv: argv, Dir: dir}}
	cfg.Env = env(append([]string{"FLAKY_SEED=0", "FLAKY_RATE=0.5", "FLAKY_RATE_PATCHED=0", "FLAKY_TALLY=" + tally,
		"GOWORK=off", "GOFLAGS=-mod=mod"}, extra...)...)
	return cfg
}

// junitConfig runs testdata/junit.sh in both arms, its report a file.
func junitConfig(t *testing.T, n int, extra ...string) Config {
	t.Helper()
	script := testdata(t, "junit.sh")
	cfg := DefaultConfig
	cfg.Ledger = filepath.Join(t.TempDir(), "flake.jsonl")
	cfg.RunsPerArm = n
	cfg.Report = "$FLAKEGATE_TMPDIR/junit.xml"
	cfg.Arms = []Arm{{Name: ledger.ArmBaseline, Shell: "sh " + script}, {Name: ledger.ArmPatched, Shell: "sh " + script}}
	cfg.Env = env(extra...)
	return cfg
}

// ledgerRows reads the ledger's rows: run -> nodeid -> outcome for call
// rows, and the run records in file order.
func ledgerRows(t *testing.T, path string) (map[string]map[string]string, []Record) {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	calls := map[string]map[string]string{}
	var recs []Record
	for line := range bytes.Lines(raw) {
		var row map[string]any
		if err := json.Unmarshal(line, &row); err != nil {
			t.Fatalf("ledger line %q: %v", line, err)
		}
		run := row["run"].(string)
		switch row["when"] {
		case "call":
			if calls[run] == nil {
				calls[run] = map[string]string{}
			}
			if _, dup := calls[run][row["nodeid"].(string)]; dup {
				t.Errorf("run %s has two rows of %s", run, row["nodeid"])
			}
			calls[run][row["nodeid"].(string)] = row["outcome"].(string)
		case "run":
			var rec Record
			if err := json.Unmarshal(line, &rec); err != nil {
				t.Fatal(err)
			}
			recs = append(recs, rec)
		}
	}
	return calls, recs
}

// readTally reads the planted tests' own record: run -> test -> outcome,
// and the runs in the order their first line was written.
func readTally(t *testing.T, path string) (map[string]map[string]string, []string) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	out := map[string]map[string]string{}
	var order []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fs := strings.Fields(sc.Text())
		if len(fs) != 4 {
			t.Fatalf("tally line %q", sc.Text())
		}
		run, test, outcome := fs[0], "example.com/planted."+fs[2], fs[3]
		if out[run] == nil {
			out[run] = map[string]string{}
			order = append(order, run)
		}
		out[run][test] = outcome
	}
	return out, order
}

func ids(slots []Slot) []string {
	out := make([]string, len(slots))
	for i, s := range slots {
		out[i] = s.ID()
	}
	return out
}

func recordIDs(recs []Record) []string {
	out := make([]string, len(recs))
	for i, r := range recs {
		out[i] = r.Run
	}
	return out
}

// TestPlantedGoTest runs the planted package with go test -json, 4 runs
// per arm, and checks the ledger against the tests' own tally: every run,
// every test, every outcome, in the order the runs really ran.
func TestPlantedGoTest(t *testing.T) {
	tally := filepath.Join(t.TempDir(), "tally")
	cfg := plantedConfig(t, 4, tally)
	out, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if out.Stop != "" || len(out.Records) != 8 {
		t.Fatalf("stop %q after %d runs", out.Stop, len(out.Records))
	}
	want, order := readTally(t, tally)
	calls, recs := ledgerRows(t, cfg.Ledger)
	if !reflect.DeepEqual(calls, want) {
		t.Errorf("ledger rows differ from the tally:\nledger %v\ntally  %v", calls, want)
	}
	// The commands' own order, the ledger's order and the plan are one.
	interleaved := []string{"b1", "p1", "b2", "p2", "b3", "p3", "b4", "p4"}
	if got := recordIDs(recs); !reflect.DeepEqual(got, interleaved) || !reflect.DeepEqual(order, interleaved) {
		t.Errorf("records %v, tally order %v, want %v", got, order, interleaved)
	}
	fails := 0
	for i, rec := range recs {
		if rec.Seq != i+1 || rec.Outcome != OutcomeDone || rec.Trials != int64(len(want[rec.Run])) {
			t.Errorf("record %+v", rec)
		}
		if want[rec.Run]["example.com/planted.TestPlanted"] == "failed" {
			fails++
			if rec.Arm != ledger.ArmBaseline || rec.Exit != 1 {
				t.Errorf("run %s failed TestPlanted: arm %s, exit %d", rec.Run, rec.Arm, rec.Exit)
			}
		}
	}
	if fails == 0 || fails == 4 {
		t.Fatalf("the planted test failed in %d of 4 baseline runs: the seed no longer plants a flake", fails)
	}
	// The verdict counts what the tally counts.
	res, err := Finish(out, GateOptions{Gate: GateLedger, Ledger: ledger.Options{MinTrials: 4, Confidence: 0.95, Property: core.PropertyUnknown}})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range res.Verdict.Tests {
		for _, arm := range []struct {
			got  gate.Arm
			name string
		}{{tc.Baseline, ledger.ArmBaseline}, {tc.Patched, ledger.ArmPatched}} {
			var passed, trials int64
			for run, tests := range want {
				if (run[0] == 'b') == (arm.name == ledger.ArmBaseline) {
					trials++
					if tests[tc.NodeID] == "passed" {
						passed++
					}
				}
			}
			if arm.got.Passed != passed || arm.got.Trials != trials {
				t.Errorf("%s %s: %d/%d, the tally says %d/%d", tc.NodeID, arm.name, arm.got.Passed, arm.got.Trials, passed, trials)
			}
		}
	}
	if res.Runs != (ArmRuns{4, 4}) || len(res.Errors) != 0 {
		t.Errorf("runs %+v, errors %v", res.Runs, res.Errors)
	}
}

// TestResumeAfterSIGKILL kills a start (SIGKILL, no chance to clean up) in
// the middle of run p2 and starts again: the ledger keeps b1 p1 b2, holds
// nothing of the killed p2, and the second start runs exactly p2 b3 p3.
func TestResumeAfterSIGKILL(t *testing.T) {
	dir := t.TempDir()
	tally1, tally2, block := filepath.Join(dir, "tally1"), filepath.Join(dir, "tally2"), filepath.Join(dir, "block")
	cfg := plantedConfig(t, 3, tally1, "FLAKY_BLOCK_RUN=p2", "FLAKY_BLOCK_FILE="+block)
	start := func(cfg Config) *exec.Cmd {
		raw, err := json.Marshal(cfg)
		if err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), helperEnv+"="+string(raw))
		cmd.Stderr = os.Stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		return cmd
	}
	first := start(cfg)
	// Three runs come before p2, each a process of its own: 45 s was too
	// little with two whole make test runs at once on two cores.
	deadline := time.Now().Add(3 * time.Minute)
	for {
		if _, err := os.Stat(block); err == nil {
			break
		}
		if time.Now().After(deadline) {
			first.Process.Kill()
			t.Fatal("run p2 never started")
		}
		time.Sleep(10 * time.Millisecond)
	}
	if err := first.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	first.Wait()
	st, err := ReadState(cfg.Ledger)
	if err != nil {
		t.Fatal(err)
	}
	if got := recordIDs(st.Records); !reflect.DeepEqual(got, []string{"b1", "p1", "b2"}) {
		t.Fatalf("after the kill the ledger has runs %v, want b1 p1 b2", got)
	}
	// The second start: the same ledger, a fresh tally, nothing blocks.
	cfg2 := plantedConfig(t, 3, tally2)
	cfg2.Ledger = cfg.Ledger
	second := start(cfg2)
	if err := second.Wait(); err != nil {
		t.Fatalf("second start: %v", err)
	}
	before, _ := readTally(t, tally1)
	after, order := readTally(t, tally2)
	if !reflect.DeepEqual(order, []string{"p2", "b3", "p3"}) {
		t.Errorf("the second start ran %v, want p2 b3 p3", order)
	}
	want := map[string]map[string]string{}
	for _, run := range []string{"b1", "p1", "b2"} {
		want[run] = before[run]
	}
	for run, tests := range after {
		want[run] = tests
	}
	calls, recs := ledgerRows(t, cfg.Ledger)
	if !reflect.DeepEqual(calls, want) {
		t.Errorf("ledger rows differ from the tallies:\nledger %v\nwant   %v", calls, want)
	}
	if got := recordIDs(recs); !reflect.DeepEqual(got, []string{"b1", "p1", "b2", "p2", "b3", "p3"}) {
		t.Errorf("records %v", got)
	}
	for i, rec := range recs {
		if rec.Seq != i+1 {
			t.Errorf("run %s has seq %d, want %d", rec.Run, rec.Seq, i+1)
		}
	}
}

// TestJUnitCommand runs a JUnit-writing shell command whose outcomes are
// arithmetic on the run number: suite.flaky fails in b3 and b6 only.
// Run p2 breaks the harness (exit 3, no report): an error of that run, not
// a test failure; the next start runs p2 and nothing else.
func TestJUnitCommand(t *testing.T) {
	order := filepath.Join(t.TempDir(), "order")
	cfg := junitConfig(t, 6, "JUNIT_ORDER="+order, "JUNIT_FAIL_RUN=p2")
	out, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	calls, recs := ledgerRows(t, cfg.Ledger)
	want := map[string]map[string]string{}
	for i := 1; i <= 6; i++ {
		for _, arm := range []string{"b", "p"} {
			run := arm + strconv.Itoa(i)
			if run == "p2" {
				continue
			}
			flaky := "passed"
			if arm == "b" && i%3 == 0 {
				flaky = "failed"
			}
			want[run] = map[string]string{"suite.stable": "passed", "suite.flaky": flaky}
		}
	}
	if !reflect.DeepEqual(calls, want) {
		t.Errorf("ledger rows %v\nwant %v", calls, want)
	}
	var p2 *Record
	for i := range recs {
		if recs[i].Run == "p2" {
			p2 = &recs[i]
		}
	}
	if p2 == nil || p2.Outcome != OutcomeError || p2.Trials != 0 || p2.Exit != 3 ||
		!strings.Contains(p2.Error, "no report matches") || !strings.Contains(p2.Error, "planted harness failure in p2") {
		t.Fatalf("p2's record: %+v", p2)
	}
	res, err := Finish(out, GateOptions{Gate: GateLedger, Ledger: ledger.Options{MinTrials: 5, Confidence: 0.95, Property: core.PropertyUnknown}})
	if err != nil {
		t.Fatal(err)
	}
	if res.Runs != (ArmRuns{6, 5}) || len(res.Errors) != 1 || res.Errors[0].Run != "p2" {
		t.Errorf("runs %+v, errors %+v", res.Runs, res.Errors)
	}
	for _, tc := range res.Verdict.Tests {
		if tc.NodeID == "suite.flaky" && (tc.Baseline.Passed != 4 || tc.Baseline.Trials != 6 || tc.Patched.Passed != 5 || tc.Patched.Trials != 5) {
			t.Errorf("suite.flaky: %d/%d vs %d/%d, want 4/6 vs 5/5", tc.Baseline.Passed, tc.Baseline.Trials, tc.Patched.Passed, tc.Patched.Trials)
		}
		if tc.NodeID == "suite.skip" {
			t.Error("a skipped test is no trial")
		}
	}
	// The harness is fixed: the next start runs p2 alone.
	os.Remove(order)
	cfg.Env = env("JUNIT_ORDER=" + order)
	out, err = Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if got := recordIDs(out.Records); !reflect.DeepEqual(got, []string{"p2"}) {
		t.Errorf("the second start ran %v, want p2", got)
	}
	if raw, _ := os.ReadFile(order); string(raw) != "p2\n" {
		t.Errorf("the commands ran %q", raw)
	}
	res, err = Finish(out, GateOptions{Gate: GateLedger, Ledger: ledger.DefaultOptions})
	if err != nil {
		t.Fatal(err)
	}
	if res.Runs != (ArmRuns{6, 6}) || len(res.Errors) != 0 {
		t.Errorf("after the second start: runs %+v, errors %+v", res.Runs, res.Errors)
	}
}

// TestOrderRan checks both orders as the commands themselves saw them.
func TestOrderRan(t *testing.T) {
	for _, tc := range []struct {
		order string
		seed  uint64
	}{{OrderInterleave, 0}, {OrderRandom, 1}, {OrderRandom, 2}} {
		t.Run(fmt.Sprintf("%s-%d", tc.order, tc.seed), func(t *testing.T) {
			order := filepath.Join(t.TempDir(), "order")
			cfg := junitConfig(t, 5, "JUNIT_ORDER="+order)
			cfg.Order, cfg.Seed = tc.order, tc.seed
			out, err := Run(context.Background(), cfg)
			if err != nil {
				t.Fatal(err)
			}
			raw, err := os.ReadFile(order)
			if err != nil {
				t.Fatal(err)
			}
			ran := strings.Fields(string(raw))
			plan, _ := Order([]string{ledger.ArmBaseline, ledger.ArmPatched}, 5, tc.order, tc.seed)
			_, recs := ledgerRows(t, cfg.Ledger)
			if !reflect.DeepEqual(ran, ids(plan)) || !reflect.DeepEqual(recordIDs(recs), ran) || !reflect.DeepEqual(out.Plan.SequenceIDs, ran) {
				t.Errorf("ran %v, planned %v, recorded %v", ran, ids(plan), recordIDs(recs))
			}
		})
	}
}

// TestOrder checks the orders' properties: interleaving alternates, a
// random order keeps each pair together with both of its orders drawn,
// and raising N keeps the order of the runs already planned.
func TestOrder(t *testing.T) {
	two := []string{ledger.ArmBaseline, ledger.ArmPatched}
	for _, tc := range []struct {
		arms  []string
		n     int
		order string
		want  []string
	}{
		{two, 3, OrderInterleave, []string{"b1", "p1", "b2", "p2", "b3", "p3"}},
		{two[:1], 3, OrderInterleave, []string{"b1", "b2", "b3"}},
		{two[:1], 2, OrderRandom, []string{"b1", "b2"}},
		{two, 0, OrderInterleave, []string{}},
	} {
		got, err := Order(tc.arms, tc.n, tc.order, 7)
		if err != nil || !reflect.DeepEqual(ids(got), tc.want) {
			t.Errorf("Order(%v, %d, %s) = %v, %v; want %v", tc.arms, tc.n, tc.order, ids(got), err, tc.want)
		}
	}
	if _, err := Order(two, 3, "alphabetical", 0); err == nil {
		t.Error("an unknown order is an error")
	}
	firsts := map[string]int{}
	for seed := uint64(0); seed < 20; seed++ {
		long, _ := Order(two, 40, OrderRandom, seed)
		short, _ := Order(two, 10, OrderRandom, seed)
		again, _ := Order(two, 40, OrderRandom, seed)
		if !reflect.DeepEqual(long[:20], short) || !reflect.DeepEqual(long, again) {
			t.Fatalf("seed %d: the order is not a function of the seed and the pair", seed)
		}
		for i := 0; i < len(long); i += 2 {
			a, b := long[i], long[i+1]
			if a.Index != i/2+1 || b.Index != a.Index || a.Arm == b.Arm {
				t.Fatalf("seed %d: pair %d is %s %s", seed, i/2+1, a.ID(), b.ID())
			}
			firsts[a.Arm]++
		}
	}
	// 800 fair coin flips: each side comes first between 340 and 460
	// times unless the draw is broken (a 5-sigma band).
	if firsts[ledger.ArmBaseline] < 340 || firsts[ledger.ArmPatched] < 340 {
		t.Errorf("first in a pair: %v", firsts)
	}
}

// TestRunErrors checks that the command's own failures are error records
// with no trials, each saying what happened.
func TestRunErrors(t *testing.T) {
	gotest := `printf '%s\n' '{"Action":"run","Package":"p","Test":"TestA"}' '{"Action":"pass","Package":"p","Test":"TestA"}'`
	for _, tc := range []struct {
		name, shell string
		argv        []string
		want        string
	}{
		{"no such program", "", []string{"/nonexistent/flakegate-test-cmd"}, "could not start: /nonexistent/flakegate-test-cmd"},
		{"no report", "echo broken >&2; exit 2", nil, "wrote nothing to its standard output, where its report was expected (the command exited with status 2); it ended with: broken"},
		{"not a report", "echo hello", nil, "could not be read: standard output:1:1: not a report flakegate reads"},
		{"no trials", `printf '%s\n' '{"Action":"run","Package":"p","Test":"TestA"}' '{"Action":"skip","Package":"p","Test":"TestA"}'`, nil, "no trials"},
		{"cached", `printf '%s\n' '{"Action":"output","Package":"example.com/p","Output":"ok  \texample.com/p\t(cached)\n"}'; ` + gotest, nil,
			"go test replayed cached results of example.com/p"},
		{"broken build", `printf '%s\n' '{"Action":"build-fail","ImportPath":"example.com/p"}' '{"Action":"fail","Package":"example.com/p","FailedBuild":"example.com/p"}'`, nil,
			"no test ran: package example.com/p did not build"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := DefaultConfig
			cfg.Ledger = filepath.Join(t.TempDir(), "l.jsonl")
			cfg.RunsPerArm = 1
			cfg.Arms = []Arm{{Name: ledger.ArmBaseline, Shell: gotest}, {Name: ledger.ArmPatched, Shell: tc.shell, Argv: tc.argv}}
			out, err := Run(context.Background(), cfg)
			if err != nil {
				t.Fatal(err)
			}
			if len(out.Records) != 2 || out.Records[0].Outcome != OutcomeDone {
				t.Fatalf("records %+v", out.Records)
			}
			rec := out.Records[1]
			if rec.Outcome != OutcomeError || rec.Trials != 0 || !strings.Contains(rec.Error, tc.want) {
				t.Errorf("record %+v\nwant an error with %q", rec, tc.want)
			}
			calls, _ := ledgerRows(t, cfg.Ledger)
			if len(calls) != 1 || calls["b1"]["p.TestA"] != "passed" {
				t.Errorf("rows %v: only b1's trial belongs in the ledger", calls)
			}
		})
	}
}

// TestBudgets stops on the trial budget before a run would pass it, on
// the time budget between runs, and on the time budget in a run (which
// is stopped and not recorded).
func TestBudgets(t *testing.T) {
	t.Run("trials", func(t *testing.T) {
		cfg := junitConfig(t, 10)
		cfg.MaxTrials = 7 // junit.sh has 2 trials a run: 3 runs hold 6, a fourth would make 8
		out, err := Run(context.Background(), cfg)
		if err != nil {
			t.Fatal(err)
		}
		if out.Stop != StopTrials || len(out.Records) != 3 || !strings.Contains(out.StopReason, "trial budget of 7") {
			t.Errorf("stop %q (%s) after %d runs", out.Stop, out.StopReason, len(out.Records))
		}
		// Resumed with the same budget, it stops at once.
		out, err = Run(context.Background(), cfg)
		if err != nil || out.Stop != StopTrials || len(out.Records) != 0 {
			t.Errorf("resumed: %v, stop %q after %d runs", err, out.Stop, len(out.Records))
		}
	})
	t.Run("time between runs", func(t *testing.T) {
		cfg := junitConfig(t, 10, "JUNIT_SLEEP=0.5")
		cfg.MaxTime = 2 * time.Second // room for 1 to 3 runs of 0.5 s and more
		begin := time.Now()
		out, err := Run(context.Background(), cfg)
		if err != nil {
			t.Fatal(err)
		}
		st, _ := ReadState(cfg.Ledger)
		if out.Stop != StopTime || len(out.Records) == 0 || len(out.Records) > 3 || len(st.Records) != len(out.Records) {
			t.Errorf("stop %q after %d runs (%d in the ledger)", out.Stop, len(out.Records), len(st.Records))
		}
		if d := time.Since(begin); d > cfg.MaxTime+stopGrace {
			t.Errorf("took %s with a budget of %s", d, cfg.MaxTime)
		}
	})
	t.Run("time in a run", func(t *testing.T) {
		cfg := junitConfig(t, 2, "JUNIT_SLEEP=30")
		cfg.MaxTime = 500 * time.Millisecond
		begin := time.Now()
		out, err := Run(context.Background(), cfg)
		if err != nil {
			t.Fatal(err)
		}
		st, _ := ReadState(cfg.Ledger)
		if out.Stop != StopTime || len(out.Records) != 0 || len(st.Records) != 0 || !strings.Contains(out.StopReason, "during run b1") {
			t.Errorf("stop %q (%s), %d runs", out.Stop, out.StopReason, len(out.Records))
		}
		if d := time.Since(begin); d > cfg.MaxTime+stopGrace+time.Second {
			t.Errorf("took %s: the run was not stopped", d)
		}
	})
	t.Run("run timeout", func(t *testing.T) {
		cfg := junitConfig(t, 1, "JUNIT_SLEEP=30")
		cfg.RunTimeout = 300 * time.Millisecond
		out, err := Run(context.Background(), cfg)
		if err != nil {
			t.Fatal(err)
		}
		if out.Stop != "" || len(out.Records) != 2 || out.Records[0].Outcome != OutcomeError ||
			!strings.Contains(out.Records[0].Error, "run timeout of 300ms") {
			t.Errorf("records %+v", out.Records)
		}
	})
}

// TestInterrupt ends the context during a run: no record, Stop says so.
func TestInterrupt(t *testing.T) {
	cfg := junitConfig(t, 2, "JUNIT_SLEEP=30")
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	out, err := Run(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if out.Stop != StopInterrupt || len(out.Records) != 0 {
		t.Errorf("stop %q, %d runs", out.Stop, len(out.Records))
	}
}

// TestLock refuses a second start on a ledger in use.
func TestLock(t *testing.T) {
	path := filepath.Join(t.TempDir(), "l.jsonl")
	lf, _, _, err := openLedger(path)
	if err != nil {
		t.Fatal(err)
	}
	defer lf.close()
	cfg := junitConfig(t, 1)
	cfg.Ledger = path
	if _, err := Run(context.Background(), cfg); err == nil || !strings.Contains(err.Error(), "another flakegate run") {
		t.Errorf("a second start on a locked ledger: %v", err)
	}
}

// TestWorktree runs one command in a git worktree of HEAD (the baseline)
// and in the working tree as it is (patched, with an uncommitted fix).
func TestWorktree(t *testing.T) {
	repo := t.TempDir()
	gitDo := func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-c", "user.name=t", "-c", "user.email=t@example.com", "-c", "init.defaultBranch=main"}, args...)...)
		cmd.Dir = repo
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	suite := func(outcome string) string {
		return fmt.Sprintf(`printf '%%s\n' '{"Action":"run","Package":"ex","Test":"TestX"}' '{"Action":"%s","Package":"ex","Test":"TestX"}'`+"\n", outcome)
	}
	os.MkdirAll(filepath.Join(repo, "sub"), 0o755)
	write := func(s string) {
		if err := os.WriteFile(filepath.Join(repo, "sub", "suite.sh"), []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	gitDo("init", "-q")
	write(suite("fail"))
	gitDo("add", ".")
	gitDo("commit", "-q", "-m", "a failing suite")
	write(suite("pass")) // the patch, not committed
	cfg := DefaultConfig
	cfg.Ledger = filepath.Join(t.TempDir(), "l.jsonl")
	cfg.RunsPerArm = 2
	dir := filepath.Join(repo, "sub")
	cfg.Arms = []Arm{{Name: ledger.ArmBaseline, Argv: []string{"sh", "suite.sh"}, Dir: dir, Ref: "HEAD"},
		{Name: ledger.ArmPatched, Argv: []string{"sh", "suite.sh"}, Dir: dir}}
	out, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	head, _ := git(context.Background(), repo, "rev-parse", "HEAD")
	for _, rec := range out.Records {
		wantPassed, wantCommit := int64(1), ""
		if rec.Arm == ledger.ArmBaseline {
			wantPassed, wantCommit = 0, head
		}
		if rec.Outcome != OutcomeDone || rec.Passed != wantPassed || rec.Commit != wantCommit {
			t.Errorf("record %+v", rec)
		}
	}
	if out.Plan.Arms[0].Commit != head || out.Plan.Arms[0].Ref != "HEAD" {
		t.Errorf("plan arm %+v", out.Plan.Arms[0])
	}
	list, _ := git(context.Background(), repo, "worktree", "list")
	if n := len(strings.Split(list, "\n")); n != 1 {
		t.Errorf("worktrees left behind:\n%s", list)
	}
	cfg.Arms[0].Ref = "no-such-branch"
	if _, err := Run(context.Background(), cfg); err == nil || !strings.Contains(err.Error(), `"no-such-branch" is not a commit`) {
		t.Errorf("a missing ref: %v", err)
	}
}

// TestDryRun plans without touching the ledger, and measures when asked.
func TestDryRun(t *testing.T) {
	cfg := junitConfig(t, 30)
	cost := 4.0
	cfg.CostSeconds = &cost
	plan, _, err := DryRun(context.Background(), cfg, false)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(cfg.Ledger); err == nil {
		t.Error("a dry run created the ledger")
	}
	// 60 runs at 4 s; the sizing: 0.50 against 0.85 separates at 28
	// trials per arm, 0.90 against 0.95 at 427 (docs/STATISTICS.md, Trials
	// per arm to separate two rates); 30 runs catch a 5% flake 1-0.95^30 = 78.54% of the time and
	// one of 1-0.05^(1/30) = 9.503% with 95% power.
	if len(plan.Sequence) != 60 || *plan.Seconds != 240 || plan.CostSource != "given" {
		t.Errorf("plan: %d runs, %v s, %s", len(plan.Sequence), *plan.Seconds, plan.CostSource)
	}
	s := plan.Sizing
	if *s.Separations[0].Needed != 28 || !s.Separations[0].Separates || *s.Separations[1].Needed != 427 || s.Separations[1].Separates {
		t.Errorf("separations %+v %+v", s.Separations[0], s.Separations[1])
	}
	if d := s.Detection[0]; d.Rate != 0.05 || fmt.Sprintf("%.4f", d.Power) != "0.7854" || d.Needed != 59 {
		t.Errorf("detection %+v", d)
	}
	if fmt.Sprintf("%.5f", s.SmallestRate) != "0.09503" {
		t.Errorf("smallest rate %v", s.SmallestRate)
	}
	plan, measured, err := DryRun(context.Background(), cfg, true)
	if err != nil {
		t.Fatal(err)
	}
	if len(measured) != 2 || measured[0].Run != "b0" || measured[1].Run != "p0" || plan.CostSource != "measured" ||
		*plan.TrialsPerRun != 2 || *plan.Trials != 120 {
		t.Errorf("measured %+v; plan cost %s, %v trials a run", measured, plan.CostSource, plan.TrialsPerRun)
	}
	if _, err := os.Stat(cfg.Ledger); err == nil {
		t.Error("measuring wrote the ledger")
	}
}

// TestScanTornTail cuts a run's append at every byte: the cut rows are
// never part of the ledger, the runs before them always are, and opening
// the ledger drops them with a warning.
func TestScanTornTail(t *testing.T) {
	cfg := junitConfig(t, 2)
	if _, err := Run(context.Background(), cfg); err != nil {
		t.Fatal(err)
	}
	raw, err := os.ReadFile(cfg.Ledger)
	if err != nil {
		t.Fatal(err)
	}
	// The last run's rows and record are the batch to cut.
	lines := bytes.SplitAfter(raw, []byte("\n"))
	lines = lines[:len(lines)-1] // the empty string after the last newline
	cut := 0
	for i := len(lines) - 2; i >= 0; i-- {
		if bytes.Contains(lines[i], []byte(`"when":"run"`)) {
			cut = i + 1
			break
		}
	}
	head := bytes.Join(lines[:cut], nil)
	batch := bytes.Join(lines[cut:], nil)
	full, err := Scan(bytes.NewReader(raw), "l")
	if err != nil {
		t.Fatal(err)
	}
	for k := 0; k <= len(batch); k++ {
		data := append(append([]byte{}, head...), batch[:k]...)
		st, err := Scan(bytes.NewReader(data), "l")
		if err != nil {
			t.Fatalf("cut at %d: %v", k, err)
		}
		wantRecs, wantSize := full.Records[:len(full.Records)-1], int64(len(head))
		if k == len(batch) {
			wantRecs, wantSize = full.Records, int64(len(raw))
		}
		if !reflect.DeepEqual(st.Records, wantRecs) || st.Size != wantSize || st.Size+st.Torn != int64(len(data)) {
			t.Fatalf("cut at %d: %d records, size %d torn %d", k, len(st.Records), st.Size, st.Torn)
		}
	}
	// Open a ledger whose last run was cut mid-line: dropped, warned, and
	// the run is done again.
	if err := os.WriteFile(cfg.Ledger, append(head, batch[:len(batch)/2]...), 0o644); err != nil {
		t.Fatal(err)
	}
	var w recorder
	cfg.Observer = &w
	out, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	// Every warning is observed as well as returned, the plan's too.
	if !strings.Contains(out.Warnings[0], "dropped") || !reflect.DeepEqual(w.warns, out.Warnings) {
		t.Errorf("warnings %q, observed %q", out.Warnings, w.warns)
	}
	if got := recordIDs(out.Records); !reflect.DeepEqual(got, []string{"p2"}) {
		t.Errorf("ran %v, want p2", got)
	}
	again, err := os.ReadFile(cfg.Ledger)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Scan(bytes.NewReader(again), "l"); err != nil || !bytes.HasPrefix(again, head) {
		t.Errorf("the ledger after the resume: %v", err)
	}
}

// recorder is an Observer that keeps what it is told.
type recorder struct {
	begun    int
	started  []string
	finished []string
	warns    []string
}

func (r *recorder) Begin(*Plan, Status)            { r.begun++ }
func (r *recorder) Started(s Slot, _ Status)       { r.started = append(r.started, s.ID()) }
func (r *recorder) Finished(rec *Record, _ Status) { r.finished = append(r.finished, rec.Run) }
func (r *recorder) Warn(msg string)                { r.warns = append(r.warns, msg) }

// TestScanErrors checks that what flakegate run would not have written is
// refused with its line, so that a start never appends to a file it does
// not understand.
func TestScanErrors(t *testing.T) {
	rec := `{"run":"b1","arm":"baseline","when":"run","outcome":"done","seq":1,"trials":1,"passed":1,"ts":1}` + "\n"
	row := `{"run":"b1","arm":"baseline","nodeid":"t","when":"call","outcome":"passed","ts":1}` + "\n"
	for _, tc := range []struct {
		name, data, want string
		line             int
	}{
		{"not JSON", "hello\n", "not a JSON ledger row: malformed JSON: want an object, found 'h'", 1},
		// Columns counted by hand on the row; the words are flakegate's, not encoding/json's.
		{"field twice", row + `{"run":"b1","run":"b2"}` + "\n", `not a JSON ledger row: field "run" appears twice`, 2},
		{"mistyped", `{"run":"b1","trials":1.5}` + "\n", "not a JSON ledger row: trials: want a whole number, got 1.5", 1},
		{"cut in the middle", `{"run":"b1","arm"` + "\n" + rec, "not a JSON ledger row: arm: malformed JSON: the line ends where ':' after a key should be", 1},
		{"no arm", `{"run":"b1","when":"call","outcome":"passed","nodeid":"t"}` + "\n", "needs run, arm, when and outcome", 1},
		{"bad arm", `{"run":"b1","arm":"unset","nodeid":"t","when":"call","outcome":"passed"}` + "\n", `arm must be baseline or patched, got "unset"`, 1},
		{"bad when", `{"run":"b1","arm":"baseline","nodeid":"t","when":"later","outcome":"passed"}` + "\n", "when must be", 1},
		{"seed ledger", row + strings.Replace(row, `"b1"`, `"b2"`, 1) + rec, "not written by flakegate run", 2},
		{"count", row + row + rec, "counts 1 trial, the rows before it 2", 3},
		{"twice", row + rec + row + rec, "recorded twice, on lines 2 and 4", 4},
		{"error after rows", row + strings.Replace(rec, `"done"`, `"error"`, 1), "error record follows trial rows", 2},
		{"bad outcome", strings.Replace(rec, `"done"`, `"maybe"`, 1), "outcome must be done or error", 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Scan(strings.NewReader(tc.data), "x.jsonl")
			le, ok := err.(*LedgerError)
			// A fault inside a row is at its column, written file:line:column:
			// as flakegate ledger writes it (the columns counted by hand).
			col := map[string]int{"not JSON": 1, "field twice": 13, "mistyped": 22, "cut in the middle": 18}[tc.name]
			pos := fmt.Sprintf("x.jsonl:%d: ", tc.line)
			if col > 0 {
				pos = fmt.Sprintf("x.jsonl:%d:%d: ", tc.line, col)
			}
			if !ok || le.Line != tc.line || le.Column != col || !strings.Contains(le.Msg, tc.want) || !strings.HasPrefix(err.Error(), pos) {
				t.Errorf("got %v, want %s%s", err, pos, tc.want)
			}
		})
	}
}

// FuzzScan: any bytes either fail with a line or split into a committed
// part that scans the same alone, and a tail.
func FuzzScan(f *testing.F) {
	f.Add([]byte(`{"run":"b1","arm":"baseline","nodeid":"t","when":"call","outcome":"passed","ts":1}` + "\n" +
		`{"run":"b1","arm":"baseline","when":"run","outcome":"done","seq":1,"trials":1,"passed":1,"ts":1}` + "\n"))
	f.Add([]byte(`{"run":"p1","arm":"patched","when":"run","outcome":"error","error":"x"}` + "\n" + `{"run":"b2"`))
	f.Add([]byte("\n\n{}\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		st, err := Scan(bytes.NewReader(data), "f")
		if err != nil {
			if le, ok := err.(*LedgerError); !ok || le.Line < 1 {
				t.Fatalf("error without a line: %v", err)
			}
			return
		}
		if st.Size+st.Torn != int64(len(data)) || st.Size < 0 || st.Torn < 0 {
			t.Fatalf("size %d + torn %d != %d", st.Size, st.Torn, len(data))
		}
		again, err := Scan(bytes.NewReader(data[:st.Size]), "f")
		if err != nil || again.Torn != 0 || !reflect.DeepEqual(again.Records, st.Records) {
			t.Fatalf("the committed part scans differently: %v", err)
		}
	})
}

// TestUnresolved keeps the last error of each run that never got done.
func TestUnresolved(t *testing.T) {
	st := &State{Records: []Record{
		{Run: "b1", Arm: ledger.ArmBaseline, Outcome: OutcomeError, Error: "first"},
		{Run: "p1", Arm: ledger.ArmPatched, Outcome: OutcomeError, Error: "x"},
		{Run: "b1", Arm: ledger.ArmBaseline, Outcome: OutcomeError, Error: "second"},
		{Run: "p1", Arm: ledger.ArmPatched, Outcome: OutcomeDone},
	}}
	u := st.Unresolved()
	if len(u) != 1 || u[0].Run != "b1" || u[0].Error != "second" {
		t.Errorf("unresolved %+v", u)
	}
}

// TestEnv checks the names and values each run sees.
func TestEnv(t *testing.T) {
	r := &runner{cfg: Config{Env: []string{"PATH=/bin", "FLAKEGATE_RUN=stale", "TMPDIR=/old"}}}
	got := r.runEnv(Slot{Arm: ledger.ArmPatched, Index: 12}, "/tmp/x")
	sort.Strings(got)
	want := []string{"FLAKEGATE_ARM=patched", "FLAKEGATE_RUN=p12", "FLAKEGATE_TMPDIR=/tmp/x", "FLAKE_ARM=patched",
		"FLAKE_LEDGER=/tmp/x/flake.jsonl", "FLAKE_RUN=p12", "PATH=/bin", "TMPDIR=/tmp/x"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("env %v\nwant %v", got, want)
	}
}

// TestRepeatedExecutions: a test executed several times in one run (go
// test -count=2 here) is one trial of that run, passed only when every
// execution passed, and the row and a note say so.
func TestRepeatedExecutions(t *testing.T) {
	events := []string{
		`{"Action":"run","Package":"p","Test":"TestA"}`, `{"Action":"pass","Package":"p","Test":"TestA"}`,
		`{"Action":"run","Package":"p","Test":"TestB"}`, `{"Action":"fail","Package":"p","Test":"TestB"}`,
		`{"Action":"run","Package":"p","Test":"TestA"}`, `{"Action":"pass","Package":"p","Test":"TestA"}`,
		`{"Action":"run","Package":"p","Test":"TestB"}`, `{"Action":"pass","Package":"p","Test":"TestB"}`,
	}
	cfg := DefaultConfig
	cfg.Ledger = filepath.Join(t.TempDir(), "l.jsonl")
	cfg.RunsPerArm = 1
	cfg.Arms = []Arm{{Name: ledger.ArmBaseline, Shell: "printf '%s\\n' '" + strings.Join(events, "' '") + "'"}}
	out, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	rec := out.Records[0]
	if rec.Trials != 2 || rec.Passed != 1 || len(rec.Notes) != 1 || !strings.Contains(rec.Notes[0], "2 tests ran more than once in the run") {
		t.Fatalf("record %+v", rec)
	}
	raw, _ := os.ReadFile(cfg.Ledger)
	for _, want := range []string{`"nodeid":"p.TestA","when":"call","outcome":"passed","executions":2,"ts"`,
		`"nodeid":"p.TestB","when":"call","outcome":"failed","executions":2,"failures":1,"ts"`} {
		if !bytes.Contains(raw, []byte(want)) {
			t.Errorf("the ledger lacks %s:\n%s", want, raw)
		}
	}
	res, err := Finish(out, GateOptions{Gate: GateLedger, Ledger: ledger.DefaultOptions})
	if err != nil || !slices.Contains(res.Verdict.Warnings, rec.Notes[0]) {
		t.Errorf("warnings %q, err %v", res.Verdict.Warnings, err)
	}
}

// TestStaleReport: a report file that a run did not write (the other
// arm's, left in a shared directory) is not that run's report.
func TestStaleReport(t *testing.T) {
	dir := t.TempDir()
	write := `printf '<testsuite><testcase classname="s" name="t"/></testsuite>' > report.xml`
	cfg := DefaultConfig
	cfg.Ledger = filepath.Join(t.TempDir(), "l.jsonl")
	cfg.RunsPerArm = 1
	cfg.Report = "report.xml"
	cfg.Arms = []Arm{{Name: ledger.ArmBaseline, Shell: write, Dir: dir}, {Name: ledger.ArmPatched, Shell: "true", Dir: dir}}
	out, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if len(out.Records) != 2 || out.Records[0].Outcome != OutcomeDone || out.Records[1].Outcome != OutcomeError ||
		!strings.Contains(out.Records[1].Error, "no report matches "+filepath.Join(dir, "report.xml")+" that this run wrote (1 older file from before it, unchanged)") {
		t.Errorf("records %+v", out.Records)
	}
}

// TestKeepRelative keeps each run's outputs under a relative directory,
// which the runs (started elsewhere) see as an absolute TMPDIR.
func TestKeepRelative(t *testing.T) {
	cfg := junitConfig(t, 1)
	t.Chdir(t.TempDir())
	cfg.Keep = "kept"
	cfg.Arms = cfg.Arms[:1]
	cfg.Arms[0].Dir = t.TempDir()
	out, err := Run(context.Background(), cfg)
	if err != nil || out.Records[0].Outcome != OutcomeDone {
		t.Fatalf("%v %+v", err, out.Records)
	}
	for _, f := range []string{"kept/b1/junit.xml", "kept/b1/stdout"} {
		if _, err := os.Stat(f); err != nil {
			t.Error(err)
		}
	}
}
