package main

import (
	"testing"
)

// uleb writes n as unsigned LEB128.
func uleb(n int) []byte {
	var b []byte
	for {
		c := byte(n & 0x7f)
		n >>= 7
		if n == 0 {
			return append(b, c)
		}
		b = append(b, c|0x80)
	}
}

func sec(id byte, body []byte) []byte {
	return append(append([]byte{id}, uleb(len(body))...), body...)
}

func name(s string) []byte { return append(uleb(len(s)), s...) }

// A module written by hand from the WebAssembly binary format's
// specification: one imported function, two defined ones of 3 and 130
// body bytes, their names, and two data segments.
func handModule() []byte {
	imports := append(uleb(1), name("gojs")...)
	imports = append(imports, name("runtime.wasmExit")...)
	imports = append(imports, 0, 0) // function of type 0
	body1 := []byte{0, 0x01, 0x0b}  // no locals, nop, end
	body2 := make([]byte, 130)
	code := append(uleb(2), uleb(len(body1))...)
	code = append(code, body1...)
	code = append(code, uleb(len(body2))...)
	code = append(code, body2...)
	names := uleb(2)
	names = append(append(names, uleb(1)...), name("github.com/a/b.(*T).M")...)
	names = append(append(names, uleb(2)...), name("type:.eq.[2]string")...)
	nameSec := append(name("name"), sec(1, names)...)
	data := uleb(2)
	data = append(data, 0, 0x41, 0x80, 0x01, 0x0b) // active, i32.const 128
	data = append(data, name("hello")...)
	data = append(data, 0, 0x41, 0x10, 0x0b) // i32.const 16
	data = append(data, name("ab")...)
	m := []byte("\x00asm\x01\x00\x00\x00")
	m = append(m, sec(2, imports)...)
	m = append(m, sec(10, code)...)
	m = append(m, sec(11, data)...)
	m = append(m, sec(0, nameSec)...)
	return m
}

func TestParseHandModule(t *testing.T) {
	b := handModule()
	m, err := parse(b)
	if err != nil {
		t.Fatal(err)
	}
	packages["github.com_a_b"] = "github.com/a/b"
	defer delete(packages, "github.com_a_b")
	want := []fn{{"github.com_a_b.__T_.M", 3}, {"type_.eq._2_string", 130}}
	if len(m.funcs) != 2 {
		t.Fatalf("funcs = %v, want %v", m.funcs, want)
	}
	for i, f := range m.funcs {
		// The linker writes [^\w.] as _; the hand module keeps the
		// Go spelling, so compare the sizes and the packages.
		if f.size != want[i].size || packageOf(mangle.ReplaceAllString(f.name, "_")) != packageOf(want[i].name) {
			t.Errorf("func %d = %+v, want %+v", i, f, want[i])
		}
	}
	if m.codeSize() != 133 || m.size != len(b) {
		t.Errorf("code %d B, module %d B; want 133 and %d", m.codeSize(), m.size, len(b))
	}
	if len(m.segments) != 2 || m.segments[0].offset != 16 || m.segments[1].offset != 128 || string(m.segments[1].data) != "hello" {
		t.Errorf("segments = %+v, want ab at 16 and hello at 128", m.segments)
	}
	if got := m.stored(17, 130); got != 3 { // "b", "he"
		t.Errorf("stored(17, 130) = %d, want 3", got)
	}
	total := 0
	for _, s := range m.sections {
		total += s.size
	}
	if total != len(b)-8 {
		t.Errorf("sections add up to %d B, want %d", total, len(b)-8)
	}
}

func TestPackageOf(t *testing.T) {
	packages["github.com_a_b"] = "github.com/a/b"
	packages["github.com_a_b_c"] = "github.com/a/b/c"
	packages["encoding_json"] = "encoding/json"
	defer func() {
		delete(packages, "github.com_a_b")
		delete(packages, "github.com_a_b_c")
		delete(packages, "encoding_json")
	}()
	for name, want := range map[string]string{
		"github.com_a_b.__T_.M":              "github.com/a/b",
		"github.com_a_b_c.F":                 "github.com/a/b/c",
		"github.com_a_b_c.F.func1":           "github.com/a/b/c",
		"encoding_json.__decodeState_.value": "encoding/json",
		"type_.eq.github.com_a_b.T":          "type:",
		"runtime.mallocgc":                   "runtime", // not in the map: up to the first dot
		"wasm_export_run":                    "(wasm)",
		"":                                   "(unnamed)",
	} {
		if got := packageOf(name); got != want {
			t.Errorf("packageOf(%q) = %q, want %q", name, got, want)
		}
	}
}

// Whatever the bytes, parse returns an error or a module, and never
// panics; what it reads of a module stays within the bytes.
func FuzzParse(f *testing.F) {
	f.Add(handModule())
	f.Add([]byte("\x00asm\x01\x00\x00\x00"))
	f.Fuzz(func(t *testing.T, b []byte) {
		m, err := parse(b)
		if err != nil {
			return
		}
		if m.codeSize() > len(b) {
			t.Fatalf("code %d B in a %d B module", m.codeSize(), len(b))
		}
		m.dataParts()
	})
}
