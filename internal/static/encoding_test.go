package static

import (
	"bytes"
	"compress/gzip"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/andybalholm/brotli"
	"github.com/flakegate/flakegate/internal/testfile"
)

// TestNegotiate: the coding chosen for Accept-Encoding values. Expected
// values follow RFC 9110, section 12.5.3 (weights, "*", "identity",
// case-insensitive names, x-gzip as gzip in section 8.4.1.3), with the
// rule the package documents for ties (br before gzip) and for a file no
// coding can replace; the browser rows are the fields Chromium 150 and
// Firefox send.
func TestNegotiate(t *testing.T) {
	both := []string{"br", "gzip"}
	for _, c := range []struct {
		fields  []string
		offered []string
		want    string
	}{
		{nil, both, "identity"},                                                 // no field: the file
		{[]string{""}, both, "identity"},                                        // empty field: identity only
		{[]string{"gzip, deflate, br, zstd"}, both, "br"},                       // Chromium: a tie, br first
		{[]string{"gzip, deflate, br, zstd"}, []string{"gzip"}, "gzip"},         // only a gzip copy
		{[]string{"gzip, deflate"}, both, "gzip"},                               // no br (plain HTTP in old browsers)
		{[]string{"br;q=0.5, gzip;q=0.8"}, both, "gzip"},                        // higher weight wins
		{[]string{"br;q=0.8, gzip;q=0.8"}, both, "br"},                          // tie: server order
		{[]string{"gzip;q=0.8, br;q=0.8"}, both, "br"},                          // the client's order does not break ties
		{[]string{"br;q=0, gzip"}, both, "gzip"},                                // q=0: not acceptable
		{[]string{"br;q=0, gzip;q=0"}, both, "identity"},                        // nothing acceptable
		{[]string{"identity"}, both, "identity"},                                // only the file
		{[]string{"*"}, both, "br"},                                             // anything
		{[]string{"*;q=0.2, br;q=0"}, both, "gzip"},                             // "*" covers what is not listed
		{[]string{"*;q=0"}, both, "identity"},                                   // nothing but the file is left
		{[]string{"*;q=0, identity;q=0"}, both, "identity"},                     // refused, but all there is
		{[]string{"BR"}, both, "br"},                                            // names ignore case
		{[]string{"x-gzip"}, both, "gzip"},                                      // x-gzip is gzip
		{[]string{"gzip;Q=0.5, br;q=0.4"}, both, "gzip"},                        // Q in upper case
		{[]string{"br;q=1.000, gzip;q=0.999"}, both, "br"},                      // three decimals
		{[]string{"br;q=1.5, gzip;q=0.1"}, both, "gzip"},                        // q above 1: element ignored
		{[]string{"br;q=high, gzip;q=0.1"}, both, "gzip"},                       // not a number: ignored
		{[]string{"br;q=0.0001, gzip;q=0.1"}, both, "gzip"},                     // four decimals: ignored
		{[]string{"br;level=3;q=0.9, gzip;q=0.5"}, both, "br"},                  // other parameters ignored
		{[]string{"gzip", "br"}, both, "br"},                                    // two fields are one list
		{[]string{" , ,gzip ,"}, both, "gzip"},                                  // empty elements
		{[]string{"deflate, zstd"}, both, "identity"},                           // codings without copies
		{[]string{"gzip, br"}, nil, "identity"},                                 // a file without copies
		{[]string{"gzip;q=0.1"}, both, "gzip"},                                  // any weight beats the file
		{[]string{"br, gzip, identity;q=0"}, []string{"gzip"}, "gzip"},          // only the gzip copy
		{[]string{"b r, gzip"}, both, "gzip"},                                   // not a token: ignored
		{[]string{"gzip;q=.5"}, both, "identity"},                               // ".5" is not a weight
		{[]string{"gzip;q=0.5;q=0"}, both, "identity"},                          // the last q counts
		{[]string{"gzip;q=1."}, both, "gzip"},                                   // "1." is 1 (RFC 9110: 1 then "." then up to 3 zeros)
		{[]string{"br;q=0.900,gzip;q=0.9,identity;q=1"}, both, "br"},            // weights equal, ties by order
		{[]string{"br;q=0.001"}, both, "br"},                                    // smallest weight above 0
		{[]string{"br;q=0.000"}, both, "identity"},                              // zero with decimals
		{[]string{"zstd;q=1, br;q=0.2, gzip;q=0.3"}, both, "gzip"},              // Firefox-like with weights
		{[]string{"identity;q=1, *;q=0"}, both, "identity"},                     // explicit file only
		{[]string{"gzip, deflate, br"}, []string{"br", "gzip"}, "br"},           // Firefox
		{[]string{"gzip,deflate"}, []string{"br"}, "identity"},                  // only a br copy, br not accepted
		{[]string{"*;q=0.5, gzip;q=0.6"}, both, "gzip"},                         // listed beats "*"
		{[]string{"*;q=0.7, gzip;q=0.6"}, both, "br"},                           // "*" gives br 0.7
		{[]string{"gzip;q=0.6, *;q=0.7, br;q=0"}, both, "gzip"},                 // order of elements irrelevant
		{[]string{"GZIP;Q=1.0, X-GZIP;q=0.2"}, []string{"gzip"}, "gzip"},        // the later element sets gzip's weight, still above 0
		{[]string{"x-gzip;q=0, gzip"}, []string{"gzip"}, "gzip"},                // later wins: gzip at 1
		{[]string{"gzip, x-gzip;q=0"}, []string{"gzip"}, "identity"},            // later wins: gzip at 0
		{[]string{strings.Repeat("gzip;q=0.5,", 1000) + "br"}, both, "br"},      // a long field
		{[]string{"br;q=1.000;q=0.5, gzip;q=0.6"}, both, "gzip"},                // last q of br is 0.5
		{[]string{"identity;q=0"}, both, "identity"},                            // refused, but all there is
		{[]string{"br;q=0.50000, gzip;q=0.4"}, both, "gzip"},                    // five decimals: br ignored
		{[]string{"br ; q = 0.5 , gzip ; q = 0.4"}, both, "br"},                 // blanks around ";" and "="
		{[]string{"compress, gzip;q=0.2"}, both, "gzip"},                        // unknown coding first
		{[]string{"br;q=1.001"}, both, "identity"},                              // above 1
		{[]string{"br;q=01"}, both, "identity"},                                 // not RFC spelling
		{[]string{"br;q="}, both, "identity"},                                   // empty weight
		{[]string{"br;q"}, both, "br"},                                          // parameter without "=": ignored
		{[]string{"gzip, br;q=0.999"}, both, "gzip"},                            // gzip at 1 beats br at 0.999
		{[]string{"gzip;q=0.001, br;q=0.002"}, both, "br"},                      // small weights compare
		{[]string{"deflate;q=1, gzip;q=0.001"}, []string{"br", "gzip"}, "gzip"}, // the only acceptable copy
	} {
		if got := Negotiate(c.fields, c.offered); got != c.want {
			t.Errorf("Negotiate(%q, %q) = %q, want %q", c.fields, c.offered, got, c.want)
		}
	}
}

