package main

import (
	"bytes"
	"strings"
	"testing"
)

// TestSeedCSV: the bench's upload has the shape SeedCSV states and is the same
// bytes every time.
func TestSeedCSV(t *testing.T) {
	a, b := SeedCSV(200, 20), SeedCSV(200, 20)
	if !bytes.Equal(a, b) {
		t.Fatal("SeedCSV is not deterministic")
	}
	lines := strings.Split(strings.TrimSpace(string(a)), "\n")
	if lines[0] != "scenario,run,passed" || len(lines) != 1+200*20 {
		t.Errorf("header %q and %d lines, want 4001", lines[0], len(lines))
	}
}

// TestParseWrk reads a summary as wrk 4.1 prints it.
func TestParseWrk(t *testing.T) {
	r, err := parseWrk(`Running 3s test @ http://127.0.0.1:1/v1/budget
  1 threads and 8 connections
  Latency Distribution
     50%  210.00us
     75%  300.00us
     90%  400.00us
     99%    1.20ms
  30123 requests in 3.00s, 20.00MB read
  Socket errors: connect 0, read 1, write 0, timeout 2
  Non-2xx or 3xx responses: 5
Requests/sec:  10041.00
Transfer/sec:      6.67MB
`)
	if err != nil {
		t.Fatal(err)
	}
	if r.Requests != 30123 || r.Seconds != 3 || r.RequestsSec != 10041 || r.Non2xx != 5 || r.SocketErrs != 3 ||
		r.LatencyP50 != "210.00us" || r.LatencyP99 != "1.20ms" {
		t.Errorf("%+v", r)
	}
}
