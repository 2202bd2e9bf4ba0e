//go:build !wasm

package main

import (
	"net/http/httptest"
	"testing"
	"testing/fstest"

	"github.com/flakegate/flakegate/site/static"
)

// TestHeadersFile checks that the _headers the generator writes parses the
// way Workers and the local server read it, and gives every page the CSP.
func TestHeadersFile(t *testing.T) {
	if _, err := static.ParseHeaders("_headers", []byte(Headers)); err != nil {
		t.Fatal(err)
	}
	site := fstest.MapFS{
		"index.html":   {Data: []byte("<!doctype html>")},
		"web/app.wasm": {Data: []byte("\x00asm\x01\x00\x00\x00")},
		"_headers":     {Data: []byte(Headers)},
	}
	h, err := static.New(site, static.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"/", "/web/app.wasm", "/decide"} {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest("GET", p, nil))
		if got := rec.Header().Get("Content-Security-Policy"); got != CSP {
			t.Errorf("%s: CSP %q, want %q", p, got, CSP)
		}
		if got := rec.Header().Get("Cache-Control"); got != "no-cache" {
			t.Errorf("%s: Cache-Control %q, want no-cache", p, got)
		}
	}
}
