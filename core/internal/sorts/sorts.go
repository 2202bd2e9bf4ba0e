// Package sorts sorts slices of any element type the way the standard
// library's slices.SortFunc and slices.SortStableFunc do, to the same order
// element for element, ties included.
//
// In WebAssembly (GOOS=js: the calculator and the Worker) it sorts the
// elements' indices instead of the elements, so the sorting code is compiled
// once, for []int, and not again for every element type the core sorts:
// that keeps about 100 kB of code out of app.wasm. The order is the same
// because the standard sorts decide every step from the comparison's results
// and the slice's length alone: sorting the indices with cmp(s[i], s[j])
// makes the same comparisons and the same moves, and so the same
// permutation. Elsewhere it calls the standard sorts directly.
package sorts

import "slices"

// byIndex sorts s by sorting its indices with sort (slices.SortFunc or
// slices.SortStableFunc on []int) and then moving each element once.
func byIndex[S ~[]E, E any](s S, cmp func(a, b E) int, sort func([]int, func(i, j int) int)) {
	if len(s) < 2 {
		return
	}
	idx := make([]int, len(s))
	for i := range idx {
		idx[i] = i
	}
	sort(idx, func(i, j int) int { return cmp(s[i], s[j]) })
	sorted := make(S, len(s))
	for k, i := range idx {
		sorted[k] = s[i]
	}
	copy(s, sorted)
}

// indexFunc and indexStableFunc are the index sorts: Func and
// Stable in WebAssembly, and tested on every platform.
func indexFunc[S ~[]E, E any](s S, cmp func(a, b E) int) {
	byIndex(s, cmp, slices.SortFunc[[]int, int])
}

func indexStableFunc[S ~[]E, E any](s S, cmp func(a, b E) int) {
	byIndex(s, cmp, slices.SortStableFunc[[]int, int])
}
