package static

import (
	"errors"
	"net/http"
	"strings"
	"testing"
)

// TestParseHeadersErrors: every line Cloudflare would skip with a warning
// (workers-sdk utils/configuration/parseHeaders.ts) is an error here, with
// the line and the column where the fault is.
func TestParseHeadersErrors(t *testing.T) {
	long := "/" + strings.Repeat("a", MaxLineLength)
	many := strings.Repeat("/x\n  A: b\n", MaxRules) + "/y\n  A: b\n"
	for _, tc := range []struct {
		in        string
		line, col int
		msg       string
	}{
		{"  X-A: 1\n", 1, 3, "before any path pattern"},
		{"# c\n/*\n  no colon here\n", 3, 3, `expected "Name: value"`},
		{"/*\n  : v\n", 2, 3, "no name"},
		{"/*\n  Bad Name: v\n", 2, 3, "not a header name"},
		{"/*\n  X-A:\n", 2, 7, "has no value"},
		{"/*\n  X-A: a\x01b\n", 2, 7, "control character"},
		{"/*\n  ! \n", 2, 3, "removes a header"},
		{"/a\n/b\n  X: 1\n", 1, 1, "no header lines"},
		{"/a\n  X: 1\n/b\n", 3, 1, "no header lines"},
		{"/a/*/b/*\n  X: 1\n", 1, 8, `only one "*"`},
		{"/:id/:id\n  X: 1\n", 1, 6, "appears twice"},
		{"/*/:splat\n  X: 1\n", 1, 4, "appears twice"},
		{"http://example.com/*\n  X: 1\n", 1, 1, `starts with "/" or "https://"`},
		{"https://example.com:8443/*\n  X: 1\n", 1, 20, "port"},
		{"https:///x\n  X: 1\n", 1, 9, "needs a host"},
		{"/a b\n  X: 1\n", 1, 3, "blanks"},
		{long + "\n  X: 1\n", 1, 1, "the limit is 2000"},
		{many, 2*MaxRules + 1, 1, "more than 100"},
	} {
		_, err := ParseHeaders("_headers", []byte(tc.in))
		var se *SyntaxError
		if !errors.As(err, &se) {
			t.Errorf("%q: error %v, want a *SyntaxError", tc.in[:min(len(tc.in), 40)], err)
			continue
		}
		if se.File != "_headers" || se.Line != tc.line || se.Column != tc.col || !strings.Contains(se.Msg, tc.msg) {
			t.Errorf("%q: %v, want _headers:%d:%d: …%s…", tc.in[:min(len(tc.in), 40)], err, tc.line, tc.col, tc.msg)
		}
		if !strings.HasPrefix(err.Error(), "_headers:") {
			t.Errorf("error %q does not start with the file name", err)
		}
	}
}

