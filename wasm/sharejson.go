package wasm

import (
	"fmt"
	"slices"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/flakegate/flakegate/core/aa"
)

// decodeShareJSON reads the JSON of an AAShare without reflection: an A/A
// share link is opened before the page's first figure, and encoding/json's
// decoder is a large piece of wasm that V8 would compile (and, for a few
// hundred tallies, optimize) first.
//
// It accepts what encoding/json would decode into AAShare with unknown
// fields disallowed, and is stricter in four ways: keys must match exactly
// (not case-insensitively), a key may not repeat, strings must be valid
// UTF-8 without lone surrogates, and nothing but white space may follow
// the value. Whatever it accepts, encoding/json decodes to the same share
// (FuzzShareJSON checks this).
func decodeShareJSON(raw []byte) (AAShare, error) {
	d := shareDecoder{b: raw}
	var s AAShare
	err := d.document(func(key string) error {
		switch key {
		case "v":
			n, err := d.int()
			s.Version = int(n)
			return err
		case "baseline":
			return d.side(&s.Baseline)
		case "candidate":
			return d.side(&s.Candidate)
		}
		return d.errorf("unknown field %q", key)
	})
	return s, err
}

// document reads a whole share: one object, then nothing but white space.
func (d *shareDecoder) document(field func(key string) error) error {
	if err := d.object(field); err != nil {
		return err
	}
	d.space()
	if d.i < len(d.b) {
		return d.errorf("data after the end of the share")
	}
	return nil
}

// shareDecoder is a cursor over JSON text.
type shareDecoder struct {
	b []byte
	i int
}

func (d *shareDecoder) errorf(format string, args ...any) error {
	return fmt.Errorf("byte %d: %s", d.i+1, fmt.Sprintf(format, args...))
}

func (d *shareDecoder) space() {
	for d.i < len(d.b) {
		switch d.b[d.i] {
		case ' ', '\t', '\n', '\r':
			d.i++
		default:
			return
		}
	}
}

// peek skips white space and returns the next byte, 0 at the end.
func (d *shareDecoder) peek() byte {
	d.space()
	if d.i < len(d.b) {
		return d.b[d.i]
	}
	return 0
}

func (d *shareDecoder) expect(c byte) error {
	if d.peek() != c {
		return d.errorf("expected %q", c)
	}
	d.i++
	return nil
}

// null consumes a JSON null if one comes next.
func (d *shareDecoder) null() bool {
	if d.peek() == 'n' && len(d.b)-d.i >= 4 && string(d.b[d.i:d.i+4]) == "null" {
		d.i += 4
		return true
	}
	return false
}

// object reads {"key": value, ...}, calling field for each key with the
// cursor before its value; a key may appear once.
func (d *shareDecoder) object(field func(key string) error) error {
	if err := d.expect('{'); err != nil {
		return err
	}
	if d.peek() == '}' {
		d.i++
		return nil
	}
	var seenBuf [5]string // the schemas' objects have at most five keys
	seen := seenBuf[:0]
	for {
		at := d.i
		key, err := d.str()
		if err != nil {
			return err
		}
		if slices.Contains(seen, key) {
			d.i = at
			return d.errorf("field %q given twice", key)
		}
		seen = append(seen, key)
		if err := d.expect(':'); err != nil {
			return err
		}
		if err := field(key); err != nil {
			return err
		}
		switch d.peek() {
		case ',':
			d.i++
		case '}':
			d.i++
			return nil
		default:
			return d.errorf("expected ',' or '}'")
		}
	}
}

// side reads an AASide into *p, or null (which leaves *p nil).
func (d *shareDecoder) side(p **aa.Side) error {
	if d.null() {
		*p = nil
		return nil
	}
	s := &aa.Side{}
	*p = s
	return d.object(func(key string) error {
		var err error
		switch key {
		case "scenarios":
			s.Scenarios, err = d.tallies()
		case "runs":
			s.Runs, err = d.tallies()
		case "rows":
			s.Rows, err = d.int()
		case "duplicates":
			s.Duplicates, err = d.int()
		default:
			err = d.errorf("unknown field %q", key)
		}
		return err
	})
}

