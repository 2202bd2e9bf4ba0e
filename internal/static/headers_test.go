package static

import (
	"flag"
	"net/http"
	"net/http/httptest"
	"net/url"
	"reflect"
	"regexp"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/flakegate/flakegate/internal/testfile"
)

var update = flag.Bool("update", false, "rewrite testdata/headers.golden")

// TestHeadersFile: the _headers the generator writes from Headers is the
// golden file, which was the generator's hand-written _headers before the
// rules became a Go value (the same bytes Workers has been serving).
func TestHeadersFile(t *testing.T) {
	got, err := Headers.MarshalText()
	if err != nil {
		t.Fatal(err)
	}
	testfile.Golden(t, "testdata/headers.golden", got, *update, "-update")
}

// readCloudflare reads a _headers file as Cloudflare's parser does
// (workers-sdk, workers-shared/utils/configuration/parseHeaders.ts, as
// bundled in the miniflare that package-lock.json pins): lines split at
// "\n" and trimmed; blank and "#" lines skipped; a line longer than 2,000
// bytes ignored; a line that starts with "/" or "scheme://" a path,
// normalised as a URL's pathname; "! name" an unset; otherwise "name: value"
// split at the first ":", the name lower-cased, a repeated name joined with
// ", ". A line it would skip with a warning is returned in invalid.
func readCloudflare(file string) (rules map[string]map[string]string, order []string, invalid []string) {
	rules = map[string]map[string]string{}
	probablyPath := regexp.MustCompile(`^([^\s]+://|/)`)
	cur := ""
	for _, raw := range strings.Split(file, "\n") {
		line := strings.TrimSpace(raw)
		switch {
		case line == "" || strings.HasPrefix(line, "#"):
			continue
		case len(line) > 2000:
			invalid = append(invalid, line)
			continue
		case probablyPath.MatchString(line):
			// Cloudflare takes the pathname of new URL("//"+line, "relative://").
			u, err := url.Parse("relative://" + line)
			if err != nil || u.Host != "" || u.RawQuery != "" || u.Fragment != "" {
				invalid = append(invalid, line)
				cur = ""
				continue
			}
			cur = u.EscapedPath()
			order = append(order, cur)
			rules[cur] = map[string]string{}
			continue
		}
		name, value, ok := strings.Cut(line, ":")
		name, value = strings.ToLower(strings.TrimSpace(name)), strings.TrimSpace(value)
		if cur == "" || !ok || name == "" || value == "" || strings.Contains(name, " ") {
			invalid = append(invalid, line)
			continue
		}
		if old, ok := rules[cur][name]; ok {
			value = old + ", " + value
		}
		rules[cur][name] = value
	}
	return rules, order, invalid
}

// asCloudflare is rs as readCloudflare gives it.
func asCloudflare(rs Rules) (map[string]map[string]string, []string) {
	m := map[string]map[string]string{}
	var order []string
	for _, r := range rs {
		order = append(order, r.Path)
		m[r.Path] = map[string]string{}
		for _, h := range r.Headers {
			name := strings.ToLower(h.Name)
			if old, ok := m[r.Path][name]; ok {
				m[r.Path][name] = old + ", " + h.Value
			} else {
				m[r.Path][name] = h.Value
			}
		}
	}
	return m, order
}

// TestHeadersFileReads: Cloudflare's reading of the written file gives
// back the rules of the value, in order, with no line skipped. (The
// integration test TestWranglerServesHeaders checks the same against
// wrangler itself.)
func TestHeadersFileReads(t *testing.T) {
	for name, rs := range map[string]Rules{"Headers": Headers, "rules": rules, "repeated name": {
		{Path: "/a/*", Headers: []Header{{"X-A", "1"}, {"x-a", "2"}, {"Link", "</style.css>; rel=preload"}}},
		{Path: "/b", Headers: []Header{{"Access-Control-Allow-Origin", "https://example.com"}}},
	}} {
		file, err := rs.MarshalText()
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		got, order, invalid := readCloudflare(string(file))
		want, wantOrder := asCloudflare(rs)
		if len(invalid) > 0 || !reflect.DeepEqual(got, want) || !reflect.DeepEqual(order, wantOrder) {
			t.Errorf("%s: Cloudflare reads %v %v (skipping %q), want %v %v", name, order, got, invalid, wantOrder, want)
		}
	}
}

