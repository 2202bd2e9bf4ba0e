package stat

import (
	"math/bits"
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
	// The orders are those of math/rand/v2's Rand.Shuffle on a PCG seeded
	// with (seed, a fixed stream), each applied to the previous order, so a
	// seed always gives the same p. It calls poll, when not nil, after
	// every PauseEvery values permuted (rounded up to whole orders), and
	// stops with poll's error when it returns one. The orders of the
	// last few (number of values, b, seed) are kept, bounded in bytes (see
	// permute_cache.go), so that a repeat with other values of the same
	// length reads them instead of drawing them; the p-value is the same.
	Sampled(b int, seed uint64, poll func() error) (p float64, count int64, err error)
}

// NewIntSlopeTest tests integer values (pass counts of equal-sized runs): ties
// are exact.
func NewIntSlopeTest(y []int64) SlopeTest {
	t := &intSlopeTest{y: append([]int64(nil), y...)}
	t.obs = abs(slopeStat(t.y))
	return t
}

// NewFloatSlopeTest tests rates: an order ties with the observed one when its
// statistic is within a relative 1e-9 of it, so that orders equal in exact
// arithmetic are not split by rounding.
func NewFloatSlopeTest(y []float64) SlopeTest {
	t := &floatSlopeTest{y: append([]float64(nil), y...)}
	var scale float64
	r := len(y)
	for i, v := range y {
		scale += abs(float64(float64(2*i-(r-1)) * v))
	}
	t.obs = abs(slopeStat(t.y)) - 1e-9*scale
	return t
}

type number interface{ int64 | float64 }

// slopeStat is Σ c_i·y_i summed in index order (the order matters for
// floats).
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

// PauseEvery is how many values Sampled permutes between calls of its
// pause (rounded up to whole orders): about 1 ms of work natively, a few in
// a browser.
const PauseEvery = 1 << 16

// An A/A check runs 9,999 random orders, so the loops below are written for
// speed: the generator's state lives in registers, the shuffle calls no swap
// function, and nothing is allocated per order.

// intSlopeTest is the test on integers. Integer sums do not depend on their
// order (wrapping arithmetic is associative too), which lets Exact update
// the statistic by one product per swap.
type intSlopeTest struct {
	y   []int64
	obs int64 // |Σ c_i·y_i| of the observed order
}

func (t *intSlopeTest) Exact() (float64, int64) {
	return exact(t.y, t.obs, true)
}

func (t *intSlopeTest) Sampled(b int, seed uint64, poll func() error) (float64, int64, error) {
	if p, n, ok, err := sampledPacked(t.y, t.obs, b, seed, poll); ok {
		return p, n, err
	}
	return sampled(t.y, t.obs, b, seed, poll)
}

// floatSlopeTest is the test on rates; each order's statistic is summed in
// index order, exactly as slopeStat sums it, so ties are decided on the
// same bits whatever the platform.
type floatSlopeTest struct {
	y   []float64
	obs float64 // |Σ c_i·y_i| of the observed order, less the tie tolerance
}

func (t *floatSlopeTest) Exact() (float64, int64) {
	return exact(t.y, t.obs, false)
}

