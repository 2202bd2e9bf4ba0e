//go:build integration

package main

import (
	"net/http"
	"testing"

	"github.com/flakegate/flakegate/functions/api"
	"github.com/flakegate/flakegate/functions/api/apitest"
)

// TestLambdaHostile runs the hostile-input suite against the real
// bootstrap under the emulator, each request as a Function URL event; a
// generated body over Lambda's limit arrives cut to one byte past it.
func TestLambdaHostile(t *testing.T) {
	base, _ := startEmulator(t)
	apitest.RunHostile(t, "Lambda", apitest.CutTo(apitest.HostileCases(), api.LambdaMaxBodyBytes/3), func(h apitest.Hostile) (int, http.Header, []byte, error) {
		got := invoke(t, h.Name, base, event(t, h.Case, false))
		return got.Status, got.Header, got.Body, nil
	})
}
