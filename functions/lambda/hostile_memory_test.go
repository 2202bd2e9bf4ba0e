//go:build integration

package main

import (
	"bytes"
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
// bootstrap process (the emulator's child) each request takes
// (apitest.ProcessMemory). Each must stay within twice its body plus 32 MB.
func TestLambdaHostileMemory(t *testing.T) {
	e, err := lambdatest.Start(root, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(e.Stop)
	pid := 0 // the bootstrap's, once the emulator has started it
	probe := apitest.ProcessMemory(func() int {
		if pid == 0 {
			pid = childNamed(e.Pid(), "bootstrap")
		}
		return pid
	})
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
