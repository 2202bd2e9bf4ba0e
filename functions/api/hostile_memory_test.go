package api

import (
	"testing"

	"github.com/flakegate/flakegate/functions/api/apitest"
)

// TestHostileMemory serves every hostile request in process with the local
// server's, Lambda's and the Worker's options and records the peak heap
// each takes (apitest.Measure: sampled every 100 µs, above the heap in use
// before it; a generated body is streamed, so only what the handler keeps
// counts). Whatever the request, accepted or refused, the peak stays
// within twice its body plus 32 MB, and under 64 MB: half of a Workers
// isolate's 128 MB. The 30 MB reports are read once, with the local
// options: the Worker's have the same body limit and readers, and Lambda's
// refuse them at 6 MB (the platforms' own runs measure all three).
func TestHostileMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("serves every hostile request three times")
	}
	cases := apitest.HostileCases()
	for _, p := range []struct {
		name string
		opt  Options
	}{{"local", LocalOptions()}, {"lambda", LambdaOptions()}, {"worker", WorkerOptions()}} {
		h := New(p.opt)
		var worst uint64
		worstName := ""
		for _, c := range cases {
			if p.name != "local" && (c.Name == "report-playwright-30mb" || c.Name == "report-gotest-30mb") {
				continue
			}
			cost, err := apitest.Measure(h, c.Case, "testdata", p.opt.maxBody())
			if err != nil {
				t.Fatal(err)
			}
			bound := min(uint64(2*cost.BodyBytes)+32<<20, requestHeapLimit)
			if cost.PeakHeap > bound {
				t.Errorf("%s: %s: peak heap %.1f MB for a body of %d bytes, over %.1f MB", p.name, c.Name, float64(cost.PeakHeap)/1e6, cost.BodyBytes, float64(bound)/1e6)
			}
			if cost.PeakHeap > worst {
				worst, worstName = cost.PeakHeap, c.Name
			}
			if testing.Verbose() {
				t.Logf("%s: %s: status %d, body %d bytes, peak heap %.2f MB", p.name, c.Name, cost.Status, cost.BodyBytes, float64(cost.PeakHeap)/1e6)
			}
		}
		t.Logf("%s: %d hostile requests; the most heap any took: %.1f MB (%s)", p.name, len(cases), float64(worst)/1e6, worstName)
	}
}
