//go:build js && wasm

package bridge

import (
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"syscall/js"
)

// Request converts a JavaScript Request to the *http.Request a net/http
// server would hand its handler for the same request: the URL holds only
// the path and query (the host is in Host), Host leaves the header, and
// ContentLength is the declared length, 0 without a body, -1 when the body
// is streamed without one. The body is left nil: Serve sets it.
func Request(req js.Value, hasBody bool) (*http.Request, error) {
	raw := req.Get("url").String()
	u, err := url.Parse(raw)
	if err != nil {
		return nil, fmt.Errorf("the request URL %q does not parse: %v", raw, err)
	}
	h := Header(req.Get("headers"))
	r := &http.Request{
		Method:     req.Get("method").String(),
		URL:        &url.URL{Path: u.Path, RawPath: u.RawPath, RawQuery: u.RawQuery},
		Proto:      "HTTP/1.1",
		ProtoMajor: 1,
		ProtoMinor: 1,
		Header:     h,
		Host:       u.Host,
		RequestURI: u.RequestURI(),
		RemoteAddr: h.Get("Cf-Connecting-Ip"),
	}
	if host := h.Get("Host"); host != "" {
		r.Host = host
	}
	delete(h, "Host")
	// The scheme the request came with, as a proxy in front of a server
	// says it; the client's own header, if any, is replaced.
	if u.Scheme == "http" || u.Scheme == "https" {
		h.Set("X-Forwarded-Proto", u.Scheme)
	}
	if te := h.Get("Transfer-Encoding"); te != "" {
		r.TransferEncoding = []string{strings.ToLower(te)}
		delete(h, "Transfer-Encoding")
		delete(h, "Content-Length") // as net/http does: a chunked body's length is unknown
	}
	switch cl, err := strconv.ParseInt(h.Get("Content-Length"), 10, 64); {
	case !hasBody:
		r.ContentLength = 0
	case err == nil && cl >= 0 && r.TransferEncoding == nil:
		r.ContentLength = cl
	default:
		r.ContentLength = -1
	}
	return r, nil
}
