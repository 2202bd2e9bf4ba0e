package jsonscan

import (
	"strconv"
	"unicode/utf16"
	"unicode/utf8"
)

// String reads a string and returns its text, valid until the next call
// of a Scanner method (it may be a piece of the input).
func (s *Scanner) String() ([]byte, error) {
	s.space()
	if s.i >= len(s.b) || s.b[s.i] != '"' {
		return nil, s.unexpected("a string")
	}
	return s.string(true)
}

// Text reads a string into a Go string.
func (s *Scanner) Text() (string, error) {
	b, err := s.String()
	return string(b), err
}

// string reads a string from its opening quote, at s.tok; keep asks for
// its text. A stream's refill may move the text in b: indices held across
// one are taken from s.tok, or as offsets in the text.
func (s *Scanner) string(keep bool) ([]byte, error) {
	s.i++
	wide := false
	for {
		// The common case, no escape, on locals the compiler keeps in
		// registers; a stream refills between passes.
		b, i := s.b, s.i
		for ; i < len(b); i++ {
			c := b[i]
			if plain[c] {
				continue
			}
			switch {
			case c >= 0x80:
				wide = true
				continue
			case c == '"':
				v := b[s.tok+1 : i]
				if wide && !utf8.Valid(v) {
					return nil, s.badUTF8(s.tok+1, i)
				}
				s.i = i + 1
				return v, nil
			}
			s.i = i
			if c == '\\' {
				if wide && !utf8.Valid(b[s.tok+1:i]) {
					return nil, s.badUTF8(s.tok+1, i)
				}
				return s.escaped(keep)
			}
			return nil, s.errHere("malformed JSON: a control character (byte 0x%02x) inside a string; it must be escaped", c)
		}
		s.i = i
		if !s.need(1) {
			return nil, s.cutString(Pos(s.off + s.tok))
		}
	}
}

