package quarantine

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/flakegate/flakegate/core"
)

// node is one JSON value and the byte offset where it starts, so that an
// error about it can name its line and column. The registry reader parses
// the whole file into nodes first, then reads the fields it knows from them.
type node struct {
	kind  byte   // '{' object, '[' array, '"' string, '0' number, 't' true or false, 'n' null
	off   int    // byte offset of the value's first byte
	text  string // a string's value; a number's literal
	b     bool   // a boolean's value
	keys  []string
	koffs []int // byte offset of each key
	vals  []*node
	items []*node
}

// maxDepth bounds the nesting the parser follows; a registry nests four
// deep.
const maxDepth = 16

// kindName names a node's kind in messages.
func (n *node) kindName() string {
	switch n.kind {
	case '{':
		return "an object"
	case '[':
		return "an array"
	case '"':
		return "a string"
	case '0':
		return "a number"
	case 't':
		return "a boolean"
	}
	return "null"
}

// jsonParser parses one JSON value from data, keeping offsets.
type jsonParser struct {
	data []byte
	pos  int
}

// position is the 1-based line and column (in characters) of byte offset
// off of data.
func position(data []byte, off int) (line, col int) {
	off = max(0, min(off, len(data)))
	before := data[:off]
	nl := bytes.LastIndexByte(before, '\n')
	return 1 + bytes.Count(before, []byte{'\n'}), utf8.RuneCount(before[nl+1:]) + 1
}

func (p *jsonParser) errAt(off int, format string, args ...any) error {
	line, col := position(p.data, off)
	return core.PosErrorf(core.Invalid, line, col, format, args...)
}

// parseJSON parses data as one JSON value. A UTF-8 byte order mark is
// skipped; anything but blanks after the value is an error.
func parseJSON(data []byte) (*node, error) {
	p := &jsonParser{data: data}
	if bytes.HasPrefix(data, []byte("\xef\xbb\xbf")) {
		p.pos = 3
	}
	p.blank()
	if p.pos == len(data) {
		return nil, p.errAt(p.pos, "the registry is empty: want a JSON object with version and tests")
	}
	n, err := p.value(0)
	if err != nil {
		return nil, err
	}
	p.blank()
	if p.pos < len(data) {
		return nil, p.errAt(p.pos, "unexpected %s after the registry's closing brace", p.found())
	}
	return n, nil
}

func (p *jsonParser) blank() {
	for p.pos < len(p.data) {
		switch p.data[p.pos] {
		case ' ', '\t', '\r', '\n':
			p.pos++
		default:
			return
		}
	}
}

// found describes what is at the current position, for messages.
func (p *jsonParser) found() string {
	if p.pos >= len(p.data) {
		return "end of file"
	}
	r, _ := utf8.DecodeRune(p.data[p.pos:])
	if r == utf8.RuneError {
		return fmt.Sprintf("byte 0x%02x", p.data[p.pos])
	}
	return fmt.Sprintf("%q", r)
}

func (p *jsonParser) value(depth int) (*node, error) {
	if depth > maxDepth {
		return nil, p.errAt(p.pos, "values nest deeper than %d levels; a registry nests four", maxDepth)
	}
	p.blank()
	if p.pos >= len(p.data) {
		return nil, p.errAt(p.pos, "the file ends where a value should be")
	}
	start := p.pos
	switch c := p.data[p.pos]; {
	case c == '{':
		return p.object(depth)
	case c == '[':
		return p.array(depth)
	case c == '"':
		s, err := p.str()
		if err != nil {
			return nil, err
		}
		return &node{kind: '"', off: start, text: s}, nil
	case c == '-' || (c >= '0' && c <= '9'):
		return p.number()
	case c == 't' || c == 'f' || c == 'n':
		for _, w := range []string{"true", "false", "null"} {
			if bytes.HasPrefix(p.data[p.pos:], []byte(w)) {
				p.pos += len(w)
				if w == "null" {
					return &node{kind: 'n', off: start}, nil
				}
				return &node{kind: 't', off: start, b: w == "true"}, nil
			}
		}
	}
	return nil, p.errAt(start, "want a JSON value (an object, array, string, number, true, false or null), found %s", p.found())
}

func (p *jsonParser) object(depth int) (*node, error) {
	n := &node{kind: '{', off: p.pos}
	p.pos++ // {
	p.blank()
	if p.pos < len(p.data) && p.data[p.pos] == '}' {
		p.pos++
		return n, nil
	}
	for {
		p.blank()
		if p.pos >= len(p.data) || p.data[p.pos] != '"' {
			return nil, p.errAt(p.pos, "want a field name in double quotes, found %s", p.found())
		}
		koff := p.pos
		k, err := p.str()
		if err != nil {
			return nil, err
		}
		p.blank()
		if p.pos >= len(p.data) || p.data[p.pos] != ':' {
			return nil, p.errAt(p.pos, "want ':' after the field name %q, found %s", k, p.found())
		}
		p.pos++
		v, err := p.value(depth + 1)
		if err != nil {
			return nil, err
		}
		n.keys, n.koffs, n.vals = append(n.keys, k), append(n.koffs, koff), append(n.vals, v)
		p.blank()
		if p.pos < len(p.data) && p.data[p.pos] == ',' {
			p.pos++
			continue
		}
		if p.pos < len(p.data) && p.data[p.pos] == '}' {
			p.pos++
			return n, nil
		}
		return nil, p.errAt(p.pos, "want ',' or '}' after the value of %q, found %s", k, p.found())
	}
}

