//go:build !js && integration

package main

import (
	"io"
	"net"
	"net/url"
	"testing"
	"time"

	"github.com/flakegate/flakegate/functions/api"
	"github.com/flakegate/flakegate/functions/api/apitest"
)

// TestWorkerHostile runs the hostile-input suite against the deployed
// Worker's build under wrangler dev, and the raw framing cases on its
// connections.
func TestWorkerHostile(t *testing.T) {
	needWrangler(t)
	s := startWorker(t, buildWorker(t))
	apitest.RunHostile(t, "Worker", apitest.HostileCases(), retryRestart(t, apitest.HTTPDo(s.URL, api.DefaultMaxBodyBytes)))
	u, err := url.Parse(s.URL)
	if err != nil {
		t.Fatal(err)
	}
	apitest.RunRawHostile(t, "Worker", u.Host, apitest.RawHostileCases(api.DefaultMaxBodyBytes),
		func() (io.ReadWriteCloser, error) { return net.DialTimeout("tcp", u.Host, 10*time.Second) })
}