// exact is Exact. With update (integers only), each swap of places a and b
// changes the statistic by (c_a-c_b)·(y_b-y_a), with c_a-c_b = 2(a-b);
// otherwise each order's statistic is summed afresh, in index order.
func exact[T number](y []T, obs T, update bool) (float64, int64) {
	y = append([]T(nil), y...)
	n := len(y)
	s := slopeStat(y)
	var hits, count int64
	visit := func() {
		count++
		if abs(s) >= obs {
			hits++
		}
	}
	// Heap's algorithm, iterative: every order of y exactly once.
	c := make([]int, n)
	visit()
	for i := 1; i < n; {
		if c[i] < i {
			a := c[i]
			if i%2 == 0 {
				a = 0
			}
			if update {
				s += T(2*(a-i)) * (y[i] - y[a])
			}
			y[a], y[i] = y[i], y[a]
			if !update {
				s = slopeStat(y)
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

func (t *floatSlopeTest) Sampled(b int, seed uint64, poll func() error) (float64, int64, error) {
	return sampled(t.y, t.obs, b, seed, poll)
}

// sampled is Sampled: b orders, each Rand.Shuffle of the previous one.
// When the orders of (len(y), b, seed) are cached, or can be, it counts on
// them (sampledCached); otherwise it shuffles a copy of y.
func sampled[T number](y []T, obs T, b int, seed uint64, poll func() error) (float64, int64, error) {
	key := orderKey{r: len(y), b: b, seed: seed}
	if e, build := permOrders.get(key); e != nil {
		ok := false // the claimed orders are all drawn
		if build {
			defer func() { permOrders.finish(key, ok) }()
		}
		hits, err := sampledCached(y, obs, b, seed, poll, e.idx, build)
		if err != nil {
			return 0, 0, err
		}
		ok = true
		return float64(1+hits) / float64(b+1), int64(b), nil
	}
	return sampledDirect(y, obs, b, seed, poll)
}

// sampledDirect is sampled without the cache.
func sampledDirect[T number](y []T, obs T, b int, seed uint64, poll func() error) (float64, int64, error) {
	y = append([]T(nil), y...)
	hi, lo := seed, uint64(permStream) // the PCG's state: NewPCG(seed, permStream)
	slice := max(1, PauseEvery/max(len(y), 1))
	var hits int64
	for k := range b {
		if poll != nil && k > 0 && k%slice == 0 {
			if err := poll(); err != nil {
				return 0, 0, err
			}
		}
		hi, lo = shuffle(y, hi, lo)
		if abs(slopeStat(y)) >= obs {
			hits++
		}
	}
	return float64(1+hits) / float64(b+1), int64(b), nil
}

// shuffle is Rand.Shuffle of y on the PCG state (hi, lo), with the swaps
// done in place; it returns the new state. It has no call inside its loop,
// so the state stays in registers.
func shuffle[E any](y []E, hi, lo uint64) (uint64, uint64) {
	for i := len(y) - 1; i > 0; i-- {
		// Rand.uint64n(i+1) on 64-bit platforms (wasm included): a mask
		// when the bound is a power of two, otherwise Lemire's multiply,
		// drawing again while the low word falls in the rejected band.
		var x uint64
		hi, lo, x = pcgStep(hi, lo)
		m := uint64(i + 1)
		j := x & (m - 1)
		if m&(m-1) != 0 {
			var low uint64
			if j, low = bits.Mul64(x, m); low < m { // rarely: about m in 2^64 draws
				for thresh := -m % m; low < thresh; {
					hi, lo, x = pcgStep(hi, lo)
					j, low = bits.Mul64(x, m)
				}
			}
		}
		y[i], y[j] = y[j], y[i]
	}
	return hi, lo
}

// The PCG is math/rand/v2's: a 128-bit LCG with DXSM output, whose state
// (hi, lo) starts as NewPCG(hi, lo) sets it. The tests check pcgStep and
// shuffle against the library value for value.

// pcgStep advances the state (hi, lo) and returns the new state and
// PCG.Uint64's output.
func pcgStep(hi, lo uint64) (nhi, nlo, out uint64) {
	const (
		mulHi = 2549297995355413924
		mulLo = 4865540595714422341
		incHi = 6364136223846793005
		incLo = 1442695040888963407
	)
	h, l := bits.Mul64(lo, mulLo)
	h += hi*mulLo + lo*mulHi
	l, c := bits.Add64(l, incLo, 0)
	h, _ = bits.Add64(h, incHi, c)

	const cheapMul = 0xda942042e4dd58b5
	out = h ^ h>>32
	out *= cheapMul
	out ^= out >> 48
	out *= l | 1
	return h, l, out
}
