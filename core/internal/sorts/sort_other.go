//go:build !js

package sorts

import "slices"

// Func is slices.SortFunc.
func Func[S ~[]E, E any](s S, cmp func(a, b E) int) { slices.SortFunc(s, cmp) }

// Stable is slices.SortStableFunc.
func Stable[S ~[]E, E any](s S, cmp func(a, b E) int) { slices.SortStableFunc(s, cmp) }
