package aa

import (
	"encoding/binary"
	"math/bits"
	"unicode/utf8"

	"github.com/flakegate/flakegate/core"
)

// fastLines reads, straight from the reader's buffer, the complete lines
// that need none of the quoting rules, and leaves the reader at the first
// line it does not take: one with a quote, or one not wholly in the buffer.
// Each line it takes is read exactly as readLine and fastRow read it (line
// ends, blank lines, the fields, the errors); it only finds the commas and
// line ends eight bytes at a time and copies nothing, so a row costs its
// scenario's lookup and a few instructions per byte.
func (p *aaParser) fastLines() error {
	buf, _ := p.br.Peek(p.br.Buffered())
	done := 0 // the bytes of the lines taken
	defer func() { p.br.Discard(done) }()
	need, role := p.need, p.role
	var f [3][]byte
	var off [3]int // where each needed field starts in its line
	line, field, idx := 0, 0, 0
	for k := 0; k+8 <= len(buf); k += 8 {
		w := binary.LittleEndian.Uint64(buf[k:])
		m := zeroBytes(w^(0x0101010101010101*',')) | zeroBytes(w^(0x0101010101010101*'\n')) |
			zeroBytes(w^(0x0101010101010101*'"'))
		for ; m != 0; m &= m - 1 {
			at := k + bits.TrailingZeros64(m)>>3
			switch buf[at] {
			case ',':
				if idx < need {
					if r := role[idx]; r >= 0 {
						f[r], off[r] = buf[field:at], field-line
					}
					idx++
				}
				field = at + 1
			case '"':
				return nil // the general reader takes this line
			default: // '\n'
				end := at
				if end > line && buf[end-1] == '\r' {
					end--
				}
				if idx < need {
					if r := role[idx]; r >= 0 {
						f[r], off[r] = buf[field:end], field-line
					}
					idx++
				}
				l := buf[line:end]
				p.line++
				switch {
				case idx == need:
					if bad, msg := p.addRow(f[aaScenario], f[aaRun], f[aaPassed]); bad >= 0 {
						return p.rowError(l, off[bad], msg)
					}
				case !aaBlank(l):
					return p.shortRow(idx, utf8.RuneCount(l)+1)
				}
				line, field, idx = at+1, at+1, 0
				done = line
			}
		}
	}
	return nil
}

// zeroBytes has the high bit of each byte of x that is zero set, and no
// other bit (no carry crosses a byte).
func zeroBytes(x uint64) uint64 {
	const low7 = 0x7f7f7f7f7f7f7f7f
	return ^((x&low7 + low7) | x | low7)
}

// rowError is the error addRow's refusal msg of the field starting at byte
// off of line l makes.
func (p *aaParser) rowError(l []byte, off int, msg string) error {
	return core.PosErrorf(p.kind(), p.line, utf8.RuneCount(l[:off])+1, "%s", msg)
}
