package jsonscan

import (
	"fmt"
	"reflect"
	"testing"

	"github.com/flakegate/flakegate/internal/jsonref"
)

// decodeDoc is Decode into a decDoc.
func decodeDoc(b []byte) (decDoc, error) {
	var v decDoc
	err := Decode(b, "text", &v)
	return v, err
}

// The types the tests decode into: every kind Decode takes, an embedded
// struct whose field a shallower one shadows, and fields no key reaches.
type (
	decItem struct {
		N int8   `json:"n"`
		S string `json:"s"`
	}
	DecEmbedded struct {
		E      int    `json:"e"`
		Shadow string `json:"shadow"` // shadowed by decDoc.Shadow
	}
	decDoc struct {
		DecEmbedded
		Shadow  bool             `json:"shadow"`
		I       int              `json:"i"`
		I64     int64            // untagged: its name is its key
		F       float64          `json:"f"`
		F32     float32          `json:"f32"`
		B       bool             `json:"b"`
		S       string           `json:"s,omitempty"`
		P       *decItem         `json:"p"`
		L       []decItem        `json:"l"`
		LS      []string         `json:"ls"`
		M       map[string][]int `json:"m"`
		PF      *float64         `json:"pf"`
		Skipped int              `json:"-"`
		private int
	}
)

// TestDecodeValues: texts Decode accepts, each read as the Go value written
// by hand beside it, and as encoding/json reads it.
func TestDecodeValues(t *testing.T) {
	two := 2.5
	for _, c := range []struct {
		in   string
		want decDoc
	}{
		{`{}`, decDoc{}},
		{`{"e": 7, "shadow": true, "I64": -9223372036854775808, "i": -0, "f": 1e2, "f32": 0.1}`,
			decDoc{DecEmbedded: DecEmbedded{E: 7}, Shadow: true, I64: -1 << 63, F: 100, F32: 0.1}},
		{`{"p": {"n": -128, "s": "\u00e9\ud834\udd1e"}, "l": [], "ls": ["a", ""], "m": {"x": [1], "y": null, "z": []}, "pf": 2.5}`,
			decDoc{P: &decItem{N: -128, S: "é𝄞"}, L: []decItem{}, LS: []string{"a", ""}, M: map[string][]int{"x": {1}, "y": nil, "z": {}}, PF: &two}},
		// null as a member: nil pointers, slices and maps; zero otherwise.
		{`{"e": null, "shadow": null, "i": null, "f": null, "b": null, "s": null, "p": null, "l": null, "m": null, "pf": null}`, decDoc{}},
		{` {"l": [{"n": 1}, {"s": "b"}]} `, decDoc{L: []decItem{{N: 1}, {S: "b"}}}},
	} {
		got, diff, err := jsonref.Diff(decodeDoc, []byte(c.in))
		if err != nil || diff != "" || !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s:\n got %+v (%v)\nwant %+v\n%s", c.in, got, err, c.want, diff)
		}
	}
}

// TestDecodeRefuses: each refusal's line, column and path, counted by hand
// on the text; encoding/json took the first four (keys in another case,
// null in an array), and Decode refuses them.
func TestDecodeRefuses(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{`{"I": 1}`, `1:2: unknown field "I"`},
		{`{"p": {"N": 1}}`, `1:8: p: unknown field "N"`},
		{`{"i64": 1}`, `1:2: unknown field "i64"`},
		{`{"l": [null]}`, `1:8: l[0]: malformed JSON: want an object, found 'n'`},
		{`{"ls": ["a", null]}`, `1:14: ls[1]: malformed JSON: want a string, found 'n'`},
		{`{"Skipped": 1}`, `1:2: unknown field "Skipped"`},
		{`{"private": 1}`, `1:2: unknown field "private"`},
		{`{"i": 1, "i": 2}`, `1:10: field "i" appears twice`},
		{`{"i": 1.5}`, `1:7: i: want a whole number, got 1.5`},
		{`{"i": 1e3}`, `1:7: i: want a whole number, got 1e3`},
		{`{"i": "1"}`, `1:7: i: want a whole number, got "1"`},
		{`{"I64": 9223372036854775808}`, `1:9: I64: 9223372036854775808 does not fit in 64 bits`},
		{`{"p": {"n": 128}}`, `1:13: p.n: 128 does not fit in 8 bits`},
		{`{"f": 1e400}`, `1:7: f: 1e400 is too large for a number`},
		{`{"f32": 1e39}`, `1:9: f32: 1e39 is too large for a number`},
		{`{"f": NaN}`, `1:7: f: malformed JSON: NaN and Infinity are not JSON numbers`},
		{`{"b": 1}`, `1:7: b: want true or false, got 1`},
		{`{"l": {}}`, `1:7: l: want an array, got an object`},
		{`{"m": []}`, `1:7: m: malformed JSON: want an object, found '['`},
		{`{"m": {"a": [true]}}`, `1:14: m.a[0]: want a whole number, got true`},
		{`null`, `1:1: malformed JSON: want an object, found 'n'`},
		{`{} {}`, `1:4: malformed JSON: '{' after the end of the value`},
		{"{\"s\": \"\xff\"}", `1:8: s: a string that is not valid UTF-8 (byte 0xff)`},
		{``, `1:1: malformed JSON: the text ends where an object should be (is it cut short?)`},
	} {
		var v decDoc
		err := Decode([]byte(c.in), "text", &v)
		if err == nil || err.Error() != c.want {
			t.Errorf("%s:\n got %v\nwant %s", c.in, err, c.want)
		}
	}
}

