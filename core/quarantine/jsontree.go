package quarantine

import (
	"bytes"
	"fmt"
	"unicode/utf8"

	"github.com/flakegate/flakegate/core"
	"github.com/flakegate/flakegate/core/jsonscan"
)

// node is one JSON value and the byte offset where it starts, so that an
// error about it can name its line and column. The registry reader parses
// the whole file into nodes first, with the core's scanner, then reads the
// fields it knows from them.
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

// position is the 1-based line and column (in characters) of byte offset
// off of data.
func position(data []byte, off int) (line, col int) {
	off = max(0, min(off, len(data)))
	before := data[:off]
	nl := bytes.LastIndexByte(before, '\n')
	return 1 + bytes.Count(before, []byte{'\n'}), utf8.RuneCount(before[nl+1:]) + 1
}

// bom is the UTF-8 byte order mark a registry may start with.
var bom = []byte("\xef\xbb\xbf")

// parseJSON parses data as one JSON value with the core's scanner
// (core/jsonscan: no repeated key, no NaN, UTF-8 only, nothing after the
// value). A UTF-8 byte order mark is skipped.
func parseJSON(data []byte) (*node, error) {
	skip := 0
	if bytes.HasPrefix(data, bom) {
		skip = len(bom)
	}
	var s jsonscan.Scanner
	s.Reset(data[skip:], 1, "registry")
	if s.AtEnd() {
		line, col := position(data, len(data))
		return nil, core.PosErrorf(core.Invalid, line, col, "the registry is empty: want a JSON object with version and tests")
	}
	t := tree{s: &s, data: data, skip: skip}
	n, err := t.value(0)
	if err == nil {
		err = s.End()
	}
	if e, ok := err.(*jsonscan.Error); ok {
		if e.Line == 1 && skip > 0 {
			e.Column++ // the byte order mark is a character of the line
		}
		return nil, core.PosErrorf(core.Invalid, e.Line, e.Column, "%s", e.PathMsg())
	}
	return n, err
}

// tree builds nodes from the scanner's walk of data[skip:].
type tree struct {
	s    *jsonscan.Scanner
	data []byte
	skip int
}

func (t *tree) value(depth int) (*node, error) {
	off := int(t.s.At()) + t.skip
	if depth > maxDepth {
		line, col := position(t.data, off)
		return nil, core.PosErrorf(core.Invalid, line, col, "values nest deeper than %d levels; a registry nests four", maxDepth)
	}
	k, err := t.s.Kind()
	if err != nil {
		return nil, err
	}
	switch k {
	case jsonscan.Object:
		n := &node{kind: '{', off: off}
		return n, t.s.Object(func(key []byte) error {
			v, err := t.value(depth + 1)
			if err == nil {
				n.keys, n.koffs, n.vals = append(n.keys, string(key)), append(n.koffs, int(t.s.KeyAt())+t.skip), append(n.vals, v)
			}
			return err
		})
	case jsonscan.Array:
		n := &node{kind: '[', off: off}
		return n, t.s.Array(func(int) error {
			v, err := t.value(depth + 1)
			n.items = append(n.items, v)
			if err == nil && len(n.items) > MaxTests {
				return &core.Error{Kind: core.TooLarge, Msg: fmt.Sprintf("more than %d items in a list: a registry holds at most %d tests", MaxTests, MaxTests)}
			}
			return err
		})
	case jsonscan.String:
		text, err := t.s.Text()
		return &node{kind: '"', off: off, text: text}, err
	case jsonscan.Number:
		num, err := t.s.Number()
		return &node{kind: '0', off: off, text: string(num)}, err
	case jsonscan.Null:
		return &node{kind: 'n', off: off}, t.s.Skip()
	}
	return &node{kind: 't', off: off, b: k == jsonscan.True}, t.s.Skip()
}
