// Package jsonscan reads JSON text held in memory without reflection, for
// the readers that must be strict, fast and small in the browser build: a
// JSONL ledger's rows, go test -json events and the calculator's share
// links. It imports nothing of the module's.
//
// The grammar is RFC 8259's, and stricter than encoding/json in four ways:
// a key may not repeat in an object (a repeated member has two meanings),
// strings must be valid UTF-8, a \u escape may not be a lone surrogate, and
// nothing but white space may follow the value. Every error is an *Error
// that says where: the line and column (1-based; the column counts
// characters) and the JSON path of the value ("suites[2].specs[0].title"),
// in the user's words.
//
// A reader walks the text with the Scanner's methods, each of which reads
// one value: Object and Array call back for each member or element, String,
// Int, Number and Null read scalars, Skip checks and passes any value.
package jsonscan

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// MaxDepth is how deeply arrays and objects may nest.
const MaxDepth = 512

// Kind is the JSON type of a value, told from its first byte.
type Kind byte

// The kinds of value; End is no value (the end of the text).
const (
	End Kind = iota
	Object
	Array
	String
	Number
	True
	False
	Null
)

var kindNames = [...]string{"the end", "an object", "an array", "a string", "a number", "true", "false", "null"}

// String names the kind as a message does: "an object", "a string".
func (k Kind) String() string { return kindNames[k] }

// Pos is a byte offset in the text; Scanner.Where turns it into a line and
// column.
type Pos int

// Error is a mistake in the text: where it is and what is wrong.
type Error struct {
	Line, Column int    // 1-based; the column counts characters
	Path         string // of the value: "results[3].status"; "" at the root
	Msg          string // lowercase, without the position or the path
	// Short is set when the text ends before the value does: it is the
	// beginning of a text that could be whole, as a line cut short is.
	Short bool
}

// Error is "line:column: path: message".
func (e *Error) Error() string {
	if e.Path == "" {
		return fmt.Sprintf("%d:%d: %s", e.Line, e.Column, e.Msg)
	}
	return fmt.Sprintf("%d:%d: %s: %s", e.Line, e.Column, e.Path, e.Msg)
}

// PathMsg is the message with the path before it, when there is one.
func (e *Error) PathMsg() string {
	if e.Path == "" {
		return e.Msg
	}
	return e.Path + ": " + e.Msg
}

// Scanner is a cursor over one JSON text. Its zero value reads nothing;
// Reset gives it a text. A Scanner may be reused for many texts (the lines
// of a file): it keeps its buffers.
type Scanner struct {
	b     []byte
	i     int
	line  int    // the line of b[0]
	what  string // the text, for "the line ends where ...": "line"
	path  []seg
	keys  []byte // the keys of the open objects, one after the other
	spans []span // where each key of the open objects is in keys
	buf   []byte // a string with escapes, decoded
}

type seg struct {
	index int // -1 in an object
	key   span
	keys  int    // in spans, where this object's keys start
	keyAt Pos    // where the member being read starts, in an object
	set   keySet // its keys, once it has many
}

type span struct{ from, to int }

type keySet map[string]struct{}

// manyKeys is the count of keys past which an object checks repeats with a
// map rather than by comparing with each earlier key.
const manyKeys = 16

// Reset makes s read b, whose first byte is on line line (1 for a whole
// file, n for its nth line); what names b in "the line ends where a value
// should be".
func (s *Scanner) Reset(b []byte, line int, what string) {
	s.b, s.i, s.line, s.what = b, 0, line, what
	s.path, s.keys, s.spans = s.path[:0], s.keys[:0], s.spans[:0]
}

// Where is the line and column of p.
func (s *Scanner) Where(p Pos) (line, col int) {
	off := min(max(int(p), 0), len(s.b))
	head := s.b[:off]
	start := bytes.LastIndexByte(head, '\n') + 1
	return s.line + bytes.Count(head, []byte{'\n'}), utf8.RuneCount(head[start:]) + 1
}

// Path is the JSON path of the value being read: `results[3].status`.
func (s *Scanner) Path() string {
	var b strings.Builder
	for _, g := range s.path {
		if g.index >= 0 {
			fmt.Fprintf(&b, "[%d]", g.index)
			continue
		}
		if b.Len() > 0 {
			b.WriteByte('.')
		}
		b.Write(s.keys[g.key.from:g.key.to])
	}
	return b.String()
}

