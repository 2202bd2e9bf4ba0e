package report

import (
	"cmp"
	"encoding/xml"
	"errors"
	"io"
	"iter"
	"slices"
	"strings"

	"github.com/flakegate/flakegate/core"
)

// xmlStream is an XML token stream whose errors say where, in the user's
// words: every XML reader goes through it, and through next and skip only,
// so that nesting is bounded: an element deeper than MaxXMLDepth is
// refused when its start tag is read, before encoding/xml (which keeps a
// record of every open element) or a reader builds anything for it.
type xmlStream struct {
	d     *xml.Decoder
	depth int    // elements open
	root  string // the root element's name, once walk has read it
}

// MaxXMLDepth is how deeply the elements of an XML report may nest. Test
// reports nest a few levels (testsuites, testsuite, testcase, failure; a
// suite in a suite); 256 leaves room for any tool while keeping what the
// decoder holds for open elements under a few tens of kilobytes.
const MaxXMLDepth = 256

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
// declare entities) is refused: no test tool writes one. So is an element
// nested deeper than MaxXMLDepth.
func (x *xmlStream) next() (xml.Token, error) {
	tok, err := x.d.Token()
	if errors.Is(err, io.EOF) {
		return nil, io.EOF
	}
	if err != nil {
		return nil, x.err(err)
	}
	switch tok.(type) {
	case xml.StartElement:
		if x.depth++; x.depth > MaxXMLDepth {
			line, col := x.pos()
			return nil, core.PosErrorf(core.Invalid, line, col, "XML elements nested deeper than %d: not a test report", MaxXMLDepth)
		}
	case xml.EndElement:
		x.depth--
	case xml.Directive:
		line, col := x.pos()
		return nil, core.PosErrorf(core.Invalid, line, col, "a test report has no <!DOCTYPE> or other directive")
	}
	return tok, nil
}

// tokens yields the tokens next returns, to the end of the input, and
// nothing more after an error (yielded with a nil token).
func (x *xmlStream) tokens() iter.Seq2[xml.Token, error] {
	return func(yield func(xml.Token, error) bool) {
		for {
			tok, err := x.next()
			if errors.Is(err, io.EOF) || !yield(tok, err) || err != nil {
				return
			}
		}
	}
}

// skip passes over the rest of the element just started, keeping no more
// than next does.
func (x *xmlStream) skip() error {
	for depth := x.depth; x.depth >= depth; {
		if _, err := x.next(); err != nil {
			if errors.Is(err, io.EOF) {
				return x.err(io.ErrUnexpectedEOF)
			}
			return err
		}
	}
	return nil
}

// xmlKind names a kind of XML report in the errors of walk.
type xmlKind struct {
	name  string   // with its article, as an error says it: "an NUnit report"
	empty string   // the name a file with no element is not, when other than name
	roots []string // the root elements the kind has
}

// walk reads a whole report of kind k, giving each token to each, from the
// root element's start tag on (and what comes before it, as it comes). The
// root element must be one of k.roots; x.root names it.
func (x *xmlStream) walk(k xmlKind, each func(tok xml.Token) error) error {
	for tok, err := range x.tokens() {
		if err != nil {
			return err
		}
		if t, ok := tok.(xml.StartElement); ok && x.root == "" {
			x.root = t.Name.Local
			if !slices.Contains(k.roots, x.root) {
				line, col := x.pos()
				return core.PosErrorf(core.Invalid, line, col, "not %s: the root element is <%s>, want <%s>", k.name, x.root, strings.Join(k.roots, "> or <"))
			}
		}
		if err := each(tok); err != nil {
			return err
		}
	}
	if x.root == "" {
		return core.PosErrorf(core.Invalid, 1, 1, "no XML elements: not %s", cmp.Or(k.empty, k.name))
	}
	return nil
}

// walkStarts is walk for a reader that needs the start tags only.
func (x *xmlStream) walkStarts(k xmlKind, each func(t xml.StartElement) error) error {
	return x.walk(k, func(tok xml.Token) error {
		if t, ok := tok.(xml.StartElement); ok {
			return each(t)
		}
		return nil
	})
}
