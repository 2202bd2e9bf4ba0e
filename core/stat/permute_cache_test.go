package stat

import (
	"errors"
	"math"
	"math/rand/v2"
	"sync"
	"testing"
)

// The cached orders must give what drawing them gives. The independent
// source is refSampled (math/rand/v2's own Rand.Shuffle and PCG, each
// statistic summed afresh) and sampledDirect (the shuffle on the values).

// withCache runs f with a fresh order cache of maxB bytes.
func withCache(t *testing.T, maxB int, f func(c *orderCache)) {
	t.Helper()
	saved := permOrders
	permOrders = &orderCache{maxB: maxB}
	defer func() { permOrders = saved }()
	f(permOrders)
}

// packedLanes is the lanes of the packed orders of (r, b, seed) c holds
// drawn, or 0.
func (c *orderCache) packedLanes(r, b int, seed uint64) int {
	for lanes := 2; lanes <= 4; lanes++ {
		if c.ready(orderKey{r: r, b: b, seed: seed, lanes: lanes}) {
			return lanes
		}
	}
	return 0
}

// ready reports whether c holds the orders of key, drawn.
func (c *orderCache) ready(key orderKey) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, e := range c.entries {
		if e.key == key {
			return e.ready
		}
	}
	return false
}

// randomCase is R values, integers (pass counts of equal runs) and rates
// (pass counts over unequal run sizes), with ties and, in some, a trend.
func randomCase(rng *rand.Rand, r int) ([]int64, []float64) {
	ys := make([]int64, r)
	yf := make([]float64, r)
	trend := rng.IntN(2)
	for i := range ys {
		ys[i] = int64(rng.IntN(6) + trend*i/3)
		size := 10 + rng.IntN(4) // unequal run sizes
		yf[i] = float64(min(ys[i], int64(size))) / float64(size)
	}
	return ys, yf
}

// TestSampledCacheMatchesDirect: for random R (2 to 256, where orders are
// cached, and just above), seeds, order counts and values, the p-value of a
// call that draws and stores the orders, and of a later call that reads
// them, is to the bit the p-value of the direct shuffle and of the plain
// library reference.
func TestSampledCacheMatchesDirect(t *testing.T) {
	withCache(t, 4<<20, func(c *orderCache) {
		rng := rand.New(rand.NewPCG(11, 3))
		for trial := range 120 {
			r := 2 + rng.IntN(40)
			switch trial % 12 {
			case 0:
				r = 200 + rng.IntN(57) // up to 256, the largest cached
			case 1:
				r = 257 + rng.IntN(5) // never cached
			}
			b := 1 + rng.IntN(2000)
			seed := rng.Uint64()
			if trial%5 == 0 {
				seed = 1 // the API's seed
			}
			ys, yf := randomCase(rng, r)
			// Integers spread for 4, 3 or 2 lanes a word, or too far
			// apart to be packed.
			wide := trial%4 == 3
			for i := range ys {
				ys[i] = ys[i]*[]int64{1, 50, 3000, 1 << 33}[trial%4] - 7
			}
			it := NewIntSlopeTest(ys).(*intSlopeTest)
			ft := NewFloatSlopeTest(yf).(*floatSlopeTest)
			key := orderKey{r: r, b: b, seed: seed}
			wantI, _, _ := sampledDirect(ys, it.obs, b, seed, nil)
			wantF, _, _ := sampledDirect(yf, ft.obs, b, seed, nil)
			if ref := refSampled(ys, it.obs, b, seed); ref != wantI {
				t.Fatalf("trial %d: direct ints p = %v, library %v", trial, wantI, ref)
			}
			if ref := refSampled(yf, ft.obs, b, seed); ref != wantF {
				t.Fatalf("trial %d: direct floats p = %v, library %v", trial, wantF, ref)
			}
			for pass, what := range []string{"drawing", "reading"} {
				// Alternate which of the two tests draws the orders.
				first, second := SlopeTest(it), SlopeTest(ft)
				want1, want2 := wantI, wantF
				if trial%2 == 1 {
					first, second, want1, want2 = ft, it, wantF, wantI
				}
				p1, n1, _ := first.Sampled(b, seed, nil)
				p2, n2, _ := second.Sampled(b, seed, nil)
				if p1 != want1 || p2 != want2 || n1 != int64(b) || n2 != int64(b) {
					t.Errorf("trial %d (R %d, b %d, seed %d), %s the orders: p = %v, %v; direct %v, %v",
						trial, r, b, seed, what, p1, p2, want1, want2)
				}
				// Rates are stored as bytes, and so are integers too far
				// apart; other integers as pairs.
				if cached := c.ready(key); cached != (r <= maxOrderValues) {
					t.Fatalf("trial %d, pass %d: R %d, b %d cached as bytes: %v", trial, pass, r, b, cached)
				}
				if cached := c.packedLanes(r, b, seed) > 0; cached != (r <= maxOrderValues && !wide) {
					t.Fatalf("trial %d, pass %d: R %d, b %d cached packed: %v", trial, pass, r, b, cached)
				}
			}
		}
		if c.bytes > c.maxB || len(c.entries) > orderCacheEntries {
			t.Errorf("the cache holds %d bytes in %d entries", c.bytes, len(c.entries))
		}
	})
}

