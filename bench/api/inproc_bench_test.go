package main

import (
	"bytes"
	"net/http/httptest"
	"testing"

	"github.com/flakegate/flakegate/bench/internal/proc"
	"github.com/flakegate/flakegate/functions/api"
)

// BenchmarkPostAA is the work of one POST /v1/aa of the load check's CSV
// (200 scenarios × 20 runs) in process, without a network: with
// GOMAXPROCS=1 and -cpuprofile it shows where a request's time goes. It
// reports the CPU time per request beside the wall time, which on a shared
// machine counts other processes' turns too.
func BenchmarkPostAA(b *testing.B) {
	h := api.New(api.LocalOptions())
	body := SeedCSV(200, 20)
	b.ReportAllocs()
	start := proc.CPUTime()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			req := httptest.NewRequest("POST", "/v1/aa", bytes.NewReader(body))
			req.Header.Set("Content-Type", "text/csv")
			w := httptest.NewRecorder()
			h.ServeHTTP(w, req)
			if w.Code != 200 {
				b.Fatal(w.Code, w.Body.String())
			}
		}
	})
	proc.ReportCPU(b, start)
}
