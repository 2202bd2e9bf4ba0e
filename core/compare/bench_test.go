package compare

import (
	"math/rand/v2"
	"testing"
)

// BenchmarkMcNemarExact is McNemarP at its worst exact case (20,000
// discordant pairs split evenly but one: 10,000 binomial coefficients of
// up to 20,000 bits); BenchmarkMcNemarBeta the incomplete beta just past
// it, the peer to read it against.
func BenchmarkMcNemarExact(b *testing.B) {
	for b.Loop() {
		McNemarP(exactUpTo/2-1, exactUpTo/2+1)
	}
}

func BenchmarkMcNemarBeta(b *testing.B) {
	for b.Loop() {
		McNemarP(exactUpTo/2, exactUpTo/2+1)
	}
}

// BenchmarkCompare10k compares two sides of 10,000 questions at 3 epochs.
func BenchmarkCompare10k(b *testing.B) {
	a, s := randomSides(rand.New(rand.NewPCG(28, 10)), 10000, 3)
	for b.Loop() {
		if _, err := Compare(a, s, DefaultOptions); err != nil {
			b.Fatal(err)
		}
	}
}
