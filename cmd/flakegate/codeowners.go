package main

import (
	"bufio"
	"io"
	"regexp"
	"strings"
)

// codeowners is a CODEOWNERS file: its rules in order; the last rule that
// matches a path names its owners (GitHub's and GitLab's rule).
type codeowners struct {
	rules []ownerRule
}

type ownerRule struct {
	re     *regexp.Regexp
	owners string // the rule's owners, joined by spaces
}

// readCodeowners reads a CODEOWNERS file: a pattern and its owners per
// line; blank lines, comments and GitLab's [Section] headers are skipped,
// and a pattern without owners (it clears the owners) is kept.
func readCodeowners(r io.Reader) (*codeowners, error) {
	c := &codeowners{}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || line[0] == '#' || line[0] == '[' || line[0] == '^' {
			continue
		}
		f := strings.Fields(line)
		var owners []string
		for _, o := range f[1:] {
			if strings.HasPrefix(o, "#") {
				break
			}
			owners = append(owners, o)
		}
		c.rules = append(c.rules, ownerRule{re: ownerPattern(f[0]), owners: strings.Join(owners, " ")})
	}
	return c, sc.Err()
}

// ownerPattern turns a CODEOWNERS pattern into a regular expression over
// slash-separated paths, by gitignore's rules: a pattern with a slash
// before its end is anchored at the root, one without matches at any depth;
// "*" and "?" stay within one path element, "**" crosses them; a pattern
// that matches a folder matches everything in it, except "dir/*", which
// matches only the folder's own files.
func ownerPattern(p string) *regexp.Regexp {
	anchored := strings.Contains(strings.TrimSuffix(p, "/"), "/")
	p = strings.TrimPrefix(strings.TrimSuffix(p, "/"), "/")
	var b strings.Builder
	if anchored {
		b.WriteString("^")
	} else {
		b.WriteString("^(?:.*/)?")
	}
	shallow := strings.HasSuffix(p, "/*")
	for i := 0; i < len(p); i++ {
		switch {
		case strings.HasPrefix(p[i:], "**/"):
			b.WriteString("(?:.*/)?")
			i += 2
		case strings.HasPrefix(p[i:], "**"):
			b.WriteString(".*")
			i++
		case p[i] == '*':
			b.WriteString("[^/]*")
		case p[i] == '?':
			b.WriteString("[^/]")
		default:
			b.WriteString(regexp.QuoteMeta(p[i : i+1]))
		}
	}
	if shallow {
		b.WriteString("$")
	} else {
		b.WriteString("(?:/.*)?$")
	}
	return regexp.MustCompile(b.String())
}

// owners is the owners of path: the last rule that matches it; "" when
// none does (or the rule names none).
func (c *codeowners) owners(path string) (string, bool) {
	if i := c.match(path); i >= 0 {
		return c.rules[i].owners, true
	}
	return "", false
}

// match is the index of the last rule that matches path, -1 for none.
func (c *codeowners) match(path string) int {
	for i := len(c.rules) - 1; i >= 0; i-- {
		if c.rules[i].re.MatchString(path) {
			return i
		}
	}
	return -1
}

// testPaths is where a test's file may be, from its id as reports write it,
// most specific first: the file before " › ", "::" or " > " (Playwright,
// pytest, Jest's ids); for go test's "example.com/mod/sub/pkg.TestX", the
// package's folder with each leading element dropped in turn ("mod/sub/pkg",
// "sub/pkg", "pkg"), since the module's root is not in the report; for a
// dotted JUnit class ("tests.unit.test_login.TestLogin"), its elements as
// folders.
func testPaths(id string) []string {
	for _, sep := range []string{" › ", "::", " > "} {
		if file, _, ok := strings.Cut(id, sep); ok && strings.ContainsAny(file, "/.") {
			return []string{strings.TrimPrefix(file, "./")}
		}
	}
	if i := strings.Index(id, ".Test"); i > 0 && strings.Contains(id[:i], "/") {
		parts := strings.Split(id[:i], "/")
		var out []string
		for j := 1; j < len(parts); j++ {
			out = append(out, strings.Join(parts[j:], "/")+"/")
		}
		return out
	}
	if strings.Count(id, ".") >= 1 && !strings.ContainsAny(id, " /") {
		parts := strings.Split(id, ".")
		return []string{strings.Join(parts[:len(parts)-1], "/") + "/"}
	}
	return nil
}

// ownerOf is the owners of a test: of its possible paths, the one whose
// matching rule comes last in the file (the file lists general rules
// first and the specific ones after them).
func (c *codeowners) ownerOf(test string) string {
	if c == nil {
		return ""
	}
	best := -1
	for _, p := range testPaths(test) {
		best = max(best, c.match(p))
	}
	if best < 0 {
		return ""
	}
	return c.rules[best].owners
}