// Errorf is an error at p, naming the path of the value being read.
func (s *Scanner) Errorf(p Pos, format string, args ...any) *Error {
	line, col := s.Where(p)
	return &Error{Line: line, Column: col, Path: s.Path(), Msg: fmt.Sprintf(format, args...)}
}

func (s *Scanner) errHere(format string, args ...any) *Error {
	return s.Errorf(Pos(s.i), format, args...)
}

// space skips white space.
func (s *Scanner) space() {
	for s.i < len(s.b) {
		switch s.b[s.i] {
		case ' ', '\t', '\n', '\r':
			s.i++
		default:
			return
		}
	}
}

// At skips white space and returns the position of the next value.
func (s *Scanner) At() Pos {
	s.space()
	return Pos(s.i)
}

// Kind skips white space and tells the kind of the next value (End at the
// end of the text), or an error if no value can start there.
func (s *Scanner) Kind() (Kind, error) {
	s.space()
	if s.i == len(s.b) {
		return End, nil
	}
	switch c := s.b[s.i]; {
	case c == '{':
		return Object, nil
	case c == '[':
		return Array, nil
	case c == '"':
		return String, nil
	case c == '-' || c >= '0' && c <= '9':
		return Number, nil
	case c == 't':
		return True, nil
	case c == 'f':
		return False, nil
	case c == 'n':
		return Null, nil
	}
	return End, s.errHere("malformed JSON: a value cannot start with %s", describe(s.b[s.i]))
}

// describe names a byte in a message: 'x', or byte 0xff.
func describe(c byte) string {
	if c >= 0x20 && c < 0x7f {
		return strconv.QuoteRune(rune(c))
	}
	return fmt.Sprintf("byte 0x%02x", c)
}

// expect consumes c after white space, or says that want was expected.
func (s *Scanner) expect(c byte, want string) error {
	s.space()
	if s.i < len(s.b) && s.b[s.i] == c {
		s.i++
		return nil
	}
	return s.unexpected(want)
}

func (s *Scanner) unexpected(want string) error {
	if s.i >= len(s.b) {
		return s.short(s.errHere("malformed JSON: the %s ends where %s should be (is it cut short?)", s.what, want))
	}
	return s.errHere("malformed JSON: want %s, found %s", want, describe(s.b[s.i]))
}

// End checks that nothing but white space is left.
func (s *Scanner) End() error {
	s.space()
	if s.i < len(s.b) {
		return s.errHere("malformed JSON: %s after the end of the value", describe(s.b[s.i]))
	}
	return nil
}

// AtEnd skips white space and reports whether the text is over.
func (s *Scanner) AtEnd() bool {
	s.space()
	return s.i == len(s.b)
}

// Object reads an object, calling field for each member with its key
// (valid until field returns) and the cursor before the value, which field
// must read (Skip does). A key given twice is an error at the second.
func (s *Scanner) Object(field func(key []byte) error) error {
	if err := s.expect('{', "an object"); err != nil {
		return err
	}
	if len(s.path) >= MaxDepth {
		return s.errHere("JSON nested deeper than %d", MaxDepth)
	}
	depth, spansFrom, keysFrom := len(s.path), len(s.spans), len(s.keys)
	s.path = append(s.path, seg{index: -1, keys: spansFrom})
	// done closes the object. On an error it stays open: the path then
	// still names the value for the caller, until Reset.
	done := func() {
		s.path = s.path[:depth]
		s.spans, s.keys = s.spans[:spansFrom], s.keys[:keysFrom]
	}
	s.space()
	if s.i < len(s.b) && s.b[s.i] == '}' {
		s.i++
		done()
		return nil
	}
	for {
		s.space()
		if s.i >= len(s.b) || s.b[s.i] != '"' {
			return s.unexpected("a key in quotes")
		}
		at := Pos(s.i)
		key, err := s.String()
		if err != nil {
			return err
		}
		k := span{len(s.keys), len(s.keys) + len(key)}
		s.keys = append(s.keys, key...)
		if s.repeated(depth, k) {
			s.path = s.path[:depth] // the error names the object
			return s.Errorf(at, "field %q appears twice", key)
		}
		s.spans = append(s.spans, k)
		s.path[depth].key, s.path[depth].keyAt = k, at
		if err := s.expect(':', "':' after a key"); err != nil {
			return err
		}
		if err := field(s.keys[k.from:k.to]); err != nil {
			return err
		}
		s.space()
		if s.i < len(s.b) {
			switch s.b[s.i] {
			case ',':
				s.i++
				continue
			case '}':
				s.i++
				done()
				return nil
			}
		}
		return s.unexpected("',' or '}' after the value")
	}
}