// plain tells the bytes a string holds as they are: ASCII but for the
// quote, the backslash and the control characters.
var plain = func() (t [256]bool) {
	for c := 0x20; c < 0x80; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

// badUTF8 is the error of the first byte of b[from:to] that is not UTF-8.
func (s *Scanner) badUTF8(from, to int) error {
	for i := from; i < to; {
		r, n := utf8.DecodeRune(s.b[i:to])
		if r == utf8.RuneError && n <= 1 {
			return s.Errorf(Pos(s.off+i), "a string that is not valid UTF-8 (byte 0x%02x)", s.b[i])
		}
		i += n
	}
	return s.Errorf(Pos(s.off+from), "a string that is not valid UTF-8")
}

// escaped reads the rest of a string that holds an escape, s.i at the
// first backslash; b[s.tok+1:s.i] is valid UTF-8 without escapes.
func (s *Scanner) escaped(keep bool) ([]byte, error) {
	s.buf = append(s.buf[:0], s.b[s.tok+1:s.i]...)
	plain := s.pos() // where the run of bytes without escape starts
	for s.i < len(s.b) || s.need(1) {
		c := s.b[s.i]
		switch {
		case c == '"':
			if err := s.flush(plain, keep); err != nil {
				return nil, err
			}
			s.i++
			return s.buf, nil
		case c < 0x20:
			return nil, s.errHere("malformed JSON: a control character (byte 0x%02x) inside a string; it must be escaped", c)
		case c != '\\':
			s.i++
			continue
		}
		if err := s.flush(plain, keep); err != nil {
			return nil, err
		}
		r, err := s.escape(Pos(s.off + s.tok))
		if err != nil {
			return nil, err
		}
		if keep {
			s.buf = utf8.AppendRune(s.buf, r)
		}
		plain = s.pos()
	}
	return nil, s.cutString(Pos(s.off + s.tok))
}

// escape reads one escape, s.i at its backslash, in the string that opens
// at open.
func (s *Scanner) escape(open Pos) (rune, error) {
	at := s.pos()
	if !s.need(2) {
		return 0, s.cutString(open)
	}
	e := s.b[s.i+1]
	s.i += 2
	switch e {
	case '"', '\\', '/':
		return rune(e), nil
	case 'b':
		return '\b', nil
	case 'f':
		return '\f', nil
	case 'n':
		return '\n', nil
	case 'r':
		return '\r', nil
	case 't':
		return '\t', nil
	case 'u':
	default:
		return 0, s.Errorf(at, `malformed JSON: unknown escape \%s in a string`, describeRune(e))
	}
	r, ok := s.hex4()
	if !ok {
		if hexPrefix(s.b[s.i:], 4) {
			return 0, s.cutString(open)
		}
		return 0, s.Errorf(at, `malformed JSON: \u must be followed by four hex digits`)
	}
	if !utf16.IsSurrogate(r) {
		return r, nil
	}
	lo := rune(0)
	s.need(6)
	rest := s.b[s.i:]
	if len(rest) >= 2 && rest[0] == '\\' && rest[1] == 'u' {
		s.i += 2
		lo, ok = s.hex4()
	} else {
		ok = false
	}
	if !ok && r < 0xdc00 && len(rest) < 6 && (len(rest) < 1 || rest[0] == '\\') &&
		(len(rest) < 2 || rest[1] == 'u') && hexPrefix(rest[min(2, len(rest)):], 4) {
		return 0, s.cutString(open) // \ud834 and the text ends
	}
	if r = utf16.DecodeRune(r, lo); !ok || r == utf8.RuneError {
		return 0, s.Errorf(at, `a \u escape of half a UTF-16 surrogate pair, without its other half`)
	}
	return r, nil
}

// skipString passes over a string of a stream that the reader does not
// keep, holding a piece of it at a time (a long string the reader skips is
// no token it must hold), with the errors string gives: a control
// character before a bad UTF-8 byte of the same run without escapes.
func (s *Scanner) skipString() error {
	open := s.pos()
	s.open = where{at: int(open)} // drop keeps its place
	s.i++
	s.tok = s.i // the run of bytes without escape that is not checked yet
	var bad *Error
	for {
		if s.i == len(s.b) {
			// Check the run up to its last whole character and let it go.
			cut := s.i
			for k := 1; k <= utf8.UTFMax && cut-k >= s.tok; k++ {
				if utf8.RuneStart(s.b[cut-k]) {
					if !utf8.FullRune(s.b[cut-k : cut]) {
						cut -= k
					}
					break
				}
			}
			if bad == nil && !utf8.Valid(s.b[s.tok:cut]) {
				bad, _ = s.badUTF8(s.tok, cut).(*Error)
			}
			s.tok = cut
			if !s.need(1) {
				return s.cutString(open)
			}
		}
		c := s.b[s.i]
		switch {
		case c == '"' || c == '\\':
			if bad == nil && !utf8.Valid(s.b[s.tok:s.i]) {
				bad, _ = s.badUTF8(s.tok, s.i).(*Error)
			}
			if bad != nil {
				return bad
			}
			if c == '"' {
				s.i++
				return nil
			}
			s.tok = s.i
			if _, err := s.escape(open); err != nil {
				return err
			}
			s.tok = s.i
			continue
		case c < 0x20:
			return s.errHere("malformed JSON: a control character (byte 0x%02x) inside a string; it must be escaped", c)
		}
		s.i++
	}
}

// flush checks the bytes from plain to the cursor, which hold no escape,
// and keeps them in s.buf when keep is set.
func (s *Scanner) flush(plain Pos, keep bool) error {
	from := int(plain) - s.off
	if !utf8.Valid(s.b[from:s.i]) {
		return s.badUTF8(from, s.i)
	}
	if keep {
		s.buf = append(s.buf, s.b[from:s.i]...)
		if s.r != nil && len(s.buf) > s.limit {
			s.rerr, s.long = errTooLong, Pos(s.off+s.tok)
			return s.readError()
		}
	}
	return nil
}

// cutString is the error of a string the text ends inside.
func (s *Scanner) cutString(open Pos) error {
	return s.short(s.Errorf(open, "malformed JSON: the %s ends inside a string (is it cut short?)", s.what))
}

// hexPrefix reports whether b is shorter than n and all hex digits.
func hexPrefix(b []byte, n int) bool {
	if len(b) >= n {
		return false
	}
	for _, c := range b {
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F') {
			return false
		}
	}
	return true
}

func describeRune(c byte) string {
	if c >= 0x20 && c < 0x7f {
		return string(rune(c))
	}
	return describe(c)
}

// hex4 reads the four hex digits of a \u escape.
func (s *Scanner) hex4() (rune, bool) {
	if !s.need(4) {
		return 0, false
	}
	var r rune
	for _, c := range s.b[s.i : s.i+4] {
		switch {
		case c >= '0' && c <= '9':
			c -= '0'
		case c >= 'a' && c <= 'f':
			c -= 'a' - 10
		case c >= 'A' && c <= 'F':
			c -= 'A' - 10
		default:
			return 0, false
		}
		r = r<<4 | rune(c)
	}
	s.i += 4
	return r, true
}

