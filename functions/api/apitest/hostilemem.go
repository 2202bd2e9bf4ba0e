package apitest

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"os"
	"strconv"
	"testing"
	"time"
)

// A MemoryProbe reads a platform's memory around each hostile request, so
// that RunHostileMemory can record what each request took on that runtime:
// the resident memory of the local server's process, the Worker's wasm
// memory and V8 heap.
type MemoryProbe struct {
	What string // what is measured, for the log: "resident memory (VmHWM)"
	// Start is called before each request and returns the figure then,
	// after starting a new peak where the platform can (clear_refs).
	Start func() (uint64, error)
	// Peak is called after the request and returns the most the figure
	// reached since Start.
	Peak func() (uint64, error)
	// Cap is a bound on Peak itself, whatever the request (a Workers
	// isolate's 128 MB); 0 for none.
	Cap uint64
}

// RunHostileMemory sends every case with do, checks the answers as
// RunHostile does, and records what each request took: the peak above the
// figure at its start. A request fails past twice its body plus 32 MB (the
// body as sent, of at most limit bytes), and past probe.Cap.
func RunHostileMemory(t *testing.T, runtime string, cases []Hostile, limit int64, probe MemoryProbe, do func(Hostile) (int, http.Header, []byte, error)) {
	t.Helper()
	var worst uint64
	worstName := ""
	for _, h := range cases {
		body, _, err := h.Payload("", limit)
		if err != nil {
			t.Fatalf("%s: %v", h.Name, err)
		}
		start, err := probe.Start()
		if err != nil {
			t.Fatalf("%s: %s: %v", runtime, h.Name, err)
		}
		began := time.Now()
		status, hdr, answer, err := do(h)
		answered := time.Since(began)
		if err == nil {
			err = h.Check(status, hdr, answer)
		}
		if err != nil {
			t.Errorf("%s: %s: %v", runtime, h.Name, err)
		}
		peak, err := probe.Peak()
		probed := time.Since(began) - answered
		if err != nil {
			t.Fatalf("%s: %s: %v", runtime, h.Name, err)
		}
		took := uint64(0)
		if peak > start {
			took = peak - start
		}
		if took > worst {
			worst, worstName = took, h.Name
		}
		if testing.Verbose() {
			t.Logf("%s: %s: status %d in %v (then %v to measure), body %d bytes, %s %.1f MB, %.1f MB above its start", runtime, h.Name, status, answered.Round(time.Millisecond), probed.Round(time.Millisecond), len(body), probe.What, float64(peak)/1e6, float64(took)/1e6)
		}
		if bound := 2*uint64(len(body)) + 32<<20; took > bound {
			t.Errorf("%s: %s: %s rose by %.1f MB for a body of %d bytes, over %.1f MB", runtime, h.Name, probe.What, float64(took)/1e6, len(body), float64(bound)/1e6)
		}
		if probe.Cap > 0 && peak > probe.Cap {
			t.Errorf("%s: %s: %s reached %.1f MB, over %s", runtime, h.Name, probe.What, float64(peak)/1e6, mb(probe.Cap))
		}
	}
	t.Logf("%s: %d hostile requests; the most %s any took: %.1f MB above its start (%s)", runtime, len(cases), probe.What, float64(worst)/1e6, worstName)
}

func mb(n uint64) string { return fmt.Sprintf("%.0f MB", float64(n)/1e6) }

// CutTo returns the cases with every generated body longer than max bytes
// cut to its first max: Lambda's Function URLs refuse an event over 6 MB
// before the function runs, and the emulator cannot pass one, so a 30 MB
// hostile body reaches the function as the part of it that could.
func CutTo(cases []Hostile, max int) []Hostile {
	out := make([]Hostile, len(cases))
	for i, h := range cases {
		if gen := h.Gen; gen != nil {
			h.Gen = func(w io.Writer) {
				lw := &limitWriter{w: w, left: max}
				gen(lw)
			}
		}
		out[i] = h
	}
	return out
}

// limitWriter passes on its first left bytes and drops the rest.
type limitWriter struct {
	w    io.Writer
	left int
}

func (l *limitWriter) Write(p []byte) (int, error) {
	n := len(p)
	if len(p) > l.left {
		p = p[:l.left]
	}
	l.left -= len(p)
	if len(p) > 0 {
		if _, err := l.w.Write(p); err != nil {
			return 0, err
		}
	}
	return n, nil
}

// ProcessMemory probes a process's resident memory on Linux: before each
// request, writing 5 to /proc/PID/clear_refs starts a new peak (VmHWM) at
// the memory resident then (VmRSS); after it, VmHWM is the peak. pid gives
// the process id, 0 while there is no process yet (the figure is then 0).
func ProcessMemory(pid func() int) MemoryProbe {
	status := func(field string) (uint64, error) {
		p := pid()
		if p == 0 {
			return 0, nil
		}
		b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", p))
		if err != nil {
			return 0, err
		}
		for _, line := range bytes.Split(b, []byte("\n")) {
			if f := bytes.Fields(line); len(f) >= 2 && string(f[0]) == field+":" {
				kb, err := strconv.ParseUint(string(f[1]), 10, 64)
				return kb << 10, err
			}
		}
		return 0, fmt.Errorf("no %s in /proc/%d/status", field, p)
	}
	return MemoryProbe{
		What: "resident memory",
		Start: func() (uint64, error) {
			if p := pid(); p != 0 {
				if err := os.WriteFile(fmt.Sprintf("/proc/%d/clear_refs", p), []byte("5"), 0); err != nil {
					return 0, err
				}
			}
			return status("VmRSS")
		},
		Peak: func() (uint64, error) { return status("VmHWM") },
	}
}
