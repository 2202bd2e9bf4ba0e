package stat

import (
	"math"
)

// Sum adds float64 values without losing bits and rounds once at the
// end: the sum it reports is the exact sum of everything added, rounded to the
// nearest float64 (ties to even). It is Shewchuk's algorithm with the
// half-way correction of CPython's math.fsum, so it returns what Python's
// math.fsum and statistics.fmean (which is Fsum(data)/n) return for the same
// values, in any order.
//
// Infinities and NaNs follow IEEE rules (+Inf plus -Inf is NaN). Where Python
// raises on an intermediate overflow of finite values, Sum reports the
// infinity the overflowing partial reached.
//
// The zero value is an empty sum.
type Sum struct {
	partials []float64 // non-overlapping, increasing in magnitude
	special  float64   // sum of the non-finite values added, or 0
	inf      float64   // sum of the infinities added, or 0
	overflow float64   // ±Inf once finite values overflowed, or 0
}

// add adds x to the sum.
func (s *Sum) Add(x float64) {
	xsave := x
	i := 0
	for _, y := range s.partials {
		if math.Abs(x) < math.Abs(y) {
			x, y = y, x
		}
		hi := x + y
		lo := y - (hi - x)
		if lo != 0 {
			s.partials[i] = lo
			i++
		}
		x = hi
	}
	s.partials = s.partials[:i]
	if x == 0 {
		return
	}
	if math.IsInf(x, 0) || math.IsNaN(x) {
		if !math.IsInf(xsave, 0) && !math.IsNaN(xsave) {
			s.overflow = x // finite values overflowed
		} else {
			if math.IsInf(xsave, 0) {
				s.inf += xsave
			}
			s.special += xsave
		}
		s.partials = s.partials[:0]
		return
	}
	s.partials = append(s.partials, x)
}

// sum returns the correctly rounded sum of the values added so far.
func (s *Sum) Sum() float64 {
	if s.special != 0 || math.IsNaN(s.special) {
		if math.IsNaN(s.inf) {
			return math.NaN()
		}
		return s.special
	}
	if s.overflow != 0 {
		return s.overflow
	}
	p := s.partials
	n := len(p)
	if n == 0 {
		return 0
	}
	n--
	hi := p[n]
	lo := 0.0
	for n > 0 {
		x := hi
		n--
		y := p[n]
		hi = x + y
		lo = y - (hi - x)
		if lo != 0 {
			break
		}
	}
	// Round half to even across several partials: when the partial below the
	// one that stopped the loop has the same sign as lo, the true sum is past
	// the half-way point hi+lo, so round away from hi.
	if n > 0 && ((lo < 0 && p[n-1] < 0) || (lo > 0 && p[n-1] > 0)) {
		y := float64(lo * 2) // the conversion forbids fusing into hi + lo*2
		x := hi + y
		if y == x-hi {
			hi = x
		}
	}
	return hi
}

// Fsum returns the correctly rounded sum of xs, as Python's math.fsum.
func Fsum(xs []float64) float64 {
	var s Sum
	for _, x := range xs {
		s.Add(x)
	}
	return s.Sum()
}

// Fmean returns Fsum(xs)/len(xs), as Python's statistics.fmean; NaN when xs
// is empty.
func Fmean(xs []float64) float64 {
	if len(xs) == 0 {
		return math.NaN()
	}
	return Fsum(xs) / float64(len(xs))
}
