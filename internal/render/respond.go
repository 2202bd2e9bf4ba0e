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

// Page is the pre-rendered page tpl showing the link of r, a GET or HEAD
// of a calculator page whose URL holds a link's query (Compute, Splice),
// and whether there is one. There is none when the request is of another
// method, names no page, has no query or one longer than MaxQuery, asks
// for more work than MaxWorkSteps, or tpl is not a pre-rendered page: the
// caller then serves the page as it is. The same link and tpl give the
// same bytes. origin is the site's scheme and host as the client reached
// it ("https://flakegate.example"), for the preview's og:url; "" leaves
// og:url out.
func Page(r *http.Request, tpl []byte, origin string) ([]byte, bool) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		return nil, false
	}
	if len(tpl) > MaxTemplate || len(r.URL.RawQuery) > MaxQuery {
		return nil, false
	}
	v, err := Compute(r.URL.Path, r.URL.RawQuery)
	if err != nil {
		return nil, false
	}
	self := ""
	if origin != "" {
		self = origin + r.URL.Path + "?" + r.URL.RawQuery
	}
	body, err := Splice(tpl, v, r.URL.RawQuery, self)
	if err != nil {
		return nil, false
	}
	return body, true
}

// Send answers r with body, a rendered page (in the coding the caller set
// in Content-Encoding, if any), as text/html with a strong ETag of the
// bytes sent; a matching If-None-Match is answered 304. Headers the
// caller set before (the site's) are kept.
func Send(w http.ResponseWriter, r *http.Request, body []byte) {
	sum := sha256.Sum256(body)
	etag := `"` + hex.EncodeToString(sum[:16]) + `"`
	h := w.Header()
	h.Set("ETag", etag)
	h.Set("Content-Type", "text/html; charset=utf-8")
	if matches(r.Header.Get("If-None-Match"), etag) {
		h.Del("Content-Encoding")
		w.WriteHeader(http.StatusNotModified)
		return
	}
	h.Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(http.StatusOK)
	if r.Method != http.MethodHead {
		w.Write(body)
	}
}

// Respond answers r with the page tpl showing its link (Page, then Send)
// and reports whether it did; when it did not, nothing is written.
func Respond(w http.ResponseWriter, r *http.Request, tpl []byte, origin string) bool {
	body, ok := Page(r, tpl, origin)
	if ok {
		Send(w, r, body)
	}
	return ok
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
