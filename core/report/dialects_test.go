package report

import (
	"strings"
	"testing"

	"github.com/flakegate/flakegate/core"
	"github.com/flakegate/flakegate/core/ledger"
)

// readSample reads one sample of testdata/reports into a new ledger.
func readSample(t *testing.T, path string) *ledger.Ledger {
	t.Helper()
	l := ledger.New()
	if err := readFile(t, l, "testdata/reports/"+path, Options{}); err != nil {
		t.Fatal(err)
	}
	return l
}

// A package that does not build, or fails before its tests report, leaves
// the other packages' trials in place and becomes a warning (real go test
// -json of a five-package module, SOURCE.md in testdata/reports/gotest).
func TestGoTestBrokenPackages(t *testing.T) {
	for _, path := range []string{"gotest/multi_buildfail.json", "gotest/multi_buildfail_ps5_utf16le.json"} {
		l := readSample(t, path)
		notes := strings.Join(l.Notes(), "\n")
		for _, frag := range []string{"example.com/mod/badbuild did not build", "example.com/mod/badmain failed before any of its tests reported", "other packages' tests are counted"} {
			if !strings.Contains(notes, frag) {
				t.Errorf("%s: no warning saying %q in %q", path, frag, notes)
			}
		}
		// go test -v of the same run: TestA passed 3 times in 3.
		if c := armCounts(l, ledger.ArmBaseline)["example.com/mod/good.TestA"]; c != (core.Count{Passed: 3, Trials: 3}) {
			t.Errorf("%s: good.TestA %v, want 3 of 3", path, c)
		}
		// Package failing is failing because TestFails failed: no warning
		// about a failure outside its tests.
		if strings.Contains(notes, "failing failed outside its tests") {
			t.Errorf("%s: warned about a package whose own test failed: %q", path, notes)
		}
	}
	// A package that fails with every test passing does get the warning.
	stream := `{"Action":"run","Package":"p","Test":"TestA"}
{"Action":"pass","Package":"p","Test":"TestA"}
{"Action":"fail","Package":"p"}
`
	l := ledger.New()
	if err := Read(strings.NewReader(stream), Options{}, l); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(strings.Join(l.Notes(), "\n"), "package p failed outside its tests") {
		t.Errorf("warnings %q", l.Notes())
	}
}

// Dialects of JUnit XML: tests that did not run without a <skipped>
// element, unnamed testcases, pytest's old wording, encodings.
func TestJUnitDialects(t *testing.T) {
	// ctest: status="disabled" and "notrun" are no trials.
	counts := armCounts(readSample(t, "junit/ctest.xml"), ledger.ArmBaseline)
	for _, name := range []string{"disabled_one", "missing_exe"} {
		if _, ok := counts[name]; ok {
			t.Errorf("ctest: %s did not run but has trials %v", name, counts[name])
		}
	}
	// googletest: a DISABLED_ test (status="notrun" result="suppressed").
	counts = armCounts(readSample(t, "junit/gtest.xml"), ledger.ArmBaseline)
	if _, ok := counts["Math.DISABLED_NotYet"]; ok {
		t.Error("googletest: a disabled test has trials")
	}
	if c := counts["Math.Flaky"]; c != (core.Count{Passed: 0, Trials: 1}) {
		t.Errorf("googletest: Math.Flaky %v", c)
	}
	// An unnamed testcase (Surefire's JUnit 5 class-level failure) is
	// named after its class and place, counted, and warned about.
	l := readSample(t, "junit/surefire_empty_name.xml")
	if c := armCounts(l, ledger.ArmBaseline)["com.example.OrderTest.(unnamed #1)"]; c != (core.Count{Passed: 0, Trials: 1}) {
		t.Errorf("unnamed testcase: %v in %v", c, armCounts(l, ledger.ArmBaseline))
	}
	if !strings.Contains(strings.Join(l.Notes(), "\n"), "1 testcase without a name (line 8)") {
		t.Errorf("warnings %q", l.Notes())
	}
	// pytest before 6.0 and after word setup and teardown errors
	// differently; both give 1 setup and 2 teardown failures (pytest's
	// own line: 3 errors), and the body that failed before its teardown
	// failed is one trial, not two.
	for _, path := range []string{"junit/pytest7_xunit1.xml", "junit/pytest5_style.xml", "junit/pytest7_utf16le.xml"} {
		var sum ledger.SideFailures
		for _, s := range sides(readSample(t, path), ledger.ArmBaseline) {
			sum.Setup += s.Setup
			sum.Teardown += s.Teardown
			sum.Errors += s.Errors
		}
		if sum != (ledger.SideFailures{Setup: 1, Teardown: 2}) {
			t.Errorf("%s: side failures %+v, want 1 setup and 2 teardown", path, sum)
		}
		if c := armCounts(readSample(t, path), ledger.ArmBaseline)["test_demo.test_teardown_error_after_fail"]; c != (core.Count{Passed: 0, Trials: 1}) {
			t.Errorf("%s: a failing body with a failing teardown: %v, want 0 of 1", path, c)
		}
	}
	// ISO-8859-1: names come out in UTF-8.
	if c := armCounts(readSample(t, "junit/latin1.xml"), ledger.ArmBaseline)["Société.Tests.crée_un_compte"]; c != (core.Count{Passed: 1, Trials: 1}) {
		t.Errorf("latin1: %v", armCounts(readSample(t, "junit/latin1.xml"), ledger.ArmBaseline))
	}
}
