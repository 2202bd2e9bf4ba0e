package report

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"iter"
	"unicode/utf8"

	"github.com/flakegate/flakegate/core"
)

// MaxLineBytes is the longest line a line-oriented reader (JSONL ledger,
// go test -json) accepts. A longer line is an error, not an allocation.
const MaxLineBytes = 1 << 20

// lineReader yields the lines of r one at a time without their newline,
// refusing lines over max bytes. It drops a UTF-8 byte order mark at the
// start of the input.
type lineReader struct {
	r    *bufio.Reader
	max  int
	line int // 1-based number of the line last returned
	buf  []byte
	// unterminated is set when the line last returned ends the input
	// without a newline.
	unterminated bool
}

func newLineReader(r io.Reader, max int) *lineReader {
	return &lineReader{r: bufio.NewReaderSize(r, 64<<10), max: max}
}

// next returns the next line, valid until the following call, or io.EOF.
func (lr *lineReader) next() ([]byte, error) {
	lr.buf = lr.buf[:0]
	for {
		chunk, err := lr.r.ReadSlice('\n')
		if len(lr.buf)+len(chunk) > lr.max+1 || (len(lr.buf)+len(chunk) == lr.max+1 && chunk[len(chunk)-1] != '\n') {
			lr.line++
			return nil, core.PosErrorf(core.Invalid, lr.line, 1, "line is longer than %d bytes", lr.max)
		}
		switch {
		case err == nil:
			lr.line++
			var line []byte
			if len(lr.buf) == 0 {
				line = chunk[:len(chunk)-1]
			} else {
				lr.buf = append(lr.buf, chunk[:len(chunk)-1]...)
				line = lr.buf
			}
			return lr.bom(line), nil
		case errors.Is(err, bufio.ErrBufferFull):
			lr.buf = append(lr.buf, chunk...)
		case errors.Is(err, io.EOF):
			lr.buf = append(lr.buf, chunk...)
			if len(lr.buf) == 0 {
				return nil, io.EOF
			}
			lr.line++
			lr.unterminated = true
			return lr.bom(lr.buf), nil
		default:
			return nil, err
		}
	}
}

// lines yields the lines next returns, in turn, and nothing more after an
// error (yielded with a nil line); with blank false it passes over the
// lines that hold only white space.
func (lr *lineReader) lines(blank bool) iter.Seq2[[]byte, error] {
	return func(yield func([]byte, error) bool) {
		for {
			line, err := lr.next()
			if errors.Is(err, io.EOF) {
				return
			}
			if err != nil {
				yield(nil, err)
				return
			}
			if !blank && len(bytes.TrimSpace(line)) == 0 {
				continue
			}
			if !yield(line, nil) {
				return
			}
		}
	}
}

func (lr *lineReader) bom(line []byte) []byte {
	if lr.line == 1 {
		return bytes.TrimPrefix(line, []byte("\xef\xbb\xbf"))
	}
	return line
}

// column is the 1-based character column of byte offset off in line.
func column(line []byte, off int) int {
	off = max(0, min(off, len(line)))
	return utf8.RuneCount(line[:off]) + 1
}

// checkUTF8 reports the line's first invalid UTF-8 byte as an error.
func checkUTF8(line []byte, n int) error {
	if utf8.Valid(line) {
		return nil
	}
	for i := 0; i < len(line); {
		r, size := utf8.DecodeRune(line[i:])
		if r == utf8.RuneError && size <= 1 {
			return core.PosErrorf(core.Invalid, n, column(line, i), "invalid UTF-8 byte 0x%02x", line[i])
		}
		i += size
	}
	return nil
}
