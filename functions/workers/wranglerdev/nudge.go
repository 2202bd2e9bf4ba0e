//go:build !js

package wranglerdev

import (
	"fmt"
	"io"
	"net/http"
	"time"
)

// wrangler dev's proxy (its ProxyWorker, wrangler 4.86) holds a GET or HEAD
// that met a restart of the local runtime, and sends it on when the new
// runtime is ready. But when the failed forward is noticed only after the
// new runtime is ready (a busy machine), the request is put on a queue the
// proxy works through only when the next request arrives: a lone GET then
// waits for ever. A CI run showed it: a GET to /v1/_test/stats waited 60 s
// and failed, and at another time /v1/budget's page waited 3 minutes, while
// the requests after it were answered in milliseconds.
//
// Server.Client's requests therefore send the proxy another request when
// they have waited nudgeAfter without an answer: a GET of a static file,
// which the assets answer without starting Go, so the Worker's own figures
// (its requests, memory, instances) do not see it. The held request is then
// sent on, and answered as it would have been; nothing is sent twice.
const nudgeAfter = 15 * time.Second

// nudgePath is a path the Worker leaves to its assets (not in
// wrangler.toml's run_worker_first).
const nudgePath = "/wranglerdev-nudge.txt"

// Client returns an HTTP client for requests to s: it waits RuntimeWait
// for an answer, and nudges wrangler dev's proxy while a request waits.
// base is the transport to use (nil: a new one).
func (s *Server) Client(base *http.Transport) *http.Client {
	if base == nil {
		base = &http.Transport{}
	}
	return &http.Client{Timeout: RuntimeWait, Transport: &nudger{s: s, base: base}}
}

type nudger struct {
	s    *Server
	base http.RoundTripper
}

func (n *nudger) RoundTrip(req *http.Request) (*http.Response, error) {
	answered := make(chan struct{})
	defer close(answered)
	go n.s.nudgeUntil(answered, req.Method+" "+req.URL.Path)
	return n.base.RoundTrip(req)
}

// nudgeUntil sends the proxy a request every nudgeAfter until answered is
// closed, and says so in the server's output.
func (s *Server) nudgeUntil(answered <-chan struct{}, what string) {
	after := s.nudgeAfter
	if after == 0 {
		after = nudgeAfter
	}
	tick := time.NewTicker(after)
	defer tick.Stop()
	client := &http.Client{Timeout: after}
	for {
		select {
		case <-answered:
			return
		case <-tick.C:
			fmt.Fprintf(s.logs, "wranglerdev: %s has waited %v for an answer: GET %s, so that wrangler dev's proxy sends on a request it holds\n", what, after, nudgePath)
			if resp, err := client.Get(s.URL + nudgePath); err == nil {
				io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
			}
		}
	}
}
