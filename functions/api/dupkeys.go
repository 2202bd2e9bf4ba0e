package api

import (
	"bytes"
	"encoding/json"
	"strconv"

	"github.com/flakegate/flakegate/core"
)

// duplicateKey finds the first member name repeated within one object, at
// any depth, of a JSON body that encoding/json accepts: a repeated member
// has two meanings (encoding/json keeps the last, other readers the
// first), so the body has none and is refused. The error names the
// member's path (observe.fails, baseline; [i] for an array element) and the line and column
// of its second occurrence; nil when no name repeats. Call it on a body the
// decoder has accepted: on one it refuses, the decoder's error comes first.
//
// It is the one place the API looks for repeated names; a strict scanner in
// the core that reports the same path can take its place.
func duplicateKey(body []byte) *core.Error {
	dec := json.NewDecoder(bytes.NewReader(body))
	type frame struct {
		obj   bool
		keys  map[string]bool
		index int    // next array index
		key   string // the member whose value is being read
		want  bool   // in an object, the next string is a member name
	}
	var stack []frame
	path := func() string {
		p := ""
		for _, f := range stack {
			switch {
			case !f.obj:
				p += "[" + strconv.Itoa(f.index-1) + "]"
			case p == "":
				p = f.key
			default:
				p += "." + f.key
			}
		}
		return p
	}
	// value notes that a value starts in the innermost container.
	value := func() {
		if n := len(stack); n > 0 {
			if f := &stack[n-1]; f.obj {
				f.want = true
			} else {
				f.index++
			}
		}
	}
	for {
		before := dec.InputOffset()
		tok, err := dec.Token()
		if err != nil {
			return nil
		}
		if n := len(stack); n > 0 && stack[n-1].obj && stack[n-1].want {
			if k, ok := tok.(string); ok {
				f := &stack[n-1]
				f.key, f.want = k, false
				if f.keys[k] {
					line, col := position(body, keyOffset(body, before))
					return &core.Error{Kind: core.Invalid, Field: path(), Line: line, Column: col,
						Msg: "given twice in one object; give each member once"}
				}
				f.keys[k] = true
				continue
			}
		}
		switch tok {
		case json.Delim('{'):
			if n := len(stack); n > 0 && !stack[n-1].obj {
				stack[n-1].index++
			}
			stack = append(stack, frame{obj: true, keys: map[string]bool{}, want: true})
		case json.Delim('['):
			if n := len(stack); n > 0 && !stack[n-1].obj {
				stack[n-1].index++
			}
			stack = append(stack, frame{})
		case json.Delim('}'), json.Delim(']'):
			stack = stack[:len(stack)-1]
			if n := len(stack); n > 0 && stack[n-1].obj {
				stack[n-1].want = true
			}
		default:
			value()
		}
	}
}

// keyOffset is the offset of the member name that starts after off (past
// the separator and blanks the decoder had not consumed).
func keyOffset(body []byte, off int64) int64 {
	for off < int64(len(body)) && body[off] != '"' {
		off++
	}
	return off + 1 // position() names the byte before the offset
}
