//go:build integration

package static

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/flakegate/flakegate/functions/workers/wranglerdev"
	"github.com/flakegate/flakegate/internal/testfile"
)

// root is the repository, where wrangler (node_modules) and wrangler.toml are.
const root = "../.."

// TestWranglerServesHeaders writes a small site with the _headers file the
// generator writes, serves it with `wrangler dev` (workerd running
// Cloudflare's own asset worker, configured as wrangler.toml's [assets]) and
// with this package's handler applying the same rules, and asks both the
// same questions: every answer must have the same status, Location,
// Content-Type, body, and the same values of every header the rules name.
// Once with Headers, once with rules that use more of the patterns.
func TestWranglerServesHeaders(t *testing.T) {
	// Before anything else: a missing tool fails at once.
	if _, err := wranglerdev.Wrangler(root); err != nil {
		t.Fatal(err)
	}
	more := Rules{
		{Path: "/*.txt", Headers: []Header{{"X-Text", "yes"}, {"Cache-Control", "max-age=60"}}},
		{Path: "/docs*", Headers: []Header{{"X-Docs", "a"}, {"x-docs", "b"}}},
		{Path: "/decide", Headers: []Header{{"X-Page", "decide"}}},
		{Path: "/web/*.wasm", Headers: []Header{{"Content-Type", "application/octet-stream"}}},
		{Path: "/*", Headers: []Header{{"Content-Security-Policy", "default-src 'self'"}, {"Cache-Control", "no-cache"}}},
		{Path: "/web/app.wasm", Headers: []Header{{"Content-Type", "application/wasm"}, {"Cache-Control", "no-store"}}},
		{Path: "/docs/*", Headers: []Header{{"X-Docs", "yes"}}},
		{Path: "/it's-(ok)!~/", Headers: []Header{{"X-Marks", ":splat"}}},
	}
	for name, rs := range map[string]Rules{"Headers": Headers, "more patterns": more} {
		t.Run(name, func(t *testing.T) { compareWithWrangler(t, rs) })
	}
}

func compareWithWrangler(t *testing.T, rs Rules) {
	site := t.TempDir()
	file, err := rs.MarshalText()
	if err != nil {
		t.Fatal(err)
	}
	testfile.Write(t, site, map[string]string{
		"index.html":           "<!doctype html><title>home</title>",
		"decide.html":          "<!doctype html><title>decide</title>",
		"aa.html":              "<!doctype html><title>aa</title>",
		"docs/index.html":      "<!doctype html><title>docs</title>",
		"app.js":               "console.log(1)\n",
		"app.css":              "body{}\n",
		"manifest.webmanifest": "{}\n",
		"favicon.ico":          "\x89PNG\r\n\x1a\n",
		"version.txt":          "v1\n",
		"web/app.wasm":         "\x00asm\x01\x00\x00\x00",
		"web/icon.svg":         "<svg xmlns=\"http://www.w3.org/2000/svg\"/>",
		HeadersFile:            string(file),
	})
	h, err := New(os.DirFS(site), Options{Headers: rs})
	if err != nil {
		t.Fatal(err)
	}
	local := httptest.NewServer(h)
	defer local.Close()
	cf := startWrangler(t, site)

	names := []string{"Content-Type", "Location"}
	for _, r := range rs {
		for _, hd := range r.Headers {
			names = append(names, hd.Name)
		}
	}
	client := cf.Client(nil)
	client.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	type answer struct {
		status int
		header http.Header
		body   []byte
	}
	ask := func(base, method, target string, hdr http.Header) answer {
		req, err := http.NewRequest(method, base+target, nil)
		if err != nil {
			t.Fatal(err)
		}
		req.Header = hdr.Clone()
		res, err := client.Do(req)
		if err != nil {
			t.Fatalf("%s %s%s: %v", method, base, target, err)
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		return answer{res.StatusCode, res.Header, b}
	}
	for _, method := range []string{"GET", "HEAD"} {
		for _, target := range []string{"/", "/decide", "/decide?baseline=10/20", "/aa", "/decide.html", "/decide.html?x=1",
			"/decide/", "/index.html", "/index", "/docs", "/docs/", "/docs/index.html", "/web/app.wasm", "/web/icon.svg",
			"/app.js", "/app.css", "/manifest.webmanifest", "/favicon.ico", "/version.txt", "/no/such/page", "/web/",
			"/web/missing.js", "/_headers", "/_redirects", "/it's-(ok)!~/"} {
			// A browser's navigation, as the pages are asked for.
			hdr := http.Header{"Accept": {"text/html"}, "Sec-Fetch-Mode": {"navigate"}}
			want, got := ask(cf.URL, method, target, hdr), ask(local.URL, method, target, hdr)
			what := method + " " + target
			compare(t, what, names, want.status, got.status, want.header, got.header)
			if !bytes.Equal(want.body, got.body) {
				t.Errorf("%s: body %q, wrangler dev %q", what, got.body, want.body)
			}
			// Revalidation: each server's own ETag gets 304 with the headers.
			if want.status == http.StatusOK && method == "GET" {
				wantEtag, gotEtag := hdr.Clone(), hdr.Clone()
				wantEtag.Set("If-None-Match", want.header.Get("Etag"))
				gotEtag.Set("If-None-Match", got.header.Get("Etag"))
				want, got = ask(cf.URL, method, target, wantEtag), ask(local.URL, method, target, gotEtag)
				// Workers keeps Content-Type on a 304; net/http never sends
				// it there (transfer.go, suppressedHeaders304; RFC 9110
				// 15.4.5 lets a 304 leave it out), and the browser keeps
				// its cached copy's.
				want.header.Del("Content-Type")
				compare(t, what+" (If-None-Match)", names, want.status, got.status, want.header, got.header)
			}
		}
	}
}

// compare reports a differing status or header value; got is the local
// server's answer, want wrangler dev's.
func compare(t *testing.T, what string, names []string, wantStatus, gotStatus int, want, got http.Header) {
	t.Helper()
	if gotStatus != wantStatus {
		t.Errorf("%s: status %d, wrangler dev %d", what, gotStatus, wantStatus)
	}
	for _, n := range names {
		// Field lines joined with ", ", as RFC 9110 (5.3) lets a recipient
		// combine them: workerd sends a value appended to a name it does
		// not know as a line of its own, net/http joins them in one.
		w, g := strings.Join(want.Values(n), ", "), strings.Join(got.Values(n), ", ")
		if w != g {
			t.Errorf("%s: %s %q, wrangler dev %q", what, n, g, w)
		}
	}
}

// assetsConfig is an assets-only wrangler.toml for site: the repository's
// compatibility date and its [assets] settings (not_found_handling,
// html_handling), without the Worker.
func assetsConfig(t *testing.T, site string) string {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join(root, "wrangler.toml"))
	if err != nil {
		t.Fatal(err)
	}
	out := []string{`name = "flakegate-static-test"`}
	section := ""
	for _, line := range strings.Split(string(raw), "\n") {
		trim := strings.TrimSpace(line)
		if strings.HasPrefix(trim, "[") {
			section = trim
			if section == "[assets]" {
				out = append(out, section, fmt.Sprintf("directory = %q", site))
			}
			continue
		}
		key, _, _ := strings.Cut(trim, "=")
		switch key = strings.TrimSpace(key); {
		case section == "" && key == "compatibility_date",
			section == "[assets]" && (key == "not_found_handling" || key == "html_handling"):
			out = append(out, trim)
		}
	}
	if len(out) < 4 {
		t.Fatalf("wrangler.toml: no compatibility_date or [assets] settings found:\n%s", strings.Join(out, "\n"))
	}
	return strings.Join(out, "\n") + "\n"
}

