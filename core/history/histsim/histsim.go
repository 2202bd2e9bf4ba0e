// Package histsim plants CI histories whose truth is known, for measuring
// how well package history finds flaky tests and tells them from outages.
//
// A history has stable tests (never fail on their own), flaky tests at
// given per-run failure rates, outage runs (a random share of all tests fail
// at once), groups of tests that fail together in a few runs (a shared
// fixture) and otherwise pass, broken tests (failing for a stretch of runs,
// then fixed), tests renamed halfway, tests added late and tests removed
// early. Commits are run one to three times, so a flaky test can fail and
// pass on one commit. The same Config and seed give the same history on
// every platform (math/rand/v2's PCG).
package histsim

import (
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/flakegate/flakegate/core/history"
)

// Config describes a history to plant.
type Config struct {
	Seed   uint64
	Runs   int       // runs, >= 2
	Stable int       // stable tests
	Flaky  []float64 // one flaky test per rate, each in (0,1)
	// Outages is the number of outage runs; in each, a share drawn
	// uniformly from OutageShare of all tests fail.
	Outages     int
	OutageShare [2]float64
	// Groups is the number of groups of GroupSize stable-looking tests that
	// fail together in GroupRuns runs.
	Groups, GroupSize, GroupRuns int
	// Broken tests fail in every run of BrokenCommits commits in a row (a
	// regression and its fix), from a commit in the first half.
	Broken, BrokenCommits int
	// SharedBroken tests are broken by one commit and fixed by one commit
	// together (a shared regression: BrokenCommits commits from one
	// commit in the first half).
	SharedBroken int
	// Renamed tests (taken from the flaky ones first, then the stable)
	// change name at the middle run; Added tests appear at the middle run,
	// Removed ones disappear there (both taken from the stable tests).
	Renamed, Added, Removed int
}

// Truth is what was planted.
type Truth struct {
	// Flaky maps each flaky test's name (a renamed one has two) to its
	// planted rate.
	Flaky map[string]float64
	// Stable lists the names that never fail on their own (including the
	// groups' tests, which fail only together).
	Stable []string
	// Broken lists the broken tests.
	Broken []string
	// OutageRuns are the indices (0-based, in time order) of the outage runs.
	OutageRuns []int
	// Groups lists each group's tests.
	Groups [][]string
}

type planted struct {
	name, renamed string
	rate          float64
	from, to      int // runs [from, to)
	group         int // -1 none
	brokenFrom    int // the first commit it fails on; -1 none
}

// Generate plants a history and gives each run to add, in time order. It
// stops at add's first error.
func Generate(c Config, add func(meta history.RunMeta, results []history.TestResult) error) (Truth, error) {
	rng := rand.New(rand.NewPCG(c.Seed, 0x686973746f7279))
	truth := Truth{Flaky: map[string]float64{}}
	mid := c.Runs / 2
	var tests []*planted
	for i, p := range c.Flaky {
		tests = append(tests, &planted{name: fmt.Sprintf("flaky/TestFlaky%03d", i), rate: p, to: c.Runs, group: -1, brokenFrom: -1})
	}
	nFlaky := len(tests)
	for i := range c.Stable {
		tests = append(tests, &planted{name: fmt.Sprintf("pkg%02d/TestStable%05d", i%40, i), to: c.Runs, group: -1, brokenFrom: -1})
	}
	stable := tests[nFlaky:]
	next := 0 // next stable test to give a role
	take := func() *planted {
		if next >= len(stable) {
			return nil
		}
		next++
		return stable[next-1]
	}
	groupRuns := make([][]int, c.Groups)
	for g := range c.Groups {
		var names []string
		for range c.GroupSize {
			if t := take(); t != nil {
				t.group = g
				names = append(names, t.name)
			}
		}
		truth.Groups = append(truth.Groups, names)
		groupRuns[g] = rng.Perm(c.Runs)[:c.GroupRuns]
	}
	for range c.Broken {
		if t := take(); t != nil {
			t.brokenFrom = 1 + rng.IntN(max(1, c.Runs/4))
			truth.Broken = append(truth.Broken, t.name)
		}
	}
	shared := -1
	for range c.SharedBroken {
		if t := take(); t != nil {
			if shared < 0 {
				shared = 1 + rng.IntN(max(1, c.Runs/4))
			}
			t.brokenFrom = shared
			truth.Broken = append(truth.Broken, t.name)
		}
	}
	for i := range c.Renamed {
		var t *planted
		if i < nFlaky {
			t = tests[i]
		} else {
			t = take()
		}
		if t != nil {
			t.renamed = t.name + "Renamed"
		}
	}
	for range c.Added {
		if t := take(); t != nil {
			t.from = mid
		}
	}
	for range c.Removed {
		if t := take(); t != nil {
			t.to = mid
		}
	}
	for _, t := range tests {
		names := []string{t.name}
		if t.renamed != "" {
			names = append(names, t.renamed)
		}
		for _, n := range names {
			switch {
			case t.rate > 0:
				truth.Flaky[n] = t.rate
			case t.brokenFrom >= 0:
			default:
				truth.Stable = append(truth.Stable, n)
			}
		}
	}
	outage := map[int]float64{}
	for _, r := range rng.Perm(c.Runs)[:c.Outages] {
		outage[r] = c.OutageShare[0] + rng.Float64()*(c.OutageShare[1]-c.OutageShare[0])
		truth.OutageRuns = append(truth.OutageRuns, r)
	}
	inGroupRun := make([]map[int]bool, c.Groups)
	for g, rs := range groupRuns {
		inGroupRun[g] = map[int]bool{}
		for _, r := range rs {
			inGroupRun[g][r] = true
		}
	}
	start := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	step := (30 * 24 * time.Hour / time.Duration(c.Runs)).Truncate(time.Second) // a month of runs
	commit, left := 0, 0
	results := make([]history.TestResult, 0, len(tests))
	for r := range c.Runs {
		if left == 0 {
			commit++
			left = 1 + rng.IntN(3)
		}
		left--
		results = results[:0]
		share, isOutage := outage[r]
		for _, t := range tests {
			if r < t.from || r >= t.to {
				continue
			}
			name := t.name
			if t.renamed != "" && r >= mid {
				name = t.renamed
			}
			failed := t.rate > 0 && rng.Float64() < t.rate
			if t.group >= 0 && inGroupRun[t.group][r] {
				failed = true
			}
			if t.brokenFrom >= 0 && commit >= t.brokenFrom && commit < t.brokenFrom+c.BrokenCommits {
				failed = true
			}
			if isOutage && rng.Float64() < share {
				failed = true
			}
			passed := int64(1)
			if failed {
				passed = 0
			}
			results = append(results, history.TestResult{Test: name, Passed: passed, Trials: 1})
		}
		meta := history.RunMeta{Name: fmt.Sprintf("run-%05d", r+1), Commit: fmt.Sprintf("c%05d", commit),
			Branch: "main", Time: start.Add(time.Duration(r) * step)}
		if err := add(meta, results); err != nil {
			return truth, err
		}
	}
	return truth, nil
}
