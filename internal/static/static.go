// Package static serves the calculator's pre-rendered site the way
// Cloudflare Workers serves it as static assets (wrangler.toml: html_handling
// left at "auto-trailing-slash", not_found_handling "single-page-application"),
// so the local server and the browser tests see what production sends; and
// it holds the site's response headers (Headers), the one value from which
// the generator writes the _headers file Workers reads and which this
// handler applies itself. It imports nothing of flakegate's.
//
// The contract, for a GET or HEAD of a decoded, cleaned path p:
//
//   - p is the file p, or else the file p+".html", or else p's index.html
//     ("/decide" is decide.html, "/" is index.html). A request that names a
//     file by a longer spelling than its clean URL is redirected there with
//     307, query kept: "/decide.html" → "/decide", "/index.html" → "/",
//     "/docs" → "/docs/" when docs/index.html is the file.
//   - A path that names no file gets the site's index.html with status 200
//     (single-page-application fallback: the page routes itself).
//   - Headers: Content-Type from the file's extension (a fixed table, the
//     same on every machine), a strong ETag from the content's SHA-256 (an
//     If-None-Match that matches gets 304), then Options.Headers applied as
//     Workers applies _headers (see Rules.Apply), matched against the
//     requested path, not the file's; on redirects and 304s too.
//   - Compressed copies: when the file has copies beside it in any of
//     Encodings ("app.wasm.br", "app.wasm.gz", written by Precompress),
//     the coding is chosen by Negotiate from the request's
//     Accept-Encoding; the answer carries "Vary: Accept-Encoding", the
//     chosen Content-Encoding, and the ETag of the bytes sent, so each
//     coding revalidates on its own. A copy is never served at its own
//     path (.assetsignore keeps copies out of a Workers upload).
//   - _headers, _redirects and .assetsignore are never served: Workers does
//     not upload them, so their paths fall back to index.html like any
//     other missing file.
//   - Other methods get 405 with "Allow: GET, HEAD".
//   - With no index.html in the site (not built yet), a path that names no
//     file gets Options.Placeholder with status 404.
//
// Files are read on every request, so a rebuilt site is served at once.
package static

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"net/url"
	"path"
	"strconv"
	"strings"
	"sync"
	"time"
)

// HeadersFile is the name of the headers file at the site's root, which
// the generator writes from Headers for Workers.
const HeadersFile = "_headers"

// hidden are the site files Workers does not serve.
var hidden = map[string]bool{HeadersFile: true, "_redirects": true, ".assetsignore": true}

// Options adjusts a Handler.
type Options struct {
	// Headers are applied to every answer; the site's are Headers. A site
	// folder's own _headers file is not read.
	Headers Rules
	// Placeholder is the HTML page sent when the site has no index.html;
	// empty means DefaultPlaceholder.
	Placeholder string
}

// DefaultPlaceholder says the site is not built and how to build it.
const DefaultPlaceholder = `<!doctype html>
<meta charset="utf-8">
<title>flakegate</title>
<h1>flakegate</h1>
<p>The calculator is not built here yet: run <code>make site</code>.</p>
`

// Handler serves one site. It is safe for concurrent use.
type Handler struct {
	site        fs.FS
	headers     Rules
	placeholder string

	etagMu sync.Mutex
	etags  map[string]etagEntry // by file name: one entry per file
}

// etagEntry is a file's ETag and the size and modification time it was
// computed for.
type etagEntry struct {
	size int64
	mod  time.Time
	etag string
}

// New returns a handler for site; headers that fail Rules.Check are an
// error.
func New(site fs.FS, opt Options) (*Handler, error) {
	if err := opt.Headers.Check(); err != nil {
		return nil, fmt.Errorf("static: %w", err)
	}
	h := &Handler{site: site, headers: opt.Headers, placeholder: opt.Placeholder, etags: map[string]etagEntry{}}
	if h.placeholder == "" {
		h.placeholder = DefaultPlaceholder
	}
	return h, nil
}

func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		http.Error(w, "the site answers GET and HEAD only", http.StatusMethodNotAllowed)
		return
	}
	p := cleanPath(r.URL.Path)
	file, ok := h.Lookup(p)
	if ok {
		if c := canonical(file); c != p {
			if f2, ok2 := h.Lookup(c); ok2 && f2 == file {
				loc := (&url.URL{Path: c}).EscapedPath()
				if r.URL.RawQuery != "" {
					loc += "?" + r.URL.RawQuery
				}
				w.Header().Set("Location", loc)
				h.headers.Apply(w.Header(), p)
				w.WriteHeader(http.StatusTemporaryRedirect)
				return
			}
		}
	} else if h.isFile("index.html") {
		file = "index.html"
	} else {
		hd := w.Header()
		hd.Set("Content-Type", "text/html; charset=utf-8")
		h.headers.Apply(hd, p)
		w.WriteHeader(http.StatusNotFound)
		if r.Method != http.MethodHead {
			io.WriteString(w, h.placeholder)
		}
		return
	}
	h.serveFile(w, r, p, file)
}