// FuzzNegotiate: any field yields one of the offered codings or identity,
// and a coding the field gives weight 0 by name is never chosen.
func FuzzNegotiate(f *testing.F) {
	for _, s := range []string{"gzip, deflate, br, zstd", "br;q=0, gzip", "*;q=0", "identity;q=0", "x-gzip;q=0.5", ";;,q=1", "br;q=1.0000"} {
		f.Add(s)
	}
	offered := []string{"br", "gzip"}
	f.Fuzz(func(t *testing.T, field string) {
		got := Negotiate([]string{field}, offered)
		if got != Identity && !slices.Contains(offered, got) {
			t.Fatalf("%q: chose %q", field, got)
		}
		if got == "br" && !strings.Contains(strings.ToLower(field), "br") && !strings.Contains(field, "*") {
			t.Fatalf("%q: chose br, which it does not name", field)
		}
	})
}

// encodedSite is a site with compressed copies written by Precompress.
func encodedSite(t *testing.T) (string, *Handler) {
	t.Helper()
	dir := t.TempDir()
	files := map[string]string{
		"index.html":   "<!doctype html><p>" + strings.Repeat("home page ", 200),
		"app.js":       strings.Repeat("console.log('flakegate');\n", 100),
		"web/app.wasm": "\x00asm\x01\x00\x00\x00" + strings.Repeat("\x00\x01\x02\x03", 2000),
		"web/icon.png": "\x89PNG\r\n\x1a\n" + strings.Repeat("x", 1000), // not compressible by extension
		"version.txt":  "v\n",                                           // copies would be larger
	}
	testfile.Write(t, dir, files)
	if _, err := Precompress(dir); err != nil {
		t.Fatal(err)
	}
	h, err := New(os.DirFS(dir), Options{Headers: rules})
	if err != nil {
		t.Fatal(err)
	}
	return dir, h
}

