package static_test

import (
	"fmt"
	"net/http/httptest"
	"testing/fstest"

	"github.com/flakegate/flakegate/site/static"
)

// A built site: /decide is decide.html with the _headers rules applied,
// and a path that names no file is answered with index.html.
func Example() {
	site := fstest.MapFS{
		"index.html":  {Data: []byte("<p>home")},
		"decide.html": {Data: []byte("<p>decide")},
		"_headers":    {Data: []byte("/*\n  Content-Security-Policy: default-src 'self'\n")},
	}
	h, err := static.New(site, static.Options{})
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

// A mistake in _headers is found when the handler is made, with its line.
func ExampleParseHeaders() {
	_, err := static.ParseHeaders("_headers", []byte("/*\n  Content-Security-Policy default-src 'self'\n"))
	fmt.Println(err)
	// Output:
	// _headers:2:3: expected "Name: value", found "Content-Security-Policy default-src 'self'"
}
