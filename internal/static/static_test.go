package static

import (
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"
	"time"
)

// site is a small built site: the pages the generator writes, a folder
// with an index, and a _headers file of its own, which the handler must
// neither serve nor read.
func site() fstest.MapFS {
	return fstest.MapFS{
		"index.html":           {Data: []byte("home")},
		"decide.html":          {Data: []byte("decide")},
		"aa.html":              {Data: []byte("aa")},
		"docs/index.html":      {Data: []byte("docs")},
		"web/app.wasm":         {Data: []byte("\x00asm")},
		"web/app.css":          {Data: []byte("body{}")},
		"app.js":               {Data: []byte("1")},
		"manifest.webmanifest": {Data: []byte("{}")},
		"version.txt":          {Data: []byte("v\n")},
		"_redirects":           {Data: []byte("/a /b 301\n")},
		HeadersFile:            {Data: []byte("/*\n  X-From-File: 1\n")},
	}
}

// rules are the site's Headers in miniature, with more patterns: a
// prefix, an exact path that sets a name again, a suffix.
var rules = Rules{
	{Path: "/*", Headers: []Header{{"Content-Security-Policy", "default-src 'self'"}, {"Cache-Control", "no-cache"}}},
	{Path: "/web/app.wasm", Headers: []Header{{"Content-Type", "application/wasm"}, {"Cache-Control", "no-store"}}},
	{Path: "/docs/*", Headers: []Header{{"X-Docs", "yes"}}},
	{Path: "/*.txt", Headers: []Header{{"X-Text", "yes"}}},
}

func serve(t *testing.T, h http.Handler, method, target string, hdr ...string) *http.Response {
	t.Helper()
	r := httptest.NewRequest(method, target, nil)
	for i := 0; i+1 < len(hdr); i += 2 {
		r.Header.Set(hdr[i], hdr[i+1])
	}
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	return w.Result()
}

// TestStaticPaths: the path → file table of the package contract, checked
// against Workers' auto-trailing-slash + single-page-application rules
// (workers-sdk asset-worker handler.ts).
func TestStaticPaths(t *testing.T) {
	h, err := New(site(), Options{Headers: rules})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		target   string
		status   int
		body     string // for 200
		location string // for 307
		ctype    string
	}{
		{"/", 200, "home", "", "text/html; charset=utf-8"},
		{"/decide", 200, "decide", "", "text/html; charset=utf-8"},
		{"/decide?baseline=10/20", 200, "decide", "", "text/html; charset=utf-8"},
		{"/aa", 200, "aa", "", "text/html; charset=utf-8"},
		{"/decide.html", 307, "", "/decide", ""},
		{"/decide.html?x=1", 307, "", "/decide?x=1", ""},
		{"/decide/", 307, "", "/decide", ""},
		{"/index.html", 307, "", "/", ""},
		{"/index", 307, "", "/", ""},
		{"/docs", 307, "", "/docs/", ""},
		{"/docs/", 200, "docs", "", "text/html; charset=utf-8"},
		{"/docs/index.html", 307, "", "/docs/", ""},
		{"/web/app.wasm", 200, "\x00asm", "", "application/wasm"},
		{"/web/app.css", 200, "body{}", "", "text/css; charset=utf-8"},
		{"/app.js", 200, "1", "", "text/javascript; charset=utf-8"},
		{"/manifest.webmanifest", 200, "{}", "", "application/manifest+json"},
		{"/version.txt", 200, "v\n", "", "text/plain; charset=utf-8"},
		{"//web//app.wasm", 200, "\x00asm", "", "application/wasm"},
		{"/web/../decide", 200, "decide", "", "text/html; charset=utf-8"},
		// Names no file: the single-page-application fallback.
		{"/nope", 200, "home", "", "text/html; charset=utf-8"},
		{"/web", 200, "home", "", "text/html; charset=utf-8"},
		{"/web/", 200, "home", "", "text/html; charset=utf-8"},
		{"/web/missing.js", 200, "home", "", "text/html; charset=utf-8"},
		// Never served: Workers does not upload them.
		{"/_headers", 200, "home", "", "text/html; charset=utf-8"},
		{"/_redirects", 200, "home", "", "text/html; charset=utf-8"},
	} {
		res := serve(t, h, "GET", tc.target)
		body, _ := io.ReadAll(res.Body)
		if res.StatusCode != tc.status {
			t.Errorf("GET %s: status %d, want %d", tc.target, res.StatusCode, tc.status)
			continue
		}
		if tc.status == 307 {
			if got := res.Header.Get("Location"); got != tc.location {
				t.Errorf("GET %s: Location %q, want %q", tc.target, got, tc.location)
			}
			continue
		}
		if string(body) != tc.body || res.Header.Get("Content-Type") != tc.ctype {
			t.Errorf("GET %s: %q %q, want %q %q", tc.target, res.Header.Get("Content-Type"), body, tc.ctype, tc.body)
		}
		if strings.Contains(string(body), "Content-Security-Policy") {
			t.Errorf("GET %s served _headers", tc.target)
		}
	}
}

