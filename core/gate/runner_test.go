package gate

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/flakegate/flakegate/core"
)

// Each runner's setting for the budget of a 2% flake and what today's
// setting catches. The expected values are independent of the code: the
// budget of a 2% flake at 95% is 149 reruns (docs/STATISTICS.md, Rerun budget), the power
// at k reruns is 1-0.98^k by exact arithmetic (k=2: 0.0396, k=3: 0.058808,
// k=1: 0.02), and each runner's count (retries, or attempts and runs with
// the first run included) is from its own documentation, quoted beside
// Runners: gotestsum's rerunfails.go loop, Bazel's option help and its
// converter's range 1..10, pytest-rerunfailures' --reruns help, Surefire's
// rerunFailingTestsCount page, the test-retry plugin's maxRetries doc,
// Jest's retryTimes doc and Playwright's --retries help.
func TestRunnerSettings(t *testing.T) {
	for _, c := range []struct {
		runner  string
		setting int64
		cap     int64   // reruns today
		atCap   float64 // 1-0.98^cap
		written string  // the setting for 149 reruns
		overMax bool
		caveat  bool // reruns only after a failure
	}{
		{"gotestsum", 2, 2, 0.0396, "--rerun-fails=149", false, true},
		{"bazel-flaky-attempts", 3, 2, 0.0396, "--flaky_test_attempts=150", true, true},
		{"bazel-runs-per-test", 4, 3, 0.058808, "--runs_per_test=150", false, false},
		{"pytest-rerunfailures", 1, 1, 0.02, "--reruns 149", false, true},
		{"surefire", 3, 3, 0.058808, "-Dsurefire.rerunFailingTestsCount=149", false, true},
		{"gradle-test-retry", 2, 2, 0.0396, "retry { maxRetries = 149 }", false, true},
		{"jest", 3, 3, 0.058808, "jest.retryTimes(149)", false, true},
		{"playwright", 2, 2, 0.0396, "--retries=149", false, true},
		// aliases, in any case
		{"Bazel", 1, 0, 0, "--flaky_test_attempts=150", true, true},
		{"PYTEST", 0, 0, 0, "--reruns 149", false, true},
	} {
		in := DefaultBudgetInput
		in.Rates, in.Runner, in.Setting = []float64{0.02}, c.runner, &c.setting
		res, err := Budget(in)
		if err != nil {
			t.Fatalf("%s=%d: %v", c.runner, c.setting, err)
		}
		row := res.Rows[0]
		if res.Cap != c.cap || !closeRel(row.PowerAtCap, c.atCap, 1e-14) || *row.Reruns != 149 || !row.OverCap == (c.cap < 149) {
			t.Errorf("%s=%d: cap %d, at cap %v, reruns %d; want cap %d, %v, 149", c.runner, c.setting, res.Cap, row.PowerAtCap, *row.Reruns, c.cap, c.atCap)
		}
		if s := row.Runner; s == nil || s.Written != c.written || s.OverMax != c.overMax {
			t.Errorf("%s: row setting %+v, want %s (over max %v)", c.runner, s, c.written, c.overMax)
		}
		if res.Runner == nil || res.Runner.Setting != c.setting || res.Runner.OnFailure != c.caveat {
			t.Errorf("%s: runner %+v", c.runner, res.Runner)
		}
		if got := len(res.Warnings) == 1 && res.Warnings[0] == RunnerCaveat(c.runner); got != c.caveat {
			t.Errorf("%s: warnings %q", c.runner, res.Warnings)
		}
	}
}