// TestSampledCacheStatistics: order by order, the statistic from a stored
// order has the same bits as slopeStat of the shuffled values — a stronger
// check than equal p-values, which count only which side of the observed
// value each order falls. countHits sums four orders side by side, so it is
// checked through thresholds: at obs = |T_k| of each order k it must count
// exactly the orders whose shuffled |T| is at least that, and one ulp above
// it exactly those above it.
func TestSampledCacheStatistics(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 8))
	for trial := range 30 {
		r := 2 + rng.IntN(255)
		b := 103 // not a multiple of 4: both loops of countHits
		seed := rng.Uint64()
		ys, yf := randomCase(rng, r)
		for i := range yf {
			yf[i] += rng.Float64() * 1e-3 // rates without ties: every bit counts
		}
		idx := make([]uint8, r*b)
		if _, err := sampledCached(yf, 0, b, seed, nil, idx, true); err != nil {
			t.Fatal(err)
		}
		var fs [maxOrderValues]float64
		var is [maxOrderValues]int64
		copy(fs[:], yf)
		copy(is[:], ys)
		f := append([]float64(nil), yf...)
		n := append([]int64(nil), ys...)
		wantF := make([]float64, b)
		wantI := make([]int64, b)
		hi, lo := seed, uint64(permStream)
		for k := range b {
			shuffle(f, hi, lo)
			hi, lo = shuffle(n, hi, lo)
			wantF[k], wantI[k] = abs(slopeStat(f)), abs(slopeStat(n))
			o := idx[k*r : (k+1)*r]
			if got := abs(gatherStat(&fs, o)); math.Float64bits(got) != math.Float64bits(wantF[k]) {
				t.Fatalf("trial %d (R %d), order %d: %v from the stored order, %v shuffled", trial, r, k, got, wantF[k])
			}
			if got := abs(gatherStat(&is, o)); got != wantI[k] {
				t.Fatalf("trial %d (R %d), order %d: %d from the stored order, %d shuffled", trial, r, k, got, wantI[k])
			}
		}
		atLeast := func(w []float64, obs float64) (n int64) {
			for _, v := range w {
				n += b2i(v >= obs)
			}
			return n
		}
		for k := range b {
			for _, obs := range []float64{wantF[k], math.Nextafter(wantF[k], math.Inf(1))} {
				if got, want := countHits(&fs, idx, r, obs), atLeast(wantF, obs); got != want {
					t.Fatalf("trial %d (R %d), floats at %v: %d orders counted, %d shuffled", trial, r, obs, got, want)
				}
			}
			var want int64
			for _, v := range wantI {
				want += b2i(v >= wantI[k]+1)
			}
			if got := countHits(&is, idx, r, wantI[k]+1); got != want {
				t.Fatalf("trial %d (R %d), ints above %d: %d orders counted, %d shuffled", trial, r, wantI[k], got, want)
			}
		}
	}
}

