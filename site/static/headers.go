package static

import (
	"fmt"
	"net/http"
	"regexp"
	"strings"
)

// Limits of a _headers file, the same as Cloudflare's.
const (
	MaxRules      = 100  // path patterns in one file
	MaxLineLength = 2000 // bytes in one line, surrounding blanks excluded
)

// SyntaxError is a line of a _headers file that cannot be used. Line and
// Column are 1-based; Column counts bytes of the line as written.
type SyntaxError struct {
	File   string // the name given to ParseHeaders, e.g. "_headers"
	Line   int
	Column int
	Msg    string
}

func (e *SyntaxError) Error() string {
	return fmt.Sprintf("%s:%d:%d: %s", e.File, e.Line, e.Column, e.Msg)
}

// Rules are the parsed rules of a _headers file, in file order. The zero
// value has no rules.
type Rules struct {
	rules []rule
}

// Len is the number of path patterns.
func (rs *Rules) Len() int { return len(rs.rules) }

type rule struct {
	pattern string         // as written, after the scheme check
	host    bool           // pattern starts with https:// and names a host
	re      *regexp.Regexp // anchored; named groups for :placeholders and splat
	set     []header       // headers in file order; one entry per name
	unset   []string       // canonical names removed by "! Name"
}

type header struct{ name, value string }

var (
	placeholderRE = regexp.MustCompile(`:[A-Za-z][A-Za-z0-9_]*`)
	leadingPH     = regexp.MustCompile(`^:[A-Za-z][A-Za-z0-9_]*`)
	probablyPath  = regexp.MustCompile(`^(\S+://|/)`)
)

// ParseHeaders reads a _headers file in Cloudflare's format:
//
//	# a comment
//	/pattern
//	  Name: value
//	  ! Name-To-Remove
//
// A line whose text (blanks trimmed) starts with "/" or "https://host" is a
// path pattern; the header lines after it belong to it. In a pattern, "*"
// (at most once) matches any run of characters, slashes included, and
// ":name" one path segment (in the host part: one label); values may use
// ":name" and ":splat" to repeat what they matched. A name given twice in
// one rule has its values joined with ", ". Where Cloudflare skips a bad
// line with a warning, ParseHeaders returns a *SyntaxError naming the line,
// so a mistake is seen before the site is served. file names the file in
// errors.
func ParseHeaders(file string, data []byte) (*Rules, error) {
	rs := &Rules{}
	var cur *rule
	fail := func(line, col int, format string, args ...any) error {
		return &SyntaxError{File: file, Line: line, Column: col, Msg: fmt.Sprintf(format, args...)}
	}
	curLine := 0
	finish := func() error {
		if cur != nil && len(cur.set) == 0 && len(cur.unset) == 0 {
			return fail(curLine, 1, "path %q has no header lines under it", cur.pattern)
		}
		return nil
	}
	lines := strings.Split(string(data), "\n")
	for i, raw := range lines {
		n := i + 1
		raw = strings.TrimSuffix(raw, "\r")
		line := strings.TrimSpace(raw)
		col := strings.Index(raw, line) + 1 // where the text starts
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		if len(line) > MaxLineLength {
			return nil, fail(n, col, "line is %d bytes long; the limit is %d", len(line), MaxLineLength)
		}
		if probablyPath.MatchString(line) {
			if err := finish(); err != nil {
				return nil, err
			}
			if len(rs.rules) >= MaxRules {
				return nil, fail(n, col, "more than %d path patterns", MaxRules)
			}
			r, msg, off := compilePattern(line)
			if msg != "" {
				return nil, fail(n, col+off, "%s", msg)
			}
			rs.rules = append(rs.rules, r)
			cur, curLine = &rs.rules[len(rs.rules)-1], n
			continue
		}
		if cur == nil {
			return nil, fail(n, col, "header line before any path pattern (a pattern starts with \"/\" or \"https://\")")
		}
		if rest, ok := strings.CutPrefix(line, "!"); ok {
			name := strings.TrimSpace(rest)
			if !validName(name) {
				return nil, fail(n, col, "\"! Name\" removes a header: %q is not a header name", name)
			}
			cur.unset = append(cur.unset, http.CanonicalHeaderKey(name))
			continue
		}
		k, v, ok := strings.Cut(line, ":")
		if !ok {
			return nil, fail(n, col, "expected \"Name: value\", found %q", line)
		}
		name := strings.TrimSpace(k)
		value := strings.TrimSpace(v)
		switch {
		case name == "":
			return nil, fail(n, col, "header line has no name before the colon")
		case !validName(name):
			return nil, fail(n, col, "%q is not a header name (letters, digits and !#$%%&'*+-.^_`|~ only)", name)
		case value == "":
			return nil, fail(n, col+len(k)+1, "header %s has no value", name)
		case !validValue(value):
			return nil, fail(n, col+len(k)+1, "header %s has a control character in its value", name)
		}
		name = http.CanonicalHeaderKey(name)
		found := false
		for j := range cur.set {
			if cur.set[j].name == name {
				cur.set[j].value += ", " + value
				found = true
			}
		}
		if !found {
			cur.set = append(cur.set, header{name, value})
		}
	}
	if err := finish(); err != nil {
		return nil, err
	}
	return rs, nil
}