func (p *jsonParser) array(depth int) (*node, error) {
	n := &node{kind: '[', off: p.pos}
	p.pos++ // [
	p.blank()
	if p.pos < len(p.data) && p.data[p.pos] == ']' {
		p.pos++
		return n, nil
	}
	for {
		v, err := p.value(depth + 1)
		if err != nil {
			return nil, err
		}
		n.items = append(n.items, v)
		if len(n.items) > MaxTests {
			return nil, &core.Error{Kind: core.TooLarge, Msg: fmt.Sprintf("more than %d items in a list: a registry holds at most %d tests", MaxTests, MaxTests)}
		}
		p.blank()
		if p.pos < len(p.data) && p.data[p.pos] == ',' {
			p.pos++
			continue
		}
		if p.pos < len(p.data) && p.data[p.pos] == ']' {
			p.pos++
			return n, nil
		}
		return nil, p.errAt(p.pos, "want ',' or ']' after an item of the list, found %s", p.found())
	}
}

// str reads a JSON string at p.pos and returns its value.
func (p *jsonParser) str() (string, error) {
	start := p.pos
	p.pos++ // "
	escaped := false
	for p.pos < len(p.data) {
		c := p.data[p.pos]
		switch {
		case c == '"':
			p.pos++
			raw := p.data[start:p.pos]
			if !escaped {
				return string(raw[1 : len(raw)-1]), nil
			}
			var s string
			if err := json.Unmarshal(raw, &s); err != nil {
				return "", p.errAt(start, "a string with a malformed escape")
			}
			return s, nil
		case c == '\\':
			escaped = true
			if p.pos+1 >= len(p.data) {
				return "", p.errAt(p.pos, "the file ends inside a string")
			}
			switch e := p.data[p.pos+1]; e {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				p.pos += 2
			case 'u':
				if p.pos+6 > len(p.data) || !isHex4(p.data[p.pos+2:p.pos+6]) {
					return "", p.errAt(p.pos, "\\u must be followed by four hexadecimal digits")
				}
				p.pos += 6
			default:
				return "", p.errAt(p.pos, "unknown escape \\%c in a string", e)
			}
		case c < 0x20:
			return "", p.errAt(p.pos, "a control character (0x%02x) inside a string; write it as an escape such as \\n", c)
		case c < utf8.RuneSelf:
			p.pos++
		default:
			r, size := utf8.DecodeRune(p.data[p.pos:])
			if r == utf8.RuneError && size <= 1 {
				return "", p.errAt(p.pos, "invalid UTF-8 (byte 0x%02x) in a string; the registry is UTF-8", c)
			}
			p.pos += size
		}
	}
	return "", p.errAt(start, "a string that is never closed")
}

func isHex4(b []byte) bool {
	for _, c := range b {
		if !strings.ContainsRune("0123456789abcdefABCDEF", rune(c)) {
			return false
		}
	}
	return true
}

// number reads a JSON number: -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
func (p *jsonParser) number() (*node, error) {
	start := p.pos
	digits := func() int {
		n := 0
		for p.pos < len(p.data) && p.data[p.pos] >= '0' && p.data[p.pos] <= '9' {
			p.pos++
			n++
		}
		return n
	}
	bad := func() error {
		for p.pos < len(p.data) && strings.IndexByte("+-.eE0123456789", p.data[p.pos]) >= 0 {
			p.pos++
		}
		return p.errAt(start, "%q is not a JSON number", p.data[start:p.pos])
	}
	if p.data[p.pos] == '-' {
		p.pos++
	}
	if p.pos < len(p.data) && p.data[p.pos] == '0' {
		p.pos++
		if p.pos < len(p.data) && p.data[p.pos] >= '0' && p.data[p.pos] <= '9' {
			return nil, bad()
		}
	} else if digits() == 0 {
		return nil, bad()
	}
	if p.pos < len(p.data) && p.data[p.pos] == '.' {
		p.pos++
		if digits() == 0 {
			return nil, bad()
		}
	}
	if p.pos < len(p.data) && (p.data[p.pos] == 'e' || p.data[p.pos] == 'E') {
		p.pos++
		if p.pos < len(p.data) && (p.data[p.pos] == '+' || p.data[p.pos] == '-') {
			p.pos++
		}
		if digits() == 0 {
			return nil, bad()
		}
	}
	return &node{kind: '0', off: start, text: string(p.data[start:p.pos])}, nil
}
