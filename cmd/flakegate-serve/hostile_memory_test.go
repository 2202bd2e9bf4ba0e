//go:build integration

package main

import (
	"testing"

	"github.com/flakegate/flakegate/functions/api"
	"github.com/flakegate/flakegate/functions/api/apitest"
)

// TestServeHostileMemory runs the hostile-input suite against the real
// local server and records the resident memory each request takes
// (apitest.ProcessMemory: the peak VmHWM above VmRSS at its start). Each
// must stay within twice its body plus 32 MB.
func TestServeHostileMemory(t *testing.T) {
	base, pid := startServerPID(t, writeSite(t, decoyHeaders))
	probe := apitest.ProcessMemory(func() int { return pid })
	apitest.RunHostileMemory(t, "local server", apitest.HostileCases(), api.DefaultMaxBodyBytes, probe, apitest.HTTPDo(base, api.DefaultMaxBodyBytes))
}
