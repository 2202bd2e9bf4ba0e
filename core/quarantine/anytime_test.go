package quarantine

import (
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/flakegate/flakegate/core"
	"github.com/flakegate/flakegate/core/gate"
)

// exactCleanEvidence is the release evidence after n clean runs from the
// start, in exact rational arithmetic: with the mixing Beta(1, B), B an
// integer, M⁻ = B(1 − (1−p)^(n+B)) / ((n+B)(1 − (1−p)^B)(1−p)^n), the
// integral ∫_0^p B(1−t)^(n+B−1) dt over the prior's mass below p and the
// likelihood at p.
func exactCleanEvidence(bInt, n int64, p *big.Rat) *big.Rat {
	one := big.NewRat(1, 1)
	q := new(big.Rat).Sub(one, p)
	pow := func(e int64) *big.Rat {
		r := big.NewRat(1, 1)
		for range e {
			r.Mul(r, q)
		}
		return r
	}
	num := new(big.Rat).Mul(big.NewRat(bInt, 1), new(big.Rat).Sub(one, pow(n+bInt)))
	den := new(big.Rat).Mul(big.NewRat(n+bInt, 1), new(big.Rat).Sub(one, pow(bInt)))
	den.Mul(den, pow(n))
	return num.Quo(num, den)
}

// The clean runs a fresh quarantine needs, checked in exact arithmetic: at
// the answer the evidence reaches 1/(1−confidence) and one run earlier it
// does not. Below 1% at 95% (B = 400) takes 361, below 10% (B = 40) 35,
// below 5% at 99% (B = 80) 106.
func TestCleanRunsChecked(t *testing.T) {
	for _, c := range []struct {
		below      *big.Rat
		confidence float64
		inverse    int64 // 1/(1-confidence)
		want       int64
	}{
		{big.NewRat(1, 100), 0.95, 20, 361}, {big.NewRat(1, 10), 0.95, 20, 35}, {big.NewRat(1, 20), 0.99, 100, 106},
	} {
		below, _ := c.below.Float64()
		got := CleanRunsChecked(below, c.confidence)
		if got != c.want {
			t.Errorf("below %v at %v: %d clean runs, want %d", below, c.confidence, got, c.want)
		}
		b := int64(ReleaseShape / below)
		thr := big.NewRat(c.inverse, 1)
		if exactCleanEvidence(b, c.want, c.below).Cmp(thr) < 0 || exactCleanEvidence(b, c.want-1, c.below).Cmp(thr) >= 0 {
			t.Errorf("below %v at %v: %d is not where the exact evidence first reaches %d", below, c.confidence, c.want, c.inverse)
		}
	}
}

// The release is at most twice as dear as the one-look rule's for a test
// that no longer fails, over the usual targets (computed, not simulated:
// both counts are exact).
func TestCleanRunsCheckedCost(t *testing.T) {
	for _, below := range []float64{0.1, 0.05, 0.02, 0.01, 0.001, 0.0001} {
		for _, conf := range []float64{0.9, 0.95, 0.99} {
			old, nw := CleanRuns(below, conf), float64(CleanRunsChecked(below, conf))
			if nw > 2*old || nw < old {
				t.Errorf("below %v at %v: %v clean runs against %v one-look: the ratio %.2f is outside [1, 2]", below, conf, nw, old, nw/old)
			}
		}
	}
}

// CleanRunsToRelease's gallop and bisection agree with a plain count of
// clean runs for histories with failures, and 0 means proven.
func TestCleanRunsToReleaseScan(t *testing.T) {
	for _, h := range [][2]int64{{0, 0}, {10, 1}, {100, 1}, {200, 3}, {1000, 4}, {361, 0}, {5000, 20}} {
		got := CleanRunsToRelease(0.01, 0.95, h[0], h[1])
		m := int64(0)
		for !ReleaseProven(0.01, 0.95, h[0]+m, h[1]) {
			m++
		}
		if got != m {
			t.Errorf("%d runs, %d failed: %d clean runs to release, a scan says %d", h[0], h[1], got, m)
		}
	}
}

