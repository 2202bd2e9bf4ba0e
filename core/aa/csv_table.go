package aa

import (
	"encoding/binary"
	"hash/maphash"
	"math"
	"math/bits"
	"strings"
)

// aaScenTable holds the scenarios' state while ReadCSV reads. It is an open
// addressing hash table whose slots are the state itself, 32 bytes each: the
// id's key, the scenario's index and its tally. A row then costs one cache
// line for its scenario, and the table of 10,000 scenarios (512 KB) stays in
// a core's second-level cache, which on the benchmark's shuffled runs is
// what the reader's speed comes down to. Which runs each scenario has a row
// in is kept per run (aaRunSet), where the current run's set is hot.
type aaScenTable struct {
	seed   maphash.Seed
	s1, s2 uint64   // drawn from seed, for the short-id hash
	slots  []aaSlot // len a power of two, at most three quarters full
	n      int      // scenarios in the table
	// long holds the ids longer than 16 bytes by scenario index; a shorter
	// id is its slot's key, and finish writes all of them out at once
	// rather than allocating a string for each as it comes.
	long map[uint32]string
	// spill holds, per scenario index, the passes and rows its slot's
	// 32-bit counters handed over on reaching aaSpillAt rows.
	spill map[uint32][2]int64
}

// aaSlot is one slot: a scenario's state, or empty when n is 0.
type aaSlot struct {
	x, y          uint64 // the id's key (aaKey)
	n             uint32 // the id's length in bytes; 0 for an empty slot
	idx           uint32 // the scenario's index, in order of first appearance
	passed, total uint32 // the tally since the last spill
}

// aaSpillAt is the row count at which a slot hands its counters to the
// table's spill map; a variable so that a test can reach it.
var aaSpillAt uint32 = math.MaxUint32

func newAAScenTable() *aaScenTable {
	seed := maphash.MakeSeed()
	return &aaScenTable{seed: seed, s1: maphash.String(seed, "1"), s2: maphash.String(seed, "2"), slots: make([]aaSlot, 256)}
}

// aaKey packs an id into two words. For ids of up to 16 bytes the words
// and the length are the id itself, so equal keys are equal ids: from 8
// bytes on, the first and the last 8 bytes; from 4, the first and the last
// 4; below 4, its bytes 0, n/2 and n-1, which are all of them. For longer
// ids the words are their first and last 8 bytes, and equal keys still need
// the ids compared.
func aaKey(b []byte) (x, y uint64) {
	switch n := len(b); {
	case n >= 8:
		x, y = binary.LittleEndian.Uint64(b), binary.LittleEndian.Uint64(b[n-8:])
	case n >= 4:
		x, y = uint64(binary.LittleEndian.Uint32(b)), uint64(binary.LittleEndian.Uint32(b[n-4:]))
	case n > 0:
		x = uint64(b[0])<<16 | uint64(b[n>>1])<<8 | uint64(b[n-1])
	}
	return x, y
}

// hash hashes id b of key x, y with the table's random seed. Ids of up to
// 16 bytes, the common case, take two 128-bit multiplications of their key
// (the wyhash mix Go's own fallback hash uses; one alone leaves ids that
// differ only in a few middle bytes crowded, TestAAScenTableSpread); longer
// ones go to hash/maphash, whose String and Bytes agree.
func (t *aaScenTable) hash(b []byte, x, y uint64) uint64 {
	if len(b) > 16 {
		return maphash.Bytes(t.seed, b)
	}
	return t.mix(x, y, len(b))
}

func (t *aaScenTable) mix(x, y uint64, n int) uint64 {
	hi, lo := bits.Mul64(x^t.s1, y^t.s2^uint64(n))
	hi, lo = bits.Mul64(hi^lo^0xa0761d6478bd642f, t.s1^0xe7037ed1a0b428db)
	return hi ^ lo
}

// find returns the slot of scenario b, or -1 when b is not in the table.
func (t *aaScenTable) find(b []byte) int {
	x, y := aaKey(b)
	return t.lookup(b, x, y, t.hash(b, x, y))
}

