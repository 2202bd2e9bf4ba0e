package api

import (
	"bytes"
	"compress/gzip"
	"io"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
)

// TestGzipAnswers: with Options.Gzip, an answer of 1 KiB or more goes out
// gzip-compressed to a client that accepts gzip, with Vary; it decodes to
// the plain answer's bytes, and the same request gets the same compressed
// bytes. Small answers, and clients that refuse gzip, get plain bytes.
func TestGzipAnswers(t *testing.T) {
	h := New(LocalOptions())
	const big = "/v1/budget?rates=0.05,0.02,0.01,0.005,0.001"
	get := func(target, accept string) *httptest.ResponseRecorder {
		r := httptest.NewRequest("GET", target, nil)
		if accept != "" {
			r.Header.Set("Accept-Encoding", accept)
		}
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		return w
	}
	plain := get(big, "")
	if plain.Code != 200 || plain.Header().Get("Content-Encoding") != "" || plain.Header().Get("Vary") != "Accept-Encoding" || plain.Body.Len() < 1024 {
		t.Fatalf("plain: %d %v (%d bytes)", plain.Code, plain.Header(), plain.Body.Len())
	}
	first := get(big, "br;q=1.0, gzip;q=0.8, *;q=0.1")
	if first.Header().Get("Content-Encoding") != "gzip" || first.Header().Get("Vary") != "Accept-Encoding" {
		t.Fatalf("gzip: %v", first.Header())
	}
	zr, err := gzip.NewReader(bytes.NewReader(first.Body.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	got, err := io.ReadAll(zr)
	if err != nil || !bytes.Equal(got, plain.Body.Bytes()) {
		t.Errorf("the gzip answer does not decode to the plain one: %v", err)
	}
	if first.Body.Len() >= plain.Body.Len() || first.Header().Get("Content-Length") != strconv.Itoa(first.Body.Len()) {
		t.Errorf("compressed %d bytes (Content-Length %s) of %d", first.Body.Len(), first.Header().Get("Content-Length"), plain.Body.Len())
	}
	if again := get(big, "gzip"); !bytes.Equal(again.Body.Bytes(), first.Body.Bytes()) {
		t.Error("the same request got different compressed bytes")
	}
	// RFC 9110, section 12.5.3: * stands for the codings not listed, so a
	// listed gzip's own weight decides.
	for _, accept := range []string{"*", "x-gzip", "*;q=0, gzip", "gzip;q=0.001"} {
		if w := get(big, accept); w.Header().Get("Content-Encoding") != "gzip" {
			t.Errorf("Accept-Encoding %q: not compressed", accept)
		}
	}
	for _, accept := range []string{"gzip;q=0", "identity", "br", "GZIP; q=0.000", "*, gzip;q=0", "gzip;q=0, *;q=1", "*;q=0"} {
		if w := get(big, accept); w.Header().Get("Content-Encoding") != "" || !bytes.Equal(w.Body.Bytes(), plain.Body.Bytes()) {
			t.Errorf("Accept-Encoding %q: compressed", accept)
		}
	}
	if w := get("/v1/health", "gzip"); w.Header().Get("Content-Encoding") != "" {
		t.Errorf("a small answer was compressed")
	}
	if w := get("/v1/budget?rates=x", "gzip"); w.Header().Get("Content-Encoding") != "" {
		t.Errorf("a problem was compressed")
	}
	// The Worker's options leave compression to Cloudflare.
	r := httptest.NewRequest("GET", big, nil)
	r.Header.Set("Accept-Encoding", "gzip")
	w := httptest.NewRecorder()
	New(WorkerOptions()).ServeHTTP(w, r)
	if w.Header().Get("Content-Encoding") != "" || !strings.HasPrefix(w.Body.String(), "{") {
		t.Errorf("the Worker compressed: %v", w.Header())
	}
}

// TestGzipBodies: a gzip-encoded body is read within the body limit of its
// decoded bytes, so a small bomb is a 413, not memory.
func TestGzipBodies(t *testing.T) {
	var z bytes.Buffer
	zw := gzip.NewWriter(&z)
	zw.Write([]byte("scenario,run,passed\n"))
	row := []byte(strings.Repeat("s,r,1\n", 1000))
	for range 1000 { // 6 MB of rows in a few KB, over a 1 MiB limit
		zw.Write(row)
	}
	zw.Close()
	r := httptest.NewRequest("POST", "/v1/aa", bytes.NewReader(z.Bytes()))
	r.Header.Set("Content-Type", "text/csv")
	r.Header.Set("Content-Encoding", "gzip")
	w := httptest.NewRecorder()
	New(Options{MaxBodyBytes: 1 << 20}).ServeHTTP(w, r)
	if w.Code != 413 || z.Len() > 64<<10 {
		t.Errorf("a %d-byte gzip body of 6 MB: %d %s", z.Len(), w.Code, w.Body)
	}
}
