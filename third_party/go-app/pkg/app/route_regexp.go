//go:build !wasm

package app

import "regexp"

// flakegate: regexp routes are compiled on the server only; package regexp
// is a twentieth of app.wasm and no page of ours is routed by a pattern.
func compileRoutePattern(pattern string) interface{ MatchString(string) bool } {
	return regexp.MustCompile(pattern)
}
