package report

import (
	"bytes"
)

// scanGoTestEvent decodes a test2json line without reflection: a strict JSON
// object whose string fields Action, Package, Test, ImportPath and
// FailedBuild are kept and whose other values are checked and skipped. It
// reports ok = false whenever it is not sure to agree with encoding/json
// (any syntax error, an escape in a kept string, a key that differs from a
// kept one only in case, very deep nesting), and the caller then decodes
// the line with encoding/json, which also words the error. A fuzz test
// checks the two agree. The line must be valid UTF-8.
func scanGoTestEvent(line []byte) (ev goTestEvent, ok bool) {
	s := scanner{b: line}
	s.ws()
	if !s.eat('{') {
		return ev, false
	}
	s.ws()
	if s.eat('}') {
		return ev, s.end()
	}
	for {
		s.ws()
		key, plain := s.str()
		if key == nil || !plain {
			return ev, false
		}
		s.ws()
		if !s.eat(':') {
			return ev, false
		}
		s.ws()
		var dst *string
		switch string(key) {
		case "Action":
			dst = &ev.Action
		case "Package":
			dst = &ev.Package
		case "Test":
			dst = &ev.Test
		case "ImportPath":
			dst = &ev.ImportPath
		case "FailedBuild":
			dst = &ev.FailedBuild
		default:
			for _, f := range [...]string{"Action", "Package", "Test", "ImportPath", "FailedBuild"} {
				if bytes.EqualFold(key, []byte(f)) {
					return ev, false // encoding/json matches keys without case
				}
			}
		}
		if dst != nil && s.peek() == '"' {
			v, plain := s.str()
			if v == nil || !plain {
				return ev, false
			}
			*dst = string(v)
		} else if dst != nil && !s.lit("null") {
			return ev, false // a kept field of another type: encoding/json says why
		} else if dst == nil && !s.skip() {
			return ev, false
		}
		s.ws()
		if s.eat(',') {
			continue
		}
		if s.eat('}') {
			return ev, s.end()
		}
		return ev, false
	}
}

type scanner struct {
	b []byte
	i int
}

func (s *scanner) peek() byte {
	if s.i < len(s.b) {
		return s.b[s.i]
	}
	return 0
}

func (s *scanner) eat(c byte) bool {
	if s.i < len(s.b) && s.b[s.i] == c {
		s.i++
		return true
	}
	return false
}

func (s *scanner) ws() {
	for s.i < len(s.b) {
		switch s.b[s.i] {
		case ' ', '\t', '\r', '\n':
			s.i++
		default:
			return
		}
	}
}

func (s *scanner) end() bool {
	s.ws()
	return s.i == len(s.b)
}

func (s *scanner) lit(w string) bool {
	if bytes.HasPrefix(s.b[s.i:], []byte(w)) {
		s.i += len(w)
		return true
	}
	return false
}

// str reads a JSON string; plain is false when it holds an escape (its
// bytes are then not its value). It returns nil on a syntax error.
func (s *scanner) str() (v []byte, plain bool) {
	if !s.eat('"') {
		return nil, false
	}
	start, plain := s.i, true
	for s.i < len(s.b) {
		c := s.b[s.i]
		switch {
		case c == '"':
			v = s.b[start:s.i]
			s.i++
			if v == nil {
				v = []byte{}
			}
			return v, plain
		case c < 0x20:
			return nil, false
		case c == '\\':
			plain = false
			s.i++
			if s.i >= len(s.b) {
				return nil, false
			}
			switch s.b[s.i] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				s.i++
			case 'u':
				if s.i+5 > len(s.b) {
					return nil, false
				}
				for _, h := range s.b[s.i+1 : s.i+5] {
					if !(h >= '0' && h <= '9' || h >= 'a' && h <= 'f' || h >= 'A' && h <= 'F') {
						return nil, false
					}
				}
				s.i += 5
			default:
				return nil, false
			}
		default:
			s.i++
		}
	}
	return nil, false
}

func (s *scanner) digits() bool {
	start := s.i
	for s.i < len(s.b) && s.b[s.i] >= '0' && s.b[s.i] <= '9' {
		s.i++
	}
	return s.i > start
}

func (s *scanner) number() bool {
	s.eat('-')
	switch {
	case s.eat('0'):
	case s.peek() >= '1' && s.peek() <= '9':
		s.digits()
	default:
		return false
	}
	if s.eat('.') && !s.digits() {
		return false
	}
	if s.eat('e') || s.eat('E') {
		if !s.eat('+') {
			s.eat('-')
		}
		if !s.digits() {
			return false
		}
	}
	return true
}

// skip checks and passes over one JSON value, nesting at most 64 deep.
func (s *scanner) skip() bool { return s.value(0) }

func (s *scanner) value(depth int) bool {
	if depth > 64 {
		return false
	}
	switch c := s.peek(); {
	case c == '"':
		v, _ := s.str()
		return v != nil
	case c == '{':
		s.i++
		s.ws()
		if s.eat('}') {
			return true
		}
		for {
			s.ws()
			if k, _ := s.str(); k == nil {
				return false
			}
			s.ws()
			if !s.eat(':') {
				return false
			}
			s.ws()
			if !s.value(depth + 1) {
				return false
			}
			s.ws()
			if s.eat(',') {
				continue
			}
			return s.eat('}')
		}
	case c == '[':
		s.i++
		s.ws()
		if s.eat(']') {
			return true
		}
		for {
			s.ws()
			if !s.value(depth + 1) {
				return false
			}
			s.ws()
			if s.eat(',') {
				continue
			}
			return s.eat(']')
		}
	case c == 't':
		return s.lit("true")
	case c == 'f':
		return s.lit("false")
	case c == 'n':
		return s.lit("null")
	case c == '-' || c >= '0' && c <= '9':
		return s.number()
	}
	return false
}
