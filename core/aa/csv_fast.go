package aa

import (
	"bytes"
	"encoding/binary"
	"math/bits"
	"unicode/utf8"

	"github.com/flakegate/flakegate/core"
)

// aaFastFields is the most fields up to the last needed one that fastLines
// reads; a header with a needed column further right leaves every line to
// the general reader.
const aaFastFields = 15

// fastLines reads, straight from the reader's buffer, the complete lines
// that need none of the quoting rules, and leaves the reader at the first
// line it does not take: one with a quote, or one not wholly in the
// buffer (or whose line end is in its last 7 bytes). Each line it takes is read exactly as readLine and
// fastRow read it (line ends, blank lines, the fields, the errors); it only
// finds the commas and line ends eight bytes at a time and copies nothing.
//
// A row of the common kind (passed 0 or 1, the run of the row before, a
// scenario id of 1 to 16 bytes, found in its first slot) is counted here,
// with the id's key compared in two words; every other row goes through
// addRow.
func (p *aaParser) fastLines() error {
	need := p.need
	if need > aaFastFields {
		return nil
	}
	buf, _ := p.br.Peek(p.br.Buffered())
	done := 0 // the bytes of the lines taken
	defer func() { p.br.Discard(done) }()
	t, side := p.scens, p.side
	cs, cr, cp := p.col[aaScenario], p.col[aaRun], p.col[aaPassed]
	const junk = aaFastFields + 1
	// pos[0] is the byte before the line, pos[i] the separator ending its
	// field i-1 (comma, or the line end before any CR); separators past
	// the needed fields all go to pos[junk].
	var pos [junk + 1]int
	pos[0] = -1
	line, seps := 0, 0 // where the line starts; separators seen in it
	// The run of the row before, as sameRun needs it.
	var cur *aaRunSet
	var curRun *Tally
	lastLen := -1 // no run yet: no row is the previous row's run
	var lastX, lastY uint64
	reload := func() {
		if ri := p.lastRun; ri >= 0 {
			cur, curRun = &p.runSets.sets[ri], &side.Runs[ri]
			lastLen, lastX, lastY = len(p.lastID), p.lastX, p.lastY
		}
	}
	reload()
	// The general reader takes the line with the first quote and all
	// after it; the words before the quote's are read here.
	if q := bytes.IndexByte(buf, '"'); q >= 0 {
		buf = buf[:q]
	}
	for k := 0; k+8 <= len(buf); k += 8 {
		w := binary.LittleEndian.Uint64(buf[k:])
		nl := zeroBytes(w ^ (0x0101010101010101 * '\n'))
		for m := zeroBytes(w^(0x0101010101010101*',')) | nl; m != 0; m &= m - 1 {
			b := bits.TrailingZeros64(m)
			at := k + b>>3
			seps++
			if nl&(1<<b) == 0 { // a comma
				pos[min(seps, junk)] = at
				continue
			}
			end := at
			if end > line && buf[end-1] == '\r' {
				end--
			}
			pos[min(seps, junk)] = end
			p.line++
			if seps < need {
				if !aaBlank(buf[line:end]) {
					return p.shortRow(seps, utf8.RuneCount(buf[line:end])+1)
				}
			} else {
				sc, rn, ps := buf[pos[cs]+1:pos[cs+1]], buf[pos[cr]+1:pos[cr+1]], buf[pos[cp]+1:pos[cp+1]]
				n := len(sc)
				if len(ps) != 1 || ps[0]|1 != '1' || len(rn) != lastLen || len(rn) > 16 || uint(n-1) >= 16 {
					if err := p.slowFastRow(sc, rn, ps, buf[line:end], &pos); err != nil {
						return err
					}
					reload()
				} else if x, y := aaKey(rn); x != lastX || y != lastY {
					if err := p.slowFastRow(sc, rn, ps, buf[line:end], &pos); err != nil {
						return err
					}
					reload()
				} else {
					x, y := aaKey(sc)
					h := t.mix(x, y, n)
					mask := uint64(len(t.slots) - 1)
					i := h & mask
					s := &t.slots[i]
					for s.x != x || s.y != y || s.n != uint32(n) { // as lookup
						if s.n == 0 {
							i, msg := p.newScenario(sc)
							if i < 0 {
								return p.rowError(buf[line:end], pos[cs]+1-line, msg)
							}
							s = &t.slots[i]
							break
						}
						i = (i + 1) & mask
						s = &t.slots[i]
					}
					pass := uint32(ps[0] & 1)
					if si := int(s.idx); si>>6-cur.base < len(cur.w) && si>>6 >= cur.base {
						word, bit := &cur.w[si>>6-cur.base], uint64(1)<<(si&63)
						if *word&bit != 0 {
							side.Duplicates++
						}
						*word |= bit
					} else if p.runSets.markOutside(cur, si, side.Rows, t.n) {
						side.Duplicates++
					}
					t.count(s, pass)
					curRun.Passed += int64(pass)
					curRun.Total++
					side.Rows++
				}
			}
			line, seps, pos[0] = at+1, 0, at
			done = line
		}
	}
	return nil
}

// slowFastRow counts, with addRow, a row fastLines found the fields of but
// does not count itself; l is its line, pos where its fields end.
func (p *aaParser) slowFastRow(sc, rn, ps, l []byte, pos *[aaFastFields + 2]int) error {
	if bad, msg := p.addRow(sc, rn, ps); bad >= 0 {
		return p.rowError(l, pos[p.col[bad]]+1-(pos[0]+1), msg)
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
