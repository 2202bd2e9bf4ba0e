package aa

import (
	"bytes"
	"fmt"
	"unicode/utf8"

	"github.com/flakegate/flakegate/core"
)

// fastRow handles a line without quotes: its fields are plain slices of it.
func (p *aaParser) fastRow(l []byte) error {
	var f [3][]byte
	var off [3]int
	idx, start := 0, 0
	for idx < p.need {
		j := bytes.IndexByte(l[start:], ',')
		end := len(l)
		if j >= 0 {
			end = start + j
		}
		if r := p.role[idx]; r >= 0 {
			f[r], off[r] = l[start:end], start
		}
		idx++
		if j < 0 {
			break
		}
		start = end + 1
	}
	if idx < p.need {
		return p.shortRow(idx, utf8.RuneCount(l)+1)
	}
	if bad, msg := p.addRow(f[aaScenario], f[aaRun], f[aaPassed]); bad >= 0 {
		return p.rowError(l, off[bad], msg)
	}
	return nil
}

// slowRow handles a line with quotes, which may continue on later lines.
func (p *aaParser) slowRow(l, full []byte) error {
	if err := p.record(l, full); err != nil {
		return err
	}
	if len(p.fields) < p.need {
		return p.shortRow(len(p.fields), 0)
	}
	var f [3][]byte
	var at [3]aaField
	for i, r := range p.role {
		if r >= 0 {
			at[r] = p.fields[i]
			f[r] = p.rec[at[r].start:at[r].end]
		}
	}
	if bad, msg := p.addRow(f[aaScenario], f[aaRun], f[aaPassed]); bad >= 0 {
		return core.PosErrorf(p.kind(), at[bad].line, at[bad].col, "%s", msg)
	}
	return nil
}

// shortRow is the error for a row with only n fields; col is where the line
// ends (0: after the last field parsed).
func (p *aaParser) shortRow(n, col int) error {
	if col == 0 {
		last := p.fields[len(p.fields)-1]
		col = last.col + utf8.RuneCount(p.rec[last.start:last.end])
	}
	missing := ""
	for i := n; i < p.need; i++ {
		if r := p.role[i]; r >= 0 {
			missing = aaColumns[r]
			break
		}
	}
	return core.PosErrorf(core.Invalid, p.line, col, "the row has %s but the %s column is field %d of the header", core.Nouns(n, "field"), missing, p.indexOf(missing)+1)
}

func (p *aaParser) indexOf(col string) int {
	for i, r := range p.role {
		if r >= 0 && aaColumns[r] == col {
			return i
		}
	}
	return -1
}

// record parses one RFC 4180 record starting with line l into p.rec and
// p.fields, reading more lines while a quoted field is open.
func (p *aaParser) record(l, full []byte) error {
	p.rec, p.fields = p.rec[:0], p.fields[:0]
	i, col := 0, 1
	for {
		start, fline, fcol := len(p.rec), p.line, col
		if i < len(l) && l[i] == '"' {
			i++
			col++
			for {
				j := bytes.IndexByte(l[i:], '"')
				if j < 0 {
					// The field goes on past this line, line end included.
					p.rec = append(p.rec, full[i:]...)
					if len(p.rec) > MaxLine {
						return core.PosErrorf(core.Invalid, fline, fcol, "a quoted field runs past %d bytes", MaxLine)
					}
					var err error
					l, full, err = p.lineOr(func() error {
						return core.PosErrorf(core.Invalid, fline, fcol, "a quoted field is not closed before the end of the input")
					})
					if err != nil {
						return err
					}
					i, col = 0, 1
					continue
				}
				p.rec = append(p.rec, l[i:i+j]...)
				col += utf8.RuneCount(l[i:i+j]) + 1
				i += j + 1
				if i < len(l) && l[i] == '"' { // "" stands for one quote
					p.rec = append(p.rec, '"')
					i++
					col++
					continue
				}
				break
			}
			if i < len(l) && l[i] != ',' {
				r, _ := utf8.DecodeRune(l[i:])
				return core.PosErrorf(core.Invalid, p.line, col, "unexpected %q after the closing quote of a field (a quote inside a quoted field is written twice)", r)
			}
		} else {
			end := len(l)
			if j := bytes.IndexByte(l[i:], ','); j >= 0 {
				end = i + j
			}
			f := l[i:end]
			if q := bytes.IndexByte(f, '"'); q >= 0 {
				return core.PosErrorf(core.Invalid, p.line, col+utf8.RuneCount(f[:q]), "a quote inside an unquoted field (quote the whole field and write the quote twice)")
			}
			p.rec = append(p.rec, f...)
			col += utf8.RuneCount(f)
			i = end
		}
		p.fields = append(p.fields, aaField{start, len(p.rec), fline, fcol})
		if i >= len(l) {
			return nil
		}
		i++ // the comma
		col++
	}
}

