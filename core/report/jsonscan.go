package report

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/flakegate/flakegate/core"
)

// jsonReader walks one JSON document as a stream, so that a reader keeps
// only the fields it needs and memory does not grow with the file. It
// knows where it is: the line and column of each value, and the path from
// the document's root ("suites[2].specs[0].tests[1].status"), which every
// error carries in the user's terms.
//
// The grammar is RFC 8259's, plus NaN, Infinity and -Infinity as numbers
// (Python's json module writes them). Strings must be UTF-8; one kept with
// str is at most maxJSONString bytes, nesting at most maxJSONDepth deep.
type jsonReader struct {
	br        *bufio.Reader
	line, col int // of the next byte, 1-based; col counts characters
	path      []jsonSeg
	buf       []byte
	what      string // the format, for errors: "Playwright JSON report"
}

type jsonSeg struct {
	key   string
	index int // -1 in an object
}

const (
	maxJSONString = 1 << 20
	maxJSONDepth  = 512
)

func newJSONReader(r io.Reader, what string) *jsonReader {
	br, ok := r.(*bufio.Reader)
	if !ok {
		size := 64 << 10
		if b, ok := r.(*bytes.Reader); ok {
			// One line or a detection head: a buffer of its size, not
			// 64 KB for every row of a samples file.
			size = min(size, b.Len())
		}
		br = bufio.NewReaderSize(r, size)
	}
	return &jsonReader{br: br, line: 1, col: 1, what: what}
}

// pathString is the path of the value being read: `results[3].status`.
func (j *jsonReader) pathString() string {
	var b strings.Builder
	for _, s := range j.path {
		if s.index >= 0 {
			fmt.Fprintf(&b, "[%d]", s.index)
			continue
		}
		if b.Len() > 0 {
			b.WriteByte('.')
		}
		b.WriteString(s.key)
	}
	return b.String()
}

// errAt is an Invalid error at line:col, naming the path when there is one.
func (j *jsonReader) errAt(line, col int, format string, args ...any) *core.Error {
	msg := fmt.Sprintf(format, args...)
	if p := j.pathString(); p != "" {
		msg = p + ": " + msg
	}
	return core.PosErrorf(core.Invalid, line, col, "%s", msg)
}

func (j *jsonReader) errf(format string, args ...any) *core.Error {
	return j.errAt(j.line, j.col, format, args...)
}

// readByte consumes one byte and moves the position past it.
func (j *jsonReader) readByte() (byte, error) {
	c, err := j.br.ReadByte()
	if err != nil {
		if errors.Is(err, io.EOF) {
			return 0, j.errf("the %s ends in the middle (is the file cut short?)", j.what)
		}
		return 0, err
	}
	switch {
	case c == '\n':
		j.line++
		j.col = 1
	case c&0xc0 != 0x80:
		j.col++
	}
	return c, nil
}

// peek skips white space and returns the next byte without consuming it;
// 0 at the end of the input.
func (j *jsonReader) peek() (byte, error) {
	for {
		b, err := j.br.Peek(1)
		if err != nil {
			if errors.Is(err, io.EOF) {
				return 0, nil
			}
			return 0, err
		}
		switch b[0] {
		case ' ', '\t', '\r', '\n':
			j.readByte()
			continue
		case 0:
			return 0, j.errf("malformed JSON: a NUL byte (is this a binary file?)")
		}
		return b[0], nil
	}
}

// expect consumes the next non-space byte, which must be c.
func (j *jsonReader) expect(c byte, what string) error {
	got, err := j.peek()
	if err != nil {
		return err
	}
	if got != c {
		return j.unexpected(got, what)
	}
	_, err = j.readByte()
	return err
}

func (j *jsonReader) unexpected(got byte, want string) error {
	if got == 0 {
		return j.errf("the %s ends where %s should be (is the file cut short?)", j.what, want)
	}
	return j.errf("malformed JSON: want %s, found %s", want, describeByte(got))
}

func describeByte(c byte) string {
	if c >= 0x20 && c < 0x7f {
		return strconv.QuoteRune(rune(c))
	}
	return fmt.Sprintf("byte 0x%02x", c)
}

// kind names the JSON type of the next value: "object", "array",
// "string", "number", "true", "false", "null" ("" at the end).
func (j *jsonReader) kind() (string, error) {
	c, err := j.peek()
	if err != nil {
		return "", err
	}
	switch {
	case c == '{':
		return "object", nil
	case c == '[':
		return "array", nil
	case c == '"':
		return "string", nil
	case c == '-' || c >= '0' && c <= '9' || c == 'N' || c == 'I':
		return "number", nil
	case c == 't':
		return "true", nil
	case c == 'f':
		return "false", nil
	case c == 'n':
		return "null", nil
	case c == 0:
		return "", nil
	}
	return "", j.errf("malformed JSON: a value cannot start with %s", describeByte(c))
}