// Number reads a number and returns its text, which is in RFC 8259's
// grammar (strconv.ParseFloat reads it).
func (s *Scanner) Number() ([]byte, error) {
	s.space() // the number starts at s.tok
	if s.python {
		for _, w := range nonFinite {
			if s.need(len(w)) && string(s.b[s.i:s.i+len(w)]) == w {
				s.i += len(w)
				return s.b[s.tok:s.i], nil
			}
		}
	}
	if s.i < len(s.b) && s.b[s.i] == '-' {
		s.i++
	}
	ok := s.need(1) && s.b[s.i] == '0'
	if ok {
		s.i++
	} else {
		ok = s.digits()
	}
	if ok && s.need(1) && s.b[s.i] == '.' {
		s.i++
		ok = s.digits()
	}
	if ok && s.need(1) && (s.b[s.i] == 'e' || s.b[s.i] == 'E') {
		s.i++
		if s.need(1) && (s.b[s.i] == '+' || s.b[s.i] == '-') {
			s.i++
		}
		ok = s.digits()
	}
	if ok && (!s.need(1) && !s.failed() || s.i < len(s.b) && !isNumberByte(s.b[s.i])) {
		return s.b[s.tok:s.i], nil
	}
	// Not a number: "-", "1.", "01", "1.5.2".
	if s.i == len(s.b) && s.i > s.tok {
		return nil, s.short(s.Errorf(Pos(s.off+s.tok), "malformed JSON: the %s ends inside a number (is it cut short?)", s.what))
	}
	n := s.i - s.tok // the number's bytes, which a refill may move
	for n < 40 && (s.tok+n < len(s.b) || s.need(s.tok+n+1-s.i)) && isNumberByte(s.b[s.tok+n]) {
		n++
	}
	s.i = s.tok
	switch {
	case n == 0 && s.i < len(s.b) && (s.b[s.i] == 'N' || s.b[s.i] == 'I'):
		return nil, s.errHere("malformed JSON: NaN and Infinity are not JSON numbers")
	case n == 0:
		return nil, s.unexpected("a number")
	case n == 1 && s.b[s.i] == '-' && s.need(2) && s.b[s.i+1] == 'I':
		return nil, s.errHere("malformed JSON: NaN and Infinity are not JSON numbers")
	}
	return nil, s.errHere("malformed JSON: %s is not a number", strconv.Quote(string(s.b[s.i:s.i+n])))
}

// nonFinite are the words Python's json module writes for NaN and the
// infinities (AllowNonFinite).
var nonFinite = [...]string{"NaN", "Infinity", "-Infinity"}

// digits passes over a run of digits and reports whether there was one.
func (s *Scanner) digits() bool {
	n := 0
	for (s.i < len(s.b) || s.need(1)) && s.b[s.i] >= '0' && s.b[s.i] <= '9' {
		s.i++
		n++
	}
	return n > 0
}

func isNumberByte(c byte) bool {
	return c >= '0' && c <= '9' || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E'
}

// Int reads a whole number that fits in an int64, written without a
// fraction or an exponent.
func (s *Scanner) Int() (int64, error) {
	at := s.At()
	if k, err := s.Kind(); err != nil || k != Number {
		if err == nil {
			err = s.Errorf(at, "want a whole number, got %s", s.describeValue())
		}
		return 0, err
	}
	num, err := s.Number()
	if err != nil {
		return 0, err
	}
	n, err := strconv.ParseInt(string(num), 10, 64)
	if err != nil {
		if ne, ok := err.(*strconv.NumError); ok && ne.Err == strconv.ErrRange {
			return 0, s.Errorf(at, "%s does not fit in 64 bits", num)
		}
		return 0, s.Errorf(at, "want a whole number, got %s", num)
	}
	return n, nil
}

// describeValue names the value at the cursor, for "want ..., got ...":
// its text when it is a short scalar, else its kind.
func (s *Scanner) describeValue() string {
	k, err := s.Kind()
	if err != nil || k == End {
		return "nothing"
	}
	if k == Object || k == Array {
		return k.String()
	}
	save := s.pos()
	v, err := s.Value()
	s.i = int(save) - s.off
	if err != nil || utf8.RuneCount(v) > 40 {
		return k.String()
	}
	return string(v)
}

// Null reads a null if one comes next and reports whether it did.
func (s *Scanner) Null() bool {
	s.space()
	if s.i < len(s.b) && s.b[s.i] == 'n' && s.need(4) && string(s.b[s.i:s.i+4]) == "null" {
		s.i += 4
		return true
	}
	return false
}

func (s *Scanner) literal(word string) error {
	if s.need(len(word)) && string(s.b[s.i:s.i+len(word)]) == word {
		s.i += len(word)
		return nil
	}
	if rest := s.b[s.i:]; len(rest) < len(word) && string(rest) == word[:len(rest)] {
		return s.short(s.errHere("malformed JSON: the %s ends inside %s (is it cut short?)", s.what, word))
	}
	return s.errHere("malformed JSON: want %s", word)
}
