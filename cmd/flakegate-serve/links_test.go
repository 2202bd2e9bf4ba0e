package main

import (
	"bytes"
	"compress/gzip"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"

	"github.com/flakegate/flakegate/functions/api"
	"github.com/flakegate/flakegate/internal/render"
	"github.com/flakegate/flakegate/internal/render/rendertest"
	"github.com/flakegate/flakegate/internal/testfile"
)

// TestLinksOpenOnTheirAnswer fetches, with a plain HTTP client, the link
// the CLI writes (-site) for a result of every page, from the local
// server's handler, and checks the HTML it sends: the CLI's answer (the
// first line of its -markdown) in the answer box, the title and the
// preview tags; and the figures (fieldcheck, both ways) equal to the
// CLI's -json. The expected values are the CLI's own output.
func TestLinksOpenOnTheirAnswer(t *testing.T) {
	h := handler(t, api.LocalOptions(), rendertest.Prerendered(t))
	srv := httptest.NewServer(h)
	defer srv.Close()
	for _, c := range rendertest.Cases {
		t.Run(c.Name, func(t *testing.T) {
			link, result, answer := rendertest.Result(t, "../..", srv.URL, c)
			if !strings.Contains(link, "?") {
				t.Fatalf("the CLI's link %q is not a query link", link)
			}
			_, doc := rendertest.FetchPage(t, http.DefaultClient, link)
			rendertest.CheckPage(t, string(doc), link, answer, c.Prefix, result, c.Skip...)
		})
	}
}

// TestLinkCaching: the same link gives the same bytes and ETag; the ETag
// is answered 304; a link past render.MaxQuery, and a page without a
// query, are served as pre-rendered.
func TestLinkCaching(t *testing.T) {
	dir := rendertest.Prerendered(t)
	h := handler(t, api.LocalOptions(), dir)
	get := func(target, etag string) *httptest.ResponseRecorder {
		r := httptest.NewRequest(http.MethodGet, target, nil)
		if etag != "" {
			r.Header.Set("If-None-Match", etag)
		}
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		return w
	}
	link := "/decide?baseline=12%2F20&confidence=0.95&min_trials=20&patched=19%2F20&property=unknown&v=2"
	a, b := get(link, ""), get(link, "")
	if a.Code != 200 || !bytes.Equal(a.Body.Bytes(), b.Body.Bytes()) || a.Header().Get("ETag") == "" || a.Header().Get("ETag") != b.Header().Get("ETag") {
		t.Fatalf("the same link twice: %d, ETag %q and %q, same bytes %v", a.Code, a.Header().Get("ETag"), b.Header().Get("ETag"), bytes.Equal(a.Body.Bytes(), b.Body.Bytes()))
	}
	if w := get(link, a.Header().Get("ETag")); w.Code != http.StatusNotModified || w.Body.Len() != 0 {
		t.Errorf("If-None-Match: %d with %d bytes", w.Code, w.Body.Len())
	}
	// Asked for gzip, the same page in gzip, with an ETag of its own.
	r := httptest.NewRequest(http.MethodGet, link, nil)
	r.Header.Set("Accept-Encoding", "br;q=1, gzip;q=0.5")
	z := httptest.NewRecorder()
	h.ServeHTTP(z, r)
	zr, err := gzip.NewReader(z.Body)
	if err != nil {
		t.Fatal(err)
	}
	unz, err := io.ReadAll(zr)
	if err != nil || z.Header().Get("Content-Encoding") != "gzip" || !bytes.Equal(unz, a.Body.Bytes()) ||
		z.Header().Get("ETag") == a.Header().Get("ETag") || z.Header().Get("Vary") != "Accept-Encoding" {
		t.Errorf("gzip: %v, %v, same page %v, ETag %q", err, z.Header(), bytes.Equal(unz, a.Body.Bytes()), z.Header().Get("ETag"))
	}
	if w := get(strings.Replace(link, "19", "18", 1), a.Header().Get("ETag")); w.Code != 200 {
		t.Errorf("another link with the first one's ETag: %d", w.Code)
	}
	want := testfile.Read(t, filepath.Join(dir, "decide.html"))
	q0 := len(link) - len("/decide?")
	long := link + "&pad=" + strings.Repeat("x", render.MaxQuery+1-q0-len("&pad="))
	for _, target := range []string{"/decide", long} {
		w := get(target, "")
		if w.Code != 200 || !bytes.Equal(w.Body.Bytes(), want) {
			t.Errorf("%.40s…: %d, the pre-rendered page %v", target, w.Code, bytes.Equal(w.Body.Bytes(), want))
		}
	}
	// Just within the bound, the same link is rendered.
	within := link + "&pad=" + strings.Repeat("x", render.MaxQuery-q0-len("&pad="))
	if w := get(within, ""); w.Code != 200 || !strings.Contains(w.Body.String(), `data-rendered="server"`) {
		t.Errorf("a query of %d bytes was not rendered", len(within)-len("/decide?"))
	}
}

// BenchmarkLink serves a link's page (the core's computation, the words,
// the splice into the pre-rendered page, the ETag) beside the API's own
// answer to the same input, through the local server's handler: the
// ratio of the two is what rendering costs beyond the answer itself.
func BenchmarkLink(b *testing.B) {
	h := handler(b, api.LocalOptions(), rendertest.Prerendered(b))
	for _, c := range []struct{ name, target string }{
		{"budget/page", "/?cap=5&confidence=0.95&cost=8&observe=1%2F120&rates=0.05%2C0.02%2C0.001&target=0.9&v=2"},
		{"budget/api", "/v1/budget?cap=5&confidence=0.95&cost=8&observe=1%2F120&rates=0.05%2C0.02%2C0.001&target=0.9"},
		{"decide/page", "/decide?baseline=30%2F60&confidence=0.95&min_trials=20&patched=51%2F60&property=passed&v=2"},
		{"decide/api", "/v1/decide?baseline=30%2F60&confidence=0.95&min_trials=20&patched=51%2F60&property=passed"},
	} {
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				w := httptest.NewRecorder()
				h.ServeHTTP(w, httptest.NewRequest(http.MethodGet, c.target, nil))
				if w.Code != 200 {
					b.Fatalf("%d %s", w.Code, w.Body)
				}
			}
		})
	}
}
