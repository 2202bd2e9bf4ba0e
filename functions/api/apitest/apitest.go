// Package apitest holds the API's request corpus and the helpers that send
// it: in process, to a running server over HTTP, or (by the Lambda test) as
// Function URL events. Every platform's test compares its answers with the
// in-process ones byte for byte, so this package is the single definition of
// "the same request" and "the same answer".
package apitest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
)

// Case is one request of the corpus (testdata/corpus.json) and the status it
// must get.
type Case struct {
	Name   string            `json:"name"`
	Method string            `json:"method"`
	URL    string            `json:"url"` // path and query, such as /v1/budget?cap=3
	Header map[string]string `json:"header,omitempty"`
	// The body is one of: Body (text), BodyFile (a file in testdata), Parts
	// (a multipart/form-data body with a fixed boundary), or Oversize (one
	// byte over the handler's limit, as CSV rows).
	Body string `json:"body,omitempty"`
	// Gen writes a generated body instead (the worst requests, which are
	// larger than the corpus should hold), so that a measurement can
	// stream it without holding it.
	Gen      func(w io.Writer) `json:"-"`
	BodyFile string            `json:"body_file,omitempty"`
	Parts    []Part            `json:"parts,omitempty"`
	Oversize bool              `json:"oversize,omitempty"`
	// Chunked sends the body without a Content-Length, so the handler must
	// find the limit while streaming.
	Chunked bool   `json:"chunked,omitempty"`
	Status  int    `json:"status"`
	Note    string `json:"note,omitempty"` // why the case exists
}

// Part is one part of a multipart body.
type Part struct {
	Name     string `json:"name"`
	Filename string `json:"filename,omitempty"`
	File     string `json:"file,omitempty"` // in testdata
	Text     string `json:"text,omitempty"`
}

// Boundary is the multipart boundary of every corpus body, so bodies are
// byte-stable.
const Boundary = "flakegate-corpus-7f3a"

// Load reads dir/corpus.json.
func Load(dir string) ([]Case, error) {
	raw, err := os.ReadFile(filepath.Join(dir, "corpus.json"))
	if err != nil {
		return nil, err
	}
	var cs []Case
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&cs); err != nil {
		return nil, fmt.Errorf("corpus.json: %v", err)
	}
	seen := map[string]bool{}
	for _, c := range cs {
		if seen[c.Name] || c.Name == "" {
			return nil, fmt.Errorf("corpus.json: case name %q empty or repeated", c.Name)
		}
		seen[c.Name] = true
	}
	return cs, nil
}

// Payload builds the case's body and the Content-Type it implies (empty when
// the case sets its own or has no body). limit is the handler's body limit.
func (c Case) Payload(dir string, limit int64) ([]byte, string, error) {
	switch {
	case c.Oversize:
		return Oversize(limit + 1), "", nil
	case c.BodyFile != "":
		b, err := os.ReadFile(filepath.Join(dir, c.BodyFile))
		return b, "", err
	case c.Parts != nil:
		var buf bytes.Buffer
		mw := multipart.NewWriter(&buf)
		if err := mw.SetBoundary(Boundary); err != nil {
			return nil, "", err
		}
		for _, p := range c.Parts {
			data := []byte(p.Text)
			if p.File != "" {
				var err error
				if data, err = os.ReadFile(filepath.Join(dir, p.File)); err != nil {
					return nil, "", err
				}
			}
			var w interface{ Write([]byte) (int, error) }
			var err error
			if p.Filename != "" {
				w, err = mw.CreateFormFile(p.Name, p.Filename)
			} else {
				w, err = mw.CreateFormField(p.Name)
			}
			if err != nil {
				return nil, "", err
			}
			w.Write(data)
		}
		if err := mw.Close(); err != nil {
			return nil, "", err
		}
		return buf.Bytes(), mw.FormDataContentType(), nil
	}
	if c.Gen != nil {
		var b bytes.Buffer
		c.Gen(&b)
		return b.Bytes(), "", nil
	}
	return []byte(c.Body), "", nil
}

// Oversize returns n bytes of a well-formed A/A CSV, so that only its size
// is wrong with it. Its rows are long (about 1 KB, long scenario names) so
// that a JSON event carrying it grows by little more than its size: Lambda's
// 6 MB payload limit must not refuse the event before the handler's 6 MB
// body limit is tested.
func Oversize(n int64) []byte {
	var b bytes.Buffer
	b.Grow(int(n) + 1100)
	b.WriteString("scenario,run,passed\n")
	pad := strings.Repeat("x", 1000)
	for i := 0; int64(b.Len()) < n; i++ {
		fmt.Fprintf(&b, "s%03d-%s,r%d,%d\n", i%100, pad, i/100, i%2)
	}
	return b.Bytes()[:n]
}

// Headers returns the request headers of the case, with the multipart
// Content-Type filled in.
func (c Case) Headers(implied string) http.Header {
	h := http.Header{}
	for k, v := range c.Header {
		h.Set(k, v)
	}
	if implied != "" && h.Get("Content-Type") == "" {
		h.Set("Content-Type", implied)
	}
	return h
}

