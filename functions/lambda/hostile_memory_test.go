//go:build integration

package main

import (
	"bytes"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/flakegate/flakegate/functions/api"
	"github.com/flakegate/flakegate/functions/api/apitest"
	"github.com/flakegate/flakegate/functions/lambda/lambdatest"
)

// TestLambdaHostileMemory runs the hostile-input suite against the real
// bootstrap under the emulator and records the resident memory of the
// bootstrap process (the emulator's child) each request takes: writing 5 to
// its /proc/PID/clear_refs starts a new peak (VmHWM) before the request.
// Each must stay within twice its body plus 32 MB.
func TestLambdaHostileMemory(t *testing.T) {
	e, err := lambdatest.Start(root, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(e.Stop)
	pid := 0 // the bootstrap's, once the emulator has started it
	status := func(field string) (uint64, error) {
		if pid == 0 {
			if pid = childNamed(e.Pid(), "bootstrap"); pid == 0 {
				return 0, nil // not started yet: the first request starts it
			}
		}
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
			if pid != 0 {
				if err := os.WriteFile(fmt.Sprintf("/proc/%d/clear_refs", pid), []byte("5"), 0); err != nil {
					return 0, err
				}
			}
			return status("VmRSS")
		},
		Peak: func() (uint64, error) { return status("VmHWM") },
	}
	apitest.RunHostileMemory(t, "Lambda", apitest.CutTo(apitest.HostileCases(), api.LambdaMaxBodyBytes/3), api.LambdaMaxBodyBytes, probe, func(h apitest.Hostile) (int, http.Header, []byte, error) {
		got := invoke(t, h.Name, e.URL, event(t, h.Case, false))
		return got.Status, got.Header, got.Body, nil
	})
}

// childNamed is the process id of a child of parent whose command is name,
// or 0.
func childNamed(parent int, name string) int {
	stats, _ := filepath.Glob("/proc/[0-9]*/stat")
	for _, p := range stats {
		b, err := os.ReadFile(p)
		if err != nil {
			continue
		}
		// pid (comm) state ppid ...
		open, close := bytes.IndexByte(b, '('), bytes.LastIndexByte(b, ')')
		if open < 0 || close < open {
			continue
		}
		f := bytes.Fields(b[close+1:])
		if string(b[open+1:close]) != name || len(f) < 2 {
			continue
		}
		if ppid, _ := strconv.Atoi(string(f[1])); ppid == parent {
			pid, _ := strconv.Atoi(string(bytes.TrimSpace(b[:open])))
			return pid
		}
	}
	return 0
}
