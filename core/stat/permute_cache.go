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
// summed in index order, so every p-value keeps its bits. Integers (pass
// counts of equal runs) whose spread allows it are kept instead as the
// place of each value, 2 to 4 orders packed in a 64-bit word, so that one
// multiply-add serves several orders (sampledPacked); integer sums do not
// depend on their order.

// maxOrderValues is the most values whose orders are cached: one byte per
// position.
const maxOrderValues = 256

// orderCacheEntries caps how many (R, b, seed) keys the cache holds.
const orderCacheEntries = 4

// orderCacheBytes caps the bytes of cached orders (orderKey.size for each
// key): 4 MiB natively, 512 KiB in a browser or a Worker, whose memory never
// shrinks. 9,999 orders of 20 runs take 200 KB as bytes, 400 KB packed four
// to a word.
var orderCacheBytes = func() int {
	if runtime.GOARCH == "wasm" {
		return 512 << 10
	}
	return 4 << 20
}()

// orderKey names the orders of Sampled(b, seed) on r values, stored as
// bytes (lanes 0) or, for integers, packed lanes (2, 3 or 4) to a word.
type orderKey struct {
	r, b  int
	seed  uint64
	lanes int
}

// size is the bytes the orders of k take.
func (k orderKey) size() int {
	if k.lanes > 0 {
		return 8 * k.r * ((k.b + k.lanes - 1) / k.lanes)
	}
	return k.r * k.b
}

// orderEntry is one key's orders. It is written once, by the call that
// claimed it, and read only after ready.
//
// As bytes, order k (0-based) is idx[k*r:(k+1)*r], where idx[k*r+i] is the
// index in the caller's values of the value at place i after k+1 shuffles.
//
// Packed m = lanes to a word, orders mq … mq+m-1 are packed[q*r:(q+1)*r],
// where packed[q*r+j] holds the place value j takes in order mq+t in bits
// t·⌊64/m⌋ up (0 past order b).
type orderEntry struct {
	key    orderKey
	idx    []uint8
	packed []uint64
	ready  bool
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
// returns an entry to fill and build = true, and the caller must then call
// finish. Otherwise it returns nil, and the caller draws the orders itself.
func (c *orderCache) get(key orderKey) (e *orderEntry, build bool) {
	size := key.size()
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
			return e, false
		}
	}
	// Make room, evicting ready entries from the least recently used.
	for i := len(c.entries) - 1; i >= 0 && (c.bytes+size > c.maxB || len(c.entries) >= orderCacheEntries); i-- {
		if e := c.entries[i]; e.ready {
			c.bytes -= e.key.size()
			c.entries = append(c.entries[:i], c.entries[i+1:]...)
		}
	}
	if c.bytes+size > c.maxB || len(c.entries) >= orderCacheEntries {
		return nil, false // the room is held by orders being drawn
	}
	e = &orderEntry{key: key}
	if key.lanes > 0 {
		e.packed = make([]uint64, size/8)
	} else {
		e.idx = make([]uint8, size)
	}
	c.entries = append([]*orderEntry{e}, c.entries...)
	c.bytes += size
	return e, true
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
				c.bytes -= key.size()
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