// TestStaticHeaders: the rules in order, matched against the requested
// path: the first rule to set a name replaces the default, a later one
// appends with ", " (workers-sdk asset-worker utils/headers.ts,
// attachCustomHeaders); a site's own _headers file is not read.
func TestStaticHeaders(t *testing.T) {
	h, err := New(site(), Options{Headers: rules})
	if err != nil {
		t.Fatal(err)
	}
	const csp = "default-src 'self'"
	for _, tc := range []struct {
		target string
		want   map[string]string // "" = absent
	}{
		{"/", map[string]string{"Content-Security-Policy": csp, "Cache-Control": "no-cache", "X-Docs": "", "X-Text": "", "X-From-File": ""}},
		{"/decide", map[string]string{"Content-Security-Policy": csp, "Cache-Control": "no-cache"}},
		{"/nope/deep", map[string]string{"Content-Security-Policy": csp, "Cache-Control": "no-cache", "Content-Type": "text/html; charset=utf-8"}},
		{"/web/app.wasm", map[string]string{"Content-Type": "application/wasm", "Cache-Control": "no-cache, no-store", "Content-Security-Policy": csp}},
		{"/docs/", map[string]string{"X-Docs": "yes", "Content-Security-Policy": csp}},
		{"/docs/a/b", map[string]string{"X-Docs": "yes", "Content-Type": "text/html; charset=utf-8"}},
		{"/docs", map[string]string{"X-Docs": "", "Location": "/docs/"}},
		{"/decide.html", map[string]string{"Content-Security-Policy": csp, "Location": "/decide"}},
		{"/version.txt", map[string]string{"Last-Modified": "", "Content-Type": "text/plain; charset=utf-8", "X-Text": "yes"}},
		{"/_headers", map[string]string{"X-From-File": "", "Content-Security-Policy": csp}},
	} {
		res := serve(t, h, "GET", tc.target)
		for k, v := range tc.want {
			if got := res.Header.Get(k); got != v {
				t.Errorf("GET %s: %s = %q, want %q", tc.target, k, got, v)
			}
		}
		if vs := res.Header.Values("Cache-Control"); len(vs) > 1 {
			t.Errorf("GET %s: %d Cache-Control lines, want them joined", tc.target, len(vs))
		}
	}
	if _, err := New(site(), Options{Headers: Rules{{Path: "no-slash", Headers: []Header{{"X", "1"}}}}}); err == nil ||
		!strings.Contains(err.Error(), `rule 1 ("no-slash")`) {
		t.Errorf("New with a bad rule: %v", err)
	}
}

