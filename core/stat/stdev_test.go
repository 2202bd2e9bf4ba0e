package stat

import (
	"math"
	"math/big"
	"math/rand/v2"
	"testing"
)

// The standard deviation is Python's statistics.stdev to the bit: the
// listed values are its output; the random ones are checked against the
// exact variance and a 600-bit square root.
func TestExactStdev(t *testing.T) {
	for _, c := range []struct {
		xs   []float64
		want float64
	}{
		{[]float64{0.1, 0.2, 0.3, 0.4, 0.7}, 0.23021728866442676},
		{[]float64{0.85, 0.9, 0.875, 0.86}, 0.0217466472511665},
		{[]float64{1e-300, 3e-300, 2e-300}, 1.0000000000000002e-300},
		{[]float64{0.5, 0.5, 0.5}, 0},
		{[]float64{1, 0, 0}, 0.5773502691896257},
	} {
		if got := ExactStdev(c.xs); got != c.want {
			t.Errorf("stdev(%v) = %v, Python %v", c.xs, got, c.want)
		}
	}
	r := rand.New(rand.NewPCG(9, 10))
	for trial := 0; trial < 500; trial++ {
		xs := make([]float64, 2+r.IntN(50))
		for i := range xs {
			xs[i] = float64(r.IntN(1000)) / float64(1+r.IntN(999))
			if trial%2 == 0 {
				xs[i] = math.Ldexp(r.Float64(), -r.IntN(60))
			}
		}
		// exact variance as a rational, then a 600-bit square root
		var sum, sq big.Rat
		for _, x := range xs {
			v := new(big.Rat).SetFloat64(x)
			sum.Add(&sum, v)
			sq.Add(&sq, new(big.Rat).Mul(v, v))
		}
		n := big.NewRat(int64(len(xs)), 1)
		num := new(big.Rat).Sub(new(big.Rat).Mul(&sq, n), new(big.Rat).Mul(&sum, &sum))
		vr := new(big.Rat).Quo(num, new(big.Rat).Mul(n, big.NewRat(int64(len(xs)-1), 1)))
		f := new(big.Float).SetPrec(600).SetRat(vr)
		want, _ := f.Sqrt(f).Float64()
		if got := ExactStdev(xs); got != want {
			t.Fatalf("stdev(%v) = %v, want %v", xs, got, want)
		}
	}
}
