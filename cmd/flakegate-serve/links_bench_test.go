package main

import (
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/flakegate/flakegate/functions/api"
	"github.com/flakegate/flakegate/render/rendertest"
)

// BenchmarkLink serves a link's page (the core's computation, the words,
// the splice into the pre-rendered page, the ETag) beside the API's own
// answer to the same input, through the local server's handler: the
// ratio of the two is what rendering costs beyond the answer itself.
func BenchmarkLink(b *testing.B) {
	h := handler(b, api.LocalOptions(), rendertest.Prerendered(b))
	for _, c := range []struct{ name, target string }{
		{"budget/page", "/?cap=5&confidence=0.95&cost=8&observe=1%2F120&rates=0.05%2C0.02%2C0.001&target=0.9&v=2"},
		{"budget/api", "/v1/budget?cap=5&confidence=0.95&cost=8&observe=1%2F120&rates=0.05%2C0.02%2C0.001&target=0.9"},
		{"decide/page", "/decide?baseline=30%2F60&confidence=0.95&min_trials=20&patched=51%2F60&property=passed&v=2"},
		{"decide/api", "/v1/decide?baseline=30%2F60&confidence=0.95&min_trials=20&patched=51%2F60&property=passed"},
	} {
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				w := httptest.NewRecorder()
				h.ServeHTTP(w, httptest.NewRequest(http.MethodGet, c.target, nil))
				if w.Code != 200 {
					b.Fatalf("%d %s", w.Code, w.Body)
				}
			}
		})
	}
}