// repeated reports whether key k of the object at depth was given before.
func (s *Scanner) repeated(depth int, k span) bool {
	key := s.keys[k.from:k.to]
	earlier := s.spans[s.path[depth].keys:]
	if set := s.path[depth].set; set != nil {
		if _, ok := set[string(key)]; ok {
			return true
		}
		set[string(key)] = struct{}{}
		return false
	}
	for _, e := range earlier {
		if bytes.Equal(s.keys[e.from:e.to], key) {
			return true
		}
	}
	if len(earlier) >= manyKeys {
		set := make(keySet, 2*manyKeys)
		for _, e := range earlier {
			set[string(s.keys[e.from:e.to])] = struct{}{}
		}
		set[string(key)] = struct{}{}
		s.path[depth].set = set
	}
	return false
}

// Array reads an array, calling elem for each element with its index and
// the cursor before it; elem must read the element.
func (s *Scanner) Array(elem func(i int) error) error {
	if err := s.expect('[', "an array"); err != nil {
		return err
	}
	if len(s.path) >= MaxDepth {
		return s.errHere("JSON nested deeper than %d", MaxDepth)
	}
	depth := len(s.path)
	s.path = append(s.path, seg{index: 0})
	s.space()
	if s.i < len(s.b) && s.b[s.i] == ']' {
		s.i++
		s.path = s.path[:depth]
		return nil
	}
	for i := 0; ; i++ {
		s.path[depth].index = i
		if err := elem(i); err != nil {
			return err
		}
		s.space()
		if s.i < len(s.b) {
			switch s.b[s.i] {
			case ',':
				s.i++
				continue
			case ']':
				s.i++
				s.path = s.path[:depth]
				return nil
			}
		}
		return s.unexpected("',' or ']' after the value")
	}
}

// Null reads a null if one comes next and reports whether it did.
func (s *Scanner) Null() bool {
	s.space()
	if len(s.b)-s.i >= 4 && string(s.b[s.i:s.i+4]) == "null" {
		s.i += 4
		return true
	}
	return false
}

// Skip checks and passes over one value of any kind.
func (s *Scanner) Skip() error {
	k, err := s.Kind()
	if err != nil {
		return err
	}
	switch k {
	case Object:
		return s.Object(func([]byte) error { return s.Skip() })
	case Array:
		return s.Array(func(int) error { return s.Skip() })
	case String:
		_, err := s.string(false)
		return err
	case Number:
		_, err := s.Number()
		return err
	case True, False, Null:
		return s.literal(kindNames[k])
	}
	return s.unexpected("a value")
}

// Value skips one value and returns its text.
func (s *Scanner) Value() ([]byte, error) {
	from := s.At()
	err := s.Skip()
	return s.b[from:s.i], err
}

func (s *Scanner) literal(word string) error {
	if len(s.b)-s.i >= len(word) && string(s.b[s.i:s.i+len(word)]) == word {
		s.i += len(word)
		return nil
	}
	if rest := s.b[s.i:]; len(rest) < len(word) && string(rest) == word[:len(rest)] {
		return s.short(s.errHere("malformed JSON: the %s ends inside %s (is it cut short?)", s.what, word))
	}
	return s.errHere("malformed JSON: want %s", word)
}

// short marks e as the error of a text that ends too soon.
func (s *Scanner) short(e *Error) *Error {
	e.Short = true
	return e
}

// KeyErrorf is an error at the key of the member being read, naming the
// object's path: for field to refuse a key ("unknown field").
func (s *Scanner) KeyErrorf(format string, args ...any) *Error {
	n := len(s.path) - 1
	for n >= 0 && s.path[n].index >= 0 {
		n--
	}
	if n < 0 {
		return s.errHere(format, args...)
	}
	inner := s.path
	s.path = s.path[:n]
	e := s.Errorf(inner[n].keyAt, format, args...)
	s.path = inner
	return e
}
