package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/flakegate/flakegate/functions/api"
	"github.com/flakegate/flakegate/functions/api/apitest"
)

// listen serves the local server's handler and http.Server (with opt) on a
// loopback port in process, and returns its address.
func listen(t *testing.T, opt api.Options) string {
	t.Helper()
	h := handler(t, opt, t.TempDir())
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := newServer(h)
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	return ln.Addr().String()
}

// sendAllThenRead writes head and then the whole body before it reads a
// byte of the answer, as Python's urllib and requests do, and returns the
// answer's status and problem detail.
func sendAllThenRead(t *testing.T, addr, head string, body []byte) (int, string) {
	t.Helper()
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(60 * time.Second))
	if _, err := io.WriteString(c, head); err != nil {
		t.Fatalf("writing the head: %v", err)
	}
	if _, err := c.Write(body); err != nil {
		t.Fatalf("the server stopped the upload before the client could read its answer: %v", err)
	}
	resp, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		t.Fatalf("reading the answer: %v", err)
	}
	defer resp.Body.Close()
	var p struct {
		Detail string `json:"detail"`
	}
	raw, _ := io.ReadAll(resp.Body)
	json.Unmarshal(raw, &p)
	return resp.StatusCode, p.Detail
}

// TestEarlyAnswerReachesClient: a client that sends the whole body before
// reading gets the answer, not a reset: a declared length over the limit
// (413 before a byte is read), a chunked body over it, and an upload whose
// first line is wrong (400 at line 1). The limit is lowered to 4 MiB so
// that the bodies are quick to send; what matters is the bytes left unread.
func TestEarlyAnswerReachesClient(t *testing.T) {
	const limit = 4 << 20
	addr := listen(t, api.Options{MaxBodyBytes: limit})
	over := apitest.Oversize(3 * limit)
	status, detail := sendAllThenRead(t, addr, fmt.Sprintf(
		"POST /v1/aa HTTP/1.1\r\nHost: x\r\nContent-Type: text/csv\r\nContent-Length: %d\r\n\r\n", len(over)), over)
	if status != 413 || !strings.Contains(detail, "4 MiB") {
		t.Errorf("declared length over the limit: %d %q", status, detail)
	}
	var chunked bytes.Buffer
	for b := over; len(b) > 0; {
		n := min(len(b), 1<<16)
		fmt.Fprintf(&chunked, "%x\r\n%s\r\n", n, b[:n])
		b = b[n:]
	}
	chunked.WriteString("0\r\n\r\n")
	status, _ = sendAllThenRead(t, addr,
		"POST /v1/aa HTTP/1.1\r\nHost: x\r\nContent-Type: text/csv\r\nTransfer-Encoding: chunked\r\n\r\n", chunked.Bytes())
	if status != 413 {
		t.Errorf("chunked body over the limit: %d", status)
	}
	bad := append([]byte("nonsense header\n"), over[:3*limit/4]...)
	status, detail = sendAllThenRead(t, addr, fmt.Sprintf(
		"POST /v1/aa HTTP/1.1\r\nHost: x\r\nContent-Type: text/csv\r\nContent-Length: %d\r\n\r\n", len(bad)), bad)
	if status != 400 {
		t.Errorf("bad first line of a large upload: %d %q", status, detail)
	}
}

// TestSlowBody: a body trickling a byte a second is cut off once it falls
// behind the pace (bodyGrace, lowered here to 1 s) with a 408, not held
// for the minute the client would take.
func TestSlowBody(t *testing.T) {
	defer func(g time.Duration) { bodyGrace = g }(bodyGrace)
	bodyGrace = time.Second
	addr := listen(t, api.Options{})
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	body := "scenario,run,passed\n" + strings.Repeat("s,r,1\n", 10)
	fmt.Fprintf(c, "POST /v1/aa HTTP/1.1\r\nHost: x\r\nContent-Type: text/csv\r\nContent-Length: %d\r\n\r\n", len(body))
	start := time.Now()
	done := make(chan struct{})
	go func() { // one byte a second until the answer comes
		for i := 0; i < len(body); i++ {
			select {
			case <-done:
				return
			case <-time.After(time.Second):
			}
			if _, err := c.Write([]byte{body[i]}); err != nil {
				return
			}
		}
	}()
	c.SetReadDeadline(time.Now().Add(30 * time.Second))
	resp, err := http.ReadResponse(bufio.NewReader(c), nil)
	close(done)
	if err != nil {
		t.Fatalf("no answer: %v", err)
	}
	raw, _ := io.ReadAll(resp.Body)
	if took := time.Since(start); resp.StatusCode != 408 || took > 10*time.Second {
		t.Errorf("status %d after %v: %s", resp.StatusCode, took.Round(time.Millisecond), raw)
	}
	if !bytes.Contains(raw, []byte("too slowly")) || resp.Header.Get("Content-Type") != "application/problem+json" {
		t.Errorf("answer %q", raw)
	}
}

// statusWriter remembers the status a handler wrote.
type statusWriter struct {
	http.ResponseWriter
	status int
}

func (s *statusWriter) WriteHeader(code int) {
	s.status = code
	s.ResponseWriter.WriteHeader(code)
}

func (s *statusWriter) Unwrap() http.ResponseWriter { return s.ResponseWriter }

// TestStopsWhenClientLeaves: a client sends the largest simulation the
// local budget accepts (seconds of work) and hangs up a moment later; the
// server's A/A check stops (the API writes its 503 to nobody) instead of
// computing to the end for a client that has gone.
func TestStopsWhenClientLeaves(t *testing.T) {
	var sim apitest.Case
	for _, c := range apitest.Worst(api.DefaultMaxBodyBytes, api.DefaultWorkSteps) {
		if strings.HasPrefix(c.Name, "worst-aa-simulation") {
			sim = c
		}
	}
	body, _, err := sim.Payload("", api.DefaultMaxBodyBytes)
	if err != nil {
		t.Fatal(err)
	}
	h := handler(t, api.LocalOptions(), t.TempDir())
	type result struct {
		status int
		at     time.Time
	}
	done := make(chan result, 1)
	srv := newServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		sw := &statusWriter{ResponseWriter: w}
		h.ServeHTTP(sw, r)
		done <- result{sw.status, time.Now()}
	}))
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	c, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	fmt.Fprintf(c, "POST %s HTTP/1.1\r\nHost: x\r\nContent-Type: text/csv\r\nContent-Length: %d\r\n\r\n", sim.URL, len(body))
	c.Write(body)
	time.Sleep(200 * time.Millisecond)
	c.Close()
	left := time.Now()
	select {
	case r := <-done:
		t.Logf("%s: the client left after %v; the handler returned %d %v later",
			sim.Name, left.Sub(start).Round(time.Millisecond), r.status, r.at.Sub(left).Round(time.Millisecond))
		if r.status != 503 {
			t.Errorf("the handler answered %d: it finished the check for a client that had gone", r.status)
		}
	case <-time.After(2 * time.Minute):
		t.Fatal("the handler had not returned two minutes after the client left")
	}
}
