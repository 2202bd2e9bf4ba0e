//go:build js && wasm && !workertest

package main

import "net/http"

// hooks adds nothing to the deployed Worker; see hooks_testbuild.go.
func hooks(h http.Handler) http.Handler { return h }
