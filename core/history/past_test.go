package history

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"
)

// TestRunsSinceByUTCDate checks RunsSince against its definition, written
// out here as the doc comment says it: a run counts when its time, in UTC
// and formatted YYYY-MM-DD, is not before day as a string. Times fall in
// several zones and next to midnight in UTC; days are real dates, the
// empty string, and strings that are no date.
func TestRunsSinceByUTCDate(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 2026))
	zones := []*time.Location{time.UTC, time.FixedZone("east", 14*3600), time.FixedZone("west", -12*3600)}
	base := time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)
	h := New()
	type run struct {
		at     time.Time
		failed bool
	}
	var runs []run
	for i := range 300 {
		at := base.Add(time.Duration(r.IntN(20*24*3600)) * time.Second)
		if i%10 == 0 { // a second either side of a midnight in UTC
			at = base.Add(time.Duration(r.IntN(20))*24*time.Hour + time.Duration(r.IntN(3)-1)*time.Second)
		}
		at = at.In(zones[r.IntN(len(zones))])
		if i%37 == 0 {
			at = time.Time{} // no time: never counted
		}
		failed := r.IntN(4) == 0
		passed := int64(1)
		if failed {
			passed = 0
		}
		if err := h.AddRun(RunMeta{Name: fmt.Sprint("r", i), Time: at}, []TestResult{{Test: "pkg.TestA", Passed: passed, Trials: 1}}); err != nil {
			t.Fatal(err)
		}
		runs = append(runs, run{at, failed})
	}
	days := []string{"", "2026-03-01", "2026-03-02", "2026-03-10", "2026-03-20", "2026-03-21", "2025-12-31", "2027-01-01",
		"2026-03-1", "2026-02-30", "not a day", "9999-12-31", "0000-01-01"}
	for d := range 20 {
		days = append(days, base.AddDate(0, 0, d).Format(time.DateOnly))
	}
	for _, day := range days {
		var want, wantFailed int64
		for _, x := range runs {
			if x.at.IsZero() || x.at.UTC().Format(time.DateOnly) < day {
				continue
			}
			want++
			if x.failed {
				wantFailed++
			}
		}
		got, gotFailed := h.RunsSince("pkg.TestA", day)
		if got != want || gotFailed != wantFailed {
			t.Errorf("RunsSince(%q) = %d runs, %d failed; by the UTC dates as strings %d, %d", day, got, gotFailed, want, wantFailed)
		}
	}
	if n, f := h.RunsSince("pkg.TestNone", ""); n != 0 || f != 0 {
		t.Errorf("a test never run: %d runs, %d failed", n, f)
	}
}

// TestFewRunsWarning: the warning for a short history counts its runs in
// words that agree with the count ("1 run", never "1 runs").
func TestFewRunsWarning(t *testing.T) {
	for _, c := range []struct {
		runs int
		want string // the warning, written out by hand
	}{
		{1, "only 1 run: a test that fails some of the time may not have failed yet, and none can be told flaky"},
		{5, "only 5 runs: a flake rarer than 1 in 5 may not have failed yet"},
		{20, ""},
	} {
		h := New()
		for i := range c.runs {
			if err := h.AddRun(RunMeta{Name: fmt.Sprint("r", i)}, []TestResult{{Test: "pkg.TestA", Passed: 1, Trials: 1}}); err != nil {
				t.Fatal(err)
			}
		}
		res, err := h.Result(DefaultOptions)
		if err != nil {
			t.Fatal(err)
		}
		got := ""
		for _, w := range res.Warnings {
			if strings.HasPrefix(w, "only ") {
				got = w
			}
		}
		if got != c.want {
			t.Errorf("%d runs: warning %q, want %q", c.runs, got, c.want)
		}
	}
}
