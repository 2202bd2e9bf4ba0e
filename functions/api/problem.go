package api

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/flakegate/flakegate/core"
)

// problem is an RFC 9457 problem detail. Type is always about:blank, so
// Title is the status text; Kind, Field, File, Line and Column say what was
// wrong and where when the error came from the input.
type problem struct {
	Type   string `json:"type"`
	Title  string `json:"title"`
	Status int    `json:"status"`
	Detail string `json:"detail"`
	// Kind is the core's classification: invalid, unusable or too_large.
	Kind   core.Kind `json:"kind,omitempty"`
	Field  string    `json:"field,omitempty"`  // the parameter at fault
	File   string    `json:"file,omitempty"`   // the upload at fault: baseline, candidate, ledger
	Line   int       `json:"line,omitempty"`   // 1-based line in the upload or JSON body
	Column int       `json:"column,omitempty"` // 1-based column (bytes) in that line
}

// httpError is a failure of the request itself rather than its content:
// no such route, wrong method, unread media type.
type httpError struct {
	status int
	detail string
}

func (e *httpError) Error() string { return e.detail }

// byteSize names a limit the way people say it: 32 MiB, 6 MB, 1234 bytes.
func byteSize(n int64) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return strconv.FormatInt(n>>20, 10) + " MiB"
	case n >= 1_000_000 && n%1_000_000 == 0:
		return strconv.FormatInt(n/1_000_000, 10) + " MB"
	case n >= 1<<10 && n%(1<<10) == 0:
		return strconv.FormatInt(n>>10, 10) + " KiB"
	}
	return strconv.FormatInt(n, 10) + " bytes"
}

// statusOf is the one place that maps an error to an HTTP status and its
// problem detail. Anything it does not recognise is the server's fault.
func statusOf(err error) problem {
	p := problem{Type: "about:blank", Detail: err.Error()}
	var (
		he *httpError
		ce *core.Error
	)
	switch {
	case errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded):
		p.Status = http.StatusServiceUnavailable
		p.Detail = "the request was stopped before it was answered: the client left, or it ran past this server's time limit; run the CLI for large inputs"
	case errors.As(err, &he):
		p.Status = he.status
	case errors.As(err, &ce):
		switch ce.Kind {
		case core.Unusable:
			p.Status = http.StatusUnprocessableEntity
		case core.TooLarge:
			p.Status = http.StatusRequestEntityTooLarge
		default:
			p.Status = http.StatusBadRequest
		}
		p.Kind = ce.Kind
		p.Field, p.File, p.Line, p.Column = ce.Field, ce.File, ce.Line, ce.Column
	default:
		p.Status = http.StatusInternalServerError
		p.Detail = "the server failed while answering this request; the failure is logged"
	}
	p.Title = http.StatusText(p.Status)
	p.Detail, p.Field, p.File = clipEchoes(p.Detail), clipName(p.Field), clipName(p.File)
	return p
}

// Echoed input is clipped: a problem quotes what was wrong, never all of
// it, so that a 900 KB parameter gets an answer of a few hundred bytes.
const (
	maxEcho   = 64  // bytes of a quoted value kept, in the detail
	maxDetail = 800 // bytes of a detail kept
)

// clipEchoes shortens every quoted value in a detail to maxEcho bytes, and
// the detail to maxDetail.
func clipEchoes(s string) string {
	if len(s) > maxEcho+2 {
		var b strings.Builder
		for {
			start, end := quoted(s)
			if start < 0 {
				break
			}
			q := s[start:end]
			if len(q) > maxEcho+2 {
				q = cutRunes(q[:len(q)-1], maxEcho+1) + `…"`
			}
			b.WriteString(s[:start])
			b.WriteString(q)
			s = s[end:]
		}
		b.WriteString(s)
		s = b.String()
	}
	return clipText(s)
}

