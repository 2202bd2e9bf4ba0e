package gate

import (
	"math"
	"strconv"
	"strings"

	"github.com/flakegate/flakegate/core"
)

// How a runner's retry setting counts, the Counts of a Runner.
const (
	// CountsRetries: the setting is the reruns after the first run, made
	// only when a run fails (retries 2: up to 3 runs).
	CountsRetries = "retries"
	// CountsAttempts: the setting is every attempt, the first included,
	// the later ones made only when a run fails (attempts 3: the first run
	// and up to 2 retries).
	CountsAttempts = "attempts"
	// CountsRuns: the setting is every run, the first included, all of them
	// made whatever they show (runs 3: the first and 2 more).
	CountsRuns = "runs"
)

// Runner is a test runner's retry setting and how it counts. The budget
// counts reruns as docs/STATISTICS.md, Rerun budget, does: the runs after the first, each a chance
// to see the failure. A runner that counts retries has setting = reruns; one
// that counts attempts or runs counts the first run too, so its setting is
// reruns + 1. (Not counting the first run keeps every figure on the safe
// side by one run.)
type Runner struct {
	Name   string // stable machine name, such as "gotestsum"
	Tool   string // the tool, in words: "gotestsum", "Bazel"
	Counts string // CountsRetries, CountsAttempts or CountsRuns
	// Setting is how the setting is written, with %d where its value goes:
	// "--rerun-fails=%d".
	Setting string
	// Max is the largest value the runner takes (Bazel refuses more than
	// 10 flaky test attempts); 0 for no limit.
	Max int64
	// Source is the runner's own documentation of what the number counts.
	Source string
}

// Runners are the retry settings flakegate reads, in the order they are
// listed. Each Counts is as the runner's own documentation (Source) and
// code say:
//
//   - gotestsum --rerun-fails=N: "rerun failed tests until they all pass, or
//     attempts exceeds maximum"; cmd/rerunfails.go loops `for attempts := 0;
//     ... attempts < opts.rerunFailsMaxAttempts` over the tests that failed
//     the first run, so N is reruns after it.
//   - Bazel --flaky_test_attempts=N: "If an integer, then all tests will be
//     run up to N times", and 'default' is "a single test attempt" for
//     regular tests: N counts the first run. Its converter takes 1 to 10.
//   - Bazel --runs_per_test=N: "--runs_per_test=3 will run all tests 3
//     times. If any of those attempts fail for any reason, the whole test
//     is considered failed": N runs, all made, the first included.
//   - pytest-rerunfailures --reruns N: "number of times to re-run failed
//     tests. defaults to 0."
//   - Maven Surefire -Dsurefire.rerunFailingTestsCount=N: "The number of
//     times each failing test will be rerun"; "Tests will be run until they
//     pass or the number of reruns has been exhausted."
//   - Gradle test-retry maxRetries = N: "The maximum number of times to
//     retry an individual test. ... defaults to 0, which results in no
//     retries."
//   - Jest jest.retryTimes(N): "Runs failed tests n-times until they pass or
//     until the max number of retries is exhausted."
//   - Playwright --retries=N: "Maximum retry count for flaky tests, zero for
//     no retries"; its test-retries page: "--retries=3" gives "failing tests
//     3 retry attempts".
var Runners = []Runner{
	{Name: "gotestsum", Tool: "gotestsum", Counts: CountsRetries, Setting: "--rerun-fails=%d",
		Source: "https://github.com/gotestyourself/gotestsum#re-running-failed-tests"},
	{Name: "bazel-flaky-attempts", Tool: "Bazel", Counts: CountsAttempts, Setting: "--flaky_test_attempts=%d", Max: 10,
		Source: "https://bazel.build/reference/command-line-reference#flag--flaky_test_attempts"},
	{Name: "bazel-runs-per-test", Tool: "Bazel", Counts: CountsRuns, Setting: "--runs_per_test=%d",
		Source: "https://bazel.build/reference/command-line-reference#flag--runs_per_test"},
	{Name: "pytest-rerunfailures", Tool: "pytest-rerunfailures", Counts: CountsRetries, Setting: "--reruns %d",
		Source: "https://pypi.org/project/pytest-rerunfailures/"},
	{Name: "surefire", Tool: "Maven Surefire", Counts: CountsRetries, Setting: "-Dsurefire.rerunFailingTestsCount=%d",
		Source: "https://maven.apache.org/surefire/maven-surefire-plugin/examples/rerun-failing-tests.html"},
	{Name: "gradle-test-retry", Tool: "Gradle's test-retry plugin", Counts: CountsRetries, Setting: "retry { maxRetries = %d }",
		Source: "https://github.com/gradle/test-retry-gradle-plugin#the-retry-extension"},
	{Name: "jest", Tool: "Jest", Counts: CountsRetries, Setting: "jest.retryTimes(%d)",
		Source: "https://jestjs.io/docs/jest-object#jestretrytimesnumretries-options"},
	{Name: "playwright", Tool: "Playwright", Counts: CountsRetries, Setting: "--retries=%d",
		Source: "https://playwright.dev/docs/test-retries"},
}

// runnerAliases are the other names a runner is known by.
var runnerAliases = map[string]string{
	"bazel":                  "bazel-flaky-attempts",
	"flaky_test_attempts":    "bazel-flaky-attempts",
	"runs_per_test":          "bazel-runs-per-test",
	"pytest":                 "pytest-rerunfailures",
	"maven":                  "surefire",
	"maven-surefire":         "surefire",
	"gradle":                 "gradle-test-retry",
	"playwright-test":        "playwright",
	"jest-circus":            "jest",
	"rerun-fails":            "gotestsum",
	"rerunfailingtestscount": "surefire",
}