// TestSampledPackedStatistics: order by order, through thresholds as in
// TestSampledCacheStatistics, the statistics sampledPacked counts from the
// words it draws, and from those it reads back, are those of the shuffled
// values — 2, 3 and 4 orders a word, numbers of orders that fill the last
// word or not, R up to 256, values shifted far from 0.
func TestSampledPackedStatistics(t *testing.T) {
	rng := rand.New(rand.NewPCG(6, 2))
	for trial := range 24 {
		r := 2 + rng.IntN(255)
		b := 60 + rng.IntN(4)
		seed := rng.Uint64()
		// Values spread as far as 4, 3 or 2 lanes a word allow: the
		// largest lane sum, span·R(R-1)/2, just fits 16, 21 or 32 bits.
		lanes := []int{4, 3, 2}[trial%3]
		span := int64((1<<(64/lanes) - 1) / (r * (r - 1) / 2))
		base := int64(trial%2) << 40
		ys := make([]int64, r)
		for i := range ys {
			ys[i] = base + rng.Int64N(span+1)
		}
		ys[0], ys[r-1] = base+span, base
		want := make([]int64, b)
		n := append([]int64(nil), ys...)
		hi, lo := seed, uint64(permStream)
		for k := range want {
			hi, lo = shuffle(n, hi, lo)
			want[k] = abs(slopeStat(n))
		}
		withCache(t, 4<<20, func(c *orderCache) {
			for k := range b {
				for _, obs := range []int64{want[k], want[k] + 1} {
					var count int64
					for _, v := range want {
						count += b2i(v >= obs)
					}
					for pass := range 2 { // drawing the pairs, then reading them
						p, _, ok, err := sampledPacked(ys, obs, b, seed, nil)
						if !ok || err != nil {
							t.Fatalf("trial %d (R %d): not packed (%v)", trial, r, err)
						}
						if got := int64(math.Round(p*float64(b+1))) - 1; got != count {
							t.Fatalf("trial %d (R %d, %d orders), pass %d, at %d: %d orders counted, %d shuffled", trial, r, b, pass, obs, got, count)
						}
					}
				}
			}
			if got := c.packedLanes(r, b, seed); got != lanes {
				t.Errorf("trial %d (R %d, span %d): %d lanes a word, want %d", trial, r, span, got, lanes)
			}
		})
	}
}

// TestOrderCacheBounds: the cache never holds more than its bytes or its
// entries, evicts the least recently used, leaves a key being drawn to the
// call drawing it, and refuses keys that do not fit.
func TestOrderCacheBounds(t *testing.T) {
	c := &orderCache{maxB: 1000}
	k := func(r int) orderKey { return orderKey{r: r, b: 10, seed: 1} }
	check := func(when string) {
		t.Helper()
		sum := 0
		for _, e := range c.entries {
			sum += len(e.idx) + 8*len(e.packed)
		}
		if sum != c.bytes || c.bytes > c.maxB || len(c.entries) > orderCacheEntries {
			t.Fatalf("%s: %d bytes counted, %d held, cap %d, %d entries", when, c.bytes, sum, c.maxB, len(c.entries))
		}
	}
	if idx, build := c.get(orderKey{r: 101, b: 10, seed: 1}); idx != nil || build {
		t.Error("1,010 bytes of orders claimed in a 1,000-byte cache")
	}
	if idx, _ := c.get(orderKey{r: 257, b: 1, seed: 1}); idx != nil {
		t.Error("257 values claimed: positions past 255 do not fit a byte")
	}
	if idx, _ := c.get(orderKey{r: 1, b: 1, seed: 1}); idx != nil {
		t.Error("a single value claimed")
	}
	e, build := c.get(k(30))
	if e == nil || len(e.idx) != 300 || !build {
		t.Fatalf("first claim: %+v, build %v", e, build)
	}
	if e, build := c.get(k(30)); e != nil || build {
		t.Error("orders being drawn handed to a second call")
	}
	c.finish(k(30), true)
	if e, build := c.get(k(30)); e == nil || len(e.idx) != 300 || build {
		t.Errorf("drawn orders: %+v, build %v", e, build)
	}
	check("one entry")
	for _, r := range []int{20, 40} { // 300 + 200 + 400 bytes
		c.get(k(r))
		c.finish(k(r), true)
	}
	check("three entries")
	c.get(k(30)) // 30 is now the most recently used; 20 the least
	c.get(k(25)) // 250 bytes: 20 (200) must go
	c.finish(k(25), true)
	check("after an eviction")
	if c.ready(k(20)) || !c.ready(k(30)) || !c.ready(k(40)) || !c.ready(k(25)) {
		t.Errorf("after the eviction: 20 %v, 25 %v, 30 %v, 40 %v", c.ready(k(20)), c.ready(k(25)), c.ready(k(30)), c.ready(k(40)))
	}
	for _, r := range []int{2, 4} { // a fourth and a fifth entry: the least recently used (40) goes
		c.get(k(r))
		c.finish(k(r), true)
	}
	check("five keys")
	if c.ready(k(40)) || len(c.entries) != orderCacheEntries {
		t.Errorf("a fifth key: 40 still held %v, %d entries", c.ready(k(40)), len(c.entries))
	}
	// A stopped drawing frees its room.
	before := c.bytes
	c.get(k(3))
	c.finish(k(3), false)
	if c.ready(k(3)) || c.bytes > before || len(c.entries) != orderCacheEntries-1 {
		t.Errorf("a stopped drawing: ready %v, %d bytes (%d before)", c.ready(k(3)), c.bytes, before)
	}
	check("a stopped drawing")
}