// decode undoes a Content-Encoding with decoders independent of the
// writers' settings: the standard library's gzip and brotli's reader.
func decode(t *testing.T, coding string, body []byte) []byte {
	t.Helper()
	var r io.Reader
	switch coding {
	case "":
		return body
	case "gzip":
		zr, err := gzip.NewReader(bytes.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		r = zr
	case "br":
		r = brotli.NewReader(bytes.NewReader(body))
	default:
		t.Fatalf("unexpected coding %q", coding)
	}
	b, err := io.ReadAll(r)
	if err != nil {
		t.Fatalf("decoding %s: %v", coding, err)
	}
	return b
}

// TestServeEncoded: every coding a browser may ask for decodes to the
// file's own bytes, with Vary, its own ETag and a Content-Length of the
// bytes sent; If-None-Match answers 304 per coding; a copy is never
// served at its own path.
func TestServeEncoded(t *testing.T) {
	dir, h := encodedSite(t)
	for _, file := range []struct{ path, name string }{{"/", "index.html"}, {"/app.js", "app.js"}, {"/web/app.wasm", "web/app.wasm"}} {
		want, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(file.name)))
		if err != nil {
			t.Fatal(err)
		}
		etags := map[string]string{}
		for _, c := range []struct{ accept, coding string }{
			{"gzip, deflate, br, zstd", "br"},
			{"gzip", "gzip"},
			{"identity", ""},
			{"br;q=0, gzip;q=0", ""},
		} {
			res := serve(t, h, "GET", file.path, "Accept-Encoding", c.accept)
			body, _ := io.ReadAll(res.Body)
			if res.StatusCode != 200 || res.Header.Get("Content-Encoding") != c.coding || res.Header.Get("Vary") != "Accept-Encoding" {
				t.Fatalf("%s with %q: %d, Content-Encoding %q, Vary %q", file.path, c.accept, res.StatusCode, res.Header.Get("Content-Encoding"), res.Header.Get("Vary"))
			}
			if got := decode(t, c.coding, body); !bytes.Equal(got, want) {
				t.Errorf("%s with %q: decodes to %d bytes, not the file's %d", file.path, c.accept, len(got), len(want))
			}
			if c.coding != "" && len(body) >= len(want) {
				t.Errorf("%s in %s: %d bytes, the file has %d", file.path, c.coding, len(body), len(want))
			}
			if cl := res.Header.Get("Content-Length"); cl != strconv.Itoa(len(body)) {
				t.Errorf("%s with %q: Content-Length %s for %d bytes", file.path, c.accept, cl, len(body))
			}
			if res.Header.Get("Content-Security-Policy") == "" {
				t.Errorf("%s with %q: the site's headers are missing", file.path, c.accept)
			}
			etag := res.Header.Get("Etag")
			if prev, ok := etags[c.coding]; ok && prev != etag {
				t.Errorf("%s %s: ETag %s then %s", file.path, c.coding, prev, etag)
			}
			etags[c.coding] = etag
			// Revalidation with this coding's ETag: 304, still varying.
			res = serve(t, h, "GET", file.path, "Accept-Encoding", c.accept, "If-None-Match", etag)
			if res.StatusCode != http.StatusNotModified || res.Header.Get("Vary") != "Accept-Encoding" || res.Header.Get("Etag") != etag {
				t.Errorf("%s with %q revalidated: %d Vary %q ETag %q", file.path, c.accept, res.StatusCode, res.Header.Get("Vary"), res.Header.Get("Etag"))
			}
		}
		// Each representation has its own ETag (RFC 9110, section 8.8.3:
		// a strong validator changes with the bytes), so one coding's ETag
		// does not revalidate another's.
		if etags["br"] == etags["gzip"] || etags["br"] == etags[""] || etags["gzip"] == etags[""] {
			t.Errorf("%s: ETags %v are not distinct", file.path, etags)
		}
		res := serve(t, h, "GET", file.path, "Accept-Encoding", "gzip", "If-None-Match", etags["br"])
		if res.StatusCode != 200 || res.Header.Get("Content-Encoding") != "gzip" {
			t.Errorf("%s: gzip request with br's ETag: %d %q", file.path, res.StatusCode, res.Header.Get("Content-Encoding"))
		}
		// HEAD: the headers of GET, no body.
		res = serve(t, h, "HEAD", file.path, "Accept-Encoding", "br")
		body, _ := io.ReadAll(res.Body)
		if res.StatusCode != 200 || len(body) != 0 || res.Header.Get("Content-Encoding") != "br" || res.Header.Get("Etag") != etags["br"] {
			t.Errorf("HEAD %s: %d, %d bytes, %v", file.path, res.StatusCode, len(body), res.Header)
		}
	}
	// Files without copies: no Vary, no coding.
	for _, p := range []string{"/web/icon.png", "/version.txt"} {
		res := serve(t, h, "GET", p, "Accept-Encoding", "br, gzip")
		if res.StatusCode != 200 || res.Header.Get("Content-Encoding") != "" || res.Header.Get("Vary") != "" {
			t.Errorf("%s: %d Content-Encoding %q Vary %q", p, res.StatusCode, res.Header.Get("Content-Encoding"), res.Header.Get("Vary"))
		}
	}
	// A copy's own path names no file: index.html, as Workers answers
	// a path .assetsignore kept out.
	home, _ := io.ReadAll(serve(t, h, "GET", "/", "Accept-Encoding", "identity").Body)
	for _, p := range []string{"/web/app.wasm.br", "/app.js.gz", "/index.html.br"} {
		res := serve(t, h, "GET", p, "Accept-Encoding", "identity")
		body, _ := io.ReadAll(res.Body)
		if res.StatusCode != 200 || !bytes.Equal(body, home) {
			t.Errorf("%s: %d, %d bytes, want index.html", p, res.StatusCode, len(body))
		}
	}
	// A range of the brotli copy is a range of the bytes sent.
	res := serve(t, h, "GET", "/web/app.wasm", "Accept-Encoding", "br", "Range", "bytes=0-3")
	part, _ := io.ReadAll(res.Body)
	full, _ := os.ReadFile(filepath.Join(dir, "web", "app.wasm.br"))
	if res.StatusCode != http.StatusPartialContent || !bytes.Equal(part, full[:4]) || res.Header.Get("Content-Length") != "4" {
		t.Errorf("range of br: %d %q (copy starts %q) Content-Length %s", res.StatusCode, part, full[:4], res.Header.Get("Content-Length"))
	}
}