// releaseRates simulates reps tests failing each run with probability q,
// checked after every run for up to runs runs, by today's rule (the run of
// clean runs since the last failure reaches CleanRuns) and by the rule
// checked after every run; it returns the fraction released at each of
// the horizons (in increasing order), for both. With direct, the rule is
// ReleaseProven asked after every run; without, the run at which it first
// holds is found from CleanRunsToRelease after each failure, the same run
// (a clean run never lowers the evidence, so once the failures are fixed
// ReleaseProven first holds after exactly that many clean runs;
// TestReleaseShortcut checks the two agree) at a fraction of the work.
func releaseRates(below, q float64, reps int, horizons []int, seed uint64, direct bool) (today, checked []float64) {
	r := rand.New(rand.NewPCG(seed, 0x9e))
	need := int64(CleanRuns(below, 0.95))
	today, checked = make([]float64, len(horizons)), make([]float64, len(horizons))
	last := horizons[len(horizons)-1]
	for range reps {
		var streak, failed int64
		doneToday, doneChecked := 0, 0
		toGo := CleanRunsToRelease(below, 0.95, 0, 0)
		for n := 1; n <= last && (doneToday == 0 || doneChecked == 0); n++ {
			if r.Float64() < q {
				streak = 0
				failed++
				toGo = -1 // found again below, once this failure is counted
			} else {
				streak++
			}
			if doneToday == 0 && streak >= need {
				doneToday = n
			}
			if doneChecked != 0 {
				continue
			}
			if direct {
				if ReleaseProven(below, 0.95, int64(n), failed) {
					doneChecked = n
				}
				continue
			}
			if toGo < 0 {
				toGo = CleanRunsToRelease(below, 0.95, int64(n), failed)
			} else if toGo > 0 && streak > 0 {
				toGo--
			}
			if toGo == 0 {
				doneChecked = n
			}
		}
		for i, h := range horizons {
			if doneToday > 0 && doneToday <= h {
				today[i]++
			}
			if doneChecked > 0 && doneChecked <= h {
				checked[i]++
			}
		}
	}
	for i := range horizons {
		today[i] /= float64(reps)
		checked[i] /= float64(reps)
	}
	return today, checked
}

// The shortcut and the rule asked after every run release the same tests
// at the same runs: 60 seeded tests at the target rate, at half of it and
// at none, over 2,000 runs, and at 10% below its 35-run rule.
func TestReleaseShortcut(t *testing.T) {
	hs := []int{50, 200, 400, 800, 1200, 1600, 2000}
	for _, c := range []struct{ below, q float64 }{{0.01, 0.01}, {0.01, 0.005}, {0.01, 0}, {0.1, 0.05}} {
		_, a := releaseRates(c.below, c.q, 60, hs, 5, true)
		_, b := releaseRates(c.below, c.q, 60, hs, 5, false)
		if !slices.Equal(a, b) {
			t.Errorf("below %v, rate %v: asked every run %v, shortcut %v", c.below, c.q, a, b)
		}
	}
}

// sampling is two standard errors of a fraction near p estimated from
// reps seeded simulations: the slack a simulated error rate is allowed
// above the rate the mathematics guarantees.
func sampling(p float64, reps int) float64 {
	return 2 * math.Sqrt(p*(1-p)/float64(reps))
}

// A test that still fails exactly at the target rate of 1%, checked after
// every run: today's rule releases it in most runs within 3,000 (the
// figure the rule's users were shown: 95% confidence), the rule checked
// after every run in at most 5% (Ville's inequality; the simulation may
// exceed it by its sampling error, two standard errors). 2,000 seeded
// tests of 3,000 runs; the full size, 10,000 tests of 10,000 runs, is
// the benchmark BenchmarkReleaseAtTarget.
func TestReleaseAtTarget(t *testing.T) {
	today, checked := releaseRates(0.01, 0.01, 2000, []int{1000, 3000}, 11, false)
	if today[1] < 0.7 {
		t.Errorf("today's rule released %.3f within 3,000 runs; the simulation of its flaw expects about 0.8", today[1])
	}
	if checked[1] > 0.05+sampling(0.05, 2000) {
		t.Errorf("the rule checked after every run released %.3f within 3,000 runs, more than 5%% and its sampling error", checked[1])
	}
}

