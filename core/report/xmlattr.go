package report

import "io"

// attrNormalizer applies XML 1.0's attribute-value normalization (section
// 3.3.3) to the bytes on their way to encoding/xml, which leaves it undone
// (golang/go#20614): in an attribute value, a literal tab, carriage return
// or line feed becomes a space, and a CR LF pair one space, while a
// character reference (&#10;) keeps its character, since the decoder
// resolves it after this. A test named across a line break then has the
// name its other reports give it.
//
// It follows the markup byte by byte, with no look-ahead: text, a tag, a
// quoted attribute value, a comment, a CDATA section, a processing
// instruction. The XML it passes on is the same length or shorter (a CR LF
// in a value loses its LF), so positions in errors stay on the same line.
type attrNormalizer struct {
	r     io.Reader
	state attrState
	quote byte // the quote of the value being read
	run   int  // '-' or ']' seen in a row, to end a comment or CDATA section
	cr    bool // the last byte of a value was a CR
}

type attrState uint8

const (
	inText    attrState = iota
	afterLT             // "<"
	afterBang           // "<!"
	afterDash           // "<!-"
	inTag               // inside an element's tag or a declaration
	inValue             // inside a quoted attribute value
	inComment           // "<!--" until "-->"
	inCDATA             // "<![" until "]]>"
	inPI                // "<?" until "?>"
)

func (a *attrNormalizer) Read(p []byte) (int, error) {
	for {
		n, err := a.normalize(p)
		if n > 0 || err != nil || len(p) == 0 {
			return n, err
		}
	}
}

// normalize reads once into p and normalizes what it read in place.
func (a *attrNormalizer) normalize(p []byte) (int, error) {
	n, err := a.r.Read(p)
	w := 0
	for _, c := range p[:n] {
		switch a.state {
		case inText:
			if c == '<' {
				a.state = afterLT
			}
		case afterLT:
			a.state, a.run = markup(c, '!', afterBang, '?', inPI), 0
		case afterBang:
			a.state, a.run = markup(c, '-', afterDash, '[', inCDATA), 0
		case afterDash:
			a.state, a.run = inTag, 0
			if c == '-' {
				a.state = inComment
			}
		case inTag:
			switch c {
			case '"', '\'':
				a.state, a.quote, a.cr = inValue, c, false
			case '>':
				a.state = inText
			}
		case inValue:
			switch {
			case c == a.quote:
				a.state = inTag
			case c == '\n' && a.cr:
				a.cr = false
				continue // the LF of a CR LF: the CR is its space already
			case c == '\t' || c == '\n' || c == '\r':
				a.cr = c == '\r'
				p[w] = ' '
				w++
				continue
			}
			a.cr = false
		case inComment, inCDATA, inPI:
			end := byte('-')
			switch a.state {
			case inCDATA:
				end = ']'
			case inPI:
				end = '?'
			}
			switch {
			case c == end:
				a.run++
			case c == '>' && (a.run >= 2 || a.state == inPI && a.run >= 1):
				a.state = inText
				fallthrough
			default:
				a.run = 0
			}
		}
		p[w] = c
		w++
	}
	return w, err
}

// markup is the state after c, which follows "<" or "<!": s1 after c1, s2
// after c2, else a tag's (an element's or a declaration's).
func markup(c, c1 byte, s1 attrState, c2 byte, s2 attrState) attrState {
	switch c {
	case c1:
		return s1
	case c2:
		return s2
	}
	return inTag
}
