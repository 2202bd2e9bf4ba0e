package stat

// FirstTrue returns the smallest n in (lo, limit] at which ok holds, for an
// ok that is false at lo and, once true, stays true as n grows; found is
// false when ok(limit) is false. It gallops (1, 2, 4, … past lo) and then
// bisects, so it calls ok O(log n) times.
func FirstTrue(lo, limit int64, ok func(n int64) bool) (n int64, found bool) {
	step := int64(1)
	hi := min(lo+step, limit)
	for !ok(hi) {
		if hi >= limit {
			return 0, false
		}
		lo, step = hi, 2*step
		hi = min(hi+step, limit)
	}
	for hi-lo > 1 {
		mid := lo + (hi-lo)/2
		if ok(mid) {
			hi = mid
		} else {
			lo = mid
		}
	}
	return hi, true
}
