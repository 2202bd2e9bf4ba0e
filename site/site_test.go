package main

import (
	"bytes"
	"compress/gzip"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/andybalholm/brotli"
	"github.com/flakegate/flakegate/internal/static"
)

// fakeWasm is enough of a module header for the generator's check.
var fakeWasm = []byte("\x00asm\x01\x00\x00\x00")

func generateTo(t *testing.T, version string) string {
	t.Helper()
	dir := t.TempDir()
	w := filepath.Join(dir, "in.wasm")
	os.WriteFile(w, fakeWasm, 0o644)
	out := filepath.Join(dir, "site")
	if err := Generate(Options{Out: out, Wasm: w, Version: version}); err != nil {
		t.Fatal(err)
	}
	return out
}

func TestGenerateWritesTheWholeSite(t *testing.T) {
	out := generateTo(t, "abc123")
	for _, f := range []string{"index.html", "decide.html", "aa.html", "quarantine.html", "app.js", "app-worker.js", "wasm_exec.js",
		"manifest.webmanifest", "app.css", "web/app.wasm", "web/flakegate.css", "web/icon.svg", "web/icon-192.png",
		"web/icon-512.png", "favicon.ico", "_headers"} {
		if st, err := os.Stat(filepath.Join(out, f)); err != nil || st.Size() == 0 {
			t.Errorf("%s missing or empty", f)
		}
	}
	read := func(f string) string {
		b, _ := os.ReadFile(filepath.Join(out, f))
		return string(b)
	}
	// The version reaches the page (app.js env) and the service worker's
	// cache name, so a deploy is noticed.
	if !strings.Contains(read("app.js"), `"GOAPP_VERSION":"abc123"`) || !strings.Contains(read("app-worker.js"), `"app-" + "abc123"`) {
		t.Error("version not in app.js and app-worker.js")
	}
	// The worker caches every page, so links open offline.
	for _, p := range []string{`"/"`, `"/decide"`, `"/aa"`, `"/quarantine"`, `"/web/app.wasm"`} {
		if !strings.Contains(read("app-worker.js"), p) {
			t.Errorf("service worker does not cache %s", p)
		}
	}
	// _headers is static.Headers, the rules the local server applies.
	h := read("_headers")
	if want, err := static.Headers.MarshalText(); err != nil || h != string(want) {
		t.Errorf("_headers is not static.Headers (%v):\n%s", err, h)
	}
	// The CSP: exactly what Go's wasm needs and no inline code.
	for _, want := range []string{"script-src 'self' 'wasm-unsafe-eval';", "worker-src 'self';", "manifest-src 'self';", "default-src 'self';", "style-src 'self';"} {
		if !strings.Contains(h, want) {
			t.Errorf("_headers lacks %q", want)
		}
	}
	if strings.Contains(h, "unsafe-inline") || strings.Contains(h, "'unsafe-eval'") {
		t.Error("CSP allows inline code or eval")
	}
	for _, page := range []string{"index.html", "decide.html", "aa.html", "quarantine.html"} {
		html := read(page)
		if strings.Contains(html, "<script>") || strings.Contains(html, " style=") || strings.Contains(html, " onclick=") {
			t.Errorf("%s has inline script or style", page)
		}
		if !strings.Contains(html, `href="/web/flakegate.css"`) {
			t.Errorf("%s does not load the stylesheet", page)
		}
	}
	// The loader (patchAppJS): app.wasm is preloaded by every page and
	// handed to instantiateStreaming as fetch's own response; the service
	// worker is registered after the loader, not before it.
	js := read("app.js")
	if strings.Contains(js, "new Response(") || strings.Contains(js, ".clone()") || !strings.Contains(js, plainFetch) {
		t.Error("app.js still wraps or copies the app.wasm response")
	}
	if strings.Count(js, "goappInitServiceWorker();") != 1 ||
		strings.Index(js, "goappInitServiceWorker();") < strings.Index(js, `console.error("loading wasm failed: ", err);`) {
		t.Error("app.js registers the service worker before app.wasm is up")
	}
	// While app.wasm loads, the pre-rendered page keeps what is typed
	// (web/loader.js, first in app.js), replays it once Go has mounted the
	// page, and a failed load says so in the loader's note.
	if !strings.HasPrefix(js, loaderJS) ||
		!strings.Contains(js, "    go.run(wasm.instance);\n    loader.remove();\n    flakegateEarly.ready(focused);\n") ||
		!strings.Contains(js, "  } catch (err) {\n    flakegateEarly.failed(err, loader, loaderIcon, loaderLabel);\n") {
		t.Error("app.js does not keep early edits or report a failed load in place")
	}
	for _, page := range []string{"index.html", "decide.html", "aa.html", "quarantine.html", "compare.html", "history.html"} {
		html := read(page)
		if !strings.Contains(html, preloadWasm) {
			t.Errorf("%s does not preload app.wasm", page)
		}
		// A link the page was not rendered for hides the example's
		// figures before the first paint: web/first.js runs in the head,
		// and the pre-rendered main holds the note that stands in for them.
		head, body, _ := strings.Cut(html, "</head>")
		if !strings.Contains(head, firstScript) || !strings.Contains(body, `data-prerendered="yes"`) || !strings.Contains(body, `id="example-note"`) {
			t.Errorf("%s does not mark the example's figures for a link it was not rendered for", page)
		}
	}
	if read("web/first.js") != string(firstJS) || !strings.Contains(read("app-worker.js"), `"/web/first.js"`) {
		t.Error("web/first.js is not in the site or not cached by the service worker")
	}
	// The pre-rendered select shows the default property check: only that
	// option carries "selected" (HTML reads selected="false" as selected).
	// go-app writes an element's attributes in map order.
	if d := read("decide.html"); strings.Count(d, "selected") != 1 || !regexp.MustCompile(`<option (value="unknown" selected|selected value="unknown")>`).MatchString(d) {
		t.Errorf("decide.html selects other than the default property check")
	}
	// Pre-rendered figures: the budget page ships the default budget.
	if !strings.Contains(read("index.html"), `data-field="reruns"`) {
		t.Error("index.html has no pre-rendered figures")
	}
}

