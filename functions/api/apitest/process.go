package apitest

import (
	"bytes"
	"net"
	"sync"
	"testing"
)

// Output collects a child process's output while a test reads it.
type Output struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (o *Output) Write(p []byte) (int, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.b.Write(p)
}

func (o *Output) String() string {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.b.String()
}

// FreePort returns a loopback TCP port that was free a moment ago, for a
// server the test starts.
func FreePort(t testing.TB) int {
	t.Helper()
	port, err := Port()
	if err != nil {
		t.Fatal(err)
	}
	return port
}

// Port returns a loopback TCP port no one listened on a moment ago, for a
// server started outside a test's helpers (the emulators, wrangler dev).
func Port() (int, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port, nil
}
