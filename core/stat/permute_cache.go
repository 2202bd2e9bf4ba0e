package stat

import (
	"runtime"
	"sync"
)

// The trend test's random run orders depend only on the number of values
// R, the number of orders b and the seed, never on the values. A server
// answering many A/A checks with the same seed and the same number of runs
// draws the same orders for each, and drawing them (the PCG) is most of the
// test. So Sampled keeps the orders of recent calls, one byte per position
// (R <= 256), in a small cache bounded in bytes, and a later call with the
// same (R, b, seed) reads them instead of drawing them. The statistic is
// then computed from the stored order exactly as from the shuffled values,
// summed in index order, so every p-value keeps its bits.

// maxOrderValues is the most values whose orders are cached: one byte per
// position.
const maxOrderValues = 256

// orderCacheEntries caps how many (R, b, seed) keys the cache holds.
const orderCacheEntries = 4

// orderCacheBytes caps the bytes of cached orders (R·b for each key): 4 MiB
// natively, 512 KiB in a browser or a Worker, whose memory never shrinks.
// 9,999 orders of 20 runs take 200 KB.
var orderCacheBytes = func() int {
	if runtime.GOARCH == "wasm" {
		return 512 << 10
	}
	return 4 << 20
}()

type orderKey struct {
	r, b int
	seed uint64
}

// orderEntry is one key's orders: order k (0-based) is idx[k*r:(k+1)*r],
// where idx[k*r+i] is the index in the caller's values of the value at
// place i after k+1 shuffles. It is written once, by the call that claimed
// it, and read only after ready.
type orderEntry struct {
	key   orderKey
	idx   []uint8
	ready bool
}

// orderCache is a small least-recently-used cache of orders; its mutex
// guards the list, never the work.
type orderCache struct {
	mu      sync.Mutex
	entries []*orderEntry // most recently used first
	bytes   int           // Σ len(idx), claimed or ready
	maxB    int
}

var permOrders = &orderCache{maxB: orderCacheBytes}

// get returns the cached orders of key when they are ready. Otherwise,
// when no other call is drawing them and they fit, it claims them: it
// returns a buffer to fill and build = true, and the caller must then call
// finish. Otherwise it returns nil, and the caller draws the
// orders itself.
func (c *orderCache) get(key orderKey) (idx []uint8, build bool) {
	size := key.r * key.b
	if key.r < 2 || key.r > maxOrderValues || size > c.maxB {
		return nil, false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	for i, e := range c.entries {
		if e.key == key {
			if !e.ready {
				return nil, false // another call is drawing them
			}
			copy(c.entries[1:i+1], c.entries[:i])
			c.entries[0] = e
			return e.idx, false
		}
	}
	// Make room, evicting ready entries from the least recently used.
	for i := len(c.entries) - 1; i >= 0 && (c.bytes+size > c.maxB || len(c.entries) >= orderCacheEntries); i-- {
		if e := c.entries[i]; e.ready {
			c.bytes -= len(e.idx)
			c.entries = append(c.entries[:i], c.entries[i+1:]...)
		}
	}
	if c.bytes+size > c.maxB || len(c.entries) >= orderCacheEntries {
		return nil, false // the room is held by orders being drawn
	}
	e := &orderEntry{key: key, idx: make([]uint8, size)}
	c.entries = append([]*orderEntry{e}, c.entries...)
	c.bytes += size
	return e.idx, true
}

// finish ends the claim of key: with ok its orders are ready; otherwise
// (the drawing was stopped) they are forgotten.
func (c *orderCache) finish(key orderKey, ok bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for i, e := range c.entries {
		if e.key == key && !e.ready {
			if ok {
				e.ready = true
			} else {
				c.bytes -= len(e.idx)
				c.entries = append(c.entries[:i], c.entries[i+1:]...)
			}
			return
		}
	}
}

// sampledCached is sampled on stored orders. With build, idx is empty and
// is filled here, order by order, from the PCG; otherwise it holds the
// orders already. Either way the statistics come from the stored orders
// (countHits), and poll is called exactly where sampled calls it: before
// orders slice, 2·slice, ….
func sampledCached[T number](y []T, obs T, b int, seed uint64, poll func() error, idx []uint8, build bool) (hits int64, err error) {
	r := len(y)
	// A copy in a 256-long array: an index byte needs no bounds check.
	var ys [maxOrderValues]T
	copy(ys[:], y)
	var p []uint8
	if build {
		p = make([]uint8, r)
		for i := range p {
			p[i] = uint8(i)
		}
	}
	hi, lo := seed, uint64(permStream)
	slice := max(1, PauseEvery/r)
	for k := 0; k < b; k += slice {
		if poll != nil && k > 0 {
			if err := poll(); err != nil {
				return 0, err
			}
		}
		orders := idx[k*r : min(b, k+slice)*r]
		if build {
			for o := orders; len(o) > 0; o = o[r:] {
				hi, lo = shuffle(p, hi, lo)
				copy(o, p)
			}
		}
		hits += countHits(&ys, orders, r, obs)
	}
	return hits, nil
}

// countHits counts the orders in idx (each r bytes) whose |statistic| is
// obs or more. Each statistic is gatherStat's; four orders are summed side
// by side, each in index order, so that the additions of one order need
// not wait for the previous order's.
func countHits[T number](ys *[maxOrderValues]T, idx []uint8, r int, obs T) (hits int64) {
	for ; len(idx) >= 4*r; idx = idx[4*r:] {
		o0 := idx[:r]
		o1 := idx[r : 2*r][:len(o0)]
		o2 := idx[2*r : 3*r][:len(o0)]
		o3 := idx[3*r : 4*r][:len(o0)]
		var s0, s1, s2, s3 T
		for i := range o0 {
			c := T(2*i - (r - 1))
			s0 += T(c * ys[o0[i]]) // the conversions forbid fused multiply-adds
			s1 += T(c * ys[o1[i]])
			s2 += T(c * ys[o2[i]])
			s3 += T(c * ys[o3[i]])
		}
		hits += b2i(abs(s0) >= obs) + b2i(abs(s1) >= obs) + b2i(abs(s2) >= obs) + b2i(abs(s3) >= obs)
	}
	for ; len(idx) > 0; idx = idx[r:] {
		hits += b2i(abs(gatherStat(ys, idx[:r])) >= obs)
	}
	return hits
}

func b2i(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

// gatherStat is slopeStat of the values ys[o[0]], ys[o[1]], …: the same
// products, added in the same order.
func gatherStat[T number](ys *[maxOrderValues]T, o []uint8) T {
	r := len(o)
	var s T
	for i, j := range o {
		s += T(T(2*i-(r-1)) * ys[j]) // the conversion forbids a fused multiply-add
	}
	return s
}
