//go:build wasm

package main

// generate is the native static-site generator; the browser build has none.
func generate() {}