// TestSiteHeaders: the local server's answers carry exactly the headers
// Headers gives each path: the five on every path (pages, files, the
// index.html fallback, redirects), and app.wasm's Content-Type besides.
func TestSiteHeaders(t *testing.T) {
	h, err := New(site(), Options{Headers: Headers})
	if err != nil {
		t.Fatal(err)
	}
	every := map[string]string{
		"Content-Security-Policy": CSP,
		"Cache-Control":           "no-cache",
		"X-Content-Type-Options":  "nosniff",
		"Referrer-Policy":         "no-referrer",
		"Permissions-Policy":      "camera=(), microphone=(), geolocation=()",
	}
	for _, tc := range []struct {
		target, ctype string
		status        int
	}{
		{"/", "text/html; charset=utf-8", 200},
		{"/decide", "text/html; charset=utf-8", 200},
		{"/decide.html", "", 307},
		{"/web/app.wasm", "application/wasm", 200},
		{"/web/app.css", "text/css; charset=utf-8", 200},
		{"/version.txt", "text/plain; charset=utf-8", 200},
		{"/no/such/page", "text/html; charset=utf-8", 200},
		{"/_headers", "text/html; charset=utf-8", 200},
	} {
		res := serve(t, h, "GET", tc.target)
		if res.StatusCode != tc.status || res.Header.Get("Content-Type") != tc.ctype {
			t.Errorf("GET %s: %d %q, want %d %q", tc.target, res.StatusCode, res.Header.Get("Content-Type"), tc.status, tc.ctype)
		}
		for k, v := range every {
			if got := res.Header.Values(k); len(got) != 1 || got[0] != v {
				t.Errorf("GET %s: %s %q, want %q", tc.target, k, got, v)
			}
		}
		if got := res.Header.Get("X-From-File"); got != "" {
			t.Errorf("GET %s: the site's own _headers was applied", tc.target)
		}
	}
}

// TestApply: patterns and merging as Workers' asset worker does them
// (workers-shared/asset-worker/src/utils/rules-engine.ts: "*" becomes
// (?<splat>.*) in an anchored regular expression; utils/headers.ts: the
// first matching rule to set a name replaces the response's value, a later
// one appends).
func TestApply(t *testing.T) {
	rs := Rules{
		{Path: "/*", Headers: []Header{{"X-All", "1"}, {"Content-Type", "text/plain"}}},
		{Path: "/static/*.js", Headers: []Header{{"X-All", "js"}, {"Set-Cookie", "a=1"}}},
		{Path: "/static/*", Headers: []Header{{"Set-Cookie", "b=2"}}},
		{Path: "/exact", Headers: []Header{{"X-Exact", "yes"}, {"x-exact", "again"}}},
		{Path: "/ab*ba", Headers: []Header{{"X-Ab", "yes"}}},
		{Path: "/d/", Headers: []Header{{"X-Dir", "yes"}}},
	}
	for _, tc := range []struct {
		path string
		want map[string][]string
	}{
		{"/", map[string][]string{"X-All": {"1"}, "Content-Type": {"text/plain"}, "X-Exact": nil, "Set-Cookie": nil}},
		{"/static/a/b.js", map[string][]string{"X-All": {"1, js"}, "Set-Cookie": {"a=1", "b=2"}}},
		{"/static/a.css", map[string][]string{"X-All": {"1"}, "Set-Cookie": {"b=2"}}},
		{"/static.js", map[string][]string{"X-All": {"1"}, "Set-Cookie": nil}},
		{"/static/", map[string][]string{"Set-Cookie": {"b=2"}}},
		{"/exact", map[string][]string{"X-Exact": {"yes, again"}}},
		{"/exact/", map[string][]string{"X-Exact": nil}},
		{"/Exact", map[string][]string{"X-Exact": nil}},
		{"/aba", map[string][]string{"X-Ab": nil}}, // the prefix and suffix may not overlap
		{"/abba", map[string][]string{"X-Ab": {"yes"}}},
		{"/ab/x/ba", map[string][]string{"X-Ab": {"yes"}}},
		{"/d/", map[string][]string{"X-Dir": {"yes"}}},
		{"/d", map[string][]string{"X-Dir": nil}},
	} {
		h := http.Header{"Content-Type": {"text/html"}}
		rs.Apply(h, tc.path)
		for k, v := range tc.want {
			if got := h.Values(k); strings.Join(got, "|") != strings.Join(v, "|") {
				t.Errorf("%s: %s = %q, want %q", tc.path, k, got, v)
			}
		}
	}
	h := http.Header{"X-Keep": {"1"}}
	Rules(nil).Apply(h, "/")
	if len(h) != 1 {
		t.Errorf("no rules changed the headers: %v", h)
	}
}

