package floor

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/flakegate/flakegate/internal/render/rendertest"
	"github.com/flakegate/flakegate/internal/testfile"
)

// The bench times the floor page until Selector matches, so the
// pre-rendered HTML must not match it, and app.wasm must come from dir with
// the MIME type instantiateStreaming insists on.
func TestHandler(t *testing.T) {
	dir := t.TempDir()
	const wasm = "\x00asm\x01\x00\x00\x00"
	testfile.Write(t, dir, map[string]string{"web/app.wasm": wasm})
	h, err := Handler(dir)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	defer srv.Close()

	get := func(path string) (*http.Response, string) {
		t.Helper()
		res, b := rendertest.Fetch(t, srv.Client(), http.MethodGet, srv.URL+path, "")
		return res, string(b)
	}
	res, page := get("/")
	if res.StatusCode != http.StatusOK || !strings.Contains(page, `id="hello"`) {
		t.Fatalf("GET /: status %d, page without the component:\n%s", res.StatusCode, page)
	}
	if strings.Contains(page, "mounted") {
		t.Errorf("the pre-rendered page already matches %q:\n%s", Selector, page)
	}
	// go-app's loader must ask for /web/app.wasm, the path served from dir
	// (app.LocalDir(dir) would have put dir itself into that URL).
	if _, js := get("/app.js"); !strings.Contains(js, `"/web/app.wasm"`) {
		t.Errorf("app.js does not load /web/app.wasm")
	}
	res, body := get("/web/app.wasm")
	if res.StatusCode != http.StatusOK || body != wasm {
		t.Errorf("GET /web/app.wasm: status %d, %d bytes; want dir's %d bytes", res.StatusCode, len(body), len(wasm))
	}
	if ct := res.Header.Get("Content-Type"); ct != "application/wasm" {
		t.Errorf("app.wasm Content-Type %q, want application/wasm", ct)
	}
}