// TestDecodeFields: of two fields with one key, the shallower one wins,
// then the tagged one; two alike are neither (encoding/json's rule, whose
// reading is compared).
func TestDecodeFields(t *testing.T) {
	type A struct{ X, Y int }
	type B struct {
		X int
		Y int `json:"Y"`
	}
	type doc struct {
		A
		B
	}
	var got doc
	if err := Decode([]byte(`{"Y": 2}`), "text", &got); err != nil || got.B.Y != 2 || got.A.Y != 0 {
		t.Errorf("tagged Y: %+v, %v", got, err)
	}
	if err := Decode([]byte(`{"X": 1}`), "text", &got); err == nil || err.Error() != `1:2: unknown field "X"` {
		t.Errorf("X in both: %v", err)
	}
	if _, err := jsonref.Decode[doc]([]byte(`{"X": 1}`)); err == nil {
		t.Error("encoding/json took X, in both embedded structs")
	}
}

// TestDecodeRaw: Raw takes a value's text whole, null included, as a copy.
func TestDecodeRaw(t *testing.T) {
	in := []byte(`{"a": {"b": [1, "x"]}, "n": null}`)
	var m map[string]Raw
	if err := Decode(in, "text", &m); err != nil {
		t.Fatal(err)
	}
	in[7] = '!'
	if string(m["a"]) != `{"b": [1, "x"]}` || string(m["n"]) != "null" || len(m) != 2 {
		t.Errorf("got %q", m)
	}
}

// TestDecodeNotPointer: Decode takes a pointer; a Go type no JSON value
// fits is an error, not a panic.
func TestDecodeNotPointer(t *testing.T) {
	var u struct {
		U uint `json:"u"`
	}
	for _, c := range []struct {
		v    any
		want string
	}{
		{decDoc{}, "1:1: a JSON value is decoded through a pointer, not into jsonscan.decDoc"},
		{(*decDoc)(nil), "1:1: a JSON value is decoded through a pointer, not into *jsonscan.decDoc"},
		{&u, "1:7: u: no JSON value goes into a Go uint"},
	} {
		if err := Decode([]byte(`{"u": 1}`), "text", c.v); err == nil || err.Error() != c.want {
			t.Errorf("%T: got %v, want %s", c.v, err, c.want)
		}
	}
}

// FuzzDecode: Decode never panics; whatever it accepts, encoding/json
// (unknown fields refused) reads as the same value; and that value,
// written by encoding/json, reads back as encoding/json reads it
// (jsonref.Fuzz), which for a decDoc is itself: encoding/json leaves out
// no member of it but an empty string.
func FuzzDecode(f *testing.F) {
	var seeds [][]byte
	for _, s := range []string{
		`{"e": 7, "shadow": true, "I64": -1, "i": -0, "f": 1e2, "f32": 0.1, "b": false}`,
		`{"p": {"n": -128, "s": "\u00e9\ud834\udd1e\/\b"}, "l": [], "ls": ["a", ""], "m": {"x": [1], "y": null}, "pf": 2.5}`,
		`{"e": null, "p": null, "l": null, "m": null, "pf": null, "s": null}`,
		`{"I": 1}`, `{"l": [null]}`, `{"i": 1, "i": 2}`, `[1]`, `null`, `{"f": -0.0e-5}`,
	} {
		seeds = append(seeds, []byte(s))
	}
	jsonref.Fuzz(f, decodeDoc, seeds...)
}

// BenchmarkDecode: Decode beside encoding/json, its peer, on a list of 500
// members of the size a share link's tallies have; the figure to read is
// the ratio of the two.
func BenchmarkDecode(b *testing.B) {
	var text []byte
	text = append(text, `{"l": [`...)
	for i := range 500 {
		if i > 0 {
			text = append(text, ',')
		}
		text = fmt.Appendf(text, `{"n": %d, "s": "scenario-%d"}`, i%100, i)
	}
	text = append(text, `]}`...)
	for _, c := range []struct {
		name string
		read func([]byte) (decDoc, error)
	}{{"jsonscan", decodeDoc}, {"encoding-json", jsonref.Decode[decDoc]}} {
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(int64(len(text)))
			for b.Loop() {
				if _, err := c.read(text); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
