package api_test

import (
	"fmt"
	"net/http/httptest"
	"strings"

	"github.com/flakegate/flakegate/functions/api"
)

// The handler is a plain http.Handler: mount it at api.Prefix. Here it
// answers how many trials per arm separate pass rates of 50% and 85%.
func ExampleNew() {
	h := api.New(api.Options{})
	w := httptest.NewRecorder()
	h.ServeHTTP(w, httptest.NewRequest("GET", "/v1/size?baseline=0.5&patched=0.85", nil))
	fmt.Println(w.Code, w.Header().Get("Content-Type"), w.Header().Get("Cache-Control"))
	fmt.Print(w.Body)
	// Output:
	// 200 application/json public, max-age=86400
	// {
	//   "baseline": 0.5,
	//   "patched": 0.85,
	//   "confidence": 0.95,
	//   "trials_per_arm": 28,
	//   "warnings": [],
	//   "link": "http://example.com/decide?baseline=10%2F20&confidence=0.95&min_trials=20&patched=17%2F20&property=unknown&v=2&view=size"
	// }
}

// Errors are RFC 9457 problem details that say what was wrong and where.
func ExampleNew_problem() {
	h := api.New(api.Options{})
	w := httptest.NewRecorder()
	r := httptest.NewRequest("POST", "/v1/aa", strings.NewReader("scenario,run,passed\ns1,r1,1\ns1,r2,yes\n"))
	r.Header.Set("Content-Type", "text/csv")
	h.ServeHTTP(w, r)
	fmt.Println(w.Code, w.Header().Get("Content-Type"))
	fmt.Print(w.Body)
	// Output:
	// 400 application/problem+json
	// {
	//   "type": "about:blank",
	//   "title": "Bad Request",
	//   "status": 400,
	//   "detail": "baseline:3:7: passed must be 0, 1, true or false, found \"yes\"",
	//   "kind": "invalid",
	//   "file": "baseline",
	//   "line": 3,
	//   "column": 7
	// }
}