// TestRulesApply: patterns, placeholders, hosts and merging, against what
// Workers' rules engine does for the same rules.
func TestRulesApply(t *testing.T) {
	rs, err := ParseHeaders("_headers", []byte(strings.Join([]string{
		"# comment lines and blank lines are skipped",
		"",
		"/*",
		"  X-All: 1",
		"  X-Twice: a",
		"  x-twice: b", // same name in one rule: joined
		"/blog/:slug",
		"  X-Slug: post :slug, keep :other",
		"/static/*.js",
		"  X-All: js",
		"  Set-Cookie: a=1",
		"/static/*",
		"  ! X-All",
		"  Set-Cookie: b=2",
		"https://:sub.example.com/*",
		"  X-Host: :sub",
		"/exact",
		"\tX-Exact: tab-indented\r", // CRLF files work
	}, "\n")))
	if err != nil {
		t.Fatal(err)
	}
	if rs.Len() != 6 {
		t.Errorf("%d rules, want 6", rs.Len())
	}
	for _, tc := range []struct {
		host, path string
		want       map[string][]string
	}{
		{"127.0.0.1:8080", "/", map[string][]string{"X-All": {"1"}, "X-Twice": {"a, b"}, "X-Slug": nil, "X-Host": nil}},
		{"x", "/blog/hello", map[string][]string{"X-Slug": {"post hello, keep :other"}}},
		{"x", "/blog/hello/more", map[string][]string{"X-Slug": nil}},
		{"x", "/static/a/b.js", map[string][]string{"X-All": nil, "Set-Cookie": {"a=1", "b=2"}}},
		{"x", "/static/a.css", map[string][]string{"X-All": nil, "Set-Cookie": {"b=2"}}},
		{"x", "/static.js", map[string][]string{"X-All": {"1"}}},
		{"docs.example.com", "/a", map[string][]string{"X-Host": {"docs"}}},
		{"docs.example.com:443", "/a", map[string][]string{"X-Host": {"docs"}}},
		{"a.b.example.com", "/a", map[string][]string{"X-Host": nil}},
		{"x", "/exact", map[string][]string{"X-Exact": {"tab-indented"}}},
		{"x", "/exact/", map[string][]string{"X-Exact": nil}},
		{"x", "/blog/a\r\nX-Evil: 1\x7f", map[string][]string{"X-Slug": {"post a%0D%0AX-Evil: 1%7F, keep :other"}}},
	} {
		h := http.Header{}
		rs.Apply(h, tc.host, tc.path)
		for k, v := range tc.want {
			if got := h.Values(k); strings.Join(got, "|") != strings.Join(v, "|") {
				t.Errorf("%s%s: %s = %q, want %q", tc.host, tc.path, k, got, v)
			}
		}
	}
	// The first rule to set a name replaces what the response held.
	h := http.Header{"Content-Type": {"text/html"}}
	rs2, _ := ParseHeaders("h", []byte("/*\n  Content-Type: text/plain\n/a\n  Content-Type: x\n"))
	rs2.Apply(h, "", "/a")
	if got := h.Values("Content-Type"); len(got) != 1 || got[0] != "text/plain, x" {
		t.Errorf("Content-Type %q", got)
	}
	var none *Rules
	none.Apply(h, "", "/") // a nil *Rules applies nothing
}

// FuzzParseHeaders: any bytes either parse or give a *SyntaxError with a
// line inside the input; parsed rules apply to any path without panicking
// and only ever write valid header fields.
func FuzzParseHeaders(f *testing.F) {
	for _, s := range []string{
		"/*\n  Content-Security-Policy: default-src 'self'\n  Cache-Control: no-cache\n/web/app.wasm\n  Content-Type: application/wasm\n",
		"/blog/:slug\n  X: :slug\n! Y\n",
		"https://:a.example.com/:b/*\n  X: :a :b :splat\n",
		"/a/*/*\n  X: 1\n",
		"#\n\n\r\n/x\r\n\t! Y\r\n",
		"/::\n  X: 1\n",
		"/:a\x00\n  X: 1\n",
		"x: y\n",
		"/*\n  X: :splat\n",
		"/*\n  X: a\n  X: b\n/*\n  X: c\n",
	} {
		f.Add([]byte(s), "/blog/hello")
	}
	f.Add([]byte("/*\n  X: :splat\n"), "a\r\nSet-Cookie: x\x00")
	f.Fuzz(func(t *testing.T, data []byte, p string) {
		rs, err := ParseHeaders("_headers", data)
		if err != nil {
			var se *SyntaxError
			if !errors.As(err, &se) {
				t.Fatalf("error %v is not a *SyntaxError", err)
			}
			if se.Line < 1 || se.Line > strings.Count(string(data), "\n")+1 || se.Column < 1 {
				t.Fatalf("position %d:%d outside the input", se.Line, se.Column)
			}
			return
		}
		h := http.Header{}
		rs.Apply(h, "example.com", "/"+p)
		for k, vs := range h {
			if !validName(k) {
				t.Fatalf("invalid header name %q", k)
			}
			for _, v := range vs {
				if !validValue(v) {
					t.Fatalf("invalid value %q for %s", v, k)
				}
			}
		}
	})
}
