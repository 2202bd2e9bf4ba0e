package triage

import (
	"fmt"
	"testing"

	"github.com/flakegate/flakegate/core/history"
)

// TestSameCommitPass: a test that never failed in 300 runs fails now. On
// a new commit that is new; on a commit on which it passed before (the
// job run again) it failed and passed on the same code, a known flake
// whatever its record, naming the run it passed in.
func TestSameCommitPass(t *testing.T) {
	h := history.New()
	for i := range 300 {
		err := h.AddRun(history.RunMeta{Name: fmt.Sprint("run", i), Commit: fmt.Sprint("c", i/3)}, []history.TestResult{
			{Test: "pkg.TestA", Passed: 1, Trials: 1}, {Test: "pkg.TestB", Passed: 1, Trials: 1}})
		if err != nil {
			t.Fatal(err)
		}
	}
	run := []history.TestResult{{Test: "pkg.TestA", Passed: 0, Trials: 1}, {Test: "pkg.TestB", Passed: 1, Trials: 1}}
	for _, tc := range []struct {
		commit, class, passedOn string
	}{{"c-new", ClassNew, ""}, {"c99", ClassFlake, "run297"}, {"", ClassNew, ""}} {
		res, err := Triage(h, nil, history.RunMeta{Name: "pr", Commit: tc.commit}, run, DefaultOptions)
		if err != nil {
			t.Fatal(err)
		}
		f := res.Failures[0]
		got := ""
		if f.PassedOn != nil {
			got = f.PassedOn.Run
		}
		if f.Class != tc.class || got != tc.passedOn || res.Blocks != (tc.class == ClassNew) {
			t.Errorf("commit %q: %s passed on %q blocks %v, want %s passed on %q", tc.commit, f.Class, got, res.Blocks, tc.class, tc.passedOn)
		}
	}
}

// TestInputErrors: an empty run, a result out of range and settings out
// of range are errors naming what is wrong, never a triage.
func TestInputErrors(t *testing.T) {
	h := history.New()
	h.AddRun(history.RunMeta{Name: "r"}, []history.TestResult{{Test: "a", Passed: 1, Trials: 1}})
	bad := DefaultOptions
	bad.MinRate = 1
	for _, tc := range []struct {
		run []history.TestResult
		o   Options
	}{
		{nil, DefaultOptions},
		{[]history.TestResult{{Test: "a", Passed: 2, Trials: 1}}, DefaultOptions},
		{[]history.TestResult{{Test: "a", Passed: 0, Trials: 1}}, bad},
	} {
		if res, err := Triage(h, nil, history.RunMeta{Name: "pr"}, tc.run, tc.o); err == nil {
			t.Errorf("%v: no error, got %+v", tc.run, res)
		}
	}
}
