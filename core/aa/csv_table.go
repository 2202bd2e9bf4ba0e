package aa

import (
	"encoding/binary"
	"hash/maphash"
	"math"
	"math/bits"
)

// aaScenTable holds the scenarios' state while ReadCSV reads. It is an open
// addressing hash table whose slots are the state itself, one 64-byte cache
// line each: a copy of a short id, the tally and the runs seen. A row then
// costs about one cache miss for its scenario, where a map[string]int and a
// separate tally cost three (on the benchmark's shuffled runs this is what
// the reader's speed comes down to).
type aaScenTable struct {
	seed   maphash.Seed
	s1, s2 uint64   // drawn from seed, for the short-id hash
	slots  []aaScen // len a power of two, at most three quarters full
	ids    []string // the scenarios' ids in order of first appearance
}

// aaScen is one slot: a scenario's state, or empty when idx is 0.
type aaScen struct {
	key           [24]byte // the id when it fits
	klen          int32    // the id's length, or -1 when longer than 2^31
	idx           int32    // index in ids + 1; 0 for an empty slot
	passed, total int64
	first         [2]uint64 // runs 0..127
}

func newAAScenTable() *aaScenTable {
	seed := maphash.MakeSeed()
	return &aaScenTable{seed: seed, s1: maphash.String(seed, "1"), s2: maphash.String(seed, "2"), slots: make([]aaScen, 256)}
}

// hash hashes an id with the table's random seed. Ids of up to 16 bytes, the
// common case, take a few inlined multiplications (the wyhash mix Go's own
// fallback hash uses); longer ones go to hash/maphash.
func (t *aaScenTable) hash(b []byte) uint64 {
	n := len(b)
	var x, y uint64
	switch {
	case n > 16:
		return maphash.Bytes(t.seed, b)
	case n >= 8:
		x, y = binary.LittleEndian.Uint64(b), binary.LittleEndian.Uint64(b[n-8:])
	case n >= 4:
		x, y = uint64(binary.LittleEndian.Uint32(b)), uint64(binary.LittleEndian.Uint32(b[n-4:]))
	case n > 0:
		x, y = uint64(b[0])<<16|uint64(b[n>>1])<<8|uint64(b[n-1]), 0
	}
	hi, lo := bits.Mul64(x^t.s1, y^t.s2^uint64(n))
	hi, lo = bits.Mul64(hi^lo^0xa0761d6478bd642f, t.s1^0xe7037ed1a0b428db)
	return hi ^ lo
}

func (t *aaScenTable) equal(s *aaScen, b []byte) bool {
	if int(s.klen) != len(b) {
		return false
	}
	if len(b) <= len(s.key) {
		return string(s.key[:len(b)]) == string(b)
	}
	return t.ids[s.idx-1] == string(b)
}

// find returns the slot of scenario b, or -1 and the hash to add it with.
func (t *aaScenTable) find(b []byte) (int, uint64) {
	h := t.hash(b)
	mask := uint64(len(t.slots) - 1)
	for i := h & mask; ; i = (i + 1) & mask {
		s := &t.slots[i]
		if s.idx == 0 {
			return -1, h
		}
		if t.equal(s, b) {
			return int(i), h
		}
	}
}

// add adds scenario b, which find did not find, with its hash h, and returns
// its slot.
func (t *aaScenTable) add(b []byte, h uint64) int {
	if 4*(len(t.ids)+1) > 3*len(t.slots) {
		old := t.slots
		t.slots = make([]aaScen, 2*len(old))
		for k := range old {
			if old[k].idx != 0 {
				t.slots[t.free(t.hash([]byte(t.ids[old[k].idx-1])))] = old[k]
			}
		}
	}
	t.ids = append(t.ids, string(b))
	i := t.free(h)
	s := &t.slots[i]
	s.klen, s.idx = int32(min(len(b), math.MaxInt32)), int32(len(t.ids))
	copy(s.key[:], b)
	return i
}

// free returns the first empty slot from h's.
func (t *aaScenTable) free(h uint64) int {
	mask := uint64(len(t.slots) - 1)
	for i := h & mask; ; i = (i + 1) & mask {
		if t.slots[i].idx == 0 {
			return int(i)
		}
	}
}

// aaRunSet is the set of runs a scenario has a row in: a bitset over run
// indices from word base on, or a map when the bitset would be mostly empty
// (a scenario seen in a few runs far apart), so that memory stays within a
// few bytes per row whatever the input.
type aaRunSet struct {
	base  int // index of the first word of w
	w     []uint64
	multi map[int]struct{} // used instead of w once the bits are sparse
}

// mark adds run ri and reports whether it was there already; rows is how
// many rows the scenario had before.
func (s *aaRunSet) mark(ri int, rows int64) bool {
	if s.multi != nil {
		if _, ok := s.multi[ri]; ok {
			return true
		}
		s.multi[ri] = struct{}{}
		return false
	}
	wi := ri >> 6
	if len(s.w) == 0 {
		s.base = wi
		s.w = append(s.w, 0)
	}
	if wi < s.base || wi >= s.base+len(s.w) {
		lo, hi := min(wi, s.base), max(wi+1, s.base+len(s.w))
		if int64(hi-lo) > 4*(rows+1)+8 { // under one bit in 256 would be set
			s.multi = make(map[int]struct{}, rows+1)
			for k, word := range s.w {
				for b := 0; b < 64; b++ {
					if word&(1<<b) != 0 {
						s.multi[(s.base+k)<<6|b] = struct{}{}
					}
				}
			}
			s.w = nil
			s.multi[ri] = struct{}{}
			return false
		}
		if wi < s.base {
			w := make([]uint64, hi-lo, hi-lo+4)
			copy(w[s.base-lo:], s.w)
			s.w, s.base = w, lo
		} else {
			s.w = append(s.w, make([]uint64, hi-s.base-len(s.w))...)
		}
	}
	k, bit := wi-s.base, uint64(1)<<(ri&63)
	if s.w[k]&bit != 0 {
		return true
	}
	s.w[k] |= bit
	return false
}