// sampledPacked is Sampled for integers on orders stored packed, when they
// are cached or can be: ok is false when not, and the caller goes on as
// without them.
//
// With c_i = 2i-(R-1) and y' = y - min(y) (Σc_i = 0, so the statistic of y'
// is that of y), an order's statistic is Σ_j c_{place(j)}·y'_j =
// 2·Σ_j place(j)·y'_j - (R-1)·Σ_j y'_j. One 64-bit multiply-add by a packed
// word accumulates Σ place(j)·y'_j for 2, 3 or 4 orders at once, each in
// its own 32, 21 or 16 bits: exact while max(y')·R(R-1)/2 fits them, and
// the most orders a word whose lanes fit are used.
func sampledPacked(y []int64, obs int64, b int, seed uint64, poll func() error) (p float64, count int64, ok bool, err error) {
	r := len(y)
	if r < 2 || r > maxOrderValues {
		return 0, 0, false, nil
	}
	lo, hi := y[0], y[0]
	for _, v := range y {
		lo, hi = min(lo, v), max(hi, v)
	}
	if uint64(hi-lo) >= 1<<32 {
		return 0, 0, false, nil
	}
	most := uint64(hi-lo) * uint64(r*(r-1)/2) // the largest lane sum
	lanes := 0
	for _, m := range []int{4, 3, 2} {
		if most < 1<<(64/m) {
			lanes = m
			break
		}
	}
	if lanes == 0 {
		return 0, 0, false, nil
	}
	key := orderKey{r: r, b: b, seed: seed, lanes: lanes}
	e, build := permOrders.get(key)
	if e == nil {
		return 0, 0, false, nil
	}
	done := false // the claimed orders are all drawn
	if build {
		defer func() { permOrders.finish(key, done) }()
	}
	var yv [maxOrderValues]uint64
	var total int64 // Σ y'
	for j, v := range y {
		yv[j] = uint64(v - lo)
		total += v - lo
	}
	shift := int64(r-1) * total
	var perm []uint8
	if build {
		perm = make([]uint8, r)
		for i := range perm {
			perm[i] = uint8(i)
		}
	}
	ph, pl := seed, uint64(permStream) // the PCG's state, as in sampled
	// Poll before the word holding order slice, 2·slice, … (slice >= 256
	// orders, so one call a word at most): as many calls as sampled makes.
	slice := max(1, PauseEvery/r)
	words := (b + lanes - 1) / lanes
	var hits int64
	for start, next := 0, slice; start < words; next += slice {
		end := words
		if poll != nil && next < b {
			end = next / lanes
		}
		w := e.packed[start*r : end*r]
		n := min(b-lanes*start, lanes*(end-start)) // orders in w
		if build {
			ph, pl = drawPacked(perm, w, n, lanes, ph, pl)
		}
		hits += countPacked(&yv, w, r, n, lanes, shift, obs)
		if end < words {
			if err := poll(); err != nil {
				return 0, 0, true, err
			}
		}
		start = end
	}
	done = true
	return float64(1+hits) / float64(b+1), int64(b), true, nil
}

// drawPacked fills w, zero, with the next n orders packed lanes to a word,
// shuffling perm (the current order as indices of the values) on the PCG
// state (hi, lo), and returns the new state.
func drawPacked(perm []uint8, w []uint64, n, lanes int, hi, lo uint64) (uint64, uint64) {
	r := len(perm)
	width := uint(64 / lanes)
	for k := range n {
		hi, lo = shuffle(perm, hi, lo)
		o := w[k/lanes*r : (k/lanes+1)*r]
		at := width * uint(k%lanes)
		for i, j := range perm {
			o[j] |= uint64(i) << at
		}
	}
	return hi, lo
}

// countPacked counts the n orders packed in w (r words for each lanes
// orders) whose |statistic| is obs or more; a statistic is 2·lane - shift,
// so an order counts when its lane is at least ⌈(shift+obs)/2⌉ or at most
// ⌊(shift-obs)/2⌋.
func countPacked(yv *[maxOrderValues]uint64, w []uint64, r, n, lanes int, shift, obs int64) (hits int64) {
	width := uint(64 / lanes)
	mask := uint64(1)<<width - 1
	above := uint64(max(0, shift+obs+1) / 2) // shift+obs >= 0 as lanes are
	below := shift - obs                     // lane <= below/2: 2·lane <= below
	for ; n > 0; n -= lanes {
		o := w[:r]
		w = w[r:]
		var acc, acc2 uint64
		j := 0
		for ; j+1 < len(o); j += 2 {
			acc += yv[uint8(j)] * o[j]
			acc2 += yv[uint8(j+1)] * o[j+1]
		}
		if j < len(o) {
			acc += yv[uint8(j)] * o[j]
		}
		acc += acc2
		if n >= 4 && lanes == 4 { // the usual case, unrolled
			l0, l1, l2, l3 := acc&mask, acc>>16&mask, acc>>32&mask, acc>>48
			hits += b2i(l0 >= above) | b2i(int64(2*l0) <= below) // | not ||: no branch
			hits += b2i(l1 >= above) | b2i(int64(2*l1) <= below)
			hits += b2i(l2 >= above) | b2i(int64(2*l2) <= below)
			hits += b2i(l3 >= above) | b2i(int64(2*l3) <= below)
			continue
		}
		for t := range uint(min(n, lanes)) {
			lane := acc >> (width * t) & mask
			hits += b2i(lane >= above) | b2i(int64(2*lane) <= below)
		}
	}
	return hits
}
