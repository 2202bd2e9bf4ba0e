//go:build !js

package wranglerdev

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/flakegate/flakegate/functions/api/apitest"
)

// heldProxy answers like wrangler dev's proxy with a stranded GET: /held
// is answered only once another request has arrived after it (ProxyWorker
// works through its retry queue when the next request comes). It counts
// the requests that reach the Worker, which a nudge must not.
func heldProxy(t *testing.T) (srv *httptest.Server, workerRequests *int) {
	next := make(chan struct{}, 1)
	n := new(int)
	srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/held":
			*n++
			select {
			case <-next:
				io.WriteString(w, "the Worker's answer")
			case <-r.Context().Done():
			}
		case nudgePath:
			select {
			case next <- struct{}{}:
			default:
			}
			http.NotFound(w, r)
		default:
			*n++
		}
	}))
	t.Cleanup(srv.Close)
	return srv, n
}

func TestClientNudgesAHeldRequest(t *testing.T) {
	srv, n := heldProxy(t)
	s := &Server{URL: srv.URL, logs: &apitest.Output{}, nudgeAfter: 50 * time.Millisecond}
	c := s.Client(nil)
	resp, err := c.Get(srv.URL + "/held")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if string(body) != "the Worker's answer" {
		t.Errorf("got %q", body)
	}
	if *n != 1 {
		t.Errorf("the Worker saw %d requests, want 1 (a nudge is not sent to it, and the held one is not sent twice)", *n)
	}
	if !strings.Contains(s.Logs(), "wranglerdev: GET /held has waited 50ms for an answer") {
		t.Errorf("the output does not say the request was nudged:\n%s", s.Logs())
	}
}

// Without the nudge the same request is never answered: the proxy above
// really holds it.
func TestHeldRequestWaitsWithoutANudge(t *testing.T) {
	srv, _ := heldProxy(t)
	c := &http.Client{Timeout: 300 * time.Millisecond}
	if resp, err := c.Get(srv.URL + "/held"); err == nil {
		resp.Body.Close()
		t.Fatal("a held request was answered without a nudge")
	}
}

// A request answered at once sends no nudge.
func TestClientDoesNotNudgeAnAnsweredRequest(t *testing.T) {
	srv, _ := heldProxy(t)
	s := &Server{URL: srv.URL, logs: &apitest.Output{}, nudgeAfter: 200 * time.Millisecond}
	resp, err := s.Client(nil).Get(srv.URL + "/other")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	time.Sleep(400 * time.Millisecond)
	if s.Logs() != "" {
		t.Errorf("nudged a request that was answered:\n%s", s.Logs())
	}
}

func TestLogsAndEvents(t *testing.T) {
	s := &Server{logs: &apitest.Output{}}
	io.WriteString(s.logs, "⎔ Starting local server...\n[wrangler:info] Ready on http://127.0.0.1:8787\n[wrangler:info] GET /v1/health 200 OK (3ms)\n[wrangler:info] POST /v1/aa 413 Payload Too Large (12ms)\n⎔ Reloading local server...\n")
	want := "⎔ Starting local server...\n[wrangler:info] Ready on http://127.0.0.1:8787\n⎔ Reloading local server...\n"
	if got := s.Logs(); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	io.WriteString(s.logs, "wranglerdev: GET /v1/x has waited 15s for an answer: GET /wranglerdev-nudge.txt, so that wrangler dev's proxy sends on a request it holds\n")
	want = "⎔ Reloading local server...\nwranglerdev: GET /v1/x has waited 15s for an answer: GET /wranglerdev-nudge.txt, so that wrangler dev's proxy sends on a request it holds\n"
	if got := s.Events(); got != want {
		t.Errorf("events: got\n%s\nwant\n%s", got, want)
	}
}