// tallies reads [{"id": …, "passed": …, "total": …}, …] or null.
func (d *shareDecoder) tallies() ([]aa.Tally, error) {
	var ts []aa.Tally
	err := d.array(func(null bool) {
		if !null {
			ts = []aa.Tally{}
		}
	}, func() error {
		var t aa.Tally
		err := d.object(func(key string) error {
			var err error
			switch key {
			case "id":
				if !d.null() {
					t.ID, err = d.str()
				}
			case "passed":
				t.Passed, err = d.int()
			case "total":
				t.Total, err = d.int()
			default:
				err = d.errorf("unknown field %q", key)
			}
			return err
		})
		ts = append(ts, t)
		return err
	})
	if err != nil {
		return nil, err
	}
	return ts, nil
}

// int reads a JSON integer that fits int64, or null (as 0, which is what
// encoding/json leaves in a field it is told null).
func (d *shareDecoder) int() (int64, error) {
	if d.null() {
		return 0, nil
	}
	start := d.i
	if d.i < len(d.b) && d.b[d.i] == '-' {
		d.i++
	}
	digits := d.i
	for d.i < len(d.b) && d.b[d.i] >= '0' && d.b[d.i] <= '9' {
		d.i++
	}
	switch {
	case d.i == digits:
		d.i = start
		return 0, d.errorf("expected a whole number")
	case d.b[digits] == '0' && d.i-digits > 1:
		d.i = start
		return 0, d.errorf("a number may not start with 0")
	case d.i < len(d.b) && (d.b[d.i] == '.' || d.b[d.i] == 'e' || d.b[d.i] == 'E'):
		d.i = start
		return 0, d.errorf("expected a whole number")
	}
	n, err := strconv.ParseInt(string(d.b[start:d.i]), 10, 64)
	if err != nil {
		d.i = start
		return 0, d.errorf("%s does not fit in 64 bits", d.b[start:d.i])
	}
	return n, nil
}

// str reads a JSON string.
func (d *shareDecoder) str() (string, error) {
	if err := d.expect('"'); err != nil {
		return "", err
	}
	start := d.i
	// The common case: no escapes.
	for d.i < len(d.b) {
		c := d.b[d.i]
		if c == '"' {
			s := d.b[start:d.i]
			d.i++
			if !utf8.Valid(s) {
				d.i = start
				return "", d.errorf("string is not valid UTF-8")
			}
			return string(s), nil
		}
		if c == '\\' || c < 0x20 {
			break
		}
		d.i++
	}
	buf := append([]byte(nil), d.b[start:d.i]...)
	for d.i < len(d.b) {
		c := d.b[d.i]
		switch {
		case c == '"':
			d.i++
			if !utf8.Valid(buf) {
				d.i = start
				return "", d.errorf("string is not valid UTF-8")
			}
			return string(buf), nil
		case c < 0x20:
			return "", d.errorf("control character in a string")
		case c != '\\':
			buf = append(buf, c)
			d.i++
			continue
		}
		if d.i+1 >= len(d.b) {
			break
		}
		e := d.b[d.i+1]
		d.i += 2
		switch e {
		case '"', '\\', '/':
			buf = append(buf, e)
		case 'b':
			buf = append(buf, '\b')
		case 'f':
			buf = append(buf, '\f')
		case 'n':
			buf = append(buf, '\n')
		case 'r':
			buf = append(buf, '\r')
		case 't':
			buf = append(buf, '\t')
		case 'u':
			r, ok := d.hex4()
			if !ok {
				return "", d.errorf("bad \\u escape")
			}
			if utf16.IsSurrogate(r) {
				r2, ok := rune(0), false
				if d.i+1 < len(d.b) && d.b[d.i] == '\\' && d.b[d.i+1] == 'u' {
					d.i += 2
					r2, ok = d.hex4()
				}
				r = utf16.DecodeRune(r, r2)
				if !ok || r == utf8.RuneError {
					return "", d.errorf("lone surrogate in a \\u escape")
				}
			}
			buf = utf8.AppendRune(buf, r)
		default:
			d.i -= 2
			return "", d.errorf("bad escape \\%c", e)
		}
	}
	return "", d.errorf("unterminated string")
}

// hex4 reads the four hex digits of a \u escape.
func (d *shareDecoder) hex4() (rune, bool) {
	if len(d.b)-d.i < 4 {
		return 0, false
	}
	n, err := strconv.ParseUint(string(d.b[d.i:d.i+4]), 16, 16)
	if err != nil {
		return 0, false
	}
	d.i += 4
	return rune(n), true
}
