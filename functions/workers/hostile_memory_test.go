//go:build !js && integration

package main

import (
	"testing"

	"github.com/flakegate/flakegate/functions/api"
	"github.com/flakegate/flakegate/functions/api/apitest"
)

// TestWorkerHostileMemory runs the hostile-input suite against the test
// build of the Worker under wrangler dev and records, per request, what the
// isolate holds: the wasm memory Go has (it only grows, so it is the peak
// so far) and V8's heap after a collection. A request fails when it grows
// them by more than twice its body plus 32 MB, or when they reach a
// Workers isolate's 128 MB.
func TestWorkerHostileMemory(t *testing.T) {
	needWrangler(t)
	s := startWorker(t, buildWorker(t, "workertest"))
	client := s.Client(nil)
	figure := func() (uint64, error) {
		return uint64(getStats(t, client, s.URL).Shim.WasmMemory + isolateHeap(t, s)), nil
	}
	probe := apitest.MemoryProbe{What: "wasm memory and V8 heap", Start: figure, Peak: figure, Cap: 128 << 20}
	apitest.RunHostileMemory(t, "Worker", apitest.HostileCases(), api.DefaultMaxBodyBytes, probe, retryRestart(t, hostileDo(s)))
}