// TestStaticETag: the ETag is the content's SHA-256 (first 16 bytes, hex;
// `printf 'v\n' | sha256sum` gives 73324e1a…), a matching If-None-Match gets
// 304 with the _headers rules still applied.
func TestStaticETag(t *testing.T) {
	h, err := New(site(), Options{Headers: rules})
	if err != nil {
		t.Fatal(err)
	}
	res := serve(t, h, "GET", "/version.txt")
	etag := res.Header.Get("Etag")
	const want = `"73324e1ab1db72ee9eb4fdf1c90a586d"`
	if etag != want {
		t.Errorf("ETag %s, want %s", etag, want)
	}
	res = serve(t, h, "GET", "/version.txt", "If-None-Match", etag)
	if res.StatusCode != http.StatusNotModified || res.Header.Get("Content-Security-Policy") == "" {
		t.Errorf("revalidation: %d %v", res.StatusCode, res.Header)
	}
	res = serve(t, h, "GET", "/version.txt", "If-None-Match", `"other"`)
	if res.StatusCode != 200 {
		t.Errorf("changed: %d", res.StatusCode)
	}
}

func TestStaticMethods(t *testing.T) {
	h, err := New(site(), Options{Headers: rules})
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range []string{"POST", "PUT", "DELETE", "OPTIONS", "PATCH"} {
		res := serve(t, h, m, "/decide")
		if res.StatusCode != 405 || res.Header.Get("Allow") != "GET, HEAD" {
			t.Errorf("%s: %d Allow %q", m, res.StatusCode, res.Header.Get("Allow"))
		}
	}
	res := serve(t, h, "HEAD", "/decide")
	body, _ := io.ReadAll(res.Body)
	if res.StatusCode != 200 || len(body) != 0 || res.Header.Get("Content-Length") != "6" || res.Header.Get("Content-Security-Policy") == "" {
		t.Errorf("HEAD: %d %q %v", res.StatusCode, body, res.Header)
	}
}

// TestStaticPlaceholder: a site with no index.html answers every missing
// path with the placeholder, 404; files that exist are still served.
func TestStaticPlaceholder(t *testing.T) {
	fsys := fstest.MapFS{"web/app.wasm": {Data: []byte("\x00asm")}}
	h, err := New(fsys, Options{Placeholder: "<p>build me</p>"})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"/", "/decide", "/x/y"} {
		res := serve(t, h, "GET", p)
		body, _ := io.ReadAll(res.Body)
		if res.StatusCode != 404 || string(body) != "<p>build me</p>" || res.Header.Get("Content-Type") != "text/html; charset=utf-8" {
			t.Errorf("GET %s: %d %q", p, res.StatusCode, body)
		}
	}
	if res := serve(t, h, "GET", "/web/app.wasm"); res.StatusCode != 200 {
		t.Errorf("wasm: %d", res.StatusCode)
	}
	h, _ = New(fstest.MapFS{}, Options{})
	body, _ := io.ReadAll(serve(t, h, "GET", "/").Body)
	if !strings.Contains(string(body), "make site") {
		t.Errorf("default placeholder %q", body)
	}
}

// TestStaticETagAfterRebuild: a file rewritten in place (same size, as a
// regenerated page often is) gets a new ETag, so a browser revalidating
// with the old one receives the new bytes, not 304.
func TestStaticETagAfterRebuild(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "index.html")
	if err := os.WriteFile(p, []byte("v1"), 0o644); err != nil {
		t.Fatal(err)
	}
	h, err := New(os.DirFS(dir), Options{})
	if err != nil {
		t.Fatal(err)
	}
	old := serve(t, h, "GET", "/").Header.Get("Etag")
	if err := os.WriteFile(p, []byte("v2"), 0o644); err != nil {
		t.Fatal(err)
	}
	later := time.Now().Add(time.Second)
	if err := os.Chtimes(p, later, later); err != nil {
		t.Fatal(err)
	}
	res := serve(t, h, "GET", "/", "If-None-Match", old)
	body, _ := io.ReadAll(res.Body)
	if res.StatusCode != 200 || string(body) != "v2" || res.Header.Get("Etag") == old {
		t.Errorf("after rebuild: %d %q ETag %s (old %s)", res.StatusCode, body, res.Header.Get("Etag"), old)
	}
}
