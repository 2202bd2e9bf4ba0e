package apitest

import (
	"io"
	"net/http"
	"net/http/httptest"
	"runtime"
	"runtime/metrics"
	"sync/atomic"
	"syscall"
	"time"
)

// Cost is what serving one request took in process.
type Cost struct {
	Status      int
	BodyBytes   int64 // of a generated body: what was streamed
	AnswerBytes int
	// PeakHeap is the most heap in use (live and not yet collected
	// objects, as runtime/metrics counts them) while the request was
	// served, above what was in use before it, in bytes: what a platform's
	// memory limit sees of the request.
	PeakHeap uint64
	CPU      time.Duration // user and system CPU time of the process
	Wall     time.Duration
}

// countWriter counts what passes through it.
type countWriter struct {
	w io.Writer
	n atomic.Int64
}

func (c *countWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n.Add(int64(n))
	return n, err
}

const heapMetric = "/memory/classes/heap/objects:bytes"

func heapInUse(s []metrics.Sample) uint64 {
	metrics.Read(s)
	return s[0].Value.Uint64()
}

func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// Measure serves the case with h in process and measures it; the heap is
// sampled every 100 µs. A generated body (Case.Gen) is streamed as it is
// written, as a server reads one from its connection, so that only what
// the handler keeps of it counts. Run nothing else in the process
// meanwhile.
func Measure(h http.Handler, c Case, dir string, limit int64) (Cost, error) {
	var r *http.Request
	var sent countWriter
	if c.Gen != nil {
		pr, pw := io.Pipe()
		sent.w = pw
		go func() { c.Gen(&sent); pw.Close() }()
		r = httptest.NewRequest(c.Method, c.URL, pr)
		r.Header = c.Headers("")
		r.ContentLength = -1
		defer pr.Close()
	} else {
		var err error
		if r, err = c.NewRequest(dir, "", limit); err != nil {
			return Cost{}, err
		}
	}
	runtime.GC()
	s := []metrics.Sample{{Name: heapMetric}}
	base := heapInUse(s)
	var peak atomic.Uint64
	stop := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		s := []metrics.Sample{{Name: heapMetric}}
		t := time.NewTicker(100 * time.Microsecond)
		defer t.Stop()
		for {
			if v := heapInUse(s); v > peak.Load() {
				peak.Store(v)
			}
			select {
			case <-stop:
				return
			case <-t.C:
			}
		}
	}()
	w := httptest.NewRecorder()
	cpu0, t0 := cpuTime(), time.Now()
	h.ServeHTTP(w, r)
	cost := Cost{Status: w.Code, AnswerBytes: w.Body.Len(), CPU: cpuTime() - cpu0, Wall: time.Since(t0)}
	if c.Gen != nil {
		r.Body.Close()
		cost.BodyBytes = sent.n.Load()
	} else {
		cost.BodyBytes = int64(len(c.Body))
	}
	close(stop)
	<-done
	if v := heapInUse(s); v > peak.Load() {
		peak.Store(v)
	}
	if p := peak.Load(); p > base {
		cost.PeakHeap = p - base
	}
	return cost, nil
}
