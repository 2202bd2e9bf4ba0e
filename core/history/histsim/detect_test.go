package histsim_test

import (
	"testing"

	"github.com/flakegate/flakegate/core/history"
	"github.com/flakegate/flakegate/core/history/histsim"
)

// month is a planted month: 600 runs (about 20 a day) of 1,000 stable
// tests and 21 flaky ones at 0.5% to 20%, 4 outages failing 5% to 40% of
// the suite at once, 2 groups of 4 tests failing together in 5 runs, 3
// broken tests (10 failing commits in a row), renames, tests added and removed.
func month(seed uint64) histsim.Config {
	rates := []float64{}
	for range 3 {
		rates = append(rates, 0.005, 0.01, 0.02, 0.03, 0.05, 0.1, 0.2)
	}
	return histsim.Config{Seed: seed, Runs: 600, Stable: 1000, Flaky: rates, Outages: 4,
		OutageShare: [2]float64{0.05, 0.4}, Groups: 2, GroupSize: 4, GroupRuns: 5, Broken: 3, BrokenCommits: 10,
		Renamed: 6, Added: 20, Removed: 20}
}

// tally is what the test counts itself from the planted runs: per name,
// runs, failed runs and passed runs (the naive rule's input).
type tally struct{ runs, failed, passed int }

// score is the detection figures over many planted histories.
type score struct {
	flakyEligible, flakyFound         int // planted flakes >= 2% with >= 200 runs, and those flagged
	naiveEligibleFound                int
	stable, stableFlagged, naiveFlag  int
	outages, outagesFound, falseOut   int
	groups, groupsFound, brokenListed int
	broken                            int
}

func measure(t *testing.T, seeds int) score {
	t.Helper()
	var s score
	for seed := range uint64(seeds) {
		h := history.New()
		names := map[string]*tally{}
		outRuns := map[int]bool{}
		truth, err := histsim.Generate(month(seed+1), func(m history.RunMeta, rs []history.TestResult) error {
			for _, r := range rs {
				tl := names[r.Test]
				if tl == nil {
					tl = &tally{}
					names[r.Test] = tl
				}
				tl.runs++
				if r.Passed < r.Trials {
					tl.failed++
				} else {
					tl.passed++
				}
			}
			return h.AddRun(m, rs)
		})
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range truth.OutageRuns {
			outRuns[r] = true
		}
		res, err := h.Result(history.DefaultOptions)
		if err != nil {
			t.Fatal(err)
		}
		flagged := map[string]bool{}
		for _, f := range res.Flakes {
			flagged[f.Test] = true
		}
		for name, rate := range truth.Flaky {
			if rate >= 0.02 && names[name].runs >= 200 {
				s.flakyEligible++
				if flagged[name] {
					s.flakyFound++
				}
				if names[name].failed > 0 && names[name].passed > 0 {
					s.naiveEligibleFound++
				}
			}
		}
		for _, name := range truth.Stable {
			s.stable++
			if flagged[name] {
				s.stableFlagged++
			}
			if tl := names[name]; tl.failed > 0 && tl.passed > 0 {
				s.naiveFlag++
			}
		}
		found := map[int]bool{}
		groups := 0
		for _, inc := range res.Incidents {
			switch inc.Kind {
			case history.IncidentOutage:
				idx := inc.Runs[0].Index - 1
				if outRuns[idx] {
					found[idx] = true
				} else {
					s.falseOut++
				}
			case history.IncidentGroup:
				groups++
			}
		}
		s.outages += len(truth.OutageRuns)
		s.outagesFound += len(found)
		s.groups += len(truth.Groups)
		s.groupsFound += min(groups, len(truth.Groups))
		listed := map[string]bool{}
		for _, b := range res.Broken {
			listed[b.Test] = true
		}
		for _, b := range truth.Broken {
			s.broken++
			if listed[b] {
				s.brokenListed++
			}
		}
	}
	return s
}

