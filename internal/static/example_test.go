package static_test

import (
	"fmt"
	"net/http/httptest"
	"os"
	"testing/fstest"

	"github.com/flakegate/flakegate/internal/static"
)

// A built site: /decide is decide.html with the rules applied, and a path
// that names no file is answered with index.html.
func Example() {
	site := fstest.MapFS{
		"index.html":  {Data: []byte("<p>home")},
		"decide.html": {Data: []byte("<p>decide")},
	}
	rules := static.Rules{{Path: "/*", Headers: []static.Header{{Name: "Content-Security-Policy", Value: "default-src 'self'"}}}}
	h, err := static.New(site, static.Options{Headers: rules})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, p := range []string{"/decide?baseline=10/20", "/decide.html", "/no/such/page"} {
		w := httptest.NewRecorder()
		h.ServeHTTP(w, httptest.NewRequest("GET", p, nil))
		fmt.Println(p, w.Code, w.Header().Get("Location"), w.Body.String(), w.Header().Get("Content-Security-Policy"))
	}
	// Output:
	// /decide?baseline=10/20 200  <p>decide default-src 'self'
	// /decide.html 307 /decide  default-src 'self'
	// /no/such/page 200  <p>home default-src 'self'
}

// The same rules, written as the _headers file Workers reads.
func ExampleRules_MarshalText() {
	rules := static.Rules{
		{Path: "/*", Headers: []static.Header{{Name: "Cache-Control", Value: "no-cache"}}},
		{Path: "/web/app.wasm", Headers: []static.Header{{Name: "Content-Type", Value: "application/wasm"}}},
	}
	file, err := rules.MarshalText()
	if err != nil {
		fmt.Println(err)
		return
	}
	os.Stdout.Write(file)
	// Output:
	// /*
	//   Cache-Control: no-cache
	// /web/app.wasm
	//   Content-Type: application/wasm
}

// The coding sent for what browsers and tools ask, when a file has brotli
// and gzip copies.
func ExampleNegotiate() {
	offered := []string{"br", "gzip"}
	for _, accept := range []string{"gzip, deflate, br, zstd", "gzip", "br;q=0.5, gzip;q=0.8", "identity", ""} {
		fmt.Printf("%q → %s\n", accept, static.Negotiate([]string{accept}, offered))
	}
	// Output:
	// "gzip, deflate, br, zstd" → br
	// "gzip" → gzip
	// "br;q=0.5, gzip;q=0.8" → gzip
	// "identity" → identity
	// "" → identity
}
