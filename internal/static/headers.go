package static

import (
	"bytes"
	"fmt"
	"net/http"
	"strings"
)

// CSP is the Content-Security-Policy of every page: scripts and workers
// only from the site itself, plus 'wasm-unsafe-eval', which Go's
// WebAssembly needs to compile app.wasm; no inline scripts or styles.
const CSP = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; worker-src 'self'; " +
	"manifest-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; " +
	"object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'"

// Headers are the site's response headers: the CSP and hardening headers on
// every path, and revalidation of every file, because their names do not
// change between builds (a new service worker must not cache a stale app.js
// or app.wasm from the HTTP cache). The generator writes them as the site's
// _headers file, which Workers applies to its static assets; the local
// server applies them directly.
var Headers = Rules{
	{Path: "/*", Headers: []Header{
		{"Content-Security-Policy", CSP},
		{"Cache-Control", "no-cache"},
		{"X-Content-Type-Options", "nosniff"},
		{"Referrer-Policy", "no-referrer"},
		{"Permissions-Policy", "camera=(), microphone=(), geolocation=()"},
	}},
	{Path: "/web/app.wasm", Headers: []Header{
		{"Content-Type", "application/wasm"},
	}},
}

// Limits of a _headers file, the same as Cloudflare's.
const (
	MaxRules      = 100  // path patterns in one file
	MaxLineLength = 2000 // bytes in one line, leading blanks excluded
)

// Header is one response header of a rule.
type Header struct {
	Name  string // a field name, such as "Cache-Control"
	Value string // sent as written: not empty, no control characters
}

// Rule gives the headers of the paths its pattern matches.
type Rule struct {
	// Path is a pattern of URL paths: "/" and literal text, in which one
	// "*" may stand for any run of characters, slashes included ("/*" is
	// every path, "/web/*" everything under /web/). The literal text is
	// letters, digits, "/" and -._~!'() only, the characters Workers
	// leaves as they are when it spells a path (encodeURIComponent), with
	// no ".", ".." or empty segment, so the pattern matches the same paths
	// there, where paths are matched percent-encoded, as here, where they
	// are matched decoded and cleaned. (Cloudflare's host patterns and
	// ":name" placeholders are left out by the same rule.)
	Path    string
	Headers []Header // in the order they are written and applied
}

// Rules are a site's header rules, in order. The zero value has none.
type Rules []Rule

// Check reports the first rule that Cloudflare's _headers format cannot
// carry or that would not mean there what Apply does here.
func (rs Rules) Check() error {
	if len(rs) > MaxRules {
		return fmt.Errorf("%d path patterns; a _headers file holds at most %d", len(rs), MaxRules)
	}
	seen := map[string]int{}
	for i, r := range rs {
		where := fmt.Sprintf("rule %d (%q)", i+1, r.Path)
		if j, ok := seen[r.Path]; ok {
			// wrangler keeps rules by pattern: the later would replace the
			// earlier, in the earlier's place.
			return fmt.Errorf("%s: the pattern of rule %d again; give its headers there", where, j+1)
		}
		seen[r.Path] = i
		switch {
		case !strings.HasPrefix(r.Path, "/"):
			return fmt.Errorf("%s: a path pattern starts with \"/\"", where)
		case !pathText(r.Path):
			return fmt.Errorf("%s: a path pattern holds letters, digits, \"/\", \"*\" and -._~!'() only, and no \".\", \"..\" or empty segment", where)
		case strings.Count(r.Path, "*") > 1:
			return fmt.Errorf("%s: a path pattern holds at most one \"*\"", where)
		case len(r.Path) > MaxLineLength:
			return fmt.Errorf("%s: the pattern is %d bytes long; the limit is %d", where, len(r.Path), MaxLineLength)
		case len(r.Headers) == 0:
			return fmt.Errorf("%s: no headers", where)
		}
		for _, h := range r.Headers {
			switch {
			case !token(h.Name):
				return fmt.Errorf("%s: %q is not a header name", where, h.Name)
			case strings.HasPrefix(h.Name, "#"):
				// The line would be read as a comment.
				return fmt.Errorf("%s: header name %q starts with \"#\"", where, h.Name)
			case h.Value == "" || h.Value != strings.TrimSpace(h.Value):
				return fmt.Errorf("%s: header %s needs a value without surrounding blanks", where, h.Name)
			case !printable(h.Value):
				return fmt.Errorf("%s: header %s has a control character in its value", where, h.Name)
			case strings.Contains(r.Path, "*") && strings.Contains(h.Value, ":splat"):
				// Cloudflare would replace ":splat" with what "*" matched.
				return fmt.Errorf("%s: header %s holds \":splat\"", where, h.Name)
			case len(h.Name)+2+len(h.Value) > MaxLineLength:
				return fmt.Errorf("%s: header %s is longer than %d bytes", where, h.Name, MaxLineLength)
			}
		}
	}
	return nil
}

// MarshalText writes the rules as a _headers file in Cloudflare's format:
// each pattern on a line of its own, its headers below it, indented by two
// spaces, as "Name: value". Rules that fail Check are an error.
func (rs Rules) MarshalText() ([]byte, error) {
	if err := rs.Check(); err != nil {
		return nil, err
	}
	var b bytes.Buffer
	for _, r := range rs {
		b.WriteString(r.Path + "\n")
		for _, h := range r.Headers {
			b.WriteString("  " + h.Name + ": " + h.Value + "\n")
		}
	}
	return b.Bytes(), nil
}

// Apply sets the headers of every rule whose pattern matches path (a
// decoded, cleaned URL path), in order, as Workers applies _headers: the
// first rule to set a name replaces what h held (such as the default
// Content-Type), a later one appends its value after ", " (Set-Cookie gets
// a line of its own).
func (rs Rules) Apply(h http.Header, path string) {
	set := map[string]bool{}
	for _, r := range rs {
		if !match(r.Path, path) {
			continue
		}
		for _, kv := range r.Headers {
			name := http.CanonicalHeaderKey(kv.Name)
			switch {
			case !set[name]:
				h.Set(name, kv.Value)
				set[name] = true
			case name == "Set-Cookie":
				h.Add(name, kv.Value)
			default:
				h.Set(name, h.Get(name)+", "+kv.Value)
			}
		}
	}
}

// match reports whether path matches pattern: the text before "*" is a
// prefix, the text after it a suffix, and "*" stands for what lies between.
func match(pattern, path string) bool {
	pre, suf, star := strings.Cut(pattern, "*")
	if !star {
		return pattern == path
	}
	return len(path) >= len(pre)+len(suf) && strings.HasPrefix(path, pre) && strings.HasSuffix(path, suf)
}

// pathText reports whether p holds only characters encodeURIComponent
// leaves as they are, and "/", and no dot or empty segment (the paths
// matched are cleaned: they have none).
func pathText(p string) bool {
	for i := 0; i < len(p); i++ {
		c := p[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.IndexByte("/*-._~!'()", c) >= 0) {
			return false
		}
	}
	for _, seg := range strings.Split(p, "/") {
		if seg == "." || seg == ".." {
			return false
		}
	}
	return !strings.Contains(p, "//")
}

// token reports whether s is an HTTP field name (RFC 9110 token).
func token(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.IndexByte("!#$%&'*+-.^_`|~", c) >= 0) {
			return false
		}
	}
	return true
}

// printable reports whether s holds no control character.
func printable(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < ' ' || c == 0x7f {
			return false
		}
	}
	return true
}