// TestPrecompress: copies of compressible files only, none larger than its
// file, each decoding to the file; the same bytes on a second run; a
// stale copy is removed.
func TestPrecompress(t *testing.T) {
	dir, _ := encodedSite(t)
	stale := filepath.Join(dir, "gone.js.br")
	if err := os.WriteFile(stale, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	first := map[string][]byte{}
	written, err := Precompress(dir)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"app.js.br", "app.js.gz", "index.html.br", "index.html.gz", "web/app.wasm.br", "web/app.wasm.gz"}
	if !slices.Equal(written, want) {
		t.Errorf("wrote %q, want %q", written, want)
	}
	if _, err := os.Stat(stale); !os.IsNotExist(err) {
		t.Errorf("stale copy left: %v", err)
	}
	for _, name := range written {
		b, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(name)))
		if err != nil {
			t.Fatal(err)
		}
		first[name] = b
		e, base, _ := encodingOf(name)
		orig, _ := os.ReadFile(filepath.Join(dir, filepath.FromSlash(base)))
		if got := decode(t, e.Name, b); !bytes.Equal(got, orig) {
			t.Errorf("%s does not decode to %s", name, base)
		}
	}
	if _, err := Precompress(dir); err != nil {
		t.Fatal(err)
	}
	for name, b := range first {
		again, _ := os.ReadFile(filepath.Join(dir, filepath.FromSlash(name)))
		if !bytes.Equal(again, b) {
			t.Errorf("%s differs between two runs", name)
		}
	}
	// gzip's header carries no time or name: bytes 4–9 are flags 0, mtime
	// 0, and the XFL and OS bytes (RFC 1952, section 2.3).
	if gz := first["app.js.gz"]; gz[3] != 0 || !bytes.Equal(gz[4:8], []byte{0, 0, 0, 0}) {
		t.Errorf("gzip header % x carries a name or a time", gz[:10])
	}
}

