//go:build integration

package main

import (
	"bytes"
	"fmt"
	"os"
	"strconv"
	"testing"

	"github.com/flakegate/flakegate/functions/api"
	"github.com/flakegate/flakegate/functions/api/apitest"
)

// TestServeHostileMemory runs the hostile-input suite against the real
// local server and records the resident memory each request takes: before
// each, writing 5 to /proc/PID/clear_refs starts a new peak (VmHWM) at the
// memory resident then (VmRSS); after it, VmHWM is the peak. Each must stay
// within twice its body plus 32 MB.
func TestServeHostileMemory(t *testing.T) {
	base, pid := startServerPID(t, writeSite(t, decoyHeaders))
	status := func(field string) (uint64, error) {
		b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
		if err != nil {
			return 0, err
		}
		for _, line := range bytes.Split(b, []byte("\n")) {
			if f := bytes.Fields(line); len(f) >= 2 && string(f[0]) == field+":" {
				kb, err := strconv.ParseUint(string(f[1]), 10, 64)
				return kb << 10, err
			}
		}
		return 0, fmt.Errorf("no %s in /proc/%d/status", field, pid)
	}
	probe := apitest.MemoryProbe{
		What: "resident memory",
		Start: func() (uint64, error) {
			if err := os.WriteFile(fmt.Sprintf("/proc/%d/clear_refs", pid), []byte("5"), 0); err != nil {
				return 0, err
			}
			return status("VmRSS")
		},
		Peak: func() (uint64, error) { return status("VmHWM") },
	}
	apitest.RunHostileMemory(t, "local server", apitest.HostileCases(), api.DefaultMaxBodyBytes, probe, apitest.HTTPDo(base, api.DefaultMaxBodyBytes))
}
