package report

import (
	"errors"
	"math"
	"path/filepath"
	"strings"
	"testing"

	"github.com/flakegate/flakegate/core"
	"github.com/flakegate/flakegate/core/ledger"
	"github.com/flakegate/flakegate/internal/testfile"
)

// checkReportErr fails unless err is nil or an *Error that says where.
func checkReportErr(t *testing.T, err error) {
	t.Helper()
	if err == nil {
		return
	}
	var e *core.Error
	if !errors.As(err, &e) {
		t.Fatalf("not an *Error: %#v", err)
	}
	if e.Field == "" && (e.Line < 1 || e.Column < 1) {
		t.Fatalf("error without a position: %+v", e)
	}
	if e.Msg == "" || e.Kind == "" {
		t.Fatalf("error without a message or kind: %+v", e)
	}
}

// checkLedger fails when the ledger's counts are impossible.
func checkLedger(t *testing.T, l *ledger.Ledger) {
	t.Helper()
	for _, arm := range []string{ledger.ArmBaseline, ledger.ArmPatched} {
		for id, c := range armCounts(l, arm) {
			if c.Passed < 0 || c.Passed > c.Trials || c.Trials < 1 {
				t.Fatalf("%s %q: impossible count %v", arm, id, c)
			}
		}
	}
	for _, h := range l.Flakes() {
		if h.Fails < 1 || h.Fails >= h.Executions || h.RecoveredRuns > h.Runs {
			t.Fatalf("impossible history %+v", h)
		}
	}
}

func addSamples(f *testing.F, pattern string, limit int) {
	files, _ := filepath.Glob(pattern)
	for _, p := range files {
		raw := testfile.Read(f, p)
		f.Add(string(raw[:min(len(raw), limit)]))
	}
}

func FuzzReadGoTest(f *testing.F) {
	addSamples(f, "testdata/reports/gotest/*.json", 6000)
	f.Add(`{"Action":"run","Package":"p","Test":"T"}` + "\n" + `{"Action":"fail","Package":"p"}`)
	f.Add(`{"Action":"build-fail","ImportPath":"p [p.test]"}`)
	f.Add("noise\n{\"Action\":\"pass\",\"Test\":\"T\"}\n{")
	f.Fuzz(func(t *testing.T, s string) {
		l := ledger.New()
		err := Read(strings.NewReader(s), Options{Format: FormatGoTest}, l)
		checkReportErr(t, err)
		if err == nil {
			checkLedger(t, l)
		}
		checkDurations(t, s, Options{Format: FormatGoTest}, err)
	})
}

func FuzzReadJUnit(f *testing.F) {
	addSamples(f, "testdata/reports/junit/*.xml", 6000)
	f.Add(`<testsuite><testcase name="a"><flakyFailure/><failure/></testcase></testsuite>`)
	f.Add(`<testsuites><testsuite name="s"><testsuite><testcase name="x" classname=""/></testsuite></testsuite></testsuites>`)
	f.Add(`<testsuite><testcase name="a"><error message="failed on setup with x"/></testcase>`)
	f.Fuzz(func(t *testing.T, s string) {
		l := ledger.New()
		err := Read(strings.NewReader(s), Options{Format: FormatJUnit, Arm: ledger.ArmPatched}, l)
		checkReportErr(t, err)
		if err == nil {
			checkLedger(t, l)
		}
		checkDurations(t, s, Options{Format: FormatJUnit, Arm: ledger.ArmPatched}, err)
	})
}

// FuzzReadReport detects the format of anything and reads it.
func FuzzReadReport(f *testing.F) {
	addSamples(f, "testdata/reports/*/*.json", 2000)
	addSamples(f, "testdata/reports/*/*.xml", 2000)
	addSamples(f, "../ledger/testdata/ledger/*.jsonl", 2000)
	f.Add("")
	f.Add("\xef\xbb\xbf<")
	f.Fuzz(func(t *testing.T, s string) {
		l := ledger.New()
		err := Read(strings.NewReader(s), Options{}, l)
		checkReportErr(t, err)
		if err == nil {
			checkLedger(t, l)
			if res, err := l.Result(ledger.DefaultOptions); err == nil && res.Warnings == nil {
				t.Fatal("nil warnings")
			}
		}
	})
}

// checkDurations reads s again with Options.Durations set: the reading
// must fail or succeed as it did without (err), and every duration given
// must be a finite number of seconds >= 0 for a named test.
func checkDurations(t *testing.T, s string, opt Options, err error) {
	t.Helper()
	opt.Durations = func(test string, sec float64) {
		if test == "" || !(sec >= 0) || math.IsInf(sec, 0) {
			t.Fatalf("duration %v for test %q", sec, test)
		}
	}
	err2 := Read(strings.NewReader(s), opt, ledger.New())
	if (err == nil) != (err2 == nil) || err != nil && err.Error() != err2.Error() {
		t.Fatalf("with durations: %v, without: %v", err2, err)
	}
}
