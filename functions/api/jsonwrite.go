package api

import (
	"bytes"
	"encoding/json"
	"sync"
)

// A result body is what core.WriteJSON writes: encoding/json without HTML
// escaping, indented by two spaces, then a newline. encoding/json indents
// by running its validating scanner over the compact text, one call per
// byte, into a fresh buffer; an A/A answer is 26 KB of it, a quarter of the
// request's time. appendJSON writes the same bytes from the compact text
// with a plain loop, into pooled buffers.

// appendJSON appends v's JSON, exactly as core.WriteJSON writes it, to dst.
func appendJSON(dst []byte, v any) ([]byte, error) {
	c := compactBufs.Get().(*bytes.Buffer)
	defer putCompact(c)
	c.Reset()
	enc := json.NewEncoder(c)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return dst, err
	}
	return appendIndented(dst, c.Bytes()), nil
}

// appendIndented appends src, the compact JSON encoding/json writes (no
// space outside strings; a newline after the value), indented as
// json.Indent(dst, src, "", "  ") indents it: a newline and two spaces a
// level after an opening bracket or brace and after a comma, one before a
// closing one, ": " after a key, and empty arrays and objects as [] and {}.
// Strings are copied as they are.
func appendIndented(dst, src []byte) []byte {
	depth := 0
	open := false // just after [ or {: the newline waits for the next byte
	for i := 0; i < len(src); i++ {
		c := src[i]
		if open {
			open = false
			if c == ']' || c == '}' {
				dst = append(dst, c)
				continue
			}
			depth++
			dst = newline(dst, depth)
		}
		switch c {
		case '"':
			// Copy the string through its closing quote; a backslash
			// escapes the next byte.
			j := i + 1
			for j < len(src) && src[j] != '"' {
				if src[j] == '\\' {
					j++
				}
				j++
			}
			j = min(j, len(src)-1)
			dst = append(dst, src[i:j+1]...)
			i = j
		case '0', '1', '2', '3', '4', '5', '6', '7', '8', '9', '-', 't', 'f', 'n':
			// A number or a literal: copy it up to the next punctuation.
			j := i + 1
			for j < len(src) && src[j] != ',' && src[j] != '}' && src[j] != ']' && src[j] != '\n' {
				j++
			}
			dst = append(dst, src[i:j]...)
			i = j - 1
		case '[', '{':
			dst = append(dst, c)
			open = true
		case ',':
			dst = append(dst, c)
			dst = newline(dst, depth)
		case ':':
			dst = append(dst, ':', ' ')
		case ']', '}':
			depth--
			dst = newline(dst, depth)
			dst = append(dst, c)
		default:
			dst = append(dst, c)
		}
	}
	return dst
}

// indentPad is written in pieces of up to its length after each newline.
const indentPad = "                                                                "

func newline(dst []byte, depth int) []byte {
	dst = append(dst, '\n')
	for n := 2 * depth; n > 0; n -= len(indentPad) {
		dst = append(dst, indentPad[:min(n, len(indentPad))]...)
	}
	return dst
}

// compactBufs holds the compact text of answers being written, bodyBufs
// their bodies. A buffer that grew past maxPooledBuf is left to the
// collector, so the pools keep no more than a few typical answers.
var (
	compactBufs = sync.Pool{New: func() any { return new(bytes.Buffer) }}
	bodyBufs    = sync.Pool{New: func() any { return new([]byte) }}
)

const maxPooledBuf = 256 << 10

func putCompact(b *bytes.Buffer) {
	if b.Cap() <= maxPooledBuf {
		compactBufs.Put(b)
	}
}

func putBody(b *[]byte) {
	if cap(*b) <= maxPooledBuf {
		bodyBufs.Put(b)
	}
}
