package report

import (
	"encoding/xml"
	"errors"
	"io"
	"strings"

	"github.com/flakegate/flakegate/core"
)

// xmlStream is an XML token stream whose errors say where, in the user's
// words: every XML reader goes through it.
type xmlStream struct {
	d *xml.Decoder
}

func newXMLStream(r io.Reader) *xmlStream {
	d := xml.NewDecoder(&attrNormalizer{r: r})
	d.Strict = true
	d.CharsetReader = charsetReader
	return &xmlStream{d: d}
}

// pos is the 1-based line and column the decoder has reached.
func (x *xmlStream) pos() (int, int) {
	line, col := x.d.InputPos()
	return max(line, 1), max(col, 1)
}

// err words a decoding error with its position.
func (x *xmlStream) err(err error) error {
	var fe *core.Error
	if errors.As(err, &fe) {
		return err // from the reader, such as LimitReader's
	}
	line, col := x.pos()
	var se *xml.SyntaxError
	switch {
	case errors.As(err, &se):
		if se.Line != line {
			col = 1
		}
		return core.PosErrorf(core.Invalid, max(se.Line, 1), col, "malformed XML: %s", se.Msg)
	case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
		return core.PosErrorf(core.Invalid, line, col, "malformed XML: the file ends inside an element")
	case strings.Contains(err.Error(), "charset"):
		// encoding/xml words an unknown charset with our own message
		// inside its own; keep ours.
		msg := err.Error()
		if i := strings.Index(msg, "the XML declares"); i >= 0 {
			msg = msg[i:]
		}
		return core.PosErrorf(core.Invalid, line, col, "%s", msg)
	}
	return core.PosErrorf(core.Invalid, line, col, "malformed XML: %v", err)
}

// next returns the next token; io.EOF at the end. A DOCTYPE (which could
// declare entities) is refused: no test tool writes one.
func (x *xmlStream) next() (xml.Token, error) {
	tok, err := x.d.Token()
	if errors.Is(err, io.EOF) {
		return nil, io.EOF
	}
	if err != nil {
		return nil, x.err(err)
	}
	if _, ok := tok.(xml.Directive); ok {
		line, col := x.pos()
		return nil, core.PosErrorf(core.Invalid, line, col, "a test report has no <!DOCTYPE> or other directive")
	}
	return tok, nil
}

// skip passes over the rest of the element just started.
func (x *xmlStream) skip() error {
	if err := x.d.Skip(); err != nil {
		return x.err(err)
	}
	return nil
}
