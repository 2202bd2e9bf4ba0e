//go:build wasm
// +build wasm

package app

// flakegate: GenerateStaticWebsite and Handler are not part of the
// WebAssembly build.

func wasmExecJS() string {
	return ""
}
