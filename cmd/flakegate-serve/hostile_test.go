//go:build integration

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

// TestServeHostile runs the hostile-input suite against the real local
// server over HTTP, and the raw framing cases on its connections.
func TestServeHostile(t *testing.T) {
	base := startServer(t, writeSite(t, decoyHeaders))
	apitest.RunHostile(t, "local server", apitest.HostileCases(), apitest.HTTPDo(base, api.DefaultMaxBodyBytes))
	u, err := url.Parse(base)
	if err != nil {
		t.Fatal(err)
	}
	apitest.RunRawHostile(t, "local server", u.Host, apitest.RawHostileCases(api.DefaultMaxBodyBytes),
		func() (io.ReadWriteCloser, error) { return net.DialTimeout("tcp", u.Host, 10*time.Second) })
}
