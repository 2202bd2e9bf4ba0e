package report

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/flakegate/flakegate/core"
	"github.com/flakegate/flakegate/core/gate"
	"github.com/flakegate/flakegate/core/ledger"
	"github.com/flakegate/flakegate/core/stat"
	"github.com/flakegate/flakegate/internal/testfile"
)

var update = flag.Bool("update", false, "rewrite the report goldens in testdata/reports/golden")

func TestDetectFormat(t *testing.T) {
	cases := []struct{ in, want string }{
		{`<?xml version="1.0"?><testsuites/>`, FormatJUnit},
		{"\xef\xbb\xbf\n  <testsuite>", FormatJUnit},
		{"<!-- x --><testsuites>", FormatJUnit},
		{`{"Time":"2026-12-01T20:20:01Z","Action":"start","Package":"p"}`, FormatGoTest},
		{"go: downloading example.com/x v1.0.0\n" + `{"Action":"run","Test":"T"}`, FormatGoTest},
		{`{"ImportPath":"p [p.test]","Action":"build-output","Output":"# p\n"}`, FormatGoTest},
		{"\n\n" + `{"run": "b1", "arm": "baseline", "nodeid": "t", "when": "call", "outcome": "passed"}`, FormatLedger},
		{`{"x": 1}`, ""},
		{"", ""},
		{"hello", ""},
	}
	for _, c := range cases {
		if got := DetectFormat([]byte(c.in)); got != c.want {
			t.Errorf("DetectFormat(%.40q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// readExpect reads a .expect file of gen.sh: nodeid, passes, trials per line.
func readExpect(t *testing.T, path string) map[string]core.Count {
	out := map[string]core.Count{}
	for name, c := range testfile.Counts(t, path) {
		out[name] = core.Count{Passed: c[0], Trials: c[1]}
	}
	return out
}

func readFile(t *testing.T, l *ledger.Ledger, path string, opt Options) error {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	return core.WithFile(Read(f, opt, l), filepath.Base(path))
}

// armCounts are the trials per test in one arm of l.
func armCounts(l *ledger.Ledger, arm string) map[string]core.Count {
	out := map[string]core.Count{}
	tests := l.Tests(arm)
	for _, c := range l.Cells(arm) {
		t := out[tests[c.Test]]
		t.Passed += c.Passed
		t.Trials += c.Trials
		out[tests[c.Test]] = t
	}
	return out
}

// sides are the side failures per test in one arm of l.
func sides(l *ledger.Ledger, arm string) map[string]ledger.SideFailures {
	out := map[string]ledger.SideFailures{}
	for _, t := range l.Summary().Tests {
		out[t.NodeID] = t.Sides.Baseline
		if arm == ledger.ArmPatched {
			out[t.NodeID] = t.Sides.Patched
		}
	}
	return out
}

// TestGoTestExpected reads real go test -json output of the seeded suite in
// testdata/reports/flaky (written by gen.sh) and compares every test's
// passes and trials with the .expect file gen.sh counted from the plain
// go test -v text of the same seeds: -count=5 gives five trials a test,
// subtests are their own tests, a skip is no trial.
func TestGoTestExpected(t *testing.T) {
	for _, name := range []string{"count5", "seed2"} {
		t.Run(name, func(t *testing.T) {
			want := readExpect(t, "testdata/reports/gotest/"+name+".expect")
			l := ledger.New()
			if err := readFile(t, l, "testdata/reports/gotest/"+name+".json", Options{}); err != nil {
				t.Fatal(err)
			}
			got := armCounts(l, ledger.ArmBaseline)
			if fmt.Sprint(got) != fmt.Sprint(want) {
				t.Errorf("counts\n got %v\nwant %v", got, want)
			}
			if _, ok := got["example.com/flaky.TestSkipped"]; ok {
				t.Error("a skipped test must have no trial")
			}
			if runs := l.Runs(ledger.ArmBaseline); len(runs) != 1 || runs[0] != "baseline-1" {
				t.Errorf("one file is one run named baseline-1, got %q", runs)
			}
		})
	}
}

// TestJUnitExpected reads each JUnit sample; the expected counts come from
// reading the sample by eye (the hand-written ones) or from gen.sh's go test
// -v count (gotestsum). Errors are counted apart and also as failed trials,
// except pytest's errors on setup (no trial) and on teardown (beside the
// passing body).
func TestJUnitExpected(t *testing.T) {
	type exp struct {
		c                       core.Count
		setup, teardown, errors int64
	}
	cases := map[string]map[string]exp{
		"surefire_reruns.xml": {
			"com.example.CartTest.addsItem":           {c: core.Count{Passed: 1, Trials: 1}},
			"com.example.CartTest.checkoutIsFlaky":    {c: core.Count{Passed: 1, Trials: 3}, errors: 1}, // flakyFailure, flakyError, then the pass
			"com.example.CartTest.totalIsAlwaysWrong": {c: core.Count{Passed: 0, Trials: 3}},            // failure and two rerunFailures
			"com.example.CartTest.throwsAlways":       {c: core.Count{Passed: 0, Trials: 3}, errors: 3}, // error and two rerunErrors
		},
		"jest.xml": {
			"cart adds an item":                           {c: core.Count{Passed: 1, Trials: 1}},
			"cart checkout retries the payment":           {c: core.Count{Passed: 0, Trials: 1}}, // two failure messages, one trial
			"cart checkout sends a receipt":               {c: core.Count{Passed: 1, Trials: 1}},
			"Test suite failed to run.src/broken.test.js": {c: core.Count{Passed: 0, Trials: 1}, errors: 1},
		},
		"playwright_retries.xml": {
			"login.spec.ts.login › shows the form":         {c: core.Count{Passed: 2, Trials: 2}}, // chromium and firefox
			"login.spec.ts.login › remembers the user":     {c: core.Count{Passed: 1, Trials: 3}, errors: 1},
			"login.spec.ts.login › rejects a bad password": {c: core.Count{Passed: 0, Trials: 3}},
		},
		"pytest.xml": { // real pytest 7.2.1 output, FLAKY_SEED=1
			"test_flaky.test_stable":         {c: core.Count{Passed: 1, Trials: 1}},
			"test_flaky.test_flaky[0.5]":     {c: core.Count{Passed: 1, Trials: 1}},
			"test_flaky.test_flaky[0.9]":     {c: core.Count{Passed: 0, Trials: 1}},
			"test_flaky.test_raises":         {c: core.Count{Passed: 1, Trials: 1}},
			"test_flaky.test_setup_fails":    {setup: 1},
			"test_flaky.test_teardown_fails": {c: core.Count{Passed: 1, Trials: 1}, teardown: 1},
		},
	}
	// pytest-rerunfailures --reruns 2 on the same suite keeps only the last
	// attempt of a test that passed: test_flaky[0.9] passes on a rerun, and
	// the test whose teardown fails is run three times, its calls passing.
	reruns := maps.Clone(cases["pytest.xml"])
	reruns["test_flaky.test_flaky[0.9]"] = exp{c: core.Count{Passed: 1, Trials: 1}}
	reruns["test_flaky.test_teardown_fails"] = exp{c: core.Count{Passed: 3, Trials: 3}, teardown: 1}
	cases["pytest_reruns.xml"] = reruns
	gts := map[string]exp{}
	for k, c := range readExpect(t, "testdata/reports/junit/gotestsum_count3.expect") {
		gts[k] = exp{c: c}
	}
	cases["gotestsum_count3.xml"] = gts
	for file, want := range cases {
		t.Run(file, func(t *testing.T) {
			l := ledger.New()
			if err := readFile(t, l, "testdata/reports/junit/"+file, Options{Arm: ledger.ArmPatched, Run: "r1"}); err != nil {
				t.Fatal(err)
			}
			got, side := armCounts(l, ledger.ArmPatched), sides(l, ledger.ArmPatched)
			for id, w := range want {
				s := side[id]
				if got[id] != w.c || s != (ledger.SideFailures{Setup: w.setup, Teardown: w.teardown, Errors: w.errors}) {
					t.Errorf("%s: %v %+v, want %v %+v", id, got[id], s, w.c, w)
				}
			}
			for id, c := range got {
				if _, ok := want[id]; !ok {
					t.Errorf("unexpected test %q %v", id, c)
				}
			}
			if runs := l.Runs(ledger.ArmPatched); len(runs) != 1 || runs[0] != "r1" {
				t.Errorf("runs %q", runs)
			}
		})
	}
}

// The never-reporting and failing-package cases of go test -json, from real
// output (gen.sh).
func TestGoTestFailures(t *testing.T) {
	// TestHang panics: the testing package reports it failed.
	l := ledger.New()
	if err := readFile(t, l, "testdata/reports/gotest/panic.json", Options{}); err != nil {
		t.Fatal(err)
	}
	if c := armCounts(l, ledger.ArmBaseline)["example.com/flaky.TestHang"]; c != (core.Count{Passed: 0, Trials: 1}) {
		t.Errorf("a panicking test is a failed trial, got %v", c)
	}
	// TestHang passes -timeout: it never reports; a failed trial and a warning.
	l = ledger.New()
	if err := readFile(t, l, "testdata/reports/gotest/timeout.json", Options{}); err != nil {
		t.Fatal(err)
	}
	if c := armCounts(l, ledger.ArmBaseline)["example.com/flaky.TestHang"]; c != (core.Count{Passed: 0, Trials: 1}) {
		t.Errorf("a test that never reports is a failed trial, got %v", c)
	}
	if !strings.Contains(strings.Join(l.Notes(), "\n"), "TestHang") || !strings.Contains(strings.Join(l.Notes(), "\n"), "never reported") {
		t.Errorf("warnings %q", l.Notes())
	}
	// A stream cut short: the same, at the end of the stream.
	raw, _ := os.ReadFile("testdata/reports/gotest/seed2.json")
	cut := bytes.Clone(raw)
	cut = cut[:bytes.Index(cut, []byte(`"Action":"run","Package":"example.com/flaky","Test":"TestHang"`))]
	cut = append(cut[:bytes.LastIndexByte(cut[:len(cut)-1], '\n')+1], []byte(`{"Action":"run","Package":"example.com/flaky","Test":"TestHang"}`+"\n")...)
	l = ledger.New()
	if err := Read(bytes.NewReader(cut), Options{}, l); err != nil {
		t.Fatal(err)
	}
	if c := armCounts(l, ledger.ArmBaseline)["example.com/flaky.TestHang"]; c != (core.Count{Passed: 0, Trials: 1}) || !strings.Contains(strings.Join(l.Notes(), " "), "stream ends") {
		t.Errorf("cut stream: %v %q", c, l.Notes())
	}
	for _, c := range []struct{ file, frag string }{
		{"buildfail.json", "did not build"},
		{"mainfail.json", "before any of its tests reported"},
	} {
		err := readFile(t, ledger.New(), "testdata/reports/gotest/"+c.file, Options{})
		var e *core.Error
		if !errors.As(err, &e) || e.Kind != core.Unusable || e.Line < 1 || e.File != c.file || !strings.Contains(e.Msg, c.frag) {
			t.Errorf("%s: want an unusable error with a line saying %q, got %v", c.file, c.frag, err)
		}
	}
	// stderr mixed in: lines outside test2json are left out with a warning.
	l = ledger.New()
	mixed := append([]byte("go: downloading example.com/x v1.0.0\n"), raw...)
	if err := Read(bytes.NewReader(mixed), Options{}, l); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(strings.Join(l.Notes(), " "), "1 lines that are not go test -json events") {
		t.Errorf("warnings %q", l.Notes())
	}
}

func TestReportErrors(t *testing.T) {
	cases := []struct {
		name      string
		in        string
		opt       Options
		kind      core.Kind
		line, col int
		field     string
		frag      string
	}{
		{"bad arm", `{"Action":"run"}`, Options{Arm: "canary"}, core.Invalid, 0, 0, "arm", "baseline or patched"},
		{"bad format", `{}`, Options{Format: "tape"}, core.Invalid, 0, 0, "format", "must be one of ledger, gotest, junit"},
		{"undetectable", `{"x": 1}`, Options{}, core.Invalid, 1, 1, "", "not a report"},
		{"empty", "  \n", Options{}, core.Invalid, 1, 1, "", "empty"},
		{"gotest bad json", `{"Action":"run","Test":"T"}` + "\n" + `{"Action":"pass","Test":}`, Options{}, core.Invalid, 2, 25, "", "malformed JSON"},
		{"gotest mistyped", `{"Action":"run","Test":7}`, Options{}, core.Invalid, 1, 0, "", "must be a string"},
		{"gotest no action", `{"Action":"run","Test":"T"}` + "\n" + `  {"Test":"T"}`, Options{}, core.Invalid, 2, 3, "", "no Action"},
		{"gotest no events", "go: nothing here\n", Options{Format: FormatGoTest}, core.Invalid, 1, 1, "", "no go test -json events"},
		{"gotest bad utf8", "{\"Action\":\"pass\",\"Test\":\"T\xff\"}", Options{Format: FormatGoTest}, core.Invalid, 1, 27, "", "UTF-8"},
		{"junit bad xml", "<testsuites>\n<testsuite name=\"a\">\n<testcase name=\"x\"></testsuite>", Options{}, core.Invalid, 3, 0, "", "malformed XML"},
		{"junit truncated", "<testsuites>\n<testsuite name=\"a\">\n<testcase name=\"x\">", Options{}, core.Invalid, 3, 0, "", "malformed XML"},
		{"junit root", "<html><body/></html>", Options{Format: FormatJUnit}, core.Invalid, 1, 7, "", "root element is <html>"},
		{"html page", "<!DOCTYPE html>\n<html><body/></html>", Options{}, core.Invalid, 1, 1, "", "this is an HTML page"},
		{"dart json", `{"protocolVersion":"0.1.1","runnerVersion":"1.23.1","pid":1,"type":"start","time":0}`, Options{}, core.Invalid, 1, 1, "", "this is a Dart JSON report (dart test --reporter json); flakegate reads"},
		{"mocha stats only", `{"stats": {"tests": 3, "passes": 3}}`, Options{Format: FormatMocha}, core.Unusable, 1, 1, "", "only its stats"},
		{"jest bad status", "{\"numTotalTests\": 1, \"testResults\": [{\"assertionResults\": [\n  {\"fullName\": \"a\", \"status\": 3}]}]}", Options{}, core.Invalid, 2, 31, "", "testResults[0].assertionResults[0].status: want a status, got 3"},
		{"playwright cut", "{\"config\": {}, \"suites\": [{\"title\": \"a.spec.ts\", \"specs\": [", Options{}, core.Invalid, 1, 60, "", "ends where"},
		{"ctrf no name", "{\"results\": {\"tool\": {\"name\": \"x\"}, \"tests\": [{\"status\": \"passed\"}]}}", Options{}, core.Invalid, 1, 47, "", "results.tests[0]: a test without a name"},
		{"nunit no name", "<test-run>\n<test-case result=\"Passed\"/></test-run>", Options{}, core.Invalid, 2, 0, "", "without a name"},
		{"trx root", "<TestRun><Results><UnitTestResult outcome=\"Passed\"/></Results></TestRun>", Options{}, core.Invalid, 1, 0, "", "without a testName"},
		{"tap nothing", "# just a comment\n", Options{Format: FormatTAP}, core.Invalid, 1, 1, "", "no TAP test points"},
		{"junit doctype", "<!DOCTYPE x [<!ENTITY a \"b\">]>\n<testsuite/>", Options{Format: FormatJUnit}, core.Invalid, 1, 0, "", "DOCTYPE"},
		{"junit empty", "<!-- nothing -->", Options{Format: FormatJUnit}, core.Invalid, 1, 1, "", "no XML elements"},
		// One JSON grammar for every report (core/jsonscan): a repeated key
		// or a NaN is refused where it stands, the path naming the value.
		// Columns counted on the text by str.find, 1-based.
		{"playwright repeated key", `{"config": {}, "suites": [{"title": "a.spec.ts", "title": "b.spec.ts"}]}`, Options{}, core.Invalid, 1, 50, "", `suites[0]: field "title" appears twice`},
		{"jest NaN", "{\"numTotalTests\": 1, \"testResults\": [{\"assertionResults\": [\n  {\"fullName\": \"a\", \"status\": \"passed\", \"duration\": NaN}]}]}", Options{}, core.Invalid, 2, 53, "", "testResults[0].assertionResults[0].duration: malformed JSON: NaN and Infinity are not JSON numbers"},
		{"ctrf repeated key", `{"results": {"tool": {"name": "x"}, "tests": [{"name": "t", "status": "passed", "status": "failed"}]}}`, Options{}, core.Invalid, 1, 81, "", `results.tests[0]: field "status" appears twice`},
		{"ledger via report", `{"run": "b1", "arm": "unset", "nodeid": "t", "when": "call", "outcome": "passed"}`, Options{}, core.Invalid, 1, 22, "", "FLAKE_ARM"},
	}
	for _, c := range cases {
		err := Read(strings.NewReader(c.in), c.opt, ledger.New())
		var e *core.Error
		if !errors.As(err, &e) {
			t.Errorf("%s: want *Error, got %v", c.name, err)
			continue
		}
		if e.Kind != c.kind || e.Line != c.line || (c.col > 0 && e.Column != c.col) || e.Field != c.field || !strings.Contains(e.Msg, c.frag) {
			t.Errorf("%s: got %+v; want %s %d:%d field %q %q", c.name, e, c.kind, c.line, c.col, c.field, c.frag)
		}
		if c.line > 0 && e.Column < 1 {
			t.Errorf("%s: a positioned error needs a column: %+v", c.name, e)
		}
	}
}

// Several files make several runs; without Run they are numbered per arm.
func TestReportRunsAndArms(t *testing.T) {
	l := ledger.New()
	for i := range 3 {
		if err := readFile(t, l, "testdata/reports/gotest/seed2.json", Options{Format: "auto"}); err != nil {
			t.Fatal(i, err)
		}
	}
	if err := readFile(t, l, "testdata/reports/gotest/count5.json", Options{Arm: ledger.ArmPatched}); err != nil {
		t.Fatal(err)
	}
	if err := readFile(t, l, "testdata/reports/junit/gotestsum_count3.xml", Options{Arm: ledger.ArmPatched}); err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprint(l.Runs(ledger.ArmBaseline), l.Runs(ledger.ArmPatched)); got != "[baseline-1 baseline-2 baseline-3] [patched-1 patched-2]" {
		t.Errorf("runs %s", got)
	}
	res, err := l.Result(ledger.DefaultOptions)
	if err != nil {
		t.Fatal(err)
	}
	if res.Runs != (ledger.RunCounts{Baseline: 3, Patched: 2}) {
		t.Errorf("runs %+v", res.Runs)
	}
	for _, tc := range res.Tests {
		// go test -json and gotestsum's JUnit name a test the same way.
		if tc.NodeID == "example.com/flaky.TestFlaky" && (tc.Baseline.Trials != 3 || tc.Patched.Trials != 8) {
			t.Errorf("TestFlaky: %+v", tc)
		}
	}
}

func TestFlakes(t *testing.T) {
	l := ledger.New()
	if err := readFile(t, l, "testdata/reports/junit/surefire_reruns.xml", Options{}); err != nil {
		t.Fatal(err)
	}
	if err := readFile(t, l, "testdata/reports/gotest/count5.json", Options{Arm: ledger.ArmPatched}); err != nil {
		t.Fatal(err)
	}
	got := l.Flakes()
	want := []ledger.FlakeHistory{
		// the flaky Surefire test: two failed attempts, then the pass
		{NodeID: "com.example.CartTest.checkoutIsFlaky", Arm: ledger.ArmBaseline, Runs: 1, RecoveredRuns: 1, Executions: 3, Fails: 2},
		// count5.expect: TestFlaky 1/5, TestTable 2/5, TestTable/often 2/5
		{NodeID: "example.com/flaky.TestFlaky", Arm: ledger.ArmPatched, Runs: 1, RecoveredRuns: 1, Executions: 5, Fails: 4},
		{NodeID: "example.com/flaky.TestTable", Arm: ledger.ArmPatched, Runs: 1, RecoveredRuns: 1, Executions: 5, Fails: 3},
		{NodeID: "example.com/flaky.TestTable/often", Arm: ledger.ArmPatched, Runs: 1, RecoveredRuns: 1, Executions: 5, Fails: 3},
	}
	if fmt.Sprintf("%+v", got) != fmt.Sprintf("%+v", want) {
		t.Fatalf("flakes\n got %+v\nwant %+v", got, want)
	}
	in := gate.DefaultBudgetInput
	bs, err := ledger.BudgetFlakes(got, in)
	if err != nil {
		t.Fatal(err)
	}
	// 2 fails in 3 executions: Wilson 95% upper bound of 2/3 is 0.9385 (from
	// the formula: same as Wilson(2, 3, Z(0.95))); one rerun short of 95%
	// detection at that rate is 2 reruns. The budgets come costliest first,
	// so the Surefire test's is found by its name.
	i := slices.IndexFunc(bs, func(f ledger.FlakeBudget) bool { return f.NodeID == got[0].NodeID })
	if i < 0 {
		t.Fatalf("no budget for %s", got[0].NodeID)
	}
	b := bs[i].Budget
	if lo, hi := stat.Wilson(2, 3, stat.Z(0.95)); b.Observed.Upper != hi || b.Observed.Lower != lo || *b.Rows[0].Reruns != 2 {
		t.Errorf("budget %+v %+v", b.Observed, b.Rows[0])
	}
	if c := got[0].Observed(); c != (core.Count{Passed: 2, Trials: 3}) {
		t.Errorf("observed %v", c)
	}
}

// TestReportGolden reads every sample and compares the ledger result's JSON
// byte for byte with testdata/reports/golden (go test -run TestReportGolden
// -update rewrites them after a deliberate change; review the diff).
// goldenDirs are the folders of testdata/reports whose samples have
// golden results, and goldenExt the extensions of sample files.
var (
	goldenDirs = []string{"gotest", "junit", "nunit", "trx", "xunit", "tap", "jest", "vitest", "mocha", "playwright", "ctrf", "rspec", "inspect", "lmeval", "promptfoo"}
	goldenExt  = map[string]bool{".json": true, ".xml": true, ".trx": true, ".tap": true, ".eval": true, ".jsonl": true}
)

func TestReportGolden(t *testing.T) {
	var files []string
	for _, dir := range goldenDirs {
		fs, _ := filepath.Glob("testdata/reports/" + dir + "/*.*")
		files = append(files, fs...)
	}
	n := 0
	for _, path := range files {
		if !goldenExt[filepath.Ext(path)] {
			continue
		}
		n++
		l := ledger.New()
		err := readFile(t, l, path, Options{Run: "r1"})
		var out bytes.Buffer
		if err != nil {
			fmt.Fprintf(&out, "error: %v\n", err)
		} else {
			res, err := l.Result(ledger.DefaultOptions)
			if err != nil {
				fmt.Fprintf(&out, "error: %v\n", err)
			} else if err := core.WriteJSON(&out, res); err != nil {
				t.Fatal(err)
			}
			core.WriteJSON(&out, l.Flakes())
		}
		golden := filepath.Join("testdata/reports/golden", filepath.Base(filepath.Dir(path))+"_"+filepath.Base(path)+".golden")
		testfile.Golden(t, golden, out.Bytes(), *update, "-update")
	}
	if n < 12 {
		t.Fatalf("only %d report samples", n)
	}
}

// A report over the limit is refused with core.TooLarge, whatever its format,
// not read in part.
func TestReportLimit(t *testing.T) {
	for _, path := range []string{"testdata/reports/gotest/count5.json", "testdata/reports/junit/surefire_reruns.xml", "../ledger/testdata/ledger/messy.jsonl"} {
		raw := testfile.Read(t, path)
		for _, limit := range []int64{10, int64(len(raw)) / 2, int64(len(raw)) - 1} {
			err := Read(LimitReader(bytes.NewReader(raw), limit), Options{}, ledger.New())
			if core.ErrorKind(err) != core.TooLarge {
				t.Errorf("%s at limit %d: want too_large, got %v", path, limit, err)
			}
		}
		if err := Read(LimitReader(bytes.NewReader(raw), int64(len(raw))), Options{}, ledger.New()); err != nil {
			t.Errorf("%s at its own size: %v", path, err)
		}
	}
}

func TestFlakeBudgets(t *testing.T) {
	l := ledger.New()
	for _, f := range []string{"count5.json", "seed2.json"} {
		if err := readFile(t, l, "testdata/reports/gotest/"+f, Options{}); err != nil {
			t.Fatal(err)
		}
	}
	res, err := l.FlakeBudgets(gate.DefaultBudgetInput)
	if err != nil {
		t.Fatal(err)
	}
	// count5.expect and seed2.expect: TestFlaky 2/6 passed, TestTable 2/6,
	// TestTable/often 2/6, TestTable/rare 5/6 over both runs; 7 tests ran
	// (TestHang only in seed2, TestSkipped never).
	if res.Runs != 2 || res.Tests != 7 || len(res.Flakes) != 4 {
		t.Fatalf("runs %d tests %d flakes %d: %+v", res.Runs, res.Tests, len(res.Flakes), res.Flakes)
	}
	rare := res.Flakes[3]
	if rare.NodeID != "example.com/flaky.TestTable/rare" || rare.Fails != 1 || rare.Executions != 6 {
		t.Fatalf("rare: %+v", rare.FlakeHistory)
	}
	// Planned against the upper Wilson bound of 1/6 (0.5635 at 95%):
	// ceil(ln 0.05 / ln(1-0.5635)) = 4 reruns, over the cap of 3, so the
	// result blocks.
	if _, hi := stat.Wilson(1, 6, stat.Z(0.95)); rare.Budget.Rows[0].Rate != hi || float64(*rare.Budget.Rows[0].Reruns) != gate.RerunsFor(hi, 0.95) {
		t.Errorf("rare budget %+v", rare.Budget.Rows[0])
	}
	if !res.Blocks {
		t.Error("a flake over the cap blocks")
	}
	empty := ledger.New()
	empty.AddTrial(ledger.ArmBaseline, "r", "t", true)
	if res, err := empty.FlakeBudgets(gate.DefaultBudgetInput); err != nil || len(res.Flakes) != 0 || len(res.Warnings) != 1 || res.Blocks {
		t.Errorf("no flakes: %+v %v", res, err)
	}
	if _, err := ledger.New().FlakeBudgets(gate.DefaultBudgetInput); core.ErrorKind(err) != core.Unusable {
		t.Errorf("no executions: %v", err)
	}
}
