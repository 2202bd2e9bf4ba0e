//go:build integration

package main

import (
	"testing"

	"github.com/flakegate/flakegate/functions/api"
	"github.com/flakegate/flakegate/functions/api/apitest"
)

// TestServeHostile runs the hostile-input suite against the real local
// server over HTTP, and the raw framing cases on its connections.
func TestServeHostile(t *testing.T) {
	base := startServer(t, writeSite(t, decoyHeaders))
	apitest.RunHostile(t, "local server", apitest.HostileCases(), apitest.HTTPDo(base, api.DefaultMaxBodyBytes))
	apitest.RunRawHostileAt(t, "local server", base, apitest.RawHostileCases(api.DefaultMaxBodyBytes))
}
