package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/flakegate/flakegate/internal/testfile"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// cli runs the command line in-process and returns its exit status and output.
func cli(t *testing.T, stdin string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = run(context.Background(), args, strings.NewReader(stdin), &out, &errb)
	return code, out.String(), errb.String()
}

// containsAll checks that got, the output what names ("stdout"), holds
// each of wants.
func containsAll(t *testing.T, what, got string, wants ...string) {
	t.Helper()
	for _, w := range wants {
		if !strings.Contains(got, w) {
			t.Errorf("%s lacks %q:\n%s", what, w, got)
		}
	}
}

// TestGolden checks the text reports against testdata/*.golden (regenerate
// with go test -update after checking the new output by eye).
func TestGolden(t *testing.T) {
	checkGoldens(t, "testdata", []goldenCase{
		// docs/STATISTICS.md, Rerun budget: the 1/120 example, 8 s per run.
		{"budget_observe", []string{"budget", "-target", "0.95", "-cost", "8", "-cap", "3", "-observe", "1/120", "0.05", "0.02"}, exitBlock},
		// docs/STATISTICS.md, Rerun budget: the table of rates.
		{"budget_table", []string{"budget", "0.05", "0.02", "0.01", "0.005", "0.001"}, exitBlock},
		{"budget_within_cap", []string{"budget", "-cap", "10", "0.5", "1", "0"}, exitOK},
		// The README's sentence: gotestsum's 2 retries, a 2% flake, 8 s a
		// run (1-0.98^2 = 3.96%; 149 reruns from the budget table).
		{"budget_runner", []string{"budget", "-runner", "gotestsum=2", "-cost", "8", "0.02"}, exitBlock},
		{"budget_from_costliest", []string{"budget", "-from", reportsDir + "gotest/count5.json", "-cost", "8", "-runner", "bazel-flaky-attempts"}, exitOK},
		// docs/STATISTICS.md, Two-arm decision: 10/20 against 17/20 overlaps.
		{"decide_overlap", []string{"decide", "-baseline", "10/20", "-patched", "17/20"}, exitOK},
		{"decide_improved_owed", []string{"decide", "-baseline", "30/60", "-patched", "51/60"}, exitOK},
		{"decide_improved_failed", []string{"decide", "-baseline", "30/60", "-patched", "51/60", "-property", "failed"}, exitBlock},
		{"decide_regressed", []string{"decide", "-baseline", "51/60", "-patched", "30/60"}, exitBlock},
		{"decide_underpowered", []string{"decide", "-baseline", "2/5", "-patched", "5/5"}, exitBlock},
		{"size", []string{"size", "0.50", "0.85"}, exitOK},
		{"freeze_record", []string{"freeze", "-claim", "57/60", "-date", "2026-11-30"}, exitOK},
		{"freeze_stale", []string{"freeze", "-claim", "57/60", "-date", "2026-11-30", "-newer", "40/60"}, exitBlock},
		{"freeze_valid", []string{"freeze", "-claim", "57/60", "-newer", "55/60"}, exitOK},
		{"ledger", []string{"ledger", "testdata/ledger.jsonl"}, exitBlock},
		{"aa_baseline", []string{"aa", "testdata/base.csv"}, exitOK},
		{"aa_candidate", []string{"aa", "testdata/base.csv", "testdata/cand.csv"}, exitBlock},
		// docs/STATISTICS.md's 30/60 against 51/60, 30 runs per arm: run_test.go says where each figure comes from.
		{"run_dry", []string{"run", "-dry-run", "-n", "30", "-cost", "4s", "-ledger", "testdata/run-none.jsonl",
			"-baseline", "cd ../base && go test -json -count=1 ./...", "-patched", "go test -json -count=1 ./..."}, exitOK},
	})
}

// goldenCase is a command line, the exit status it gives and the name of
// the golden file that holds its output.
type goldenCase struct {
	name string
	args []string
	code int
}

// checkGoldens runs each case and checks its exit status and its output
// against dir/name.golden.
func checkGoldens(t *testing.T, dir string, cases []goldenCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errs := cli(t, "", tc.args...)
			if code != tc.code {
				t.Fatalf("exit %d, want %d; stderr: %s", code, tc.code, errs)
			}
			checkGolden(t, filepath.Join(dir, tc.name+".golden"), []byte(out))
		})
	}
}