// kind is the Kind of addRow's refusal: TooLarge past a cap, else Invalid.
func (p *aaParser) kind() core.Kind {
	if p.over {
		return core.TooLarge
	}
	return core.Invalid
}

// addRow counts one row. On bad input it returns the role of the offending
// field and the message; otherwise -1.
func (p *aaParser) addRow(sc, rn, ps []byte) (int, string) {
	var pass uint32
	switch {
	case len(ps) == 1 && ps[0] == '1':
		pass = 1
	case len(ps) == 1 && ps[0] == '0':
	default:
		v, ok := aaParsePassed(ps)
		if !ok {
			shown := string(ps)
			if len(shown) > 40 {
				shown = shown[:40] + "…"
			}
			return aaPassed, fmt.Sprintf("passed must be 0, 1, true or false, found %q", shown)
		}
		pass = uint32(v)
	}

	ri := p.lastRun
	if ri < 0 || string(rn) != p.lastID {
		i, ok := p.runIdx[string(rn)]
		if !ok {
			if msg := aaCheckID(rn, "run"); msg != "" {
				return aaRun, msg
			}
			if p.lim.Runs > 0 && len(p.side.Runs) >= p.lim.Runs {
				p.over = true
				return aaRun, "more than " + core.Nouns(p.lim.Runs, "run") + "; this server reads at most that many in one file"
			}
			id := string(rn)
			i = len(p.side.Runs)
			p.runIdx[id] = i
			p.side.Runs = append(p.side.Runs, Tally{ID: id})
			p.runSets.add()
		}
		p.setLastRun(i)
		ri = i
	}

	slot := p.scens.find(sc)
	if slot < 0 {
		var msg string
		if slot, msg = p.newScenario(sc); slot < 0 {
			return aaScenario, msg
		}
	}
	p.count(slot, ri, pass)
	return -1, ""
}

// setLastRun makes run i the one the next rows are compared with.
func (p *aaParser) setLastRun(i int) {
	p.lastRun, p.lastID = i, p.side.Runs[i].ID
	p.lastX, p.lastY = aaKey([]byte(p.lastID))
}

// newScenario adds scenario sc, which the table does not have, and returns
// its slot, or -1 and why it cannot be added.
func (p *aaParser) newScenario(sc []byte) (int, string) {
	if msg := aaCheckID(sc, "scenario"); msg != "" {
		return -1, msg
	}
	if p.lim.Scenarios > 0 && p.scens.n >= p.lim.Scenarios {
		p.over = true
		return -1, "more than " + core.Nouns(p.lim.Scenarios, "scenario") + "; this server reads at most that many in one file"
	}
	return p.scens.add(sc), ""
}

// count counts a row of the scenario in slot and run ri, passed (1) or not.
func (p *aaParser) count(slot, ri int, pass uint32) {
	st := &p.scens.slots[slot]
	rt := &p.side.Runs[ri]
	if p.runSets.mark(ri, int(st.idx), p.side.Rows, p.scens.n) {
		p.side.Duplicates++
	}
	p.scens.count(st, pass)
	rt.Passed += int64(pass)
	rt.Total++
	p.side.Rows++
}