// object reads an object, calling field for each key with the reader on
// its value; field must consume the value (skip does). depth is the
// nesting so far.
func (j *jsonReader) object(field func(key string) error) error {
	if err := j.expect('{', "an object"); err != nil {
		return err
	}
	if len(j.path) >= maxJSONDepth {
		return j.errf("JSON nested deeper than %d", maxJSONDepth)
	}
	j.path = append(j.path, jsonSeg{index: -1})
	c, err := j.peek()
	if err != nil {
		return err
	}
	if c == '}' {
		j.readByte()
		j.path = j.path[:len(j.path)-1]
		return nil
	}
	for {
		c, err := j.peek()
		if err != nil {
			return err
		}
		if c != '"' {
			return j.unexpected(c, "a key in quotes")
		}
		key, err := j.str()
		if err != nil {
			return err
		}
		j.path[len(j.path)-1].key = key
		if err := j.expect(':', "':' after a key"); err != nil {
			return err
		}
		if err := field(key); err != nil {
			return err
		}
		c, err = j.peek()
		if err != nil {
			return err
		}
		switch c {
		case ',':
			j.readByte()
		case '}':
			j.readByte()
			j.path = j.path[:len(j.path)-1]
			return nil
		default:
			return j.unexpected(c, "',' or '}'")
		}
	}
}

// array reads an array, calling elem for each element with its index.
func (j *jsonReader) array(elem func(i int) error) error {
	if err := j.expect('[', "an array"); err != nil {
		return err
	}
	if len(j.path) >= maxJSONDepth {
		return j.errf("JSON nested deeper than %d", maxJSONDepth)
	}
	j.path = append(j.path, jsonSeg{index: 0})
	c, err := j.peek()
	if err != nil {
		return err
	}
	if c == ']' {
		j.readByte()
		j.path = j.path[:len(j.path)-1]
		return nil
	}
	for i := 0; ; i++ {
		j.path[len(j.path)-1].index = i
		if err := elem(i); err != nil {
			return err
		}
		c, err := j.peek()
		if err != nil {
			return err
		}
		switch c {
		case ',':
			j.readByte()
		case ']':
			j.readByte()
			j.path = j.path[:len(j.path)-1]
			return nil
		default:
			return j.unexpected(c, "',' or ']'")
		}
	}
}

// str reads a string value and returns its text.
func (j *jsonReader) str() (string, error) {
	if err := j.expect('"', "a string"); err != nil {
		return "", err
	}
	j.buf = j.buf[:0]
	if err := j.strBody(true); err != nil {
		return "", err
	}
	return string(j.buf), nil
}

// strBody reads a string after its opening quote, keeping its text in
// j.buf when keep is set.
func (j *jsonReader) strBody(keep bool) error {
	line, col := j.line, j.col-1
	for {
		c, err := j.readByte()
		if err != nil {
			return err
		}
		switch {
		case c == '"':
			return nil
		case c < 0x20:
			return j.errf("malformed JSON: a control character (byte 0x%02x) inside a string; it must be escaped", c)
		case c == '\\':
			e, err := j.readByte()
			if err != nil {
				return err
			}
			var r rune
			switch e {
			case '"', '\\', '/':
				r = rune(e)
			case 'b':
				r = '\b'
			case 'f':
				r = '\f'
			case 'n':
				r = '\n'
			case 'r':
				r = '\r'
			case 't':
				r = '\t'
			case 'u':
				if r, err = j.hex4(); err != nil {
					return err
				}
				if utf16.IsSurrogate(r) {
					r2 := utf8.RuneError
					if b, _ := j.br.Peek(2); len(b) == 2 && b[0] == '\\' && b[1] == 'u' {
						j.readByte()
						j.readByte()
						lo, err := j.hex4()
						if err != nil {
							return err
						}
						r2 = utf16.DecodeRune(r, lo)
					}
					r = r2
				}
			default:
				return j.errf("malformed JSON: unknown escape \\%s in a string", string(rune(e)))
			}
			if keep {
				j.buf = utf8.AppendRune(j.buf, r)
			}
		case c < 0x80:
			if keep {
				j.buf = append(j.buf, c)
			}
		default:
			// A multi-byte UTF-8 sequence: check it whole.
			n := 2
			switch {
			case c&0xf0 == 0xe0:
				n = 3
			case c&0xf8 == 0xf0:
				n = 4
			}
			var seq [4]byte
			seq[0] = c
			for i := 1; i < n; i++ {
				b, err := j.br.Peek(1)
				if err != nil || b[0]&0xc0 != 0x80 {
					return j.errf("a string that is not valid UTF-8")
				}
				seq[i], _ = j.readByte()
			}
			if r, _ := utf8.DecodeRune(seq[:n]); r == utf8.RuneError {
				return j.errf("a string that is not valid UTF-8")
			}
			if keep {
				j.buf = append(j.buf, seq[:n]...)
			}
		}
		if keep && len(j.buf) > maxJSONString {
			return j.errAt(line, col, "a string longer than %d bytes", maxJSONString)
		}
	}
}

