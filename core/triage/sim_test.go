package triage

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/flakegate/flakegate/core/history"
	"github.com/flakegate/flakegate/core/history/histsim"
)

// Truths a planted failure can have, the rows of the confusion table.
const (
	truthNew       = "new breakage"
	truthFlake     = "flake >= 1%"
	truthRareFlake = "flake < 1%"
	truthBroken    = "broken since"
	truthOutage    = "outage"
	truthNewInOut  = "new, in an outage"
)

var truthRows = []string{truthNew, truthBroken, truthFlake, truthRareFlake, truthOutage, truthNewInOut}
var classCols = []string{ClassNew, ClassBroken, ClassFlake, ClassOutage, ClassQuarantined}

// confusion counts, per planted truth, the classes triage gave; runs and
// falseBlocks count the triaged runs and those in which a flake of 1% or
// more was called new or broken.
type confusion struct {
	cells             map[string]map[string]int
	runs, falseBlocks int
}

func (c *confusion) add(truth, class string) {
	if c.cells == nil {
		c.cells = map[string]map[string]int{}
	}
	if c.cells[truth] == nil {
		c.cells[truth] = map[string]int{}
	}
	c.cells[truth][class]++
}

func (c *confusion) share(truth, class string) (int, int) {
	n := 0
	for _, v := range c.cells[truth] {
		n += v
	}
	return c.cells[truth][class], n
}

func (c *confusion) table() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%-18s", "planted \\ called")
	for _, col := range classCols {
		fmt.Fprintf(&b, " %12s", col)
	}
	b.WriteString("        total  correct\n")
	want := map[string]string{truthNew: ClassNew, truthBroken: ClassBroken, truthFlake: ClassFlake, truthRareFlake: ClassFlake, truthOutage: ClassOutage, truthNewInOut: ClassNew}
	for _, row := range truthRows {
		fmt.Fprintf(&b, "%-18s", row)
		for _, col := range classCols {
			fmt.Fprintf(&b, " %12d", c.cells[row][col])
		}
		k, n := c.share(row, want[row])
		fmt.Fprintf(&b, " %12d  %6.2f%%\n", n, 100*float64(k)/float64(max(n, 1)))
	}
	return b.String()
}

// simConfig is one planted past: a month of runs runs (600 in the main
// simulation) of 300 stable tests
// in 12 suites and 21 flaky tests at 0.5% to 20%, with 3 outages and 2
// broken tests fixed since.
func simConfig(seed uint64, runs int) histsim.Config {
	rates := []float64{}
	for range 3 {
		rates = append(rates, 0.005, 0.01, 0.02, 0.03, 0.05, 0.1, 0.2)
	}
	return histsim.Config{Seed: seed, Runs: runs, Stable: 300, Flaky: rates, Outages: 3,
		OutageShare: [2]float64{0.1, 0.4}, Broken: 2, BrokenCommits: 10}
}

// simulate plants histories and triages many new runs against each, as
// every pull request's run is triaged: per history, a planted test broken
// in its last 2 to 5 runs (a regression on the main branch), then prRuns
// runs, each with the flakes failing at their rates, one stable test
// newly broken in half of them and an outage (10% to 40% of all tests) in
// a tenth of them.
func simulate(t *testing.T, histories, prRuns, runs int) *confusion {
	t.Helper()
	c := &confusion{}
	for hseed := range uint64(histories) {
		h := history.New()
		cfg := simConfig(7000+hseed, runs)
		truth, err := histsim.Generate(cfg, h.AddRun)
		if err != nil {
			t.Fatal(err)
		}
		rng := rand.New(rand.NewPCG(hseed, 0x747269616765))
		var stable []string
		for _, n := range truth.Stable {
			if !slices.Contains(truth.Broken, n) {
				stable = append(stable, n)
			}
		}
		var flaky []string
		for n := range truth.Flaky {
			flaky = append(flaky, n)
		}
		slices.Sort(flaky)
		all := append(append([]string{}, stable...), flaky...)
		all = append(all, truth.Broken...)
		broken := stable[rng.IntN(len(stable))]
		streak := 2 + rng.IntN(4)
		start := time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)
		run := func(i int, failing map[string]bool) []history.TestResult {
			var rs []history.TestResult
			for _, n := range all {
				failed := failing[n]
				if r, ok := truth.Flaky[n]; ok && rng.Float64() < r {
					failed = true
				}
				p := int64(1)
				if failed {
					p = 0
				}
				rs = append(rs, history.TestResult{Test: n, Passed: p, Trials: 1})
			}
			return rs
		}
		// The regression on main: the last streak runs fail broken.
		for i := range streak {
			meta := history.RunMeta{Name: fmt.Sprintf("main-%d", i), Commit: fmt.Sprintf("m%d", i), Time: start.Add(time.Duration(i) * time.Hour)}
			if err := h.AddRun(meta, run(i, map[string]bool{broken: true})); err != nil {
				t.Fatal(err)
			}
		}
		res, err := h.Result(DefaultOptions.History)
		if err != nil {
			t.Fatal(err)
		}
		for pr := range prRuns {
			failing := map[string]bool{broken: true}
			newTest := ""
			if rng.IntN(2) == 0 {
				for newTest == "" || newTest == broken {
					newTest = stable[rng.IntN(len(stable))]
				}
				failing[newTest] = true
			}
			outage := rng.IntN(10) == 0
			if outage {
				share := 0.1 + 0.3*rng.Float64()
				for _, n := range all {
					if rng.Float64() < share {
						failing[n] = true
					}
				}
			}
			meta := history.RunMeta{Name: fmt.Sprintf("pr-%d", pr), Commit: fmt.Sprintf("p%d", pr), Time: start.Add(time.Duration(streak+1) * time.Hour)}
			rs := run(streak+pr, failing)
			tr, err := Triage(h, res, meta, rs, DefaultOptions)
			if err != nil {
				t.Fatal(err)
			}
			c.runs++
			falseBlock := false
			for _, f := range tr.Failures {
				var row string
				rate, isFlake := truth.Flaky[f.Test]
				switch {
				case f.Test == broken:
					row = truthBroken
				case f.Test == newTest && outage:
					row = truthNewInOut
				case f.Test == newTest:
					row = truthNew
				case isFlake && !outage:
					row = truthFlake
					if rate < 0.01 {
						row = truthRareFlake
					} else if f.Class == ClassNew || f.Class == ClassBroken {
						falseBlock = true
					}
				default:
					row = truthOutage
				}
				c.add(row, f.Class)
			}
			if falseBlock {
				c.falseBlocks++
			}
		}
	}
	return c
}

