package bridge

import (
	"bytes"
	"fmt"
	"net/http"
	"strings"
)

// writer buffers an answer the way net/http's server would send it: the
// header as it was at WriteHeader (or the first Write), 200 when nothing
// set a status, a sniffed Content-Type when the handler set none, and no
// body for HEAD, 1xx, 204 and 304.
type writer struct {
	header http.Header
	sent   http.Header // the header at WriteHeader; nil before
	status int
	buf    bytes.Buffer
	head   bool
}

func newWriter(method string) *writer {
	return &writer{header: http.Header{}, head: method == http.MethodHead}
}

func (w *writer) Header() http.Header { return w.header }

func (w *writer) WriteHeader(code int) {
	if w.sent != nil {
		return // net/http logs a superfluous call and ignores it
	}
	if code < 100 || code > 999 {
		panic(fmt.Sprintf("invalid WriteHeader code %v", code))
	}
	w.status = code
	w.sent = w.header.Clone()
}

func (w *writer) Write(p []byte) (int, error) {
	if w.sent == nil {
		w.WriteHeader(http.StatusOK)
	}
	if !w.bodyAllowed() {
		if w.head {
			return len(p), nil
		}
		return 0, http.ErrBodyNotAllowed
	}
	return w.buf.Write(p)
}

func (w *writer) bodyAllowed() bool {
	return !w.head && w.status >= 200 && w.status != http.StatusNoContent && w.status != http.StatusNotModified
}

// finish returns the status, the header fields as "name\nvalue\n…" (the
// shim splits them; a field value cannot hold a newline) and the body.
func (w *writer) finish() (int, string, []byte) {
	if w.sent == nil {
		w.WriteHeader(http.StatusOK)
	}
	if _, ok := w.sent["Content-Type"]; !ok && w.sent.Get("Content-Encoding") == "" && w.buf.Len() > 0 {
		w.sent.Set("Content-Type", http.DetectContentType(w.buf.Bytes()))
	}
	var fields strings.Builder
	for name, values := range w.sent {
		if !validName(name) {
			continue // net/http drops such a field too
		}
		for _, v := range values {
			fields.WriteString(name)
			fields.WriteByte('\n')
			fields.WriteString(cleanValue(v))
			fields.WriteByte('\n')
		}
	}
	return w.status, fields.String(), w.buf.Bytes()
}

// validName reports whether name is an HTTP token (RFC 9110, section 5.1).
func validName(name string) bool {
	if name == "" {
		return false
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		if c <= ' ' || c >= 0x7f || strings.IndexByte(`"(),/:;<=>?@[\]{}`, c) >= 0 {
			return false
		}
	}
	return true
}

// cleanValue turns line breaks into spaces, as net/http does before it
// writes a field.
func cleanValue(v string) string {
	if strings.ContainsAny(v, "\r\n") {
		return strings.NewReplacer("\r", " ", "\n", " ").Replace(v)
	}
	return v
}