// Without a setting, the cap is in reruns and the runner's setting is
// written from it: a cap of 3 reruns is 4 Bazel attempts, 3 gotestsum
// retries.
func TestRunnerWithCap(t *testing.T) {
	for _, c := range []struct {
		name, want string
		budget     int64 // 5 reruns as the runner counts them
	}{{"bazel-flaky-attempts", "--flaky_test_attempts=4", 6}, {"gotestsum", "--rerun-fails=3", 5}} {
		name, want := c.name, c.want
		in := DefaultBudgetInput
		in.Rates, in.Runner = []float64{0.5}, name
		res, err := Budget(in)
		if err != nil {
			t.Fatal(err)
		}
		if res.Cap != 3 || res.Runner.Written != want {
			t.Errorf("%s: cap %d written %q, want 3 and %q", name, res.Cap, res.Runner.Written, want)
		}
		// 0.5 needs 5 reruns (1-0.5^4 = 0.9375 < 0.95 <= 1-0.5^5).
		if s := res.Rows[0].Runner; *res.Rows[0].Reruns != 5 || s.Setting != c.budget {
			t.Errorf("%s: reruns %d as %+v", name, *res.Rows[0].Reruns, s)
		}
	}
	// A rate no budget reaches has no setting.
	in := DefaultBudgetInput
	in.Rates, in.Runner = []float64{0, 5e-324}, "jest"
	res, err := Budget(in)
	if err != nil {
		t.Fatal(err)
	}
	for _, row := range res.Rows {
		if row.Runner != nil {
			t.Errorf("rate %v: setting %+v without a budget", row.Rate, row.Runner)
		}
	}
}

func TestRunnerRefused(t *testing.T) {
	n := func(v int64) *int64 { return &v }
	for _, c := range []struct {
		runner  string
		setting *int64
		cap     int64
		field   string
	}{
		{"nose", nil, 3, "runner"},
		{"", n(2), 3, "setting"},
		{"bazel-flaky-attempts", n(0), 3, "setting"},
		{"bazel-runs-per-test", n(-1), 3, "setting"},
		{"gotestsum", n(-1), 3, "setting"},
		{"bazel-runs-per-test", nil, math.MaxInt64, "cap"},
	} {
		in := DefaultBudgetInput
		in.Rates, in.Runner, in.Setting, in.Cap = []float64{0.02}, c.runner, c.setting, c.cap
		_, err := Budget(in)
		var e *core.Error
		if !errors.As(err, &e) || e.Kind != core.Invalid || e.Field != c.field {
			t.Errorf("%q %v: %v, want field %s refused", c.runner, c.setting, err, c.field)
		}
	}
	// Retries start at 0: no retries is a setting.
	in := DefaultBudgetInput
	in.Rates, in.Runner, in.Setting = []float64{0.02}, "gotestsum", n(0)
	if res, err := Budget(in); err != nil || res.Cap != 0 || res.Rows[0].PowerAtCap != 0 {
		t.Errorf("--rerun-fails=0: %v %+v", err, res)
	}
}

func TestLookupRunner(t *testing.T) {
	for _, name := range RunnerNames() {
		r, ok := LookupRunner(name)
		if !ok || r.Name != name || r.Source == "" || r.Write(7) == r.Setting {
			t.Errorf("%s: %+v %v", name, r, ok)
		}
		if k, _ := r.SettingFor(r.Reruns(9)); k != 9 {
			t.Errorf("%s: SettingFor(Reruns(9)) = %d", name, k)
		}
	}
	if _, ok := LookupRunner("tox"); ok {
		t.Error("tox is not a runner flakegate knows")
	}
}

// A setting past the runner's documented range is refused as the runner
// would refuse it: Bazel's --flaky_test_attempts takes 1 to 10 (its
// TestAttemptsConverter, and the command-line reference linked in Source);
// 10 is still taken.
func TestRunnerSettingRange(t *testing.T) {
	in := DefaultBudgetInput
	in.Rates, in.Runner = []float64{0.02}, "bazel-flaky-attempts"
	for _, c := range []struct {
		setting int64
		want    string
	}{
		{11, "--flaky_test_attempts=11: Bazel takes 1 to 10 attempts (the first run included), got 11"},
		{1000, "--flaky_test_attempts=1000: Bazel takes 1 to 10 attempts"},
		{10, ""},
	} {
		in.Setting = &c.setting
		_, err := Budget(in)
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%d: %v", c.setting, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
			t.Errorf("%d: %v, want %q", c.setting, err, c.want)
		}
	}
	// Runners without a documented maximum take any count.
	in.Runner, in.Setting = "gotestsum", ptr(int64(500))
	if _, err := Budget(in); err != nil {
		t.Errorf("gotestsum=500: %v", err)
	}
}