// lookup is find for an id whose key and hash are known.
func (t *aaScenTable) lookup(b []byte, x, y, h uint64) int {
	n := uint32(len(b))
	if n == 0 {
		return -1 // never added: an empty id is refused
	}
	mask := uint64(len(t.slots) - 1)
	for i := h & mask; ; i = (i + 1) & mask {
		s := &t.slots[i]
		if s.x == x && s.y == y && s.n == n {
			if n <= 16 || t.long[s.idx] == string(b) {
				return int(i)
			}
		} else if s.n == 0 {
			return -1
		}
	}
}

// add adds scenario b, which find did not find and which is not empty, and
// returns its slot.
func (t *aaScenTable) add(b []byte) int {
	if 4*(t.n+1) > 3*len(t.slots) {
		old := t.slots
		t.slots = make([]aaSlot, 2*len(old))
		for k := range old {
			if s := &old[k]; s.n != 0 {
				h := t.mix(s.x, s.y, int(s.n))
				if s.n > 16 {
					h = maphash.String(t.seed, t.long[s.idx])
				}
				t.slots[t.free(h)] = *s
			}
		}
	}
	x, y := aaKey(b)
	i := t.free(t.hash(b, x, y))
	t.slots[i] = aaSlot{x: x, y: y, n: uint32(len(b)), idx: uint32(t.n)}
	if len(b) > 16 {
		if t.long == nil {
			t.long = make(map[uint32]string)
		}
		t.long[uint32(t.n)] = string(b)
	}
	t.n++
	return i
}

// free returns the first empty slot from h's.
func (t *aaScenTable) free(h uint64) int {
	mask := uint64(len(t.slots) - 1)
	for i := h & mask; ; i = (i + 1) & mask {
		if t.slots[i].n == 0 {
			return int(i)
		}
	}
}

// count adds a row of scenario s, passed (1) or not (0).
func (t *aaScenTable) count(s *aaSlot, pass uint32) {
	if s.total == aaSpillAt {
		if t.spill == nil {
			t.spill = make(map[uint32][2]int64)
		}
		c := t.spill[s.idx]
		t.spill[s.idx] = [2]int64{c[0] + int64(s.passed), c[1] + int64(s.total)}
		s.passed, s.total = 0, 0
	}
	s.passed += pass
	s.total++
}

// tallies lays the scenarios' tallies out in order of first appearance.
// The ids of up to 16 bytes are written from their keys into one string.
func (t *aaScenTable) tallies() []Tally {
	out := make([]Tally, t.n)
	size := 0
	for k := range t.slots {
		if s := &t.slots[k]; s.n != 0 && s.n <= 16 {
			size += int(s.n)
		}
	}
	var all strings.Builder
	all.Grow(size)
	var b [16]byte
	for k := range t.slots {
		s := &t.slots[k]
		if s.n == 0 {
			continue
		}
		c := t.spill[s.idx]
		out[s.idx] = Tally{Passed: c[0] + int64(s.passed), Total: c[1] + int64(s.total)}
		if s.n > 16 {
			out[s.idx].ID = t.long[s.idx]
			continue
		}
		start := all.Len()
		all.Write(aaUnkey(b[:s.n], s.x, s.y))
		out[s.idx].ID = all.String()[start:all.Len()]
	}
	return out
}

// aaUnkey writes into b, of the id's length (1 to 16), the id of key x, y.
func aaUnkey(b []byte, x, y uint64) []byte {
	switch n := len(b); {
	case n >= 8:
		binary.LittleEndian.PutUint64(b[n-8:], y)
		binary.LittleEndian.PutUint64(b, x)
	case n >= 4:
		binary.LittleEndian.PutUint32(b[n-4:], uint32(y))
		binary.LittleEndian.PutUint32(b, uint32(x))
	default:
		b[n-1], b[n>>1], b[0] = byte(x), byte(x>>8), byte(x>>16)
	}
	return b
}