// NewRequest builds the case as a request to base (such as
// http://127.0.0.1:8080), or as a server-side request when base is empty.
func (c Case) NewRequest(dir, base string, limit int64) (*http.Request, error) {
	body, implied, err := c.Payload(dir, limit)
	if err != nil {
		return nil, err
	}
	var r *http.Request
	if base == "" {
		r = httptest.NewRequest(c.Method, c.URL, bytes.NewReader(body))
	} else if r, err = http.NewRequest(c.Method, base+c.URL, bytes.NewReader(body)); err != nil {
		return nil, err
	}
	r.Header = c.Headers(implied)
	if len(body) == 0 && c.Method != http.MethodPost {
		r.Body, r.ContentLength = http.NoBody, 0
	}
	if c.Chunked {
		r.ContentLength = -1
		r.Body = io.NopCloser(bytes.NewReader(body))
		r.GetBody = nil
	}
	return r, nil
}

// Response is the part of an answer that must agree across platforms.
type Response struct {
	Status int
	Header http.Header // only Compared headers
	Body   []byte
}

// Compared are the response headers every platform must agree on. The
// golden files hold all but the last, which every answer carries alike.
var Compared = []string{
	"Content-Type", "Cache-Control", "Allow",
	"Access-Control-Allow-Origin", "Access-Control-Allow-Methods",
	"Access-Control-Allow-Headers", "Access-Control-Max-Age",
	"X-Content-Type-Options",
}

// inGolden are the Compared headers a golden file lists.
var inGolden = Compared[:len(Compared)-1]

// Pick keeps the Compared headers of h.
func Pick(h http.Header) http.Header {
	out := http.Header{}
	for _, k := range Compared {
		if v := h.Values(k); len(v) > 0 {
			out[k] = []string{strings.Join(v, ", ")}
		}
	}
	return out
}

// InProcess serves the case with h and records the answer.
func InProcess(h http.Handler, c Case, dir string, limit int64) (Response, error) {
	return InProcessAt(h, c, dir, limit, "")
}

// InProcessAt serves the case with h as if it were sent to base (such as
// http://127.0.0.1:8080: its host is the request's Host), so that the
// links in the answer are the ones a server at base writes; "" is
// InProcess's example.com.
func InProcessAt(h http.Handler, c Case, dir string, limit int64, base string) (Response, error) {
	r, err := c.NewRequest(dir, "", limit)
	if err != nil {
		return Response{}, err
	}
	if base != "" {
		u, err := url.Parse(base)
		if err != nil {
			return Response{}, err
		}
		r.Host = u.Host
	}
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	return Response{Status: w.Code, Header: Pick(w.Header()), Body: w.Body.Bytes()}, nil
}

// Golden renders a response as the text of a golden file: the status, the
// compared headers in order, a blank line, the body.
func (r Response) Golden() []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "%d %s\n", r.Status, http.StatusText(r.Status))
	for _, k := range inGolden {
		if v := r.Header.Get(k); v != "" {
			fmt.Fprintf(&b, "%s: %s\n", k, v)
		}
	}
	b.WriteByte('\n')
	b.Write(r.Body)
	return b.Bytes()
}

// Diff says how got differs from want, or returns "" when they agree.
func Diff(want, got Response) string {
	var d []string
	if want.Status != got.Status {
		d = append(d, fmt.Sprintf("status %d, want %d", got.Status, want.Status))
	}
	for _, k := range Compared {
		if w, g := want.Header.Get(k), got.Header.Get(k); w != g {
			d = append(d, fmt.Sprintf("%s %q, want %q", k, g, w))
		}
	}
	if !bytes.Equal(want.Body, got.Body) {
		i := 0
		for i < len(want.Body) && i < len(got.Body) && want.Body[i] == got.Body[i] {
			i++
		}
		from := max(0, i-120)
		d = append(d, fmt.Sprintf("body differs from byte %d (of %d, want %d):\n got …%q\nwant …%q",
			i, len(got.Body), len(want.Body), clip(got.Body[from:]), clip(want.Body[from:])))
		if path, ok := lastDigitsOnly(want.Body, got.Body); ok {
			d = append(d, "only the last digits of floats differ (first at "+path+
				"): a computation in core is not bit-identical on this platform, such as math.Exp or math.Log, which have amd64 assembly")
		}
	}
	return strings.Join(d, "; ")
}

// lastDigitsOnly reports whether two JSON documents differ only in numbers
// within a relative 1e-12, and the path of the first such number.
func lastDigitsOnly(a, b []byte) (string, bool) {
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return "", false
	}
	first := ""
	var walk func(x, y any, at string) bool
	walk = func(x, y any, at string) bool {
		switch xv := x.(type) {
		case map[string]any:
			yv, ok := y.(map[string]any)
			if !ok || len(xv) != len(yv) {
				return false
			}
			for k, v := range xv {
				if !walk(v, yv[k], at+"."+k) {
					return false
				}
			}
			return true
		case []any:
			yv, ok := y.([]any)
			if !ok || len(xv) != len(yv) {
				return false
			}
			for i := range xv {
				if !walk(xv[i], yv[i], fmt.Sprintf("%s[%d]", at, i)) {
					return false
				}
			}
			return true
		case float64:
			yv, ok := y.(float64)
			if !ok {
				return false
			}
			if xv != yv {
				if math.Abs(xv-yv) > 1e-12*math.Max(math.Abs(xv), math.Abs(yv)) {
					return false
				}
				if first == "" {
					first = at
				}
			}
			return true
		}
		return x == y
	}
	return first, walk(x, y, "body") && first != ""
}

func clip(b []byte) string {
	if len(b) > 400 {
		return string(b[:400]) + "…"
	}
	return string(b)
}
