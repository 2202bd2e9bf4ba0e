//go:build js

package sorts

// Func sorts s as slices.SortFunc(s, cmp) does, by its indices.
func Func[S ~[]E, E any](s S, cmp func(a, b E) int) { indexFunc(s, cmp) }

// Stable sorts s as slices.SortStableFunc(s, cmp) does, by its
// indices.
func Stable[S ~[]E, E any](s S, cmp func(a, b E) int) { indexStableFunc(s, cmp) }
