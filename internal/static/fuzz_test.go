package static

import (
	"io"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
)

// FuzzServePath: any request path is answered 200 or 307, never with the
// bytes of _headers or _redirects, and a redirect stays on this origin
// (a Location of one leading "/", never "//host").
func FuzzServePath(f *testing.F) {
	for _, p := range []string{"/", "/decide", "/decide.html", "/index", "/docs", "/docs/index.html",
		"/_headers", "//_headers", "/./_redirects", "/web/../_headers", "//evil.example/", "/%2e%2e/x", "/a\x00b"} {
		f.Add(p)
	}
	h, err := New(site(), Options{Headers: rules})
	if err != nil {
		f.Fatal(err)
	}
	secret := string(site()[HeadersFile].Data)
	f.Fuzz(func(t *testing.T, p string) {
		r := httptest.NewRequest("GET", "/", nil)
		r.URL = &url.URL{Path: p}
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		body, _ := io.ReadAll(w.Result().Body)
		switch w.Code {
		case 200:
			if string(body) == secret || strings.HasPrefix(string(body), "/a /b") {
				t.Fatalf("%q served a hidden file", p)
			}
		case 307:
			loc := w.Header().Get("Location")
			if !strings.HasPrefix(loc, "/") || strings.HasPrefix(loc, "//") {
				t.Fatalf("%q redirected off the origin: %q", p, loc)
			}
		default:
			t.Fatalf("%q: status %d", p, w.Code)
		}
	})
}
