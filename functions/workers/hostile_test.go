//go:build !js && integration

package main

import (
	"net/http"
	"testing"

	"github.com/flakegate/flakegate/functions/api"
	"github.com/flakegate/flakegate/functions/api/apitest"
)

// TestWorkerHostile runs the hostile-input suite against the deployed
// Worker's build under wrangler dev, and the raw framing cases on its
// connections. Both send a request once more when wrangler dev, not the
// Worker, answered it: its own 503 for a request in flight while it
// restarted its local runtime (devRestarted), which a suite run under
// load met on a 30 MB upload.
func TestWorkerHostile(t *testing.T) {
	needWrangler(t)
	s := startWorker(t, buildWorker(t))
	apitest.RunHostile(t, "Worker", apitest.HostileCases(), retryRestart(t, hostileDo(s)))
	apitest.RunRawHostileAt(t, "Worker", s.URL, apitest.RawHostileCases(api.DefaultMaxBodyBytes), func(status int, header http.Header, body []byte) bool {
		return devRestarted(&http.Response{StatusCode: status, Header: header}, body)
	})
}