// RunnerNames lists the runners' names, for a message or a form's choices.
func RunnerNames() []string {
	names := make([]string, len(Runners))
	for i, r := range Runners {
		names[i] = r.Name
	}
	return names
}

// LookupRunner finds a runner by its name or an alias (bazel, pytest,
// maven, gradle), in any case.
func LookupRunner(name string) (Runner, bool) {
	n := strings.ToLower(strings.TrimSpace(name))
	if a, ok := runnerAliases[n]; ok {
		n = a
	}
	for _, r := range Runners {
		if r.Name == n {
			return r, true
		}
	}
	return Runner{}, false
}

// Offset is what the setting adds to the reruns: 0 for retries, 1 for
// attempts and runs (the first run counted).
func (r Runner) Offset() int64 {
	if r.Counts == CountsRetries {
		return 0
	}
	return 1
}

// OnFailure reports whether the runner reruns only after a failure (and a
// pass on a rerun then turns the run green): every runner but
// --runs_per_test.
func (r Runner) OnFailure() bool { return r.Counts != CountsRuns }

// MinSetting is the smallest value the setting takes: 0 retries, or 1
// attempt or run.
func (r Runner) MinSetting() int64 { return r.Offset() }

// Reruns is the budget's reruns for a setting of the runner, and the
// SettingFor of k reruns its inverse.
func (r Runner) Reruns(setting int64) int64 { return setting - r.Offset() }

// SettingFor is the setting that gives k reruns; ok is false when it is
// beyond int64.
func (r Runner) SettingFor(k int64) (int64, bool) {
	if k > math.MaxInt64-r.Offset() {
		return 0, false
	}
	return k + r.Offset(), true
}

// Flag is the setting with N for its value: "--rerun-fails=N".
func (r Runner) Flag() string { return strings.Replace(r.Setting, "%d", "N", 1) }

// Write writes the setting with value n: "--rerun-fails=149".
func (r Runner) Write(n int64) string {
	return strings.Replace(r.Setting, "%d", strconv.FormatInt(n, 10), 1)
}

// RunnerSetting is a budget's runner: today's setting as the runner counts
// it, and what that is in reruns (the result's cap).
type RunnerSetting struct {
	Name   string `json:"name"`   // a Runners name, such as "gotestsum"
	Counts string `json:"counts"` // "retries", "attempts" or "runs"
	// OnFailure is true when the runner reruns only after a failure, and a
	// pass on a rerun turns the run green.
	OnFailure bool  `json:"on_failure"`
	Setting   int64 `json:"setting"` // today's value as the runner counts it, >= min_setting
	// Written is today's setting as the runner spells it: "--rerun-fails=2".
	Written string `json:"written"`
	// Max is the largest value the runner takes; null for no limit.
	Max *int64 `json:"max"`
}

// RunnerCaveat is the caveat of a runner that reruns only after a
// failure, "" for another runner or none.
func RunnerCaveat(name string) string {
	r, ok := LookupRunner(name)
	if !ok || !r.OnFailure() {
		return ""
	}
	return r.Tool + " reruns a test only after it fails, and a pass on a rerun turns the run green: " +
		"its reruns show a flake only where every attempt is read (a report that keeps each one, as flakegate budget -from reads it)"
}

// checkRunner is the fault of in's runner and setting, nil when none.
func (in BudgetInput) checkRunner() error {
	if in.Runner == "" {
		if in.Setting != nil {
			return core.FieldErrorf("setting", "a setting needs its runner: give the runner too")
		}
		return nil
	}
	r, ok := LookupRunner(in.Runner)
	if !ok {
		return core.FieldErrorf("runner", "unknown runner %q: want one of %s", in.Runner, strings.Join(RunnerNames(), ", "))
	}
	if s := in.Setting; s != nil && *s < r.MinSetting() {
		return core.FieldErrorf("setting", "%s counts %s, at least %d, got %d", r.Flag(), r.Counts, r.MinSetting(), *s)
	}
	if s := in.Setting; s != nil && r.Max > 0 && *s > r.Max {
		// The runner itself refuses it: a setting it would not run is no
		// setting to plan from.
		return core.FieldErrorf("setting", "%s: %s takes %d to %d %s (the first run included), got %d",
			r.Write(*s), r.Tool, r.MinSetting(), r.Max, r.Counts, *s)
	}
	if _, ok := r.SettingFor(in.Cap); in.Setting == nil && !ok {
		return core.FieldErrorf("cap", "%d reruns are more %s than %s can count", in.Cap, r.Counts, r.Tool)
	}
	return nil
}

// runnerSetting is the runner of a checked input, with its cap in reruns:
// the setting's when there is one, else in.Cap.
func (in BudgetInput) runnerSetting() (*RunnerSetting, int64) {
	if in.Runner == "" {
		return nil, in.Cap
	}
	r, _ := LookupRunner(in.Runner)
	cap := in.Cap
	setting, _ := r.SettingFor(cap)
	if in.Setting != nil {
		setting = *in.Setting
		cap = r.Reruns(setting)
	}
	rs := &RunnerSetting{Name: r.Name, Counts: r.Counts, OnFailure: r.OnFailure(), Setting: setting, Written: r.Write(setting)}
	if r.Max > 0 {
		rs.Max = ptr(r.Max)
	}
	return rs, cap
}