// compilePattern turns a path pattern into an anchored regular expression.
// On failure it returns a message and the byte offset of the fault.
func compilePattern(p string) (rule, string, int) {
	r := rule{pattern: p}
	body := p
	var b strings.Builder
	b.WriteString("^")
	if rest, ok := strings.CutPrefix(p, "https://"); ok {
		host, _, _ := strings.Cut(rest, "/")
		if host == "" {
			return r, "an absolute pattern needs a host after https://", len("https://")
		}
		if i := strings.LastIndexByte(host, ':'); i >= 0 && i+1 < len(host) && strings.Trim(host[i+1:], "0123456789") == "" {
			return r, "a pattern cannot name a port", len("https://") + i
		}
		r.host = true
		body = rest
		b.WriteString("https://")
	} else if !strings.HasPrefix(p, "/") {
		return r, "a path pattern starts with \"/\" or \"https://\"", 0
	}
	base := len(p) - len(body)
	if strings.ContainsAny(body, " \t") {
		return r, "a path pattern cannot contain blanks", base + strings.IndexAny(body, " \t")
	}
	if strings.Count(body, "*") > 1 {
		return r, "a path pattern can hold only one \"*\"", base + strings.LastIndexByte(body, '*')
	}
	seen := map[string]bool{}
	hostEnd := len(body)
	if r.host {
		if i := strings.IndexByte(body, '/'); i >= 0 {
			hostEnd = i
		}
	}
	for i := 0; i < len(body); {
		c := body[i]
		switch {
		case c == '*':
			if seen["splat"] {
				return r, "\":splat\" and \"*\" name the same capture", base + i
			}
			seen["splat"] = true
			b.WriteString("(?P<splat>.*)")
			i++
		case c == ':' && leadingPH.MatchString(body[i:]):
			m := leadingPH.FindString(body[i:])
			name := m[1:]
			if seen[name] {
				return r, fmt.Sprintf("placeholder %s appears twice", m), base + i
			}
			seen[name] = true
			if i < hostEnd {
				b.WriteString("(?P<" + name + ">[^/.]+)")
			} else {
				b.WriteString("(?P<" + name + ">[^/]+)")
			}
			i += len(m)
		default:
			j := i + 1
			for j < len(body) && body[j] != '*' && !(body[j] == ':' && leadingPH.MatchString(body[j:])) {
				j++
			}
			b.WriteString(regexp.QuoteMeta(body[i:j]))
			i = j
		}
	}
	if r.host && hostEnd == len(body) {
		b.WriteString("/")
	}
	b.WriteString("$")
	re, err := regexp.Compile(b.String())
	if err != nil { // not expected: every literal is quoted
		return r, "cannot compile pattern: " + err.Error(), 0
	}
	r.re = re
	return r, "", 0
}

// Apply applies every rule whose pattern matches the request, in file
// order, to h, the way Workers does: "! Name" removes the header; the first
// rule that sets a name replaces whatever h held (such as the default
// Content-Type); a later matching rule appends its value after ", ".
// host is the request's host (a port is ignored) and path its decoded path.
func (rs *Rules) Apply(h http.Header, host, path string) {
	if rs == nil {
		return
	}
	if i := strings.LastIndexByte(host, ':'); i >= 0 && !strings.Contains(host[i:], "]") {
		host = host[:i]
	}
	set := map[string]bool{}
	for _, r := range rs.rules {
		subject := path
		if r.host {
			subject = "https://" + host + path
		}
		m := r.re.FindStringSubmatch(subject)
		if m == nil {
			continue
		}
		for _, name := range r.unset {
			h.Del(name)
		}
		for _, kv := range r.set {
			v := substitute(kv.value, r.re, m)
			switch {
			case !set[kv.name]:
				h.Set(kv.name, v)
				set[kv.name] = true
			case kv.name == "Set-Cookie":
				h.Add(kv.name, v)
			default:
				h.Set(kv.name, h.Get(kv.name)+", "+v)
			}
		}
	}
}

// substitute replaces ":name" in v by what the pattern's placeholder of that
// name matched; names the pattern does not have are left as written.
func substitute(v string, re *regexp.Regexp, m []string) string {
	if !strings.Contains(v, ":") || len(m) == 1 {
		return v
	}
	return placeholderRE.ReplaceAllStringFunc(v, func(s string) string {
		if i := re.SubexpIndex(s[1:]); i > 0 {
			return escapeControls(m[i])
		}
		return s
	})
}

// escapeControls percent-encodes the control characters of a captured path
// part, so a request path cannot break a header line.
func escapeControls(s string) string {
	if validValue(s) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < ' ' && c != '\t' || c == 0x7f {
			fmt.Fprintf(&b, "%%%02X", c)
		} else {
			b.WriteByte(c)
		}
	}
	return b.String()
}

// validName reports whether s is an HTTP field name (RFC 9110 token).
func validName(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.IndexByte("!#$%&'*+-.^_`|~", c) >= 0 {
			continue
		}
		return false
	}
	return true
}

// validValue reports whether s holds no control character but tab.
func validValue(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < ' ' && c != '\t' || c == 0x7f {
			return false
		}
	}
	return true
}
