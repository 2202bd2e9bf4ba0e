package compare

import (
	"cmp"
	"slices"
)

// Holm returns Holm's step-down adjusted p-values of ps, in ps's order:
// with p_(1) <= ... <= p_(m) sorted,
//
//	adj_(i) = min(1, max_{j<=i} (m−j+1)·p_(j))
//
// the floating-point operations of statsmodels' multipletests(method=
// "holm"): each product p·(m−i+1) rounded once, a running maximum, values
// above 1 set to 1. Holm (1979) controls the family-wise error rate: the
// chance of one or more false rejections among all m tests is at most α
// when every adjusted p below α is rejected, whatever the tests'
// dependence. Ties in ps give tied adjusted values whatever their order.
func Holm(ps []float64) []float64 {
	m := len(ps)
	order := ascending(ps)
	out := make([]float64, m)
	run := 0.0
	for i, k := range order {
		run = max(run, ps[k]*float64(m-i))
		out[k] = min(run, 1)
	}
	return out
}

// BH returns Benjamini and Hochberg's step-up adjusted p-values of ps (the
// false discovery rate), in ps's order: with p_(1) <= ... <= p_(m),
//
//	adj_(i) = min(1, min_{j>=i} p_(j) / (j/m))
//
// the floating-point operations of statsmodels' fdrcorrection (method
// "indep", multipletests' "fdr_bh"): j/m rounded, then the quotient, a
// running minimum from the largest, values above 1 set to 1. BH (1995)
// keeps the expected share of false rejections among the rejections at or
// below α for independent or positively dependent tests.
func BH(ps []float64) []float64 {
	m := len(ps)
	order := ascending(ps)
	out := make([]float64, m)
	run := 0.0
	for i := m - 1; i >= 0; i-- {
		k := order[i]
		q := ps[k] / (float64(i+1) / float64(m))
		if i == m-1 || q < run {
			run = q
		}
		out[k] = min(run, 1)
	}
	return out
}

// ascending is the indices of ps, smallest p first, ties in ps's order.
func ascending(ps []float64) []int {
	order := make([]int, len(ps))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(x, y int) int { return cmp.Compare(ps[x], ps[y]) })
	return order
}