// A test that no longer fails is released by the rule checked after every
// run after CleanRunsChecked runs, and one failing at a quarter of the
// target is released too (300 seeded tests, within 10,000 runs).
func TestReleaseOfFixedTests(t *testing.T) {
	_, fixed := releaseRates(0.01, 0, 10, []int{360, 361}, 1, true)
	if fixed[0] != 0 || fixed[1] != 1 {
		t.Errorf("a test that never fails: released %v by 360 and %v by 361 runs, want 0 and 1", fixed[0], fixed[1])
	}
	_, better := releaseRates(0.01, 0.0025, 300, []int{10000}, 2, false)
	if better[0] < 0.95 {
		t.Errorf("a test failing 0.25%% of runs is released within 10,000 runs in %.3f of tests, want at least 0.95", better[0])
	}
}

// staleRates simulates reps tests whose pass rate is truth, against a
// claim of passed/trials at 95%, one run of one trial a night for nights
// nights, checked every night by today's rule (gate.Freeze on the trials
// since the claim, from half the claim's trials on, as Check applies it)
// and by ClaimDrift; it returns, for both, the fraction that went stale at
// some night and the mean night it did (nights+1 for a test that never
// did).
func staleRates(passed, trials int64, truth float64, reps, nights int, seed uint64) (today, checked, todayNight, checkedNight float64) {
	r := rand.New(rand.NewPCG(seed, 0x51))
	claim := claimOf(passed, trials, 0.95, "2026-01-01")
	in := gate.FreezeInput{Claim: core.Count{Passed: passed, Trials: trials}, Confidence: 0.95, Comparable: 0.5}
	never := int64(nights + 1)
	for range reps {
		var k int64
		nightToday, nightChecked := never, never
		for n := int64(1); n <= int64(nights) && (nightToday == never || nightChecked == never); n++ {
			if r.Float64() < truth {
				k++
			}
			if nightToday == never {
				in.Newer = &core.Count{Passed: k, Trials: n}
				if fr, err := gate.Freeze(in); err == nil && fr.Status == gate.FreezeStale {
					nightToday = n
				}
			}
			if nightChecked == never && ClaimDrift(claim, k, n) != DriftNone {
				nightChecked = n
			}
		}
		if nightToday != never {
			today++
		}
		if nightChecked != never {
			checked++
		}
		todayNight += float64(nightToday)
		checkedNight += float64(nightChecked)
	}
	n := float64(reps)
	return today / n, checked / n, todayNight / n, checkedNight / n
}

// A test whose rate equals its 57/60 claim, checked every night: today's
// rule calls it stale at some night within 60 nights in about a third of
// tests; the rule that holds under checking, within 2,000 nights, in at
// most 5% and its sampling error (400 seeded tests; the full size, 10,000
// nights, is BenchmarkStaleness). A test that dropped to 70% is still found
// within 200 nights.
func TestStaleness(t *testing.T) {
	today60, _, _, _ := staleRates(57, 60, 0.95, 400, 60, 21)
	if today60 < 0.2 {
		t.Errorf("today's rule went stale in %.3f of tests within 60 nights; the simulation of its flaw expects about 0.33", today60)
	}
	_, checked, _, _ := staleRates(57, 60, 0.95, 400, 2000, 22)
	if checked > 0.05+sampling(0.05, 400) {
		t.Errorf("the rule checked every night went stale in %.3f of unchanged tests within 2,000 nights, more than 5%% and its sampling error", checked)
	}
	_, found, _, _ := staleRates(57, 60, 0.70, 200, 200, 23)
	if found < 0.95 {
		t.Errorf("a test that dropped from 95%% to 70%% was found stale within 200 nights in %.3f of tests, want at least 0.95", found)
	}
}

