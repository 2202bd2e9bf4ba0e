package render

import (
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"strconv"
	"strings"
)

// MaxTemplate bounds a pre-rendered page read to render a link into, in
// bytes (the pages are about 16 KB).
const MaxTemplate = 1 << 20

// Respond answers r, a GET or HEAD of a calculator page whose URL holds a
// link's query, with the pre-rendered page tpl showing the link's answer
// (Compute, Splice), and reports whether it did. It did not when the
// request is of another method, names no page, has no query or one longer
// than MaxQuery, or tpl is not a pre-rendered page: the caller then serves
// the page as it is. The answer is text/html with a strong ETag of its
// bytes (the same link on the same site gives the same bytes); a matching
// If-None-Match is answered 304. Headers the caller set before (the
// site's) are kept.
func Respond(w http.ResponseWriter, r *http.Request, tpl []byte) bool {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		return false
	}
	if len(tpl) > MaxTemplate || len(r.URL.RawQuery) > MaxQuery {
		return false
	}
	v, err := Compute(r.URL.Path, r.URL.RawQuery)
	if err != nil {
		return false
	}
	body, err := Splice(tpl, v, r.URL.RawQuery, self(r))
	if err != nil {
		return false
	}
	sum := sha256.Sum256(body)
	etag := `"` + hex.EncodeToString(sum[:16]) + `"`
	h := w.Header()
	h.Set("ETag", etag)
	h.Set("Content-Type", "text/html; charset=utf-8")
	if matches(r.Header.Get("If-None-Match"), etag) {
		w.WriteHeader(http.StatusNotModified)
		return true
	}
	h.Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(http.StatusOK)
	if r.Method == http.MethodGet {
		w.Write(body)
	}
	return true
}

// self is the link's own address, for og:url: the request's, on its host.
func self(r *http.Request) string {
	if r.Host == "" {
		return ""
	}
	scheme := "https"
	if r.TLS == nil && (strings.HasPrefix(r.Host, "127.0.0.1") || strings.HasPrefix(r.Host, "localhost") || strings.HasPrefix(r.Host, "[::1]")) {
		scheme = "http"
	}
	return scheme + "://" + r.Host + r.URL.Path + "?" + r.URL.RawQuery
}

// matches reports whether an If-None-Match value names etag ("*" or a
// list, weak tags compared weakly as RFC 9110 says for GET).
func matches(inm, etag string) bool {
	for _, t := range strings.Split(inm, ",") {
		t = strings.TrimPrefix(strings.TrimSpace(t), "W/")
		if t == "*" || t == etag {
			return true
		}
	}
	return false
}