// startWrangler serves site under `wrangler dev` and returns its base URL.
// wranglerdev.Start waits for /v1/health to answer 200, which an
// assets-only Worker does with index.html (single-page-application).
func startWrangler(t *testing.T, site string) *wranglerdev.Server {
	t.Helper()
	dir := t.TempDir()
	cfg := filepath.Join(dir, "wrangler.toml")
	if err := os.WriteFile(cfg, []byte(assetsConfig(t, site)), 0o644); err != nil {
		t.Fatal(err)
	}
	return wranglerdev.StartTest(t, root, dir, cfg)
}

// TestWranglerCompressesAssets serves a site with the generator's
// compressed copies and .assetsignore under `wrangler dev` and with this
// package's handler, and checks what docs/WEB.md says of both: each
// compresses app.js, index.html and app.wasm in the coding the request
// asks for, the bytes decode to the file's, nothing is compressed for a
// request that names no coding, and a copy's own path is not a file on
// either (the copies stay out of the upload, so Workers compresses by
// itself; the page's path falls back to index.html).
func TestWranglerCompressesAssets(t *testing.T) {
	if _, err := wranglerdev.Wrangler(root); err != nil {
		t.Fatal(err)
	}
	dir, h := encodedSite(t)
	if err := os.WriteFile(filepath.Join(dir, AssetsIgnoreFile), []byte(AssetsIgnore), 0o644); err != nil {
		t.Fatal(err)
	}
	local := httptest.NewServer(h)
	defer local.Close()
	cf := startWrangler(t, dir)
	// No transparent decoding and no Accept-Encoding added by the client.
	client := cf.Client(&http.Transport{DisableCompression: true})
	get := func(base, target, accept string) (int, string, []byte) {
		req, err := http.NewRequest("GET", base+target, nil)
		if err != nil {
			t.Fatal(err)
		}
		if accept != "" {
			req.Header.Set("Accept-Encoding", accept)
		}
		res, err := client.Do(req)
		if err != nil {
			t.Fatalf("GET %s%s: %v", base, target, err)
		}
		defer res.Body.Close()
		b, err := io.ReadAll(res.Body)
		if err != nil {
			t.Fatal(err)
		}
		return res.StatusCode, res.Header.Get("Content-Encoding"), decode(t, res.Header.Get("Content-Encoding"), b)
	}
	index, err := os.ReadFile(filepath.Join(dir, "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	for _, server := range []struct{ name, base string }{{"wrangler dev", cf.URL}, {"local", local.URL}} {
		for _, file := range []struct{ path, name string }{{"/", "index.html"}, {"/app.js", "app.js"}, {"/web/app.wasm", "web/app.wasm"}} {
			want, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(file.name)))
			if err != nil {
				t.Fatal(err)
			}
			for _, c := range []struct{ accept, coding string }{{"br", "br"}, {"gzip", "gzip"}, {"gzip;q=0.5, br", "br"}, {"", ""}} {
				status, coding, body := get(server.base, file.path, c.accept)
				if status != http.StatusOK || coding != c.coding || !bytes.Equal(body, want) {
					t.Errorf("%s: GET %s with Accept-Encoding %q: %d, coding %q (want %q), decoded bytes equal the file: %v",
						server.name, file.path, c.accept, status, coding, c.coding, bytes.Equal(body, want))
				}
			}
		}
		for _, copyPath := range []string{"/web/app.wasm.br", "/app.js.gz"} {
			if status, _, body := get(server.base, copyPath, "br, gzip"); status != http.StatusOK || !bytes.Equal(body, index) {
				t.Errorf("%s: GET %s: %d, index.html: %v; want the page's fallback, not the copy", server.name, copyPath, status, bytes.Equal(body, index))
			}
		}
	}
}