func TestGenerateRefusesBadInput(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.wasm")
	os.WriteFile(bad, []byte("not wasm"), 0o644)
	if err := Generate(Options{Out: filepath.Join(dir, "o"), Wasm: bad, Version: "v"}); err == nil {
		t.Error("a non-wasm file was accepted")
	}
	if err := Generate(Options{Out: filepath.Join(dir, "o"), Wasm: bad}); err == nil {
		t.Error("no version was accepted")
	}
	if err := run([]string{"-out", dir}); err == nil {
		t.Error("run without -wasm and -version succeeded")
	}
}

// TestGenerateCompressedCopies: every page, script, stylesheet and the
// manifest has brotli and gzip copies that decode (with the standard
// library's gzip and brotli's own reader) to the file; icons in PNG have
// none; .assetsignore keeps the copies out of a Workers upload.
func TestGenerateCompressedCopies(t *testing.T) {
	out := generateTo(t, "abc123")
	for _, f := range []string{"index.html", "decide.html", "aa.html", "quarantine.html", "app.js", "app-worker.js", "wasm_exec.js",
		"manifest.webmanifest", "app.css", "web/flakegate.css", "web/icon.svg"} {
		orig, err := os.ReadFile(filepath.Join(out, f))
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range static.Encodings {
			c, err := os.ReadFile(filepath.Join(out, f+e.Suffix))
			if err != nil {
				t.Errorf("%s has no %s copy: %v", f, e.Name, err)
				continue
			}
			if got := decodeCopy(t, e.Name, c); !bytes.Equal(got, orig) {
				t.Errorf("%s%s does not decode to %s", f, e.Suffix, f)
			}
		}
	}
	for _, f := range []string{"web/icon-192.png", "favicon.ico", "_headers.br", "web/app.wasm.br.br"} {
		if _, err := os.Stat(filepath.Join(out, f+".br")); err == nil {
			t.Errorf("%s.br written", f)
		}
	}
	if b, _ := os.ReadFile(filepath.Join(out, static.AssetsIgnoreFile)); string(b) != static.AssetsIgnore {
		t.Errorf(".assetsignore is %q", b)
	}
}

func decodeCopy(t *testing.T, coding string, b []byte) []byte {
	t.Helper()
	var r io.Reader = brotli.NewReader(bytes.NewReader(b))
	if coding == "gzip" {
		zr, err := gzip.NewReader(bytes.NewReader(b))
		if err != nil {
			t.Fatal(err)
		}
		r = zr
	}
	d, err := io.ReadAll(r)
	if err != nil {
		t.Fatalf("%s: %v", coding, err)
	}
	return d
}
