// Package jsonscan is the one JSON grammar of flakegate: every reader of
// JSON input (test reports, ledgers, registries, API bodies, share links)
// walks its text with a Scanner, so that each is strict, fast and small in
// the browser build. A reader that maps a text onto Go values does it with
// Decode, the one decoder on the Scanner (keys matched exactly, none
// unknown, errors in the same words), never with encoding/json. It imports
// nothing of the module's.
//
// A Scanner reads a text held in memory (Reset) or streams one from an
// io.Reader (ResetReader) through a refillable buffer: memory then stays
// bounded by the largest single token (a string, a number, or a value
// taken whole with Value), which may not exceed the limit given; a longer
// one is refused at its position. Both modes accept the same texts and give
// the same tokens and the same errors.
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
	"errors"
	"fmt"
	"io"
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
	// Err is the reader's error when a streamed text could not be read to
	// its end (nil for a mistake in the text itself).
	Err error
	// Repeated is the key given twice, when that is the mistake: the
	// member's path is Path and Repeated joined by a dot.
	Repeated string
}

// Unwrap is the reader's error, if any.
func (e *Error) Unwrap() error { return e.Err }

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

	// Streaming (ResetReader): b is a window on the text, refilled from r.
	// Only b[s.keep():] must stay; a read may move it to the front of b,
	// so that positions held across a read are offsets in the text (Pos).
	r     io.Reader
	rerr  error // r's error once it gave one: io.EOF at the end
	limit int   // the most bytes one token may take, > 0
	off   int   // the offset in the text of b[0]; 0 in memory
	col0  int   // the column of b[0] (its line is line)
	tok   int   // the index in b of the token being read
	pin   int   // Value: the offset of the value being taken whole, or -1
	long  Pos   // the token that outgrew limit
	mark  where // the last place Where counted to, to count on from there
	open  where // the string skipString is in; line 0 until it is let go
	empty int   // reads in a row that gave nothing

	counting bool // AllowRepeats: an object holds only its current key
	python   bool // AllowNonFinite: NaN, Infinity and -Infinity are numbers
}

// where is a place in the text with its line and column.
type where struct{ at, line, col int }

// errTooLong is rerr when a token outgrows the buffer's limit.
var errTooLong = errors.New("a token longer than the limit")

type seg struct {
	index int // -1 in an object
	key   span
	keys  int    // in spans, where this object's keys start
	keyAt Pos    // where the member being read starts, in an object
	set   keySet // its keys, once it has many
	// keyLine and keyCol are keyAt's place once a stream has let it go
	// from its buffer; 0 before.
	keyLine, keyCol int
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
	s.r, s.rerr, s.off, s.col0, s.tok, s.pin, s.open = nil, nil, 0, 1, 0, -1, where{at: -1}
	s.counting, s.python = false, false
}

// AllowNonFinite makes s, until the next Reset, take the three words
// Python's json module writes for numbers JSON has no text for — NaN,
// Infinity and -Infinity — as numbers: Number returns the word, which
// strconv.ParseFloat reads as NaN or ±Inf. Only the readers of eval logs
// written by Python harnesses call it, and they count and name what they
// took; every other input keeps the strict grammar.
func (s *Scanner) AllowNonFinite() { s.python = true }

// AllowRepeats makes s, until the next Reset, a walk that only measures a
// text (counts its values before a reader takes it): an object then holds
// its current key alone, not all of them, so its memory does not grow with
// its members, and a key given twice passes. A reader that takes the text's
// meaning never calls it.
func (s *Scanner) AllowRepeats() { s.counting = true }

// Where is the line and column of p.
func (s *Scanner) Where(p Pos) (line, col int) {
	at := int(p) - s.off
	if at < 0 {
		// A key or string a stream has let go of: its place was kept.
		if s.open.at == int(p) && s.open.line > 0 {
			return s.open.line, s.open.col
		}
		for _, g := range s.path {
			if g.index < 0 && g.keyAt == p && g.keyLine > 0 {
				return g.keyLine, g.keyCol
			}
		}
	}
	at = min(max(at, 0), len(s.b))
	from, line, col := 0, s.line, s.col0
	if m := s.mark.at - s.off; s.r != nil && m >= 0 && m <= at {
		from, line, col = m, s.mark.line, s.mark.col
	}
	head := s.b[from:at]
	if nl := bytes.LastIndexByte(head, '\n'); nl >= 0 {
		line += bytes.Count(head, []byte{'\n'})
		col = 1 + utf8.RuneCount(head[nl+1:])
	} else {
		col += utf8.RuneCount(head)
	}
	if s.r != nil {
		s.mark = where{s.off + at, line, col}
	}
	return line, col
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
	if s.failed() {
		return s.readError()
	}
	line, col := s.Where(p)
	return &Error{Line: line, Column: col, Path: s.Path(), Msg: fmt.Sprintf(format, args...)}
}

func (s *Scanner) errHere(format string, args ...any) *Error {
	return s.Errorf(s.pos(), format, args...)
}

// space skips white space; the next token starts where it stops.
func (s *Scanner) space() {
	if s.i < len(s.b) && s.b[s.i] > ' ' { // no white space: compact JSON
		s.tok = s.i
		return
	}
	s.spaces()
}

// spaces is space past white space or the end of the buffer.
func (s *Scanner) spaces() {
	for {
		b, i := s.b, s.i
		for i < len(b) && (b[i] == ' ' || b[i] == '\n' || b[i] == '\t' || b[i] == '\r') {
			i++
		}
		s.i, s.tok = i, i // all before the next token may go
		if i < len(b) || !s.need(1) {
			return
		}
	}
}

// At skips white space and returns the position of the next value.
func (s *Scanner) At() Pos {
	s.space()
	return s.pos()
}

