package render

import (
	"slices"
	"strings"
)

// The scanners below find what Splice replaces in a page. They were
// regular expressions, and package regexp was linked into the Worker for
// them and for one of package api's: about 480 KB of its WebAssembly, 125 KB
// gzip, against the Workers Free plan's 3 MiB gzip limit. Each finds the
// match of the pattern its comment names as Go's regexp did (leftmost
// first, its greedy and lazy repeats), byte for byte: the patterns'
// literals are ASCII and their classes set ASCII characters apart, no byte
// of a multi-byte UTF-8 sequence is ASCII, and regexp reads an invalid
// byte as a rune of its own (U+FFFD), so bytes stand for runes. Each
// returns the first match in s, or start -1; replaceEach looks for the
// next in what follows the last, which finds what regexp finds, since no
// pattern looks behind its match (no ^, no \b).

// space is \s in Go's regexp: ASCII white space, without \v.
const space = "\t\n\f\r "

// replaceEach is regexp's ReplaceAllStringFunc for a pattern that never
// matches the empty string: each match find finds, left to right and not
// overlapping, becomes what with makes of it.
func replaceEach(s string, find func(string) (start, end int), with func(string) string) string {
	var b strings.Builder
	for {
		start, end := find(s)
		if start < 0 {
			break
		}
		b.WriteString(s[:start])
		b.WriteString(with(s[start:end]))
		s = s[end:]
	}
	b.WriteString(s)
	return b.String()
}

// titleElement finds `<title>[^<]*</title>`: a title holding text alone.
func titleElement(s string) (start, end int) {
	for from := 0; ; {
		start = strings.Index(s[from:], "<title>")
		if start < 0 {
			return -1, -1
		}
		start += from
		lt := strings.IndexByte(s[start+len("<title>"):], '<')
		if lt < 0 {
			return -1, -1
		}
		lt += start + len("<title>")
		if strings.HasPrefix(s[lt:], "</title>") {
			return start, lt + len("</title>")
		}
		from = lt // no '<', so no <title>, before it
	}
}

// metaKeys name the head's tags Splice writes anew.
var metaKeys = []string{"description", "og:title", "og:description", "og:url", "og:type", "og:image"}

// metaTag finds such a tag, its key's attribute anywhere in it, and the
// white space after it:
// `<meta (?:[^>]*\s)?(?:name|property)="(description|og:title|...)"[^>]*>\s*`.
// go-app writes content= first (<meta content="…" name="description">):
// the pattern Splice had before its scanners required name= or property=
// first, never matched a real page, and left the page's own description,
// og:title, og:url and og:image ahead of the link's, for a preview to read
// first.
func metaTag(s string) (start, end int) {
	for from := 0; ; from = start + 1 {
		start = strings.Index(s[from:], "<meta ")
		if start < 0 {
			return -1, -1
		}
		start += from
		// The tag, from the space after meta (so that every attribute
		// follows white space) to its '>'.
		attrs := start + len("<meta")
		gt := strings.IndexByte(s[attrs:], '>')
		if gt < 0 {
			return -1, -1 // nor does a later tag end
		}
		if !hasMetaKey(s[attrs : attrs+gt]) {
			continue
		}
		end = attrs + gt + 1
		for end < len(s) && strings.IndexByte(space, s[end]) >= 0 {
			end++
		}
		return start, end
	}
}

// hasMetaKey reports whether attrs holds name="KEY" or property="KEY",
// after white space, for one of metaKeys.
func hasMetaKey(attrs string) bool {
	for i := 1; i < len(attrs); i++ {
		if strings.IndexByte(space, attrs[i-1]) < 0 {
			continue
		}
		rest, ok := strings.CutPrefix(attrs[i:], `name="`)
		if !ok {
			if rest, ok = strings.CutPrefix(attrs[i:], `property="`); !ok {
				continue
			}
		}
		if key, _, ok := strings.Cut(rest, `"`); ok && slices.Contains(metaKeys, key) {
			return true
		}
	}
	return false
}

// startTag finds a tag that begins with open ("<input "), up to the next
// '>': `<input [^>]*>`.
func startTag(open string) func(s string) (start, end int) {
	return func(s string) (start, end int) {
		start = strings.Index(s, open)
		if start < 0 {
			return -1, -1
		}
		gt := strings.IndexByte(s[start+len(open):], '>')
		if gt < 0 {
			return -1, -1 // nor does a later tag end
		}
		return start, start + len(open) + gt + 1
	}
}

// valueAttr finds `\svalue(="[^"]*")?`: a value attribute, with its
// quoted value if it has one, or the start of a longer name (values).
func valueAttr(s string) (start, end int) {
	for from := 0; ; {
		at := strings.Index(s[from:], "value")
		if at < 0 {
			return -1, -1
		}
		at += from
		if at > 0 && strings.IndexByte(space, s[at-1]) >= 0 {
			end = at + len("value")
			if rest, ok := strings.CutPrefix(s[end:], `="`); ok {
				if q := strings.IndexByte(rest, '"'); q >= 0 {
					end += len(`="`) + q + 1
				}
			}
			return at - 1, end
		}
		from = at + 1
	}
}

// nameAttr is the first name attribute's value in tag, as written:
// `\sname="([^"]*)"`.
func nameAttr(tag string) (name string, ok bool) {
	for from := 0; ; {
		at := strings.Index(tag[from:], `name="`)
		if at < 0 {
			return "", false
		}
		at += from
		if at > 0 && strings.IndexByte(space, tag[at-1]) >= 0 {
			// Without a closing quote there is no later name=" either.
			name, _, ok = strings.Cut(tag[at+len(`name="`):], `"`)
			return name, ok
		}
		from = at + 1
	}
}

// selectElement finds a select element with name=" in its start tag, and
// that name as written: `(?s)<select [^>]*name="([^"]*)"[^>]*>.*?</select>`.
// The greedy [^>]* makes it the start tag's last name=" from which a quote,
// a '>' and then a </select> follow.
func selectElement(s string) (start, end int, name string) {
	for from := 0; ; from = start + 1 {
		start = strings.Index(s[from:], "<select ")
		if start < 0 {
			return -1, -1, ""
		}
		start += from
		attrs := start + len("<select ")
		gt := strings.IndexByte(s[attrs:], '>')
		if gt < 0 {
			return -1, -1, "" // nor does a later tag end
		}
		for n := gt; ; {
			at := strings.LastIndex(s[attrs:attrs+n], `name="`)
			if at < 0 {
				break
			}
			n = at
			v := attrs + at + len(`name="`)
			q := strings.IndexByte(s[v:], '"')
			if q < 0 {
				continue
			}
			body := strings.IndexByte(s[v+q:], '>')
			if body < 0 {
				continue
			}
			body += v + q + 1
			if e := strings.Index(s[body:], "</select>"); e >= 0 {
				return start, body + e + len("</select>"), s[v : v+q]
			}
		}
	}
}
