package api

import (
	"context"
	"encoding/json"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/flakegate/flakegate/core"
	"github.com/flakegate/flakegate/functions/api/apitest"
)

// Bounds every accepted request must keep, on every platform: Lambda turns
// an answer over 6 MiB into a 502, and 64 MB is half the Worker's memory.
const (
	lambdaAnswerLimit = 6 << 20
	requestHeapLimit  = 64 << 20
)

// TestWorstAccepted serves the worst request each route accepts, with the
// local server's, Lambda's and the Worker's limits, and measures it: the answer
// must be under Lambda's 6 MiB and the heap the request takes under 64 MB.
// The request holds the body too, which the platform has in memory before
// the handler starts on Lambda; it is counted, as a request with a fresh
// copy of it.
func TestWorstAccepted(t *testing.T) {
	if testing.Short() {
		t.Skip("the worst requests take a few seconds each")
	}
	for _, opt := range []Options{LocalOptions(), LambdaOptions(), WorkerOptions()} {
		h := New(opt)
		for _, c := range apitest.Worst(opt.maxBody(), opt.workSteps()) {
			cost, err := apitest.Measure(h, c, "testdata", opt.maxBody())
			if err != nil {
				t.Fatal(err)
			}
			// The heap counted includes garbage not yet swept, which a
			// loaded machine leaves longer: over the limit, the request is
			// measured twice more and the least of the three counts (a
			// request that really holds too much is over it every time).
			for try := 0; try < 2 && cost.PeakHeap >= requestHeapLimit; try++ {
				again, err := apitest.Measure(h, c, "testdata", opt.maxBody())
				if err != nil {
					t.Fatal(err)
				}
				t.Logf("%s: peak heap %.1f MB, measured again: %.1f MB", c.Name, float64(cost.PeakHeap)/1e6, float64(again.PeakHeap)/1e6)
				cost.PeakHeap = min(cost.PeakHeap, again.PeakHeap)
			}
			t.Logf("body limit %s, %.0e steps: %s: body %s bytes, answer %s bytes, peak heap %.1f MB, CPU %v",
				byteSize(opt.maxBody()), opt.workSteps(), c.Name, count(int(cost.BodyBytes)), count(cost.AnswerBytes), float64(cost.PeakHeap)/1e6, cost.CPU)
			if cost.Status != 200 {
				t.Errorf("%s: status %d, want it accepted", c.Name, cost.Status)
				continue
			}
			if cost.AnswerBytes > MaxAnswerBytes || cost.AnswerBytes >= lambdaAnswerLimit {
				t.Errorf("%s: answer of %d bytes", c.Name, cost.AnswerBytes)
			}
			if cost.PeakHeap >= requestHeapLimit {
				t.Errorf("%s: peak heap %.1f MB, over 64 MB", c.Name, float64(cost.PeakHeap)/1e6)
			}
		}
	}
}

// TestPastLimits: one more of what a worst request is made of is a 413
// that names the limit and what to do instead, and the refusal itself
// stays under 64 MB of heap.
func TestPastLimits(t *testing.T) {
	h := New(LambdaOptions())
	for _, c := range apitest.PastLimits() {
		cost, err := apitest.Measure(h, c, "testdata", LambdaMaxBodyBytes)
		if err != nil {
			t.Fatal(err)
		}
		got, _ := apitest.InProcess(h, c, "testdata", LambdaMaxBodyBytes)
		var p problem
		if err := json.Unmarshal(got.Body, &p); err != nil || got.Status != 413 || p.Kind != core.TooLarge {
			t.Errorf("%s: %d %.300s", c.Name, got.Status, got.Body)
			continue
		}
		if cost.PeakHeap >= requestHeapLimit {
			t.Errorf("%s: peak heap %.1f MB while refusing it, over 64 MB", c.Name, float64(cost.PeakHeap)/1e6)
		}
		t.Logf("%s: %s (CPU %v, peak heap %.1f MB)", c.Name, p.Detail, cost.CPU, float64(cost.PeakHeap)/1e6)
	}
}

// TestStopsWhenCancelled: a request whose context ends (the client left,
// the platform's deadline passed) stops its analysis and answers 503
// instead of finishing: the simulation below would take seconds.
func TestStopsWhenCancelled(t *testing.T) {
	h := New(LocalOptions())
	for _, c := range apitest.Worst(DefaultMaxBodyBytes, DefaultWorkSteps) {
		if !strings.HasPrefix(c.Name, "worst-aa-simulation") && !strings.HasPrefix(c.Name, "worst-aa-5000-runs") {
			continue
		}
		r, err := c.NewRequest("testdata", "", DefaultMaxBodyBytes)
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithTimeout(r.Context(), 20*time.Millisecond)
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r.WithContext(ctx))
		cancel()
		if w.Code != 503 || !strings.Contains(w.Body.String(), "stopped before it was answered") {
			t.Errorf("%s: %d %s", c.Name, w.Code, w.Body)
		}
	}
}

// TestHealthStatesLimits: /v1/health reports the deployment's limits.
func TestHealthStatesLimits(t *testing.T) {
	var hl Health
	decode(t, serve(New(LambdaOptions()), "GET", "/v1/health", "", ""), &hl)
	want := Limits{MaxBodyBytes: LambdaMaxBodyBytes, MaxAnswerBytes: MaxAnswerBytes, Rates: MaxRates, Tests: MaxTests,
		Cells: MaxCells, Scenarios: MaxScenarios, Runs: MaxRuns, WorkSteps: LambdaWorkSteps, UnzippedBytes: MaxHistoryUnzippedBytes}
	if hl.Limits != want {
		t.Errorf("limits %+v, want %+v", hl.Limits, want)
	}
}
