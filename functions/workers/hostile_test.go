//go:build !js && integration

package main

import (
	"testing"

	"github.com/flakegate/flakegate/functions/api"
	"github.com/flakegate/flakegate/functions/api/apitest"
)

// TestWorkerHostile runs the hostile-input suite against the deployed
// Worker's build under wrangler dev, and the raw framing cases on its
// connections.
func TestWorkerHostile(t *testing.T) {
	needWrangler(t)
	s := startWorker(t, buildWorker(t))
	apitest.RunHostile(t, "Worker", apitest.HostileCases(), retryRestart(t, apitest.HTTPDo(s.URL, api.DefaultMaxBodyBytes)))
	apitest.RunRawHostileAt(t, "Worker", s.URL, apitest.RawHostileCases(api.DefaultMaxBodyBytes))
}
