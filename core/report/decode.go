package report

import (
	"bufio"
	"bytes"
	"io"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// Windows tools write reports in UTF-16: XML 1.0 requires readers to accept
// it, and Windows PowerShell 5's `>` saves a go test -json stream as
// UTF-16LE with a byte order mark. Some older tools declare ISO-8859-1 or
// windows-1252 in the XML declaration. Read turns all of them into UTF-8
// before any reader sees a byte, so every reader and every error position
// works on the same text.

// utf16Order names the UTF-16 byte order of the head of a file, from its
// byte order mark or, without one, from a first character that is ASCII
// ('<' or '{' and the like) followed or preceded by a zero byte. It returns
// "" for anything else (UTF-8 included).
func utf16Order(head []byte) (order string, bom int) {
	switch {
	case bytes.HasPrefix(head, []byte{0xff, 0xfe}):
		return "le", 2
	case bytes.HasPrefix(head, []byte{0xfe, 0xff}):
		return "be", 2
	case len(head) >= 4 && head[0] != 0 && head[0] < 0x80 && head[1] == 0 && head[2] != 0 && head[3] == 0:
		return "le", 0
	case len(head) >= 4 && head[0] == 0 && head[1] != 0 && head[1] < 0x80 && head[2] == 0 && head[3] != 0:
		return "be", 0
	}
	return "", 0
}

// utf16Reader transcodes UTF-16 (order "le" or "be") to UTF-8. An unpaired
// surrogate becomes U+FFFD, as does a lone last byte.
type utf16Reader struct {
	r   *bufio.Reader
	be  bool
	out []byte // transcoded, not yet returned
	hi  rune   // a high surrogate waiting for its pair, or 0
}

func newUTF16Reader(r io.Reader, order string) *utf16Reader {
	return &utf16Reader{r: bufio.NewReaderSize(r, 32<<10), be: order == "be"}
}

func (u *utf16Reader) Read(p []byte) (int, error) {
	for len(u.out) == 0 {
		// Decode what is buffered, at least one code unit, a few KB at most.
		for first := true; first || (len(u.out) < 4096 && u.r.Buffered() >= 2); first = false {
			var pair [2]byte
			n, err := io.ReadFull(u.r, pair[:])
			if err != nil {
				if n == 1 || u.hi != 0 {
					u.hi = 0
					u.emit(utf8.RuneError)
				}
				if len(u.out) > 0 {
					break
				}
				if err == io.ErrUnexpectedEOF {
					err = io.EOF
				}
				return 0, err
			}
			u.unit(pair)
		}
	}
	n := copy(p, u.out)
	u.out = u.out[n:]
	return n, nil
}

// unit decodes one UTF-16 code unit.
func (u *utf16Reader) unit(pair [2]byte) {
	c := rune(pair[0]) | rune(pair[1])<<8
	if u.be {
		c = rune(pair[1]) | rune(pair[0])<<8
	}
	switch {
	case utf16.IsSurrogate(c) && c < 0xdc00:
		if u.hi != 0 {
			u.emit(utf8.RuneError)
		}
		u.hi = c
	case utf16.IsSurrogate(c):
		if u.hi == 0 {
			u.emit(utf8.RuneError)
		} else {
			u.emit(utf16.DecodeRune(u.hi, c))
			u.hi = 0
		}
	default:
		if u.hi != 0 {
			u.hi = 0
			u.emit(utf8.RuneError)
		}
		u.emit(c)
	}
}

func (u *utf16Reader) emit(c rune) { u.out = utf8.AppendRune(u.out, c) }

// charsetReader is the xml.Decoder's CharsetReader: the text reaching the
// decoder is UTF-8 already when the declaration says UTF-16 (Read
// transcoded it), and ISO-8859-1, US-ASCII and windows-1252 are turned into
// UTF-8 here. Other charsets are an error the JUnit reader words.
func charsetReader(label string, r io.Reader) (io.Reader, error) {
	switch strings.ToLower(strings.TrimSpace(label)) {
	case "utf-16", "utf-16le", "utf-16be", "utf16", "ucs-2":
		return r, nil
	case "iso-8859-1", "iso8859-1", "latin1", "latin-1", "l1", "us-ascii", "ascii", "iso_8859-1":
		return &singleByteReader{r: bufio.NewReader(r)}, nil
	case "windows-1252", "cp1252":
		return &singleByteReader{r: bufio.NewReader(r), cp1252: true}, nil
	}
	return nil, &unknownCharset{label}
}

type unknownCharset struct{ label string }

func (e *unknownCharset) Error() string {
	return "the XML declares the character set " + e.label + "; flakegate reads UTF-8, UTF-16, ISO-8859-1 and windows-1252"
}

// singleByteReader turns ISO-8859-1 (or windows-1252) into UTF-8.
type singleByteReader struct {
	r      *bufio.Reader
	cp1252 bool
	out    []byte
}

// cp1252High are the characters windows-1252 puts at 0x80..0x9f, where
// ISO-8859-1 has control characters (0 where windows-1252 has none).
var cp1252High = [32]rune{
	0x20ac, 0, 0x201a, 0x0192, 0x201e, 0x2026, 0x2020, 0x2021, 0x02c6, 0x2030, 0x0160, 0x2039, 0x0152, 0, 0x017d, 0,
	0, 0x2018, 0x2019, 0x201c, 0x201d, 0x2022, 0x2013, 0x2014, 0x02dc, 0x2122, 0x0161, 0x203a, 0x0153, 0, 0x017e, 0x0178,
}

func (s *singleByteReader) Read(p []byte) (int, error) {
	for len(s.out) == 0 {
		for first := true; first || (len(s.out) < 4096 && s.r.Buffered() > 0); first = false {
			b, err := s.r.ReadByte()
			if err != nil {
				if len(s.out) > 0 {
					break
				}
				return 0, err
			}
			c := rune(b)
			if s.cp1252 && b >= 0x80 && b < 0xa0 && cp1252High[b-0x80] != 0 {
				c = cp1252High[b-0x80]
			}
			s.out = utf8.AppendRune(s.out, c)
		}
	}
	n := copy(p, s.out)
	s.out = s.out[n:]
	return n, nil
}