// TestPrecompressMapFS: the handler negotiates copies in any fs.FS, not
// only a folder.
func TestPrecompressMapFS(t *testing.T) {
	gz, err := Compress(Encodings[1], []byte(strings.Repeat("a", 100)))
	if err != nil {
		t.Fatal(err)
	}
	h, err := New(fstest.MapFS{"a.txt": {Data: []byte(strings.Repeat("a", 100))}, "a.txt.gz": {Data: gz}}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	res := serve(t, h, "GET", "/a.txt", "Accept-Encoding", "gzip, br")
	body, _ := io.ReadAll(res.Body)
	if res.Header.Get("Content-Encoding") != "gzip" || string(decode(t, "gzip", body)) != strings.Repeat("a", 100) {
		t.Errorf("MapFS: %v", res.Header)
	}
}

// TestPrecompressReusing: a file unchanged since the earlier build gets
// that build's copy as it was (planted here as a valid brotli stream other
// than the one Compress writes, so reuse shows); a changed file, and an
// unchanged one whose earlier copy does not decode to it, are compressed
// again; every copy written decodes to its file (read back with the
// test's own decoders).
func TestPrecompressReusing(t *testing.T) {
	prev, _ := encodedSite(t)
	dir := t.TempDir()
	for _, name := range []string{"index.html", "app.js", "web/app.wasm"} {
		b, err := os.ReadFile(filepath.Join(prev, filepath.FromSlash(name)))
		if err != nil {
			t.Fatal(err)
		}
		if name == "app.js" {
			b = append(b, "// changed\n"...)
		}
		testfile.Write(t, dir, map[string]string{name: string(b)})
	}
	wasm, _ := os.ReadFile(filepath.Join(prev, "web", "app.wasm"))
	var planted bytes.Buffer // quality 1: not the bytes q11 writes
	w := brotli.NewWriterLevel(&planted, 1)
	w.Write(wasm)
	w.Close()
	testfile.Write(t, prev, map[string]string{"web/app.wasm.br": planted.String(), "index.html.gz": "not gzip"})

	written, err := PrecompressReusing(dir, prev)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"app.js.br", "app.js.gz", "index.html.br", "index.html.gz", "web/app.wasm.br", "web/app.wasm.gz"}
	if !slices.Equal(written, want) {
		t.Errorf("wrote %q, want %q", written, want)
	}
	read := func(d, name string) []byte {
		b, err := os.ReadFile(filepath.Join(d, filepath.FromSlash(name)))
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	if got := read(dir, "web/app.wasm.br"); !bytes.Equal(got, planted.Bytes()) {
		t.Errorf("app.wasm, unchanged, was compressed again (%d B) instead of reusing the earlier copy (%d B)", len(got), planted.Len())
	}
	if got := read(dir, "index.html.gz"); string(got) == "not gzip" {
		t.Error("an earlier copy that does not decode to its file was reused")
	}
	if bytes.Equal(read(dir, "app.js.br"), read(prev, "app.js.br")) {
		t.Error("app.js changed but its earlier copy was reused")
	}
	for _, name := range written {
		e, base, _ := encodingOf(name)
		if got := decode(t, e.Name, read(dir, name)); !bytes.Equal(got, read(dir, base)) {
			t.Errorf("%s does not decode to %s", name, base)
		}
	}
}
