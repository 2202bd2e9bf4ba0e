package webtest

import (
	"io"
	"net/http"
	"os"
	"path/filepath"
	"testing"
	"time"

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

// TestHold: a held path's request is counted on arrival and answered only
// after release; other paths are served meanwhile.
func TestHold(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "index.html"), []byte("home"), 0o644)
	os.MkdirAll(filepath.Join(dir, "web"), 0o755)
	os.WriteFile(filepath.Join(dir, "web", "app.wasm"), []byte("\x00asm"), 0o644)
	srv, h, err := Serve(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	release := h.Hold("/web/app.wasm")
	defer release()
	got := make(chan string, 1)
	go func() {
		res, err := http.Get(srv.URL + "/web/app.wasm")
		if err != nil {
			got <- err.Error()
			return
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		got <- string(b)
	}()
	for h.Hits("/web/app.wasm") == 0 {
		time.Sleep(time.Millisecond)
	}
	res, err := http.Get(srv.URL + "/")
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	select {
	case b := <-got:
		t.Fatalf("held request answered before release: %q", b)
	case <-time.After(50 * time.Millisecond):
	}
	release()
	if b := <-got; b != "\x00asm" {
		t.Errorf("after release: %q", b)
	}
}