// TestTriageSimulation plants 60 months and triages 80 new runs against
// each (4,800 runs, each triaged as a pull request's would be) and checks
// the classes' promises: a new breakage called new in at least 99% of
// runs, a known flake of 1% or more called a flake in at least 95% of its
// failures, a test broken on main since a commit called broken in at
// least 99%, an outage's failures called outage in at least 99%; and the
// rule's error under that repeated use: runs in which a flake of 1% or
// more was called new or broken at most Alpha = 1% of runs (with 4,800
// runs at 1%, more than 68 has chance below 0.001, binomial tail).
func TestTriageSimulation(t *testing.T) {
	c := simulate(t, 60, 80, 600)
	t.Logf("confusion over %d triaged runs:\n%s", c.runs, c.table())
	t.Logf("runs with a flake of 1%% or more called new or broken: %d of %d", c.falseBlocks, c.runs)
	for _, tc := range []struct {
		truth, class string
		min          float64
	}{{truthNew, ClassNew, 0.99}, {truthFlake, ClassFlake, 0.95}, {truthBroken, ClassBroken, 0.99}, {truthOutage, ClassOutage, 0.99}} {
		k, n := c.share(tc.truth, tc.class)
		if n < 1000 {
			t.Errorf("%s: only %d planted failures, want 1,000 or more", tc.truth, n)
		}
		if got := float64(k) / float64(n); got < tc.min {
			t.Errorf("%s called %s in %d of %d = %.4f, want >= %.2f", tc.truth, tc.class, k, n, got, tc.min)
		}
	}
	if c.falseBlocks > 68 {
		t.Errorf("%d of %d runs blocked on a flake of 1%% or more, want at most 68 (1%% and chance)", c.falseBlocks, c.runs)
	}
}

// TestTriageShortHistory measures what is left ambiguous when the past is
// short: 150 runs, in which a 1% flake has not failed at all with chance
// 22% (0.99^150). Such a flake's failure is called new (it blocks, and the
// answer warns that the history cannot rule a flake out); a new breakage
// is still called new. The Clopper–Pearson guarantee no longer covers the
// rarest flakes here, so the bounds are looser than the long past's: new
// breakages new in at least 99%, flakes of 1% or more called a flake in
// at least 95% of their failures, and runs blocked on such a flake at most
// 2% (48 of 2,400).
func TestTriageShortHistory(t *testing.T) {
	c := simulate(t, 30, 80, 150)
	t.Logf("confusion over %d triaged runs, 150-run pasts:\n%s", c.runs, c.table())
	t.Logf("runs with a flake of 1%% or more called new or broken: %d of %d", c.falseBlocks, c.runs)
	if k, n := c.share(truthNew, ClassNew); float64(k) < 0.99*float64(n) {
		t.Errorf("new breakage called new in %d of %d, want >= 99%%", k, n)
	}
	if k, n := c.share(truthFlake, ClassFlake); float64(k) < 0.95*float64(n) {
		t.Errorf("flakes >= 1%% called a flake in %d of %d, want >= 95%%", k, n)
	}
	if c.falseBlocks > 48 {
		t.Errorf("%d of %d runs blocked on a flake of 1%% or more, want at most 48 (2%%)", c.falseBlocks, c.runs)
	}
}
