package aa

import (
	"cmp"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestFlakyOrderRandom: flakyScenarios lists exactly what sorting the rows
// themselves gives (the plain way, below: noisiest first, compared as
// fractions by big-enough products, ties by id), on random sides with
// equal and unequal run counts, many ties and ids in any order.
func TestFlakyOrderRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 4))
	for trial := range 200 {
		scen := make([]Tally, rng.IntN(300))
		ids := rng.Perm(len(scen)) // unique, as a side's are, in no order
		for i := range scen {
			total := int64(20)
			if trial%2 == 1 {
				total = int64(1 + rng.IntN(40))
			}
			scen[i] = Tally{ID: fmt.Sprintf("s%d", ids[i]), Total: total, Passed: rng.Int64N(total + 1)}
		}
		var want []FlakyScenario
		for _, t := range scen {
			if t.Passed > 0 && t.Passed < t.Total {
				c, r := float64(t.Passed), float64(t.Total)
				want = append(want, FlakyScenario{Scenario: t.ID, Passed: t.Passed, Runs: t.Total, Rate: c / r,
					Noise: float64(c*(r-c)) / float64(r*r)})
			}
		}
		slices.SortStableFunc(want, func(a, b FlakyScenario) int {
			// c_a(r_a-c_a)/r_a² against c_b(r_b-c_b)/r_b², as exact
			// products (all below 2^63 here).
			na, nb := a.Passed*(a.Runs-a.Passed)*b.Runs*b.Runs, b.Passed*(b.Runs-b.Passed)*a.Runs*a.Runs
			if c := cmp.Compare(nb, na); c != 0 {
				return c
			}
			return cmp.Compare(a.Scenario, b.Scenario)
		})
		got := flakyScenarios(&Side{Scenarios: scen})
		if !slices.Equal(got, want) && !(len(got) == 0 && len(want) == 0) {
			t.Fatalf("trial %d: %d rows\n%v\nreference\n%v", trial, len(got), got, want)
		}
	}
}

// BenchmarkFlakyScenarios: 200 scenarios of 20 runs, as the API's load
// check sends.
func BenchmarkFlakyScenarios(b *testing.B) {
	rng := rand.New(rand.NewPCG(4, 200))
	scen := make([]Tally, 200)
	for i := range scen {
		scen[i] = Tally{ID: fmt.Sprintf("scenario-%03d", i+1), Total: 20, Passed: rng.Int64N(21)}
	}
	s := &Side{Scenarios: scen}
	for b.Loop() {
		flakyScenarios(s)
	}
}
