package main

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"sort"
)

// module is what wasmsize reads of a WebAssembly binary.
type module struct {
	size     int
	sections []section
	funcs    []fn      // defined functions, in index order
	segments []segment // active data segments, by address
}

type section struct {
	name string // "code", "data", "name", … (custom sections by their name)
	size int    // bytes including the section's header
}

type fn struct {
	name string // Go's symbol name, from the name section ("" without one)
	size int    // bytes of its body in the code section
}

type segment struct {
	offset uint32 // address in linear memory
	data   []byte
}

var sectionNames = []string{"custom", "type", "import", "function", "table", "memory", "global", "export", "start", "element", "code", "data", "datacount"}

func parse(b []byte) (*module, error) {
	if len(b) < 8 || !bytes.Equal(b[:4], []byte("\x00asm")) {
		return nil, errors.New("not a WebAssembly module")
	}
	m := &module{size: len(b)}
	r := &reader{b: b, p: 8}
	imported := 0
	names := map[int]string{}
	for r.p < len(b) {
		start := r.p
		id := r.byte()
		n := int(r.u32())
		body := &reader{b: r.bytes(n)}
		if r.err != nil {
			return nil, r.err
		}
		name := "unknown"
		if int(id) < len(sectionNames) {
			name = sectionNames[id]
		}
		switch id {
		case 0:
			name = string(body.bytes(int(body.u32())))
			if name == "name" {
				readNames(body, names)
			}
		case 2:
			imported = countImportedFuncs(body)
		case 10:
			for i, cnt := 0, int(body.u32()); i < cnt && body.err == nil; i++ {
				sz := int(body.u32())
				body.bytes(sz)
				m.funcs = append(m.funcs, fn{size: sz})
			}
		case 11:
			m.segments = readData(body)
		}
		if body.err != nil {
			return nil, fmt.Errorf("section %s: %w", name, body.err)
		}
		m.sections = append(m.sections, section{name, r.p - start})
	}
	for i := range m.funcs {
		m.funcs[i].name = names[imported+i]
	}
	return m, nil
}

func countImportedFuncs(r *reader) int {
	funcs := 0
	for i, n := 0, int(r.u32()); i < n && r.err == nil; i++ {
		r.bytes(int(r.u32())) // module
		r.bytes(int(r.u32())) // field
		switch r.byte() {
		case 0: // function: type index
			r.u32()
			funcs++
		case 1: // table: reference type, limits
			r.byte()
			limits(r)
		case 2: // memory
			limits(r)
		case 3: // global: value type, mutability
			r.byte()
			r.byte()
		}
	}
	return funcs
}

func limits(r *reader) {
	if r.byte()&1 == 1 {
		r.u32()
	}
	r.u32()
}

// readNames reads the function names subsection (id 1).
func readNames(r *reader, names map[int]string) {
	for r.p < len(r.b) && r.err == nil {
		id := r.byte()
		sub := &reader{b: r.bytes(int(r.u32()))}
		if id != 1 {
			continue
		}
		for i, n := 0, int(sub.u32()); i < n && sub.err == nil; i++ {
			idx := int(sub.u32())
			names[idx] = string(sub.bytes(int(sub.u32())))
		}
	}
}

func readData(r *reader) []segment {
	var segs []segment
	for i, n := 0, int(r.u32()); i < n && r.err == nil; i++ {
		flags := r.u32()
		var off uint32
		if flags != 1 { // active: (memory index,) i32.const offset, end
			if flags == 2 {
				r.u32()
			}
			if r.byte() != 0x41 {
				r.err = errors.New("data segment offset is not an i32.const")
				break
			}
			off = uint32(r.s32())
			r.byte()
		}
		data := r.bytes(int(r.u32()))
		if flags != 1 {
			segs = append(segs, segment{off, data})
		}
	}
	sort.Slice(segs, func(i, j int) bool { return segs[i].offset < segs[j].offset })
	return segs
}

func (m *module) codeSize() int {
	t := 0
	for _, f := range m.funcs {
		t += f.size
	}
	return t
}

// word reads the 8-byte little-endian word at addr (0 in a gap).
func (m *module) word(addr uint64) uint64 {
	var buf [8]byte
	for _, s := range m.segments {
		lo, hi := uint64(s.offset), uint64(s.offset)+uint64(len(s.data))
		for i := uint64(0); i < 8; i++ {
			if a := addr + i; a >= lo && a < hi {
				buf[i] = s.data[a-lo]
			}
		}
	}
	return binary.LittleEndian.Uint64(buf[:])
}

