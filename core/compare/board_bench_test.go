package compare

import (
	"math/rand/v2"
	"testing"
)

// benchModels are 50 models on 1,000 questions answered once, abilities
// spread from −1 to 1.45 in steps of 0.05 (1,225 pairs).
func benchModels() []Model {
	ability := make([]float64, MaxBoardModels)
	for i := range ability {
		ability[i] = -1 + 0.05*float64(i)
	}
	return abilityModels(rand.New(rand.NewPCG(50, 1000)), ability, 1000, 1)
}

// BenchmarkLeaderboard50 ranks the 50 models; BenchmarkComparePairs50,
// its peer, runs Compare on each of the same 1,225 pairs, which the
// leaderboard's pair tests must not cost much more than.
func BenchmarkLeaderboard50(b *testing.B) {
	models := benchModels()
	for b.Loop() {
		if _, err := Leaderboard(models, DefaultBoardOptions); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkComparePairs50(b *testing.B) {
	models := benchModels()
	for b.Loop() {
		for i := range models {
			for j := i + 1; j < len(models); j++ {
				if _, err := Compare(models[i].Side, models[j].Side, DefaultOptions); err != nil {
					b.Fatal(err)
				}
			}
		}
	}
}