// Kind skips white space and tells the kind of the next value (End at the
// end of the text), or an error if no value can start there.
func (s *Scanner) Kind() (Kind, error) {
	s.space()
	if s.i == len(s.b) {
		if s.failed() {
			return End, s.readError()
		}
		return End, nil
	}
	c := s.b[s.i]
	if k := kindOf[c]; k != End {
		return k, nil
	}
	if c == 'N' || c == 'I' {
		if s.python {
			return Number, nil // Number reads the word, or says what it is not
		}
		return End, s.errHere("malformed JSON: NaN and Infinity are not JSON numbers")
	}
	return End, s.errHere("malformed JSON: a value cannot start with %s", describe(s.b[s.i]))
}

// kindOf is the kind of a value by its first byte; End where none starts.
var kindOf = func() (t [256]Kind) {
	for _, c := range "-0123456789" {
		t[c] = Number
	}
	t['{'], t['['], t['"'], t['t'], t['f'], t['n'] = Object, Array, String, True, False, Null
	return t
}()

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
	if s.failed() {
		return s.readError()
	}
	if s.i < len(s.b) {
		return s.errHere("malformed JSON: %s after the end of the value", describe(s.b[s.i]))
	}
	return nil
}

// AtEnd skips white space and reports whether the text is over (a stream
// that cannot be read further is not: End then says why).
func (s *Scanner) AtEnd() bool {
	s.space()
	return s.i == len(s.b) && !s.failed()
}

// failed reports whether a stream stopped before its end: a token too long
// or the reader's error.
func (s *Scanner) failed() bool { return s.rerr != nil && s.rerr != io.EOF }

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
	if s.closes('}') {
		done()
		return nil
	}
	for {
		s.space()
		if s.i >= len(s.b) || s.b[s.i] != '"' {
			return s.unexpected("a key in quotes")
		}
		at := s.pos()
		key, err := s.String()
		if err != nil {
			return err
		}
		if s.counting { // the earlier keys go: no repeat is looked for
			s.keys, s.spans = s.keys[:keysFrom], s.spans[:spansFrom]
		}
		k := span{len(s.keys), len(s.keys) + len(key)}
		s.keys = append(s.keys, key...)
		if !s.counting && s.repeated(depth, k) {
			s.path = s.path[:depth] // the error names the object
			e := s.Errorf(at, "field %q appears twice", key)
			e.Repeated = string(key)
			return e
		}
		s.spans = append(s.spans, k)
		s.path[depth].key, s.path[depth].keyAt, s.path[depth].keyLine = k, at, 0
		if err := s.expect(':', "':' after a key"); err != nil {
			return err
		}
		if err := field(s.keys[k.from:k.to]); err != nil {
			return err
		}
		if more, err := s.after('}', "',' or '}' after the value"); !more {
			if err == nil { // the object is closed
				done()
			}
			return err
		}
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
	if s.closes(']') {
		s.path = s.path[:depth]
		return nil
	}
	for i := 0; ; i++ {
		s.path[depth].index = i
		if err := elem(i); err != nil {
			return err
		}
		if more, err := s.after(']', "',' or ']' after the value"); !more {
			if err == nil { // the array is closed
				s.path = s.path[:depth]
			}
			return err
		}
	}
}

// closes reads close if it comes next (an empty object or array) and
// reports whether it did.
func (s *Scanner) closes(close byte) bool {
	s.space()
	if s.i < len(s.b) && s.b[s.i] == close {
		s.i++
		return true
	}
	return false
}

// after reads what follows a member or an element: more after a ',', not
// more after close; anything else is an error (and not more), want saying
// what was wanted.
func (s *Scanner) after(close byte, want string) (more bool, err error) {
	s.space()
	if s.i < len(s.b) {
		switch s.b[s.i] {
		case ',':
			s.i++
			return true, nil
		case close:
			s.i++
			return false, nil
		}
	}
	return false, s.unexpected(want)
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
		if s.r != nil {
			return s.skipString()
		}
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

// Check reports whether b is one JSON text under the scanner's grammar:
// nil, or the first mistake (with line, column and path).
func Check(b []byte, what string) error {
	var s Scanner
	s.Reset(b, 1, what)
	if err := s.Skip(); err != nil {
		return err
	}
	return s.End()
}

// Value skips one value and returns its text.
// A stream holds the whole value in its buffer: it may not be longer than
// the limit.
func (s *Scanner) Value() ([]byte, error) {
	from := s.At()
	pin := s.pin
	s.pin = int(from)
	if pin >= 0 {
		s.pin = pin // inside a Value: the outer one's start stays
	}
	depth := len(s.path)
	err := s.Skip()
	s.pin = pin
	if s.rerr == errTooLong && s.long == from {
		s.path = s.path[:depth] // the error names the value taken whole
		err = s.readError()
	}
	return s.b[int(from)-s.off : s.i], err
}

// short marks e as the error of a text that ends too soon.
func (s *Scanner) short(e *Error) *Error {
	e.Short = true
	return e
}

// KeyAt is the position of the key of the member being read, in the
// innermost object (the cursor's position outside any object).
func (s *Scanner) KeyAt() Pos {
	for n := len(s.path) - 1; n >= 0; n-- {
		if s.path[n].index < 0 {
			return s.path[n].keyAt
		}
	}
	return s.pos()
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
	if s.rerr != nil && s.rerr != io.EOF {
		return s.readError()
	}
	line, col := s.Where(s.path[n].keyAt)
	inner := s.path
	s.path = s.path[:n]
	e := &Error{Line: line, Column: col, Path: s.Path(), Msg: fmt.Sprintf(format, args...)}
	s.path = inner
	return e
}
