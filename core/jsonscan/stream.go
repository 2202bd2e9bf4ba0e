package jsonscan

import (
	"fmt"
	"io"
)

// The streaming mode: a Scanner over an io.Reader holds a window of the
// text in b and refills it as the walk needs (see Scanner).

// streamBuffer is the size a stream's buffer starts at; it grows, as a
// token needs, up to the limit.
const streamBuffer = 64 << 10

// ResetReader makes s read the text r gives, a piece at a time: it holds at
// most limit bytes of it (and as much again for a string's decoded text),
// and refuses a token longer than limit bytes at the token's position.
// The text's first byte is on line 1; what names it in messages ("the
// Playwright JSON report ends ...").
func (s *Scanner) ResetReader(r io.Reader, limit int, what string) {
	size := min(limit, streamBuffer)
	if n, ok := r.(interface{ Len() int }); ok {
		size = min(size, max(n.Len(), 512)) // a line in memory: no 64 KB for it
	}
	if cap(s.b) < size || s.r == nil {
		s.b = make([]byte, 0, size)
	}
	s.Reset(s.b[:0], 1, what)
	s.r, s.limit, s.mark, s.empty = r, max(limit, 1), where{0, 1, 1}, 0
}

// pos is the cursor's offset in the text.
func (s *Scanner) pos() Pos { return Pos(s.off + s.i) }

// need reports whether n bytes are left after the cursor, reading more of
// a stream if it must (which may move b's contents: see Scanner).
func (s *Scanner) need(n int) bool {
	return len(s.b)-s.i >= n || s.r != nil && s.read(n)
}

// keep is the index in b from which the bytes must stay: the token being
// read, or the value Value takes whole.
func (s *Scanner) keep() int {
	if s.pin >= 0 {
		return min(s.pin-s.off, s.tok)
	}
	return s.tok
}

// read reads from the stream until n bytes are left after the cursor, the
// stream ends, it fails, or the token would outgrow the limit.
func (s *Scanner) read(n int) bool {
	for len(s.b)-s.i < n && s.rerr == nil {
		if len(s.b) == cap(s.b) {
			keep := s.keep()
			if len(s.b)-keep > s.limit {
				s.rerr, s.long = errTooLong, Pos(s.off+keep)
				break
			}
			if keep > 0 && (keep >= cap(s.b)/2 || cap(s.b) > s.limit) {
				s.drop(keep)
			} else {
				// One byte over the limit: the byte after a token of
				// the limit's length says where it ends.
				b := make([]byte, len(s.b), min(2*cap(s.b), s.limit+1))
				copy(b, s.b)
				s.b = b
			}
			continue
		}
		m, err := s.r.Read(s.b[len(s.b):cap(s.b)])
		s.b = s.b[:len(s.b)+m]
		if s.empty = s.empty + 1; m > 0 {
			s.empty = 0
		}
		switch {
		case err != nil:
			s.rerr = err
		case s.empty == 100: // as bufio: a reader that gives nothing, again and again
			s.rerr = io.ErrNoProgress
		}
	}
	return len(s.b)-s.i >= n
}

// drop lets go of b[:n], keeping the places of the open objects' keys in it.
func (s *Scanner) drop(n int) {
	for k := range s.path {
		if g := &s.path[k]; g.index < 0 && int(g.keyAt) < s.off+n && g.keyLine == 0 {
			g.keyLine, g.keyCol = s.Where(g.keyAt)
		}
	}
	if s.open.at >= s.off && s.open.at < s.off+n && s.open.line == 0 {
		s.open.line, s.open.col = s.Where(Pos(s.open.at))
	}
	line, col := s.Where(Pos(s.off + n))
	s.b = s.b[:copy(s.b, s.b[n:])]
	s.line, s.col0, s.off = line, col, s.off+n
	s.i, s.tok = s.i-n, s.tok-n
}

// readError is the error of a stream that could not be read to its end:
// a token longer than the limit, or the reader's own error.
func (s *Scanner) readError() *Error {
	if s.rerr == errTooLong {
		line, col := s.Where(s.long)
		return &Error{Line: line, Column: col, Path: s.Path(), Msg: fmt.Sprintf("a value longer than %d bytes", s.limit)}
	}
	line, col := s.Where(s.pos())
	return &Error{Line: line, Column: col, Path: s.Path(), Msg: fmt.Sprintf("the %s cannot be read: %v", s.what, s.rerr), Err: s.rerr}
}