// aaRunSets holds, per run, the scenarios (by index) it has a row of. Each
// set is a bitset over the indices from word base on, or a map when the
// bitsets would take more than 4 words (32 bytes) a row read and 8 words a
// run, so that memory stays within a few bytes per row whatever the input (a
// file of many runs, each of a few scenarios far apart). The current run's
// set is a few KB and stays in the first-level cache.
type aaRunSets struct {
	sets  []aaRunSet
	words int64 // words in the bitsets of sets
}

type aaRunSet struct {
	base  int // index of the first word of w
	w     []uint64
	multi map[int]struct{} // used instead of w when w would take too much
}

// add adds an empty set for a new run.
func (r *aaRunSets) add() { r.sets = append(r.sets, aaRunSet{}) }

// mark adds scenario i to run ri's set and reports whether it was there
// already; rows is the rows read before this one, scens the scenarios (i <
// scens).
func (r *aaRunSets) mark(ri, i int, rows int64, scens int) bool {
	s := &r.sets[ri]
	if k := i>>6 - s.base; uint(k) < uint(len(s.w)) {
		bit := uint64(1) << (i & 63)
		if s.w[k]&bit != 0 {
			return true
		}
		s.w[k] |= bit
		return false
	}
	return r.markOutside(s, i, rows, scens)
}

// markOutside is mark for an i outside set s's bitset.
func (r *aaRunSets) markOutside(s *aaRunSet, i int, rows int64, scens int) bool {
	room := 4*(rows+1) + 8*int64(len(r.sets)) - r.words // words the bitsets may still take
	if s.multi != nil {
		if _, ok := s.multi[i]; ok {
			return true
		}
		s.multi[i] = struct{}{}
		if n := len(s.multi); n >= 16 && n&(n-1) == 0 {
			r.densify(s, room)
		}
		return false
	}
	wi := i >> 6
	var lo, hi int // the words the bitset needs
	if len(s.w) == 0 {
		lo, hi = 0, (scens+63)>>6 // all the scenarios so far: a run lists most
		if int64(hi) > room {
			lo, hi = wi, wi+1
		}
	} else {
		lo, hi = min(wi, s.base), max(wi+1, s.base+len(s.w))
	}
	if grow := int64(hi - lo - len(s.w)); grow > room {
		s.multi = make(map[int]struct{}, 2*len(s.w)+1)
		for k, word := range s.w {
			for b := 0; b < 64; b++ {
				if word&(1<<b) != 0 {
					s.multi[(s.base+k)<<6|b] = struct{}{}
				}
			}
		}
		r.words -= int64(len(s.w))
		s.w = nil
		s.multi[i] = struct{}{}
		return false
	}
	r.words += int64(hi - lo - len(s.w))
	switch {
	case len(s.w) == 0:
		s.w, s.base = make([]uint64, hi-lo), lo
	case lo < s.base:
		w := make([]uint64, hi-lo, hi-lo+4)
		copy(w[s.base-lo:], s.w)
		s.w, s.base = w, lo
	default:
		s.w = append(s.w, make([]uint64, hi-s.base-len(s.w))...)
	}
	s.w[wi-s.base] |= 1 << (i & 63)
	return false
}

// densify turns set s's map back into a bitset when the bitset over its span
// takes at most room words (a run listing its scenarios in a random order
// while others take the room, say). It is called each time the map's size
// doubles, so it costs O(1) a row.
func (r *aaRunSets) densify(s *aaRunSet, room int64) {
	lo, hi := math.MaxInt, 0
	for i := range s.multi {
		lo, hi = min(lo, i), max(hi, i)
	}
	words := hi>>6 - lo>>6 + 1
	if int64(words) > room {
		return
	}
	s.base, s.w = lo>>6, make([]uint64, words, words+4)
	for i := range s.multi {
		s.w[i>>6-s.base] |= 1 << (i & 63)
	}
	s.multi = nil
	r.words += int64(words)
}