// TestSampledCacheStoppedPoll: a poll that stops the test while it draws
// the orders leaves nothing in the cache, and the next call draws them
// again and gets the p-value of the direct shuffle.
func TestSampledCacheStoppedPoll(t *testing.T) {
	withCache(t, 4<<20, func(c *orderCache) {
		y := make([]int64, 20)
		for i := range y {
			y[i] = int64(i % 4)
		}
		st := NewIntSlopeTest(y).(*intSlopeTest)
		stop := errors.New("stop")
		calls := 0
		if _, _, err := st.Sampled(9999, 1, func() error {
			if calls++; calls == 2 {
				return stop
			}
			return nil
		}); err != stop {
			t.Fatalf("err %v", err)
		}
		key := orderKey{r: 20, b: 9999, seed: 1, lanes: 4} // y' <= 3: 3·190 < 2^16
		if c.ready(key) || c.bytes != 0 {
			t.Fatalf("after a stop: cached %v, %d bytes", c.ready(key), c.bytes)
		}
		want, _, _ := sampledDirect(y, st.obs, 9999, 1, nil)
		for range 2 {
			if p, _, _ := st.Sampled(9999, 1, nil); p != want {
				t.Errorf("p = %v, direct %v", p, want)
			}
		}
		if !c.ready(key) {
			t.Error("orders not cached after a complete test")
		}
	})
}

// TestSampledCacheConcurrent: many calls at once on a few keys, with the
// cache drawing, reading and evicting meanwhile, all get the direct
// p-values (run with -race).
func TestSampledCacheConcurrent(t *testing.T) {
	withCache(t, 64<<10, func(c *orderCache) {
		type tc struct {
			st   SlopeTest
			b    int
			seed uint64
			want float64
		}
		rng := rand.New(rand.NewPCG(9, 9))
		var cases []tc
		for i := range 8 {
			ys, yf := randomCase(rng, 10+5*i)
			b := 500 + 100*i
			it := NewIntSlopeTest(ys).(*intSlopeTest)
			ft := NewFloatSlopeTest(yf).(*floatSlopeTest)
			pi, _, _ := sampledDirect(ys, it.obs, b, uint64(i%3), nil)
			pf, _, _ := sampledDirect(yf, ft.obs, b, uint64(i%3), nil)
			cases = append(cases, tc{it, b, uint64(i % 3), pi}, tc{ft, b, uint64(i % 3), pf})
		}
		var wg sync.WaitGroup
		errs := make(chan string, 64)
		for g := range 8 {
			wg.Go(func() {
				for k := range 40 {
					c := cases[(g*7+k*3)%len(cases)]
					if p, _, _ := c.st.Sampled(c.b, c.seed, nil); p != c.want {
						errs <- "a concurrent call's p-value differs from the direct shuffle's"
						return
					}
				}
			})
		}
		wg.Wait()
		close(errs)
		for e := range errs {
			t.Error(e)
		}
		if c.bytes > c.maxB || len(c.entries) > orderCacheEntries {
			t.Errorf("the cache holds %d bytes in %d entries", c.bytes, len(c.entries))
		}
	})
}