// TestCheck: what the _headers format cannot carry, or would read
// otherwise than Apply does, is refused, with the rule.
func TestCheck(t *testing.T) {
	one := []Header{{"X", "1"}}
	many := make(Rules, MaxRules+1)
	for i := range many {
		many[i] = Rule{Path: "/", Headers: one}
	}
	for _, tc := range []struct {
		rs  Rules
		msg string
	}{
		{Rules{{Path: "web/*", Headers: one}}, `rule 1 ("web/*"): a path pattern starts with "/"`},
		{Rules{{Path: "/", Headers: one}, {Path: "/a b", Headers: one}}, `rule 2 ("/a b"): a path pattern holds letters`},
		{Rules{{Path: "/a?b", Headers: one}}, "a path pattern holds letters"},
		{Rules{{Path: "/a#b", Headers: one}}, "a path pattern holds letters"},
		{Rules{{Path: "/%41", Headers: one}}, "a path pattern holds letters"},
		{Rules{{Path: "/é", Headers: one}}, "a path pattern holds letters"},
		{Rules{{Path: "/a/../b", Headers: one}}, `no ".", ".." or empty segment`},
		{Rules{{Path: "/a/.", Headers: one}}, `no ".", ".." or empty segment`},
		{Rules{{Path: "//a", Headers: one}}, "or empty segment"},
		{Rules{{Path: "/a//*", Headers: one}}, "or empty segment"},
		{Rules{{Path: "https://example.com/*", Headers: one}}, `starts with "/"`},
		{Rules{{Path: "/*/*", Headers: one}}, `at most one "*"`},
		{Rules{{Path: "/blog/:slug", Headers: one}}, "a path pattern holds letters"},
		{Rules{{Path: "/a:1", Headers: one}}, "a path pattern holds letters"},
		{Rules{{Path: "/a,b", Headers: one}}, "a path pattern holds letters"},
		{Rules{{Path: "/" + strings.Repeat("a", MaxLineLength), Headers: one}}, "the limit is 2000"},
		{Rules{{Path: "/"}}, "no headers"},
		{Rules{{Path: "/", Headers: []Header{{"Bad Name", "1"}}}}, `"Bad Name" is not a header name`},
		{Rules{{Path: "/", Headers: []Header{{"", "1"}}}}, `"" is not a header name`},
		{Rules{{Path: "/", Headers: []Header{{"#X", "1"}}}}, `header name "#X" starts with "#"`},
		{Rules{{Path: "/", Headers: []Header{{"X", ""}}}}, "header X needs a value"},
		{Rules{{Path: "/", Headers: []Header{{"X", " 1"}}}}, "header X needs a value without surrounding blanks"},
		{Rules{{Path: "/", Headers: []Header{{"X", "a\nY: b"}}}}, "control character"},
		{Rules{{Path: "/*", Headers: []Header{{"X", "see :splat"}}}}, `holds ":splat"`},
		{Rules{{Path: "/", Headers: []Header{{"X", strings.Repeat("v", MaxLineLength)}}}}, "longer than 2000"},
		{many[:3], `rule 2 ("/"): the pattern of rule 1 again`},
		{many, "101 path patterns; a _headers file holds at most 100"},
	} {
		err := tc.rs.Check()
		if err == nil || !strings.Contains(err.Error(), tc.msg) {
			t.Errorf("%v: %v, want …%s…", tc.rs[:min(len(tc.rs), 2)], err, tc.msg)
		}
		if _, err2 := tc.rs.MarshalText(); err2 == nil || err2.Error() != err.Error() {
			t.Errorf("MarshalText: %v, want Check's error", err2)
		}
	}
	// Allowed: ":splat" where there is no "*", every character
	// encodeURIComponent keeps, a trailing slash.
	ok := Rules{{Path: "/aZ09-._~!'()/", Headers: []Header{{"X", ":splat"}}}, {Path: "/*", Headers: one}}
	if err := ok.Check(); err != nil {
		t.Error(err)
	}
}

// FuzzRules: a rule that passes Check is written to a file that
// Cloudflare's reading gives back unchanged, and applies to any path
// without panicking, writing only valid header fields.
func FuzzRules(f *testing.F) {
	for _, r := range Headers {
		f.Add(r.Path, r.Headers[0].Name, r.Headers[0].Value, "/web/app.wasm")
	}
	f.Add("/a/*", "X", ":splat", "/a/b")
	f.Add("/:x", "X", "1", "/a")
	f.Add("/(a)'!~", "X", ":splat", "/(a)'!~")
	f.Add("/a*b", "Set-Cookie", "a=1", "/ab")
	f.Fuzz(func(t *testing.T, path, name, value, target string) {
		rs := Rules{{Path: path, Headers: []Header{{name, value}}}}
		if rs.Check() != nil {
			return
		}
		file, err := rs.MarshalText()
		if err != nil {
			t.Fatal(err)
		}
		got, order, invalid := readCloudflare(string(file))
		want, wantOrder := asCloudflare(rs)
		if len(invalid) > 0 || !reflect.DeepEqual(got, want) || !reflect.DeepEqual(order, wantOrder) {
			t.Fatalf("%q reads as %v %v (skipping %q)", file, order, got, invalid)
		}
		h := http.Header{}
		rs.Apply(h, target)
		for k, vs := range h {
			for _, v := range vs {
				if !token(k) || !printable(v) {
					t.Fatalf("invalid header %q: %q", k, v)
				}
			}
		}
		// Through a real response writer too.
		hs, err := New(fstest.MapFS{"index.html": {Data: []byte("x")}}, Options{Headers: rs})
		if err != nil {
			t.Fatal(err)
		}
		r := httptest.NewRequest("GET", "/", nil)
		r.URL = &url.URL{Path: "/" + target}
		hs.ServeHTTP(httptest.NewRecorder(), r)
	})
}
