package stat

import (
	"math/rand/v2"
)

// permStream is the PCG stream of the trend test's permutations; the seed
// comes from the caller.
const permStream = 0x666c616b65676174 // "flakegat"

// SlopeTest is a two-sided permutation test of the run-order slope: the
// statistic Σ c_i·y_i with c_i = 2i-(R-1) is the least-squares slope up to a
// positive factor, so ordering run orders by |Σ c_i·y_i| orders them by
// |slope|.
type SlopeTest interface {
	// exact enumerates all R! orders: p = #{|T*| >= |T|} / R!.
	Exact() (p float64, count int64)
	// sampled draws b random orders: p = (1 + #{|T*| >= |T|}) / (b + 1).
	// It calls pause, when not nil, after every PauseEvery values
	// permuted (rounded up to whole orders).
	Sampled(b int, seed uint64, pause func()) (p float64, count int64)
}

type number interface{ int64 | float64 }

type slopeTest[T number] struct {
	y   []T
	obs T // |Σ c_i·y_i| of the observed order, less the tie tolerance
}

// NewIntSlopeTest tests integer values (pass counts of equal-sized runs): ties
// are exact.
func NewIntSlopeTest(y []int64) SlopeTest {
	t := &slopeTest[int64]{y: append([]int64(nil), y...)}
	t.obs = abs(slopeStat(t.y))
	return t
}

// NewFloatSlopeTest tests rates: an order ties with the observed one when its
// statistic is within a relative 1e-9 of it, so that orders equal in exact
// arithmetic are not split by rounding.
func NewFloatSlopeTest(y []float64) SlopeTest {
	t := &slopeTest[float64]{y: append([]float64(nil), y...)}
	var scale float64
	r := len(y)
	for i, v := range y {
		scale += abs(float64(float64(2*i-(r-1)) * v))
	}
	t.obs = abs(slopeStat(t.y)) - 1e-9*scale
	return t
}

func slopeStat[T number](y []T) T {
	r := len(y)
	var s T
	for i, v := range y {
		s += T(T(2*i-(r-1)) * v) // the conversion forbids a fused multiply-add
	}
	return s
}

func abs[T number](x T) T {
	if x < 0 {
		return -x
	}
	return x
}

func (t *slopeTest[T]) Exact() (float64, int64) {
	y := append([]T(nil), t.y...)
	n := len(y)
	var hits, count int64
	visit := func() {
		count++
		if abs(slopeStat(y)) >= t.obs {
			hits++
		}
	}
	// Heap's algorithm, iterative: every order of y exactly once.
	c := make([]int, n)
	visit()
	for i := 1; i < n; {
		if c[i] < i {
			if i%2 == 0 {
				y[0], y[i] = y[i], y[0]
			} else {
				y[c[i]], y[i] = y[i], y[c[i]]
			}
			visit()
			c[i]++
			i = 1
		} else {
			c[i] = 0
			i++
		}
	}
	return float64(hits) / float64(count), count
}

// PauseEvery is how many values Sampled permutes between calls of its
// pause (rounded up to whole orders): about 1 ms of work natively, a few in
// a browser.
const PauseEvery = 1 << 16

func (t *slopeTest[T]) Sampled(b int, seed uint64, pause func()) (float64, int64) {
	rng := rand.New(rand.NewPCG(seed, permStream))
	y := append([]T(nil), t.y...)
	var hits int64
	slice := max(1, PauseEvery/len(y))
	for k := range b {
		if pause != nil && k > 0 && k%slice == 0 {
			pause()
		}
		rng.Shuffle(len(y), func(i, j int) { y[i], y[j] = y[j], y[i] })
		if abs(slopeStat(y)) >= t.obs {
			hits++
		}
	}
	return float64(1+hits) / float64(b+1), int64(b)
}
