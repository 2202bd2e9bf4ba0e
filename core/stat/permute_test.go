package stat

import (
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// The reference below is the permutation test written the plain way, on
// math/rand/v2's own Rand.Shuffle and PCG: every order's statistic summed
// afresh with slopeStat. The fast loops must count exactly the same hits,
// so p-values stay bit for bit what they were.

func refSampled[T number](y []T, obs T, b int, seed uint64) float64 {
	rng := rand.New(rand.NewPCG(seed, permStream))
	y = append([]T(nil), y...)
	var hits int64
	for range b {
		rng.Shuffle(len(y), func(i, j int) { y[i], y[j] = y[j], y[i] })
		if abs(slopeStat(y)) >= obs {
			hits++
		}
	}
	return float64(1+hits) / float64(b+1)
}

// refExact enumerates the orders recursively (not Heap's algorithm).
func refExact[T number](y []T, obs T) (float64, int64) {
	y = append([]T(nil), y...)
	var hits, count int64
	var rec func(k int)
	rec = func(k int) {
		if k == len(y) {
			count++
			if abs(slopeStat(y)) >= obs {
				hits++
			}
			return
		}
		for i := k; i < len(y); i++ {
			y[k], y[i] = y[i], y[k]
			rec(k + 1)
			y[k], y[i] = y[i], y[k]
		}
	}
	rec(0)
	return float64(hits) / float64(count), count
}

// TestPCG: pcgStep is PCG.Uint64, and shuffle is Rand.Shuffle, for every
// length up to 70 and for seeds at the ends of the range.
func TestPCG(t *testing.T) {
	for _, seed := range []uint64{0, 1, 42, math.MaxUint64} {
		lib := rand.NewPCG(seed, permStream)
		hi, lo := seed, uint64(permStream)
		for k := range 20000 {
			var x uint64
			if hi, lo, x = pcgStep(hi, lo); x != lib.Uint64() {
				t.Fatalf("seed %d, draw %d: pcgStep differs from PCG.Uint64", seed, k)
			}
		}
		rng := rand.New(rand.NewPCG(seed, permStream))
		hi, lo = seed, uint64(permStream)
		for n := range 70 {
			got, want := make([]int64, n), make([]int64, n)
			for i := range got {
				got[i], want[i] = int64(i), int64(i)
			}
			for range 3 {
				hi, lo = shuffle(got, hi, lo)
				rng.Shuffle(n, func(i, j int) { want[i], want[j] = want[j], want[i] })
				if !slices.Equal(got, want) {
					t.Fatalf("seed %d, %d values: shuffle gives %v, Rand.Shuffle %v", seed, n, got, want)
				}
			}
		}
	}
}

// TestSlopeTestMatchesReference: the same p-values, to the bit, as the
// plain test, for integers and floats, small and large R, with ties.
func TestSlopeTestMatchesReference(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	for trial := range 60 {
		r := 3 + rng.IntN(40)
		if trial%10 == 0 {
			r = 300 + rng.IntN(50)
		}
		ys := make([]int64, r)
		yf := make([]float64, r)
		for i := range ys {
			ys[i] = int64(rng.IntN(5) + i*rng.IntN(2)) // ties, and a trend in some
			yf[i] = float64(ys[i]) / float64(7+rng.IntN(3))
		}
		b := 1 + rng.IntN(3000)
		seed := rng.Uint64()

		it := NewIntSlopeTest(ys).(*intSlopeTest)
		if got, n, _ := it.Sampled(b, seed, nil); got != refSampled(ys, it.obs, b, seed) || n != int64(b) {
			t.Errorf("trial %d (%d ints, %d orders): p = %v, reference %v", trial, r, b, got, refSampled(ys, it.obs, b, seed))
		}
		ft := NewFloatSlopeTest(yf).(*floatSlopeTest)
		if got, n, _ := ft.Sampled(b, seed, nil); got != refSampled(yf, ft.obs, b, seed) || n != int64(b) {
			t.Errorf("trial %d (%d floats, %d orders): p = %v, reference %v", trial, r, b, got, refSampled(yf, ft.obs, b, seed))
		}
		if r <= 8 {
			gp, gn := it.Exact()
			wp, wn := refExact(ys, it.obs)
			if gp != wp || gn != wn {
				t.Errorf("trial %d, exact ints %v: %v of %d, reference %v of %d", trial, ys, gp, gn, wp, wn)
			}
			gp, gn = ft.Exact()
			wp, wn = refExact(yf, ft.obs)
			if gp != wp || gn != wn {
				t.Errorf("trial %d, exact floats %v: %v of %d, reference %v of %d", trial, yf, gp, gn, wp, wn)
			}
		}
	}
}

// TestSlopeTestExactSmall: every R from 1 to 8, exactly as the recursive
// enumeration counts.
func TestSlopeTestExactSmall(t *testing.T) {
	for r := 1; r <= 8; r++ {
		ys := make([]int64, r)
		for i := range ys {
			ys[i] = int64((i * 7) % 5)
		}
		it := NewIntSlopeTest(ys).(*intSlopeTest)
		gp, gn := it.Exact()
		wp, wn := refExact(ys, it.obs)
		if gp != wp || gn != wn {
			t.Errorf("R = %d: %v of %d orders, reference %v of %d", r, gp, gn, wp, wn)
		}
	}
}

// TestSlopeTestPause: pause is called after every PauseEvery values
// permuted, rounded up to whole orders, and changes nothing.
func TestSlopeTestPause(t *testing.T) {
	y := make([]int64, 40)
	for i := range y {
		y[i] = int64(i % 3)
	}
	calls := 0
	st := NewIntSlopeTest(y)
	p, _, _ := st.Sampled(9999, 1, func() error { calls++; return nil })
	q, _, _ := st.Sampled(9999, 1, nil)
	if want := 9998 / (PauseEvery / 40); calls != want || p != q {
		t.Errorf("%d calls (want %d), p %v with pause and %v without", calls, want, p, q)
	}
	// An error from the poll stops the test at that call and is returned.
	stop := errors.New("stop")
	calls = 0
	if _, n, err := st.Sampled(9999, 1, func() error { calls++; return stop }); err != stop || calls != 1 || n != 0 {
		t.Errorf("a failing poll: err %v after %d calls, count %d", err, calls, n)
	}
}

// BenchmarkSlopeTestSampled: 9,999 orders of 20 runs, as the API's trend
// test on a 20-run upload, with the orders cached (every call but the
// first reads them), on pass counts (as pairs, and as bytes) and on rates.
func BenchmarkSlopeTestSampled(b *testing.B) {
	y := make([]int64, 20)
	f := make([]float64, 20)
	for i := range y {
		y[i] = int64(150 + i%7)
		f[i] = float64(y[i]) / float64(200+i%3)
	}
	b.Run("ints", func(b *testing.B) {
		st := NewIntSlopeTest(y)
		for b.Loop() {
			st.Sampled(9999, 1, nil)
		}
	})
	b.Run("ints-bytes", func(b *testing.B) { // too far apart for pairs
		obs := NewIntSlopeTest(y).(*intSlopeTest).obs
		for b.Loop() {
			sampled(y, obs, 9999, 1, nil)
		}
	})
	b.Run("floats", func(b *testing.B) {
		st := NewFloatSlopeTest(f)
		for b.Loop() {
			st.Sampled(9999, 1, nil)
		}
	})
	b.Run("ints-direct", func(b *testing.B) {
		obs := NewIntSlopeTest(y).(*intSlopeTest).obs
		for b.Loop() {
			sampledDirect(y, obs, 9999, 1, nil)
		}
	})
	b.Run("floats-direct", func(b *testing.B) {
		obs := NewFloatSlopeTest(f).(*floatSlopeTest).obs
		for b.Loop() {
			sampledDirect(f, obs, 9999, 1, nil)
		}
	})
}

// BenchmarkSlopeTestSampledPlain is the same test on Rand.Shuffle, the
// peer of BenchmarkSlopeTestSampled.
func BenchmarkSlopeTestSampledPlain(b *testing.B) {
	y := make([]int64, 20)
	for i := range y {
		y[i] = int64(150 + i%7)
	}
	obs := NewIntSlopeTest(y).(*intSlopeTest).obs
	for b.Loop() {
		refSampled(y, obs, 9999, 1)
	}
}
