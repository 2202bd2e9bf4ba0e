package apitest

import (
	"bufio"
	"io"
	"net"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
)

// TestRawAgain: a raw case whose first answer its host gave (picked out by
// again) is sent once more and passes on the server's answer; without
// again, or when again does not pick the answer out, it fails.
func TestRawAgain(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	var conns atomic.Int32
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go func(c net.Conn, n int32) {
				defer c.Close()
				req, err := http.ReadRequest(bufio.NewReader(c))
				if err != nil {
					return
				}
				io.Copy(io.Discard, req.Body)
				if n%2 == 1 { // every other connection: the host's restart answer
					io.WriteString(c, "HTTP/1.1 503 Service Unavailable\r\nContent-Type: text/plain\r\nContent-Length: 9\r\nConnection: close\r\n\r\nrestarted")
					return
				}
				io.WriteString(c, "HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
			}(c, conns.Add(1))
		}
	}()
	cases := []RawHostile{{Name: "post", Want: []int{400}, Answers: 1, Send: func(w io.Writer) error {
		_, err := io.WriteString(w, "POST /v1/aa HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\n\r\nabc")
		return err
	}}}
	dial := func() (io.ReadWriteCloser, error) { return net.Dial("tcp", ln.Addr().String()) }
	restarted := func(status int, _ http.Header, body []byte) bool {
		return status == 503 && strings.Contains(string(body), "restarted")
	}

	// With again: the first connection gets the 503, the second the 400.
	if err := runRawAgain(cases[0], dial, restarted); err != nil {
		t.Errorf("with again: %v", err)
	}
	// Without again (connection 3 gets the 503): the case fails.
	if err := runRaw(cases[0], dial); err == nil {
		t.Errorf("without again, the host's 503 passed")
	}
	// again that does not pick the answer out (the count starts over: the
	// first connection gets the 503): fails.
	conns.Store(0)
	if err := runRawAgain(cases[0], dial, func(int, http.Header, []byte) bool { return false }); err == nil {
		t.Errorf("again that picks nothing: the host's 503 passed")
	}
}