// TestDetectionAgainstPlantedTruth measures, over 20 planted months, how
// many planted flakes history finds, how many stable tests it flags, and
// whether outages stay out of the flakes; the naive rule (failed and passed
// at least once) is scored on the same histories. The bounds are the
// product's promises: recall >= 95% of flakes at >= 2% with >= 200 runs,
// <= 1% of stable tests flagged, every planted outage an incident. With
// -short (WebAssembly, arm64 under emulation) the first 8 months.
func TestDetectionAgainstPlantedTruth(t *testing.T) {
	months := 20
	if testing.Short() {
		months = 8
	}
	s := measure(t, months)
	recall := float64(s.flakyFound) / float64(s.flakyEligible)
	naiveRecall := float64(s.naiveEligibleFound) / float64(s.flakyEligible)
	stableFP := float64(s.stableFlagged) / float64(s.stable)
	naiveFP := float64(s.naiveFlag) / float64(s.stable)
	t.Logf("history: recall %d/%d = %.4f; stable flagged %d/%d = %.5f; outages found %d/%d, false outage runs %d; groups %d/%d; broken listed %d/%d",
		s.flakyFound, s.flakyEligible, recall, s.stableFlagged, s.stable, stableFP, s.outagesFound, s.outages, s.falseOut, s.groupsFound, s.groups, s.brokenListed, s.broken)
	t.Logf("naive rule: recall %d/%d = %.4f; stable flagged %d/%d = %.5f", s.naiveEligibleFound, s.flakyEligible, naiveRecall, s.naiveFlag, s.stable, naiveFP)
	if recall < 0.95 {
		t.Errorf("recall %.4f of flakes >= 2%% with >= 200 runs, want >= 0.95", recall)
	}
	if stableFP > 0.01 {
		t.Errorf("%.5f of stable tests flagged, want <= 0.01", stableFP)
	}
	if s.outagesFound != s.outages {
		t.Errorf("found %d of %d planted outages", s.outagesFound, s.outages)
	}
	if s.groupsFound != s.groups {
		t.Errorf("found %d of %d planted groups", s.groupsFound, s.groups)
	}
	if s.brokenListed != s.broken {
		t.Errorf("listed %d of %d broken tests as broken", s.brokenListed, s.broken)
	}
	// The naive rule's weakness is the reason for the outage rule: it flags
	// every stable test an outage caught.
	if naiveFP <= stableFP {
		t.Errorf("the naive rule flagged %.5f of stable tests, no more than history's %.5f: the planted outages did not reach it", naiveFP, stableFP)
	}
}

// TestOutageRuleFalseAlarm checks the outage rule's stated error rate under
// its real use, every history checked: in 300 planted histories without any
// outage or group (120 runs of 200 stable and 20 flaky tests at 1% to 20%),
// a history with a run called an outage must be at most Alpha = 1% of
// them. With 300 histories at 1%, more than 9 such histories has chance
// below 0.001 (binomial tail), so the bound allows 9. With -short
// (WebAssembly, arm64 under emulation) the first 100 histories, where
// more than 5 has chance 0.0005.
func TestOutageRuleFalseAlarm(t *testing.T) {
	alarms, n, most := 0, 300, 9
	if testing.Short() {
		n, most = 100, 5
	}
	for seed := range uint64(n) {
		h := history.New()
		cfg := histsim.Config{Seed: 1000 + seed, Runs: 120, Stable: 200,
			Flaky: []float64{0.01, 0.02, 0.05, 0.1, 0.2, 0.01, 0.02, 0.05, 0.1, 0.2, 0.01, 0.02, 0.05, 0.1, 0.2, 0.01, 0.02, 0.05, 0.1, 0.2}}
		if _, err := histsim.Generate(cfg, h.AddRun); err != nil {
			t.Fatal(err)
		}
		res, err := h.Result(history.DefaultOptions)
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Incidents) > 0 {
			alarms++
		}
	}
	t.Logf("histories with a false incident: %d of %d", alarms, n)
	if alarms > most {
		t.Errorf("%d of %d healthy histories had an incident, want at most %d (1%% and chance)", alarms, n, most)
	}
}

// TestSharedRegressionIsBroken plants months in which one commit breaks
// two tests and one commit, ten commits later, fixes both: the pair failed
// in exactly the same runs, but in one unbroken stretch, so it is a shared
// regression, and both tests must be listed broken, not as a group of
// tests failing together. The planted groups (tests failing together in
// five scattered runs) must still be found.
func TestSharedRegressionIsBroken(t *testing.T) {
	for seed := range uint64(10) {
		cfg := month(seed + 500)
		cfg.SharedBroken = 2
		h := history.New()
		truth, err := histsim.Generate(cfg, h.AddRun)
		if err != nil {
			t.Fatal(err)
		}
		res, err := h.Result(history.DefaultOptions)
		if err != nil {
			t.Fatal(err)
		}
		shared := truth.Broken[len(truth.Broken)-2:]
		groups := 0
		for _, inc := range res.Incidents {
			if inc.Kind != history.IncidentGroup {
				continue
			}
			groups++
			for _, name := range inc.Tests {
				if name == shared[0] || name == shared[1] {
					t.Errorf("seed %d: %s is in a group of tests failing together %v, not broken", seed, name, inc.Tests)
				}
			}
		}
		if groups != len(truth.Groups) {
			t.Errorf("seed %d: %d groups, planted %d", seed, groups, len(truth.Groups))
		}
		listed := map[string]string{}
		for _, b := range res.Broken {
			listed[b.Test] = b.Status
		}
		for _, name := range shared {
			if listed[name] != history.StatusBroken {
				t.Errorf("seed %d: %s listed as %q, want broken", seed, name, listed[name])
			}
		}
	}
}