// TestJSONIsTheContract checks that -json prints the core's result, whose
// exit status follows the same gate as the text report.
func TestJSONIsTheContract(t *testing.T) {
	code, out, _ := cli(t, "", "decide", "-json", "-baseline", "30/60", "-patched", "51/60", "-property", "passed")
	if code != exitOK {
		t.Fatalf("exit %d", code)
	}
	var got struct {
		Verdict  string `json:"verdict"`
		Gate     string `json:"gate"`
		Baseline struct {
			Lower, Upper float64
		} `json:"baseline"`
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	// docs/STATISTICS.md, Two-arm decision: 30/60 is [0.38, 0.62]; 51/60 separates above it.
	// A printed table lists the lower bound as 0.3773; the formula gives 0.377350…,
	// so the table cut it to four places rather than rounding (docs/STATISTICS.md,
	// Wilson intervals, Misprints): allow 1e-4.
	if got.Verdict != "improved" || got.Gate != "accept" {
		t.Errorf("verdict %q gate %q, want improved/accept", got.Verdict, got.Gate)
	}
	if d := got.Baseline.Lower - 0.3773; d > 1e-4 || d < -1e-4 {
		t.Errorf("baseline lower %v, want 0.3773 (docs/STATISTICS.md, Wilson intervals)", got.Baseline.Lower)
	}
}

func TestStdinAndFlagsAfterArguments(t *testing.T) {
	csv := testfile.Read(t, "testdata/base.csv")
	code1, fromStdin, _ := cli(t, string(csv), "aa", "-", "-json")
	code2, fromFile, _ := cli(t, "", "aa", "-json", "testdata/base.csv")
	if code1 != exitOK || code2 != exitOK || fromStdin != fromFile {
		t.Errorf("stdin (exit %d) and file (exit %d) disagree:\n%s\n%s", code1, code2, fromStdin, fromFile)
	}
}

func TestFreezeRecordRoundTrip(t *testing.T) {
	code, rec, _ := cli(t, "", "freeze", "-json", "-claim", "57/60", "-date", "2026-11-30")
	if code != exitOK {
		t.Fatalf("record: exit %d", code)
	}
	path := filepath.Join(t.TempDir(), "claim.json")
	if err := os.WriteFile(path, []byte(rec), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errs := cli(t, "", "freeze", "-record", path, "-newer", "40/60")
	if code != exitBlock || !strings.Contains(out, "stale") || !strings.Contains(out, "2026-11-30") {
		t.Errorf("check: exit %d, out %q, stderr %q; want a stale claim dated 2026-11-30", code, out, errs)
	}
}

// TestErrors checks that bad input exits 2 with a message naming where.
func TestErrors(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.csv")
	if err := os.WriteFile(bad, []byte("scenario,run,passed\na,r1,1\na,r2,maybe\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	badLedger := filepath.Join(dir, "bad.jsonl")
	if err := os.WriteFile(badLedger, []byte(`{"run":"b1","arm":"baseline","nodeid":"t","when":"call","outcome":"passed"}`+"\n{oops\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name string
		args []string
		want []string // substrings of stderr
	}{
		{"no command", nil, []string{"usage"}},
		{"unknown command", []string{"nope"}, []string{`unknown command "nope"`}},
		{"unknown flag", []string{"budget", "-bogus", "1"}, []string{"bogus"}},
		{"bad count", []string{"decide", "-baseline", "21/20", "-patched", "1/20"}, []string{"baseline"}},
		{"count not a number", []string{"decide", "-baseline", "x/20", "-patched", "1/20"}, []string{"baseline"}},
		{"missing arm", []string{"decide", "-baseline", "1/20"}, []string{"-patched"}},
		{"target out of range", []string{"budget", "-target", "1", "0.1"}, []string{"target"}},
		{"rate out of range", []string{"budget", "1.5"}, []string{"rate"}},
		{"no rates", []string{"budget"}, []string{"rate"}},
		{"missing file", []string{"aa", filepath.Join(dir, "none.csv")}, []string{"none.csv"}},
		{"bad csv cell", []string{"aa", bad}, []string{"bad.csv:3:6"}},
		{"bad ledger line", []string{"ledger", badLedger}, []string{"bad.jsonl:2:"}},
		{"bad date", []string{"freeze", "-claim", "1/2", "-date", "yesterday"}, []string{"date"}},
		{"size one rate", []string{"size", "0.5"}, []string{"two rates"}},
		// Whole numbers are decimal, as in the calculator's form and the API.
		{"hex min trials", []string{"decide", "-min-trials", "0x14", "-baseline", "1/2", "-patched", "2/2"}, []string{"-min-trials", `"0x14" is not a whole number: only decimal is read`}},
		{"underscored cap", []string{"budget", "-cap", "1_000", "0.1"}, []string{"-cap", `"1_000"`}},
		{"unknown runner", []string{"budget", "-runner", "tox=2", "0.1"}, []string{"-runner", `"tox"`, "gotestsum"}},
		{"runner setting not a number", []string{"budget", "-runner", "jest=two", "0.1"}, []string{"-runner: ", `"two" is not a whole number`}},
		{"runner setting and cap", []string{"budget", "-runner", "jest=2", "-cap", "3", "0.1"}, []string{"-cap", "not both"}},
		{"runner attempts zero", []string{"budget", "-runner", "bazel=0", "0.1"}, []string{"-runner: ", "--flaky_test_attempts=N counts attempts, at least 1"}},
		{"runner attempts over Bazel's 10", []string{"budget", "-runner", "bazel-flaky-attempts=11", "0.1"}, []string{"--flaky_test_attempts=11: Bazel takes 1 to 10 attempts"}},
		{"runner setting from reports", []string{"budget", "-runner", "bazel=0", "-from", "testdata/ledger.jsonl"}, []string{"setting"}},
		{"ledger min trials out of range", []string{"ledger", "-min-trials", "99999999999999999999", badLedger}, []string{"-min-trials", "is too large a number"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errs := cli(t, "", tc.args...)
			if code != exitUsage {
				t.Fatalf("exit %d, want 2; stdout %q stderr %q", code, out, errs)
			}
			containsAll(t, "stderr", errs, tc.want...)
		})
	}
}

func TestHelp(t *testing.T) {
	code, _, errs := cli(t, "", "budget", "-h")
	if code != exitOK || !strings.Contains(errs, "-observe") {
		t.Errorf("budget -h: exit %d, stderr %q", code, errs)
	}
}

// TestReports reads test reports of other tools through the same gates.
func TestReports(t *testing.T) {
	const dir = "../../core/report/testdata/reports/"
	cases := []struct {
		name string
		args []string
		code int
		want []string
	}{
		// Surefire's flakyFailure and pytest-rerunfailures' rerun records are
		// failed executions before a pass: the retry history the budget reads.
		{"budget from retries", []string{"budget", "-from", dir + "junit/surefire_reruns.xml", "-cap", "1"}, exitBlock,
			[]string{"com.example.CartTest.checkoutIsFlaky", "2/3", "gate: BLOCK"}},
		{"ledger from go test -json", []string{"ledger", "-baseline", dir + "gotest/count5.json", "-patched", dir + "gotest/seed2.json"}, exitBlock,
			[]string{"example.com/flaky.TestFlaky", "too few trials"}},
		{"aa from reports", []string{"aa", "-baseline", dir + "gotest/count5.json", "-baseline", dir + "gotest/seed2.json"}, exitUsage, nil},
		// Three JUnit files are three runs; their test cases are the scenarios.
		{"aa from junit runs", []string{"aa", "-baseline", dir + "junit/gotestsum_count3.xml", "-baseline", dir + "junit/gotestsum_count3.xml",
			"-baseline", dir + "junit/gotestsum_count3.xml"}, exitOK, []string{"6 scenarios, 3 runs (54 rows)"}},
		{"unknown format", []string{"ledger", "-format", "tape", dir + "gotest/count5.json"}, exitUsage, nil},
		// Report files as arguments: each is a run, named after its file
		// (RSpec's own lines: 4 and 5 of 7 examples passed).
		{"aa report arguments", []string{"aa", dir + "rspec/attempt1.json", dir + "rspec/attempt2.json"}, exitOK,
			[]string{"7 scenarios, 2 runs (14 rows)", "rspec/attempt1.json 57.1%", "rspec/attempt2.json 71.4%"}},
		{"aa report flags", []string{"aa", "-baseline", dir + "tap/perl_attempt1.tap", "-baseline", dir + "tap/perl_attempt2.tap"}, exitOK,
			[]string{"5 scenarios, 2 runs (10 rows)", "tap/perl_attempt1.tap 60.0%", "tap/perl_attempt2.tap 80.0%"}},
		// Eval logs, each a run; a log read twice makes two runs (#2).
		{"aa eval logs", []string{"aa", dir + "inspect/arith-run1.json", dir + "inspect/arith-run2.eval", dir + "inspect/arith-run1.eval"}, exitOK,
			[]string{"5 scenarios, 3 runs (30 rows)", "inspect/arith-run1.eval 70.0%"}},
		{"aa eval options", []string{"aa", "-filter", "flexible-extract", dir + "lmeval/samples_arith_gen_2026-12-01T10-00-00.000001.jsonl", dir + "lmeval/samples_arith_gen_2026-12-02T10-00-00.000001.jsonl"}, exitOK,
			[]string{"6 scenarios, 2 runs (12 rows)", "83.3%", "66.7%"}},
		// Counts from a warehouse GROUP BY (docs/WAREHOUSE.md).
		{"budget from counts", []string{"budget", "-from", "testdata/budget-counts.csv", "-cap", "3"}, exitBlock,
			[]string{"flaky", "1/120"}},
		{"ledger from counts", []string{"ledger", "-min-trials", "5", "testdata/ledger-counts.csv"}, exitOK,
			[]string{"t1", "19/20", "12/20", "no change shown"}},
		{"aa from counts", []string{"aa", "testdata/aa-counts.csv"}, exitOK,
			[]string{"3 scenarios, 3 runs (9 rows)"}},
		{"aa graded threshold", []string{"aa", "-score", "graded", "-threshold", "0.5", dir + "inspect/arith-run1.json", dir + "inspect/arith-run2.json"}, exitOK,
			[]string{"run pass rates in run order", "70.0%"}},
		{"reports and csv", []string{"aa", "-baseline", dir + "gotest/count5.json", "testdata/base.csv"}, exitUsage, nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errs := cli(t, "", tc.args...)
			if code != tc.code {
				t.Fatalf("exit %d, want %d; stdout %q stderr %q", code, tc.code, out, errs)
			}
			containsAll(t, "stdout", out, tc.want...)
		})
	}
}

// TestSimulate runs the gate simulator from the command line: the same seed
// gives the same table, and the table lists every gate.
func TestSimulate(t *testing.T) {
	args := []string{"aa", "-simulate", "-sets", "200", "-seed", "7", "testdata/base.csv"}
	code, out1, errs := cli(t, "", args...)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	_, out2, _ := cli(t, "", args...)
	if out1 != out2 {
		t.Error("the same seed gave two different reports")
	}
	if !strings.Contains(out1, "simulated gates:") {
		t.Errorf("no simulation table in:\n%s", out1)
	}
	code, js, _ := cli(t, "", append(args, "-json")...)
	var res struct {
		Simulation *struct {
			Sets  int `json:"sets"`
			Seed  int `json:"seed"`
			Gates []struct {
				Gate string `json:"gate"`
			} `json:"gates"`
		} `json:"simulation"`
	}
	if err := json.Unmarshal([]byte(js), &res); err != nil || code != exitOK {
		t.Fatalf("exit %d, %v", code, err)
	}
	if res.Simulation == nil || res.Simulation.Sets != 200 || res.Simulation.Seed != 7 || len(res.Simulation.Gates) != 4 {
		t.Errorf("simulation %+v, want 200 sets, seed 7 and four gates", res.Simulation)
	}
}

// Each command prints its usage once when asked with -h, and not at all on
// a mistake (the message and a hint to run -h instead).
func TestUsageOnce(t *testing.T) {
	for _, c := range commands {
		t.Run(c.name, func(t *testing.T) {
			code, _, errs := cli(t, "", c.name, "-h")
			if n := strings.Count(errs, "usage: flakegate "+c.name); code != exitOK || n != 1 {
				t.Errorf("%s -h: exit %d, usage printed %d times: %q", c.name, code, n, errs)
			}
			code, _, errs = cli(t, "", c.name, "-no-such-flag")
			if code != exitUsage || strings.Contains(errs, "usage: ") || !strings.Contains(errs, "no-such-flag") ||
				!strings.Contains(errs, "flakegate "+c.name+" -h") {
				t.Errorf("%s -no-such-flag: exit %d, stderr %q; want the mistake and a hint, no usage", c.name, code, errs)
			}
		})
	}
}

// An error of aa.Check about one side names that side's file.
func TestAASideErrorNamesItsFile(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	base := write("base.csv", "scenario,run,passed\na,r1,1\na,r2,0\nb,r1,1\nb,r2,1\n")
	oneRun := write("onerun.csv", "scenario,run,passed\na,r1,1\nb,r1,0\n")
	other := write("other.csv", "scenario,run,passed\nx,c1,1\ny,c1,0\n")
	for _, c := range []struct {
		name        string
		args        []string
		want, wrong string
	}{
		{"candidate shares nothing", []string{"aa", base, other}, "other.csv: the candidate shares no scenario", "base.csv"},
		{"baseline of one run", []string{"aa", oneRun, base}, "onerun.csv: baseline: scenario", "base.csv"},
		{"a setting", []string{"aa", "-drops", "1e-9", base, other}, "drops: a drop of", ".csv"},
	} {
		code, _, errs := cli(t, "", c.args...)
		if code != exitUsage || !strings.Contains(errs, c.want) || strings.Contains(errs, c.wrong) {
			t.Errorf("%s: exit %d, stderr %q; want %q and not %q", c.name, code, errs, c.want, c.wrong)
		}
	}
}

// TestReportJSONStrict: a JSON report with a repeated key or a NaN, which
// once was read, is refused (exit 2) with its file, line, column and the
// JSON path of the value. Positions counted on the text by hand.
func TestReportJSONStrict(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct{ name, text, want string }{
		{"repeat.json", "{\"config\": {},\n \"suites\": [{\"title\": \"a.spec.ts\", \"specs\": [], \"specs\": []}]}",
			`repeat.json:2:49: suites[0]: field "specs" appears twice`},
		{"nan.json", "{\"numTotalTests\": 1, \"testResults\": [{\"assertionResults\": [\n  {\"fullName\": \"a\", \"status\": \"passed\", \"duration\": NaN}]}]}",
			"nan.json:2:53: testResults[0].assertionResults[0].duration: malformed JSON: NaN and Infinity are not JSON numbers"},
	} {
		p := filepath.Join(dir, c.name)
		if err := os.WriteFile(p, []byte(c.text), 0o644); err != nil {
			t.Fatal(err)
		}
		code, _, errs := cli(t, "", "ledger", p)
		if code != exitUsage || !strings.Contains(errs, c.want) {
			t.Errorf("%s: exit %d, stderr %q; want %q", c.name, code, errs, c.want)
		}
	}
}

// TestRecordJSONStrict: a stored claim is read by the rules of every JSON
// input (jsonscan.Decode): a key in another case, a key given twice, an
// unknown field, NaN or data after the value are refused with their place
// (columns counted by hand on the text) and path; a claim's fields alone
// are a stored claim too. The claims come on standard input.
func TestRecordJSONStrict(t *testing.T) {
	for _, c := range []struct {
		in   string
		code int
		want string // in stderr, or in stdout for an accepted claim
	}{
		{`{"claim": {"passed": 57, "trials": 60, "passed": 1}}`, exitUsage, `<stdin>:1:40: claim: field "passed" appears twice`},
		{`{"Claim": {"passed": 57, "trials": 60}}`, exitUsage, `<stdin>:1:2: unknown field "Claim"`},
		{`{"claim": {"Passed": 57, "trials": 60}}`, exitUsage, `<stdin>:1:12: claim: unknown field "Passed"`},
		{`{"PASSED": 57, "trials": 60}`, exitUsage, `<stdin>:1:2: unknown field "PASSED"`},
		{`{"passed": 57, "trials": 60, "rate": NaN}`, exitUsage, `<stdin>:1:38: rate: malformed JSON: NaN and Infinity are not JSON numbers`},
		{`{"passed": 57, "trials": 60} x`, exitUsage, `<stdin>:1:30: malformed JSON: 'x' after the end of the value`},
		{`{"status": "recorded", "passed": 57, "trials": 60}`, exitUsage, `<stdin>: not a stored claim: a freeze result's fields beside a claim's own`},
		{`{"claim": {"passed": 0, "trials": 0}}`, exitUsage, `<stdin>: not a stored claim: no trials`},
		{`{"passed": 57, "trials": 60, "date": "2026-11-30"}`, exitBlock, `2026-11-30`},
	} {
		code, out, errs := cli(t, c.in, "freeze", "-record", "-", "-newer", "40/60")
		if code != c.code || !strings.Contains(out+errs, c.want) {
			t.Errorf("%s: exit %d, stdout %q, stderr %q; want exit %d and %q", c.in, code, out, errs, c.code, c.want)
		}
	}
}
