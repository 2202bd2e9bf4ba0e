package api

import (
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/flakegate/flakegate/functions/api/apitest"
)

// TestHostileInProcess runs the hostile-input suite against the handler
// with the local server's options and with Lambda's; the platforms run it
// in their integration tests.
func TestHostileInProcess(t *testing.T) {
	cases := apitest.HostileCases()
	for _, p := range []struct {
		name string
		opt  Options
	}{{"in process, local options", LocalOptions()}, {"in process, Lambda options", LambdaOptions()}} {
		h := New(p.opt)
		apitest.RunHostile(t, p.name, cases, func(c apitest.Hostile) (int, http.Header, []byte, error) {
			r, err := c.NewRequest("testdata", "", p.opt.maxBody())
			if err != nil {
				return 0, nil, nil, err
			}
			w := httptest.NewRecorder()
			h.ServeHTTP(w, r)
			return w.Code, w.Header(), w.Body.Bytes(), nil
		})
	}
}