// Lookup maps a clean URL path (as from cleanPath: leading "/", a trailing
// "/" kept) to the site file that answers it, without redirects or the
// index.html fallback: the file itself, the file with ".html", or the
// folder's index.html.
func (h *Handler) Lookup(p string) (string, bool) {
	name := strings.Trim(p, "/")
	if strings.HasSuffix(p, "/") {
		if c := path.Join(name, "index.html"); h.isFile(c) {
			return c, true
		}
		if name != "" && h.isFile(name+".html") {
			return name + ".html", true
		}
		return "", false
	}
	for _, c := range []string{name, name + ".html", path.Join(name, "index.html")} {
		if h.isFile(c) {
			return c, true
		}
	}
	return "", false
}

// canonical is the clean URL of a site file: "decide.html" → "/decide",
// "docs/index.html" → "/docs/", "index.html" → "/".
func canonical(file string) string {
	switch {
	case file == "index.html":
		return "/"
	case strings.HasSuffix(file, "/index.html"):
		return "/" + strings.TrimSuffix(file, "index.html")
	case strings.HasSuffix(file, ".html"):
		return "/" + strings.TrimSuffix(file, ".html")
	}
	return "/" + file
}

// cleanPath resolves dot segments and repeated slashes, keeping a trailing
// slash: "//a/./b/" → "/a/b/".
func cleanPath(p string) string {
	c := path.Clean("/" + p)
	if strings.HasSuffix(p, "/") && c != "/" {
		c += "/"
	}
	return c
}

func (h *Handler) isFile(name string) bool {
	if _, _, copy := encodingOf(name); copy {
		return false // a compressed copy is served only as its file's coding
	}
	return h.isRegular(name)
}

func (h *Handler) isRegular(name string) bool {
	if name == "" || hidden[name] || !fs.ValidPath(name) {
		return false
	}
	st, err := fs.Stat(h.site, name)
	return err == nil && st.Mode().IsRegular()
}

// coding chooses what to send for file: the name of the file or of its
// compressed copy, and the copy's coding ("" for the file itself). vary
// reports whether file has copies, so the choice depended on
// Accept-Encoding.
func (h *Handler) coding(r *http.Request, file string) (name, coding string, vary bool) {
	var offered []string
	for _, e := range Encodings {
		if h.isRegular(file + e.Suffix) {
			offered = append(offered, e.Name)
		}
	}
	if len(offered) == 0 {
		return file, "", false
	}
	c := Negotiate(r.Header.Values("Accept-Encoding"), offered)
	for _, e := range Encodings {
		if e.Name == c {
			return file + e.Suffix, c, true
		}
	}
	return file, "", true
}

func (h *Handler) serveFile(w http.ResponseWriter, r *http.Request, p, file string) {
	name, coding, vary := h.coding(r, file)
	f, err := h.site.Open(name)
	if err != nil {
		http.Error(w, "cannot open "+file, http.StatusInternalServerError)
		return
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		http.Error(w, "cannot read "+file, http.StatusInternalServerError)
		return
	}
	rs, ok := f.(io.ReadSeeker)
	if !ok {
		b, err := io.ReadAll(f)
		if err != nil {
			http.Error(w, "cannot read "+file, http.StatusInternalServerError)
			return
		}
		rs = bytes.NewReader(b)
	}
	etag, err := h.etag(name, st, rs)
	if err != nil {
		http.Error(w, "cannot read "+file, http.StatusInternalServerError)
		return
	}
	hd := w.Header()
	hd.Set("Content-Type", ContentType(file))
	hd.Set("Etag", etag) // of the bytes sent: each coding has its own
	if vary {
		hd.Add("Vary", "Accept-Encoding")
	}
	if coding != "" {
		hd.Set("Content-Encoding", coding)
		// ServeContent leaves Content-Length out when a coding is set
		// (for handlers that compress as they write); this one sends the
		// copy's bytes as they are. Ranges and 304s set or drop it.
		hd.Set("Content-Length", strconv.FormatInt(st.Size(), 10))
	}
	h.headers.Apply(hd, p)
	// A zero modification time: like Workers, no Last-Modified; the ETag
	// alone answers revalidation (a site regenerated within the same
	// second would fool If-Modified-Since).
	http.ServeContent(w, r, file, time.Time{}, rs)
}

// etag is the quoted hex SHA-256 of the file, remembered while its size
// and modification time stay the same (always recomputed for files that
// report no modification time).
func (h *Handler) etag(name string, st fs.FileInfo, rs io.ReadSeeker) (string, error) {
	size, mod := st.Size(), st.ModTime()
	if !mod.IsZero() {
		h.etagMu.Lock()
		e, ok := h.etags[name]
		h.etagMu.Unlock()
		if ok && e.size == size && e.mod.Equal(mod) {
			return e.etag, nil
		}
	}
	sum := sha256.New()
	if _, err := io.Copy(sum, rs); err != nil {
		return "", err
	}
	if _, err := rs.Seek(0, io.SeekStart); err != nil {
		return "", err
	}
	e := `"` + hex.EncodeToString(sum.Sum(nil)[:16]) + `"`
	if !mod.IsZero() {
		h.etagMu.Lock()
		h.etags[name] = etagEntry{size, mod, e}
		h.etagMu.Unlock()
	}
	return e, nil
}
