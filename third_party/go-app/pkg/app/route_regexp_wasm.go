//go:build wasm

package app

// flakegate: see route_regexp.go.
func compileRoutePattern(pattern string) interface{ MatchString(string) bool } {
	panic("app.RouteWithRegexp(" + pattern + "): regexp routes are not compiled into this WebAssembly build")
}