// BenchmarkReleaseAtTarget is the release simulation at full size: 10,000
// tests failing exactly 1% of runs (2,000 failing 2%), checked after each
// of 10,000 runs (the sampling error of a 5% rate is then ±0.44 points), by today's rule and the rule checked after every run (make
// bench-anytime).
func BenchmarkReleaseAtTarget(b *testing.B) {
	for range b.N {
		for _, q := range []struct {
			rate float64
			reps int
			name string
		}{{0.01, 10000, "1%"}, {0.02, 2000, "2%"}} {
			today, checked := releaseRates(0.01, q.rate, q.reps, []int{1000, 3000, 10000}, 11, true)
			for i, h := range []string{"1k", "3k", "10k"} {
				b.ReportMetric(today[i], "today-released@"+q.name+"-"+h)
				b.ReportMetric(checked[i], "checked-released@"+q.name+"-"+h)
			}
		}
	}
}

// BenchmarkStaleness is the staleness simulation at full size: 2,000
// tests at their 57/60 claim's rate, 10,000 nightly checks, and the mean
// night at which a drop to 80% and to 70% is found (make bench-anytime).
func BenchmarkStaleness(b *testing.B) {
	for range b.N {
		today, checked, _, _ := staleRates(57, 60, 0.95, 2000, 10000, 21)
		b.ReportMetric(today, "today-stale")
		b.ReportMetric(checked, "checked-stale")
		today60, _, _, _ := staleRates(57, 60, 0.95, 2000, 60, 21)
		b.ReportMetric(today60, "today-stale@60")
		for _, d := range []struct {
			rate float64
			name string
		}{{0.80, "80%"}, {0.70, "70%"}} {
			_, _, tn, cn := staleRates(57, 60, d.rate, 2000, 10000, 24)
			b.ReportMetric(tn, "today-nights@"+d.name)
			b.ReportMetric(cn, "checked-nights@"+d.name)
		}
	}
}

// The registry as it is used: a writing Check every night, one run a
// night, each night reading the registry the last one wrote. For 40 seeded
// tests failing exactly at their 10% target, the night Check releases a
// test is the night ReleaseProven first holds for its runs, so the
// simulations above, which apply ReleaseProven after every run, are of
// exactly this use; and at most a few of them are released (5% and its
// sampling error) within 600 nights.
func TestCheckNightlyIsTheRule(t *testing.T) {
	const tests, nights, below = 40, 600, 0.1
	r := rand.New(rand.NewPCG(31, 0x7a))
	var es []Entry
	for i := range tests {
		es = append(es, entry(fmt.Sprintf("t%02d", i), 57, 60, below, "2030-01-01"))
	}
	reg := registry(es...)
	var runsOf, failedOf [tests]int64
	wantNight := [tests]int{}
	day := time.Date(2026, 11, 2, 0, 0, 0, 0, time.UTC)
	released := 0
	for n := 1; n <= nights && len(reg.Tests) > 0; n++ {
		rep := &Reports{Runs: 1, Tests: map[string][]core.Count{}}
		for _, e := range reg.Tests {
			var i int
			fmt.Sscanf(e.Test, "t%02d", &i)
			c := core.Count{Passed: 1, Trials: 1}
			runsOf[i]++
			if r.Float64() < below {
				c.Passed = 0
				failedOf[i]++
			}
			rep.Tests[e.Test] = []core.Count{c}
			if wantNight[i] == 0 && ReleaseProven(below, 0.95, runsOf[i], failedOf[i]) {
				wantNight[i] = n
			}
		}
		opt := DefaultOptions
		opt.Today = day.AddDate(0, 0, n).Format(time.DateOnly)
		res, next, err := Check(reg, rep, opt)
		if err != nil {
			t.Fatal(err)
		}
		for _, tr := range res.Tests {
			var i int
			fmt.Sscanf(tr.Test, "t%02d", &i)
			if (tr.State == StateReleased) != (wantNight[i] == n) {
				t.Fatalf("night %d, %s: %s, but the rule says released on night %d", n, tr.Test, tr.State, wantNight[i])
			}
			if tr.State == StateReleased {
				released++
			}
		}
		reg = next
	}
	if got := float64(released) / tests; got > 0.05+sampling(0.05, tests) {
		t.Errorf("%d of %d tests at their target rate released within %d nights", released, tests, nights)
	}
}
