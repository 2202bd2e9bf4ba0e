//go:build js && wasm && workertest

package main

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"runtime"
	"time"

	"github.com/flakegate/flakegate/functions/workers/bridge"
)

// The test build of the Worker (-tags workertest) answers to these, for the
// tests under wrangler dev only; the deployed build has none of them (its
// test checks that it answers them as any unknown request).
const (
	// testHeader: "panic" makes a request's body panic when read, inside
	// the API's handler, which recovers; "crash" panics on another
	// goroutine, which ends the Go program; "grow" holds 80 MiB while it
	// answers.
	testHeader = "X-Flakegate-Test"
	// statsPath answers the instance's figures as JSON.
	statsPath = "/v1/_test/stats"
)

var startedAt = time.Now()

func hooks(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch {
		case r.URL.Path == statsPath:
			writeStats(w)
		case r.Header.Get(testHeader) == "panic":
			r.Body = panicBody{}
			h.ServeHTTP(w, r)
		case r.Header.Get(testHeader) == "grow":
			// Hold 80 MiB while answering, as a large upload would.
			held := make([]byte, 80<<20)
			for i := 0; i < len(held); i += 4096 {
				held[i] = 1
			}
			fmt.Fprintf(w, "held %d bytes\n", len(held))
			runtime.KeepAlive(held)
		case r.Header.Get(testHeader) == "crash":
			stop := make(chan struct{})
			go func() { panic("flakegate worker test: a crash on another goroutine") }()
			<-stop
		default:
			h.ServeHTTP(w, r)
		}
	})
}

// panicBody panics at the first read, as a bug in a parser would.
type panicBody struct{}

func (panicBody) Read([]byte) (int, error) {
	panic("flakegate worker test: a panic while reading the body")
}
func (panicBody) Close() error { return nil }

var _ io.ReadCloser = panicBody{}

// writeStats collects garbage first, so that the heap figures are what is
// live and the JavaScript references are those still held.
func writeStats(w http.ResponseWriter) {
	for range 2 {
		runtime.GC()
		runtime.Gosched() // let finalizers release JavaScript references
	}
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	out := struct {
		Shim       json.RawMessage `json:"shim"`
		StartedAt  string          `json:"started_at"`
		Goroutines int             `json:"goroutines"`
		HeapAlloc  uint64          `json:"heap_alloc_bytes"`
		HeapSys    uint64          `json:"heap_sys_bytes"`
		Sys        uint64          `json:"sys_bytes"`
		NumGC      uint32          `json:"num_gc"`
		TotalAlloc uint64          `json:"total_alloc_bytes"`
	}{json.RawMessage(bridge.ShimStats()), startedAt.Format(time.RFC3339Nano), runtime.NumGoroutine(),
		m.HeapAlloc, m.HeapSys, m.Sys, m.NumGC, m.TotalAlloc}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	if err := json.NewEncoder(w).Encode(out); err != nil {
		fmt.Fprintln(w, err)
	}
}
