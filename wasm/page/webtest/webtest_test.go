package webtest

import (
	"io"
	"net/http"
	"os"
	"path/filepath"
	"testing"

	"github.com/flakegate/flakegate/internal/static"
)

func TestHandlerServesLikeWorkersAssets(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "index.html"), []byte("home"), 0o644)
	os.WriteFile(filepath.Join(dir, "decide.html"), []byte("decide"), 0o644)
	os.MkdirAll(filepath.Join(dir, "web"), 0o755)
	os.WriteFile(filepath.Join(dir, "web", "app.wasm"), []byte("\x00asm"), 0o644)
	os.WriteFile(filepath.Join(dir, "_headers"), []byte("/*\n  X-Test: all\n"), 0o644) // not read: static.Headers apply
	srv, h, err := Serve(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	get := func(p string) (int, string, http.Header) {
		res, err := http.Get(srv.URL + p)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		return res.StatusCode, string(b), res.Header
	}
	for p, want := range map[string]string{"/": "home", "/decide": "decide", "/decide.html": "decide"} {
		code, body, hdr := get(p)
		if code != 200 || body != want || hdr.Get("Content-Security-Policy") != static.CSP || hdr.Get("X-Test") != "" {
			t.Errorf("%s: %d %q %v", p, code, body, hdr)
		}
	}
	if _, _, hdr := get("/web/app.wasm"); hdr.Get("Content-Type") != "application/wasm" {
		t.Errorf("wasm content type %q", hdr.Get("Content-Type"))
	}
	// _headers is never served: like any missing file, its path gets index.html.
	if code, body, _ := get("/_headers"); code != 200 || body != "home" {
		t.Errorf("/_headers: %d %q", code, body)
	}
	h.SetOffline(true)
	if code, _, _ := get("/"); code != 503 {
		t.Errorf("offline: %d", code)
	}
	if h.Hits("/") != 2 {
		t.Errorf("hits %d", h.Hits("/"))
	}
	h.SetOffline(false)

	// Deploy switches every path to the new folder at once, and the old
	// folder's files are no longer read.
	next := t.TempDir()
	os.WriteFile(filepath.Join(next, "index.html"), []byte("home 2"), 0o644)
	if err := h.Deploy(next); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, "index.html"), []byte("old home, rewritten"), 0o644)
	for p, want := range map[string]string{"/": "home 2", "/decide": "home 2"} {
		if code, body, _ := get(p); code != 200 || body != want {
			t.Errorf("after Deploy, %s: %d %q, want %q", p, code, body, want)
		}
	}
	if h.Dir != next {
		t.Errorf("Dir %q after Deploy, want %q", h.Dir, next)
	}
}

func TestJSString(t *testing.T) {
	if got := jsString("a\"b\\c\nd\u2028"); got != `"a\"b\\c\nd\u2028"` {
		t.Errorf("%s", got)
	}
}