// quoted finds the first Go-quoted ("%q") value in s as the regular
// expression "(?:[^"\\]|\\.)*" did (package regexp, linked for it and
// package render's patterns, was about 480 KB of the Worker's WebAssembly
// against the Free plan's 3 MiB gzip limit): a quote, then bytes other
// than a quote or a backslash, or a backslash and any byte but a newline
// (. is not \n), up to a quote. Bytes stand for runes: no byte of a
// multi-byte UTF-8 sequence is ASCII, and regexp reads an invalid byte as
// a rune of its own. start is -1 if there is none.
func quoted(s string) (start, end int) {
	for start = strings.IndexByte(s, '"'); start >= 0; {
		i := start + 1
		for i < len(s) && s[i] != '"' {
			if s[i] == '\\' {
				if i+1 == len(s) || s[i+1] == '\n' {
					break
				}
				i++
			}
			i++
		}
		if i < len(s) && s[i] == '"' {
			return start, i + 1
		}
		// A value from a later quote before i would be read on to i as
		// well (it follows an escape), so it would not close either.
		next := strings.IndexByte(s[i:], '"')
		if next < 0 {
			break
		}
		start = i + next
	}
	return -1, -1
}

// clipName shortens a field or file name to 2·maxEcho bytes.
func clipName(s string) string {
	if len(s) <= 2*maxEcho {
		return s
	}
	return cutRunes(s, 2*maxEcho) + "…"
}

func clipText(s string) string {
	if len(s) <= maxDetail {
		return s
	}
	return cutRunes(s, maxDetail) + "…"
}

// cutRunes cuts s to at most n bytes, at a rune boundary.
func cutRunes(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

func (h *handler) problem(w http.ResponseWriter, r *http.Request, err error) {
	p := statusOf(err)
	if p.Status == http.StatusInternalServerError {
		h.opt.logf("flakegate api: %s %s: %v", r.Method, r.URL.Path, err)
	}
	writeProblem(h.opt, w, p)
}

func writeProblem(opt Options, w http.ResponseWriter, p problem) {
	var buf bytes.Buffer
	if err := core.WriteJSON(&buf, p); err != nil {
		opt.logf("flakegate api: encoding a problem: %v", err)
	}
	hdr := w.Header()
	hdr.Set("Content-Type", "application/problem+json")
	hdr.Set("Cache-Control", "no-store")
	hdr.Set("Content-Length", strconv.Itoa(buf.Len()))
	w.WriteHeader(p.Status)
	if _, err := w.Write(buf.Bytes()); err != nil {
		opt.logf("flakegate api: writing a problem: %v", err)
	}
}

// writeResult writes v as the core's JSON contract. cache is the
// Cache-Control value. An answer over MaxAnswerBytes is not sent: it is a
// 413 that says so.
func (h *handler) writeResult(w http.ResponseWriter, r *http.Request, v any, cache string) error {
	buf := bodyBufs.Get().(*[]byte)
	defer putBody(buf)
	body, err := appendJSON((*buf)[:0], v) // core.WriteJSON's bytes
	*buf = body
	if err != nil {
		return fmt.Errorf("encoding the result: %w", err) // a NaN in a result: our bug, a 500
	}
	if len(body) > MaxAnswerBytes {
		return &core.Error{Kind: core.TooLarge, Msg: fmt.Sprintf(
			"the answer would be %s bytes, over this server's limit of %s: ask for less in one request, or run the CLI, which has no such limit",
			count(len(body)), byteSize(MaxAnswerBytes))}
	}
	h.send(w, r, "application/json", cache, body)
	return nil
}

// send writes a 200 answer of body, compressed when Options.Gzip is set,
// the client accepts gzip and the body is worth it (compressedFrom bytes
// or more). The compressed bytes are a function of the body alone, so
// every answer to the same request is the same bytes.
func (h *handler) send(w http.ResponseWriter, r *http.Request, contentType, cache string, body []byte) {
	hdr := w.Header()
	hdr.Set("Content-Type", contentType)
	hdr.Set("Cache-Control", cache)
	if h.opt.Gzip && len(body) >= compressedFrom {
		hdr.Add("Vary", "Accept-Encoding")
		if acceptsGzip(r.Header.Values("Accept-Encoding")) {
			body = GzipBytes(body)
			hdr.Set("Content-Encoding", "gzip")
		}
	}
	hdr.Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(http.StatusOK)
	if _, err := w.Write(body); err != nil {
		h.opt.logf("flakegate api: writing a result: %v", err)
	}
}

// Cache-Control values. GET results are a pure function of the URL; uploads
// and errors are not kept.
const (
	cacheGET     = "public, max-age=86400"
	cacheNone    = "no-store"
	cacheOpenAPI = "public, max-age=3600"
)