// stored counts the data section's bytes that lie in [lo, hi).
func (m *module) stored(lo, hi uint64) int {
	n := 0
	for _, s := range m.segments {
		a, b := max(lo, uint64(s.offset)), min(hi, uint64(s.offset)+uint64(len(s.data)))
		if b > a {
			n += int(b - a)
		}
	}
	return n
}

type part struct {
	name string
	size int
}

// dataParts splits the data section at the boundaries recorded in the
// runtime's moduledata (runtime/symtab.go), found through the PC table's
// header it points to.
func (m *module) dataParts() ([]part, error) {
	hdr, ok := uint64(0), false
	for _, s := range m.segments {
		if i := bytes.Index(s.data, []byte{0xf1, 0xff, 0xff, 0xff, 0, 0, 1, 8}); i >= 0 {
			hdr, ok = uint64(s.offset)+uint64(i), true
			break
		}
	}
	if !ok {
		return nil, errors.New("no Go 1.20+ PC table header found")
	}
	funcnames := hdr + m.word(hdr+32)
	md, ok := uint64(0), false
	for _, s := range m.segments {
		for i := 0; i+16 <= len(s.data); i += 8 {
			if binary.LittleEndian.Uint64(s.data[i:]) == hdr && binary.LittleEndian.Uint64(s.data[i+8:]) == funcnames {
				md, ok = uint64(s.offset)+uint64(i), true
				break
			}
		}
		if ok {
			break
		}
	}
	if !ok {
		return nil, errors.New("no runtime moduledata found")
	}
	f := func(i int) uint64 { return m.word(md + 8*uint64(i)) }
	marks := map[uint64]string{
		f(39): "rodata: strings, constant tables",
		f(37): "type data",
		f(38): "after the types",
		f(40): "go:func.* (function metadata)",
		f(45): "typelinks",
		f(48): "itablinks",
		f(0):  "pclntab: header",
		f(1):  "pclntab: function names",
		f(4):  "pclntab: compilation units",
		f(7):  "pclntab: file names",
		f(10): "pclntab: pc-value tables",
		f(13): "pclntab: function records",
		f(41): "after pclntab",
		f(24): "noptrdata: variables without pointers",
		f(26): "data: variables with pointers",
		f(27): "after data",
	}
	if f(19) != 0 {
		marks[f(19)] = "findfunctab"
	}
	addrs := make([]uint64, 0, len(marks))
	for a := range marks {
		addrs = append(addrs, a)
	}
	sort.Slice(addrs, func(i, j int) bool { return addrs[i] < addrs[j] })
	parts := []part{{"before rodata", m.stored(0, addrs[0])}}
	for i, a := range addrs {
		hi := uint64(1 << 40)
		if i+1 < len(addrs) {
			hi = addrs[i+1]
		}
		parts = append(parts, part{fmt.Sprintf("%s (%#x)", marks[a], a), m.stored(a, hi)})
	}
	return parts, nil
}

// reader reads a module's LEB128 numbers and byte strings; the first
// error sticks and later reads return zeros.
type reader struct {
	b   []byte
	p   int
	err error
}

func (r *reader) byte() byte {
	if r.err != nil || r.p >= len(r.b) {
		r.fail()
		return 0
	}
	r.p++
	return r.b[r.p-1]
}

func (r *reader) fail() {
	if r.err == nil {
		r.err = fmt.Errorf("truncated at byte %d", r.p)
	}
}

func (r *reader) bytes(n int) []byte {
	if r.err != nil || n < 0 || n > len(r.b)-r.p {
		r.fail()
		return nil
	}
	r.p += n
	return r.b[r.p-n : r.p]
}

func (r *reader) u32() uint32 {
	var v uint32
	for shift := uint(0); shift < 35; shift += 7 {
		c := r.byte()
		v |= uint32(c&0x7f) << shift
		if c&0x80 == 0 {
			break
		}
	}
	return v
}

func (r *reader) s32() int32 {
	var v int64
	var shift uint
	var c byte
	for shift < 35 {
		c = r.byte()
		v |= int64(c&0x7f) << shift
		shift += 7
		if c&0x80 == 0 {
			break
		}
	}
	if shift < 64 && c&0x40 != 0 {
		v |= -1 << shift
	}
	return int32(v)
}
