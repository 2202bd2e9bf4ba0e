package words

import (
	"strings"
	"testing"

	"github.com/flakegate/flakegate/core/quarantine"
)

// The answer agrees with its counts, and names only the states that block:
// a stale claim of a test that got better does not.
func TestQuarantineAnswer(t *testing.T) {
	const improving = "stale, improving"
	res := func(states ...string) *quarantine.Result {
		r := &quarantine.Result{}
		for _, s := range states {
			tr := quarantine.TestResult{State: s, Blocks: s == quarantine.StateStale || s == quarantine.StateExpired || s == quarantine.StateMissing}
			if s == improving {
				s = quarantine.StateStale
				tr = quarantine.TestResult{State: s, Improving: true}
			}
			r.Tests = append(r.Tests, tr)
			switch s {
			case quarantine.StateStale:
				r.States.Stale++
			case quarantine.StateExpired:
				r.States.Expired++
			case quarantine.StateMissing:
				r.States.Missing++
			case quarantine.StateReleased:
				r.States.Released++
			default:
				r.States.StillFlaky++
			}
		}
		return r
	}
	for _, c := range []struct {
		r    *quarantine.Result
		want string
	}{
		{res(), "The gate passes: no test is quarantined."},
		{res(quarantine.StateStillFlaky), "The gate passes: its one quarantined test does not block."},
		{res(quarantine.StateStillFlaky, improving), "The gate passes: none of its 2 quarantined tests blocks."},
		{res(improving, quarantine.StateStale, quarantine.StateStillFlaky), "The gate blocks: 1 of 3 quarantined tests needs its owner (1 stale)."},
		{res(quarantine.StateExpired, quarantine.StateReleased), "The gate blocks: 1 of 2 quarantined tests needs its owner (1 expired)."},
		{res(quarantine.StateStale, quarantine.StateMissing, quarantine.StateMissing, quarantine.StateStillFlaky),
			"The gate blocks: 3 of 4 quarantined tests need their owners (1 stale and 2 missing)."},
	} {
		if got := QuarantineAnswer(c.r); got != c.want {
			t.Errorf("%q\nwant %q", got, c.want)
		}
	}
	if got := QuarantineTally(res(quarantine.StateReleased, quarantine.StateStillFlaky, quarantine.StateStillFlaky)); !strings.HasPrefix(got, "1 released") || !strings.HasSuffix(got, "and 2 still flaky.") {
		t.Errorf("tally %q", got)
	}
	if got := QuarantineTally(res(improving, quarantine.StateStillFlaky)); !strings.HasPrefix(got, "1 improving (stale because the test got better: no block") {
		t.Errorf("tally %q", got)
	}
}

// docs/STATISTICS.md's 1% at 95%: 299 runs in a row at one look (0.99^299 = 4.96%);
// checked after every run from the start, 361 (core/quarantine's
// TestCleanRunsChecked finds it in exact arithmetic).
func TestCleanRunsSentence(t *testing.T) {
	want := "361 clean runs from the start of a quarantine release a test below 1% at 95% confidence, checked after every run: " +
		"a test that still fails 1% of the time or more is released at most 5% of the time, however often it is checked " +
		"(299 in a row would do for one look from one fixed start)."
	r, err := quarantine.CleanRunsFor(0.01, 0.95)
	if err != nil {
		t.Fatal(err)
	}
	if got := CleanRunsSentence(r); got != want {
		t.Errorf("%q\nwant %q", got, want)
	}
}
