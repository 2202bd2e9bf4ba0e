package aa

import (
	"math"
	"math/bits"

	"github.com/flakegate/flakegate/core/stat"
)

// probSum is stat.Sum for what the in-depth analyses add up: probabilities
// and their products, finite and in [0, 1]. It gives the same bits — the
// exact sum rounded once, half to even — but keeps the exact sum as one
// fixed-point integer, so adding a value costs a few word additions
// whatever the magnitudes added before. (stat.Sum keeps non-overlapping
// partials, and a Poisson binomial's pmf, from 1e-80 up to 0.1, leaves it
// dozens to walk on every addition: most of the fixed-drop rule's time.)
//
// A value outside [0, 2^64) (a negative, an infinity, NaN) moves the sum so
// far, exactly, to a stat.Sum, which takes everything from then on.
type probSum struct {
	// w is the sum in units of 2^-1074 (the smallest subnormal), w[0]
	// least significant: a finite double below 2^64 is at most 1,138 bits
	// above that unit, and 2^20 such values add 20 bits.
	w    [probSumWords]uint64
	top  int       // no word above w[top] is non-zero
	slow *stat.Sum // after a value outside [0, 2^64)
}

const probSumWords = 19 // 1,216 bits

// Add adds x.
func (s *probSum) Add(x float64) {
	if s.slow != nil {
		s.slow.Add(x)
		return
	}
	if !(x >= 0 && x < 1<<64) {
		s.toSlow()
		s.slow.Add(x)
		return
	}
	b := math.Float64bits(x)
	exp := int(b>>52) & 0x7ff // x >= 0: the sign bit is set only for -0
	mant := b & (1<<52 - 1)
	shift := 0 // x = mant·2^(shift-1074)
	if exp > 0 {
		mant |= 1 << 52
		shift = exp - 1
	}
	if mant == 0 {
		return
	}
	i, sh := shift>>6, uint(shift&63)
	lo, hi := mant<<sh, uint64(0)
	if sh > 0 {
		hi = mant >> (64 - sh)
	}
	var c uint64
	s.w[i], c = bits.Add64(s.w[i], lo, 0)
	s.w[i+1], c = bits.Add64(s.w[i+1], hi, c)
	j := i + 1
	for ; c != 0; j++ {
		s.w[j+1], c = bits.Add64(s.w[j+1], 0, c)
	}
	s.top = max(s.top, j)
}

// toSlow moves the sum to a stat.Sum: each 32-bit half of a word, at its
// weight, is a double exactly, and stat.Sum adds exactly.
func (s *probSum) toSlow() {
	s.slow = new(stat.Sum)
	for i, w := range s.w {
		for k, half := range [2]uint64{w & (1<<32 - 1), w >> 32} {
			if half != 0 {
				s.slow.Add(math.Ldexp(float64(half), 64*i+32*k-1074))
			}
		}
	}
}

// Sum returns the sum of the values added, rounded once to the nearest
// float64, ties to even.
func (s *probSum) Sum() float64 {
	if s.slow != nil {
		return s.slow.Sum()
	}
	t := s.top
	for t > 0 && s.w[t] == 0 {
		t--
	}
	if t == 0 && s.w[0] < 1<<53 {
		return math.Ldexp(float64(s.w[0]), -1074) // exact
	}
	// p is the position of the top bit; keep the 53 bits from p down.
	p := 64*t + bits.Len64(s.w[t]) - 1
	low := p - 52 // the position of the kept bits' lowest
	m := s.bitsFrom(low)
	// Round half to even on the bits below low.
	if half := low - 1; s.bit(half) && (m&1 == 1 || s.anyBelow(half)) {
		m++
	}
	return math.Ldexp(float64(m), low-1074)
}

// bitsFrom returns the 53 bits of the sum from position low up.
func (s *probSum) bitsFrom(low int) uint64 {
	i, sh := low>>6, uint(low&63)
	m := s.w[i] >> sh
	if sh > 0 && i+1 < probSumWords {
		m |= s.w[i+1] << (64 - sh)
	}
	return m & (1<<53 - 1)
}

func (s *probSum) bit(p int) bool { return s.w[p>>6]>>uint(p&63)&1 == 1 }

// anyBelow reports whether a bit below position p is set.
func (s *probSum) anyBelow(p int) bool {
	i := p >> 6
	if s.w[i]&(1<<uint(p&63)-1) != 0 {
		return true
	}
	for i--; i >= 0; i-- {
		if s.w[i] != 0 {
			return true
		}
	}
	return false
}