func (j *jsonReader) hex4() (rune, error) {
	var r rune
	for range 4 {
		c, err := j.readByte()
		if err != nil {
			return 0, err
		}
		var v byte
		switch {
		case c >= '0' && c <= '9':
			v = c - '0'
		case c >= 'a' && c <= 'f':
			v = c - 'a' + 10
		case c >= 'A' && c <= 'F':
			v = c - 'A' + 10
		default:
			return 0, j.errf("malformed JSON: \\u must be followed by four hex digits")
		}
		r = r<<4 | rune(v)
	}
	return r, nil
}

// number reads a number value.
func (j *jsonReader) number() (float64, error) {
	if _, err := j.peek(); err != nil {
		return 0, err
	}
	line, col := j.line, j.col
	j.buf = j.buf[:0]
	for {
		b, err := j.br.Peek(1)
		if err != nil || !strings.ContainsRune("+-.0123456789eEINaInfity", rune(b[0])) {
			break
		}
		c, _ := j.readByte()
		j.buf = append(j.buf, c)
		if len(j.buf) > 400 {
			return 0, j.errAt(line, col, "malformed JSON: a number of more than 400 characters")
		}
	}
	s := string(j.buf)
	switch s {
	case "NaN":
		return math.NaN(), nil
	case "Infinity":
		return math.Inf(1), nil
	case "-Infinity":
		return math.Inf(-1), nil
	}
	if !jsonNumber(s) {
		return 0, j.errAt(line, col, "malformed JSON: %q is not a number", s)
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil && !errors.Is(err, strconv.ErrRange) {
		return 0, j.errAt(line, col, "malformed JSON: %q is not a number", s)
	}
	return v, nil
}

// literal reads true, false or null.
func (j *jsonReader) literal(word string) error {
	line, col := j.at()
	for i := range len(word) {
		c, err := j.readByte()
		if err != nil {
			return err
		}
		if c != word[i] {
			return j.errAt(line, col, "malformed JSON: want %s", word)
		}
	}
	return nil
}

// jsonScalar is a value read by scalar: its kind and, by kind, its text,
// number or truth.
type jsonScalar struct {
	kind string // "string", "number", "true", "false", "null"
	s    string
	n    float64
}

// scalar reads a string, number, boolean or null; an object or array is
// an error naming want.
func (j *jsonReader) scalar(want string) (jsonScalar, error) {
	k, err := j.kind()
	if err != nil {
		return jsonScalar{}, err
	}
	v := jsonScalar{kind: k}
	switch k {
	case "string":
		v.s, err = j.str()
	case "number":
		v.n, err = j.number()
	case "true", "false", "null":
		err = j.literal(k)
	case "":
		err = j.unexpected(0, want)
	default:
		err = j.errf("want %s, got an %s", want, k)
	}
	return v, err
}

// at skips white space and returns the position of the next value.
func (j *jsonReader) at() (line, col int) {
	j.peek()
	return j.line, j.col
}

// text reads a string (a null is ""); any other kind is an error.
func (j *jsonReader) text(want string) (string, error) {
	line, col := j.at()
	v, err := j.scalar(want)
	if err != nil {
		return "", err
	}
	switch v.kind {
	case "string":
		return v.s, nil
	case "null":
		return "", nil
	}
	return "", j.errAt(line, col, "want %s, got %s", want, v.describe())
}

// integer reads a whole number (a null is 0).
func (j *jsonReader) integer(want string) (int64, error) {
	line, col := j.at()
	v, err := j.scalar(want)
	if err != nil {
		return 0, err
	}
	switch {
	case v.kind == "null":
		return 0, nil
	case v.kind == "number" && v.n == math.Trunc(v.n) && math.Abs(v.n) < 1<<53:
		return int64(v.n), nil
	}
	return 0, j.errAt(line, col, "want %s, got %s", want, v.describe())
}

func (v jsonScalar) describe() string {
	switch v.kind {
	case "string":
		return strconv.Quote(clipText(v.s, 40))
	case "number":
		return strconv.FormatFloat(v.n, 'g', -1, 64)
	}
	return v.kind
}

func clipText(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}

// skip reads past one value of any kind.
func (j *jsonReader) skip() error {
	k, err := j.kind()
	if err != nil {
		return err
	}
	switch k {
	case "object":
		return j.object(func(string) error { return j.skip() })
	case "array":
		return j.array(func(int) error { return j.skip() })
	case "string":
		j.readByte()
		return j.strBody(false)
	case "number":
		_, err := j.number()
		return err
	case "true", "false", "null":
		return j.literal(k)
	}
	return j.unexpected(0, "a value")
}

// end checks that nothing but white space follows the document.
func (j *jsonReader) end() error {
	c, err := j.peek()
	if err != nil {
		return err
	}
	if c != 0 {
		return j.errf("malformed JSON: %s after the end of the document", describeByte(c))
	}
	return nil
}
