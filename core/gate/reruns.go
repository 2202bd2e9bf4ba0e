package gate

import (
	"math"
	"math/big"

	"github.com/flakegate/flakegate/core/stat"
)

// The rerun budget is the smallest whole k >= 1 with (1-p)^k <= 1-target,
// where p and target are the exact values of the float64 inputs: 1-p and
// 1-target are then exact dyadic rationals, and the boundary is decided
// exactly, ties included (p 0.5 and target 0.75 need exactly 2 reruns).
//
// The fast path is the ratio of logarithms, x = log(1-target)/log(1-p),
// whose exact value X gives k = max(1, ceil(X)). Log1p errs by less than
// an ulp and the division by half of one, so x is within a relative
// 2^-50 of X; with a margin of 2^-46, every k in [ceil(x(1-m)),
// ceil(x(1+m))] is a candidate. Almost always that is one k and no more
// work. When the margin holds a whole number (x is within about 1e-14 of
// an integer, relatively), the candidates are bisected with the exact test
// (1-p)^k <= 1-target in interval arithmetic.

// rerunsMargin is the relative error allowed for the ratio of logarithms:
// 32 times its bound.
const rerunsMargin = 0x1p-46

// maxReruns is the largest budget Reruns holds.
const maxReruns = math.MaxInt64

// reruns returns the rerun budget of a rate p in (0,1) at target in (0,1)
// when it is below 2^63 (ok), else ok is false and est is the ratio of
// logarithms (+Inf beyond float64, for a rate such as 5e-324).
func reruns(p, target float64) (k int64, est float64, ok bool) {
	x := stat.Log1p(-target) / stat.Log1p(-p)
	lo := math.Max(1, math.Ceil(x*(1-rerunsMargin)))
	hi := math.Max(1, math.Ceil(x*(1+rerunsMargin)))
	if lo >= 1<<63 {
		return 0, x, false
	}
	if lo == hi {
		return int64(lo), x, true
	}
	// The exact k is in [lo, hi], and k-1 < lo fails the test: find the
	// first k that passes. Beyond int64, hi stands in for the range.
	b := newRerunsBoundary(p, target)
	klo, khi := int64(lo)-1, int64(maxReruns)
	if hi < 1<<63 {
		khi = int64(hi)
	} else if !b.reaches(khi) {
		return 0, x, false
	}
	for khi-klo > 1 {
		mid := klo + (khi-klo)/2
		if b.reaches(mid) {
			khi = mid
		} else {
			klo = mid
		}
	}
	return khi, x, true
}

// rerunsBoundary decides (1-p)^k <= 1-target exactly.
type rerunsBoundary struct {
	q, r *big.Float // 1-p and 1-target, exact
}

// exactPrec holds 1-x exactly for every float64 x in (0,1): its bits run
// from 2^-1 down to 2^-1074.
const exactPrec = 1100

func newRerunsBoundary(p, target float64) rerunsBoundary {
	one := big.NewFloat(1).SetPrec(exactPrec)
	q := new(big.Float).SetPrec(exactPrec).Sub(one, big.NewFloat(p))
	r := new(big.Float).SetPrec(exactPrec).Sub(one, big.NewFloat(target))
	return rerunsBoundary{q: q, r: r}
}

// maxBoundaryPrec bounds the work of one test. An exact tie (1-p)^k =
// 1-target has at most 1075 significant bits, and so has every partial
// power on the way to it: from 2048 bits on, a tie is computed exactly and
// decided. Interval ends that still straddle 1-target at 16384 bits are a
// power that differs from it, in its 16000th bit or later; no float64 pair
// is known to come that close, and the lower end decides it.
const maxBoundaryPrec = 1 << 14

// reaches reports whether (1-p)^k <= 1-target: it computes lower and
// upper bounds of (1-p)^k with directed rounding, doubling the precision
// while they straddle 1-target.
func (b rerunsBoundary) reaches(k int64) bool {
	for prec := uint(128); ; prec *= 2 {
		low := powRounded(b.q, k, prec, big.ToNegativeInf)
		if low.Cmp(b.r) > 0 {
			return false
		}
		if prec >= maxBoundaryPrec {
			return true
		}
		if powRounded(b.q, k, prec, big.ToPositiveInf).Cmp(b.r) <= 0 {
			return true
		}
	}
}

// powRounded is q^k for q in (0,1) and k >= 1, every step rounded to prec
// bits in mode: a lower bound of the exact power with ToNegativeInf, an
// upper bound with ToPositiveInf (the factors are positive, so rounding
// each one the same way bounds the product).
func powRounded(q *big.Float, k int64, prec uint, mode big.RoundingMode) *big.Float {
	base := new(big.Float).SetMode(mode).SetPrec(prec).Set(q)
	z := new(big.Float).SetMode(mode).SetPrec(prec).SetInt64(1)
	for {
		if k&1 == 1 {
			z.Mul(z, base)
		}
		k >>= 1
		if k == 0 {
			return z
		}
		base.Mul(base, base)
	}
}
