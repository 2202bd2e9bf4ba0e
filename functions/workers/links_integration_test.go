//go:build !js && integration

package main

import (
	"bytes"
	"net/http"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/flakegate/flakegate/internal/render"
	"github.com/flakegate/flakegate/internal/render/rendertest"
	"github.com/flakegate/flakegate/internal/static"
	"github.com/flakegate/flakegate/internal/testfile"
)

// TestWorkerLinks runs the deployed Worker under wrangler dev with the
// calculator's pre-rendered pages and the site's _headers as its assets,
// and fetches, with a plain HTTP client, the link the CLI makes (-site) of
// a result of every page: the page holds the CLI's answer, preview tags
// with it, and figures equal to the CLI's -json (rendertest.CheckPage, the
// local server's check), under the site's headers. The same link gives the
// same bytes and a 304 on its ETag; a page without a query, and a query
// past render.MaxQuery, is the asset as it is.
func TestWorkerLinks(t *testing.T) {
	needWrangler(t)
	site := t.TempDir()
	pages, err := filepath.Glob(filepath.Join(rendertest.Prerendered(t), "*.html"))
	if err != nil || len(pages) < 6 {
		t.Fatalf("pre-rendered pages: %v %v", pages, err)
	}
	headers, err := static.Headers.MarshalText()
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]string{static.HeadersFile: string(headers)}
	for _, p := range pages {
		files[filepath.Base(p)] = string(testfile.Read(t, p))
	}
	testfile.Write(t, site, files)
	s := startWorkerSite(t, buildWorker(t), site)
	client := s.Client(nil)
	get := func(u, etag, method string) (*http.Response, []byte) {
		t.Helper()
		return rendertest.Fetch(t, client, method, u, etag)
	}
	for _, c := range rendertest.Cases {
		t.Run(c.Name, func(t *testing.T) {
			link, result, answer := rendertest.Result(t, root, s.URL, c)
			start := time.Now()
			resp, body := rendertest.FetchPage(t, client, link)
			t.Logf("%s: %d bytes in %v", c.Name, len(body), time.Since(start))
			rendertest.CheckPage(t, string(body), link, answer, c.Prefix, result, c.Skip...)
			again, body2 := get(link, "", http.MethodGet)
			etag := again.Header.Get("ETag")
			if !bytes.Equal(body, body2) || etag == "" || etag != resp.Header.Get("ETag") {
				t.Errorf("the same link twice: same bytes %v, ETag %q and %q", bytes.Equal(body, body2), resp.Header.Get("ETag"), etag)
			}
			if r, b := get(link, etag, http.MethodGet); r.StatusCode != http.StatusNotModified || len(b) != 0 {
				t.Errorf("If-None-Match: %d with %d bytes", r.StatusCode, len(b))
			}
			if r, b := get(link, "", http.MethodHead); r.StatusCode != 200 || len(b) != 0 {
				t.Errorf("HEAD: %d with %d bytes", r.StatusCode, len(b))
			}
		})
	}
	// What rendering a link costs under workerd, beside the API's answer
	// to the same input: medians of 15 requests each, logged (the test
	// does not time: a benchmark would, and wrangler dev is no production
	// isolate).
	for _, c := range []struct{ page, api string }{
		{"/?cap=5&confidence=0.95&cost=8&observe=1%2F120&rates=0.05%2C0.02%2C0.001&target=0.9&v=2", "/v1/budget?cap=5&confidence=0.95&cost=8&observe=1%2F120&rates=0.05%2C0.02%2C0.001&target=0.9"},
		{"/decide?baseline=30%2F60&confidence=0.95&min_trials=20&patched=51%2F60&property=passed&v=2", "/v1/decide?baseline=30%2F60&confidence=0.95&min_trials=20&patched=51%2F60&property=passed"},
	} {
		median := func(u string) time.Duration {
			var ds []time.Duration
			for range 15 {
				start := time.Now()
				if resp, _ := get(s.URL+u, "", http.MethodGet); resp.StatusCode != 200 {
					t.Fatalf("GET %s: %d", u, resp.StatusCode)
				}
				ds = append(ds, time.Since(start))
			}
			slices.Sort(ds)
			return ds[len(ds)/2]
		}
		p, a := median(c.page), median(c.api)
		t.Logf("%s: page %v, API %v (%.1f×)", c.api, p, a, float64(p)/float64(a))
	}
	want := testfile.Read(t, filepath.Join(site, "decide.html"))
	q := "baseline=12%2F20&confidence=0.95&min_trials=20&patched=19%2F20&property=unknown&v=2"
	for _, u := range []string{"/decide", "/decide?" + q + "&pad=" + strings.Repeat("x", render.MaxQuery-len(q)-len("&pad=")+1)} {
		resp, body := get(s.URL+u, "", http.MethodGet)
		if resp.StatusCode != 200 || !bytes.Equal(body, want) {
			t.Errorf("GET %.60s…: %d, the asset %v", u, resp.StatusCode, bytes.Equal(body, want))
		}
	}
}
