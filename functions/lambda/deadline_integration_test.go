//go:build integration

package main

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/flakegate/flakegate/functions/api"
	"github.com/flakegate/flakegate/functions/api/apitest"
)

// TestLambdaDeadline runs the bootstrap under the emulator with a timeout
// of a third of the time the largest simulation Lambda's work budget
// accepts takes in process, and at least Lambda's shortest, 1 s (the
// simulation takes over a second on this machine; more on a loaded one,
// where reading the request alone may take a second), and
// sends that simulation: the API stops it and answers its own 503 problem
// (nosniff, CORS) before the platform's timeout, and the function answers
// the next request as usual.
func TestLambdaDeadline(t *testing.T) {
	var sim apitest.Case
	for _, c := range apitest.Worst(api.LambdaMaxBodyBytes, api.LambdaWorkSteps) {
		if strings.HasPrefix(c.Name, "worst-aa-simulation") {
			sim = c
		}
	}
	// In process, without a deadline, it takes a second or more. Under the
	// shortest timeout Lambda has, 1 s, the request's context ends
	// deadlineMargin before it, at 0.5 s: half the work's own time at most,
	// so the stop is the API's, well before the platform's.
	cost, err := apitest.Measure(api.New(api.LambdaOptions()), sim, corpusDir, api.LambdaMaxBodyBytes)
	if err != nil {
		t.Fatal(err)
	}
	if least := 2 * (time.Second - deadlineMargin); cost.Status != 200 || cost.Wall < least {
		t.Fatalf("%s in process: status %d in %v, want a 200 after %v or more", sim.Name, cost.Status, cost.Wall, least)
	}
	timeout := max(1, int(cost.Wall.Seconds()/3))
	t.Logf("the function's timeout: %d s", timeout)
	base, logs := startEmulator(t, fmt.Sprintf("AWS_LAMBDA_FUNCTION_TIMEOUT=%d", timeout))
	start := time.Now()
	got := invoke(t, sim.Name, base, event(t, sim, false))
	took := time.Since(start)
	t.Logf("%s: %d after %v (in process, without a deadline: 200 after %v)", sim.Name, got.Status, took.Round(time.Millisecond), cost.Wall.Round(time.Millisecond))
	if got.Status != 503 || got.Header.Get("Content-Type") != "application/problem+json" ||
		got.Header.Get("X-Content-Type-Options") != "nosniff" || got.Header.Get("Access-Control-Allow-Origin") != "*" ||
		!strings.Contains(string(got.Body), "stopped before it was answered") {
		t.Errorf("status %d, headers %v: %s\nemulator log:\n%s", got.Status, got.Header, got.Body, logs.String())
	}
	health := invoke(t, "health", base, event(t, apitest.Case{Name: "health", Method: "GET", URL: "/v1/health"}, false))
	if health.Status != 200 {
		t.Errorf("the next request: %d %s", health.Status, health.Body)
	}
}
