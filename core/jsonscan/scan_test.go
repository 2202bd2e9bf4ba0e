package jsonscan

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
	"unicode/utf8"
)

// tokens walks one JSON text with the scanner and writes its tokens, one a
// line: strings quoted by %q, numbers as written, delimiters as themselves.
func tokens(b []byte) (string, error) {
	var s Scanner
	s.Reset(b, 1, "text")
	return scanTokens(&s)
}

// scanTokens is tokens on a scanner already given its text.
func scanTokens(s *Scanner) (string, error) {
	var out strings.Builder
	var value func() error
	value = func() error {
		k, err := s.Kind()
		if err != nil {
			return err
		}
		switch k {
		case Object:
			out.WriteString("{\n")
			err := s.Object(func(key []byte) error {
				fmt.Fprintf(&out, "%q\n", key)
				return value()
			})
			out.WriteString("}\n")
			return err
		case Array:
			out.WriteString("[\n")
			err := s.Array(func(int) error { return value() })
			out.WriteString("]\n")
			return err
		case String:
			v, err := s.String()
			fmt.Fprintf(&out, "%q\n", v)
			return err
		case Number:
			v, err := s.Number()
			fmt.Fprintf(&out, "%s\n", v)
			return err
		case Null:
			if !s.Null() {
				return s.literal("null")
			}
			out.WriteString("null\n")
			return nil
		case True, False:
			out.WriteString(k.String() + "\n")
			return s.literal(k.String())
		}
		return s.unexpected("a value")
	}
	if err := value(); err != nil {
		return "", err
	}
	return out.String(), s.End()
}

// stdTokens is tokens by encoding/json's Decoder (the reference), which
// also reports whether a key repeats within an object.
func stdTokens(b []byte) (toks string, repeated bool, err error) {
	if !json.Valid(b) { // one value, and nothing after it
		var v any
		return "", false, json.Unmarshal(b, &v)
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var out strings.Builder
	type frame struct {
		obj  bool
		keys map[string]bool
		key  bool // the next string is a key
	}
	var stack []frame
	for {
		tok, err := dec.Token()
		if err != nil {
			if err.Error() == "EOF" && len(stack) == 0 && out.Len() > 0 {
				return out.String(), repeated, nil
			}
			return "", repeated, err
		}
		top := len(stack) - 1
		isKey := top >= 0 && stack[top].obj && stack[top].key
		if top >= 0 && stack[top].obj {
			stack[top].key = !stack[top].key
		}
		switch v := tok.(type) {
		case json.Delim:
			fmt.Fprintf(&out, "%c\n", v)
			switch v {
			case '{':
				stack = append(stack, frame{obj: true, keys: map[string]bool{}, key: true})
			case '[':
				stack = append(stack, frame{})
			default:
				stack = stack[:top]
				if top > 0 && stack[top-1].obj {
					stack[top-1].key = true
				}
			}
			if v == '{' || v == '[' {
				continue
			}
		case string:
			if isKey {
				repeated = repeated || stack[top].keys[v]
				stack[top].keys[v] = true
			}
			fmt.Fprintf(&out, "%q\n", v)
		case json.Number:
			fmt.Fprintf(&out, "%s\n", v)
		case bool:
			fmt.Fprintf(&out, "%t\n", v)
		case nil:
			out.WriteString("null\n")
		}
	}
}

// loneSurrogate reports whether b has a \u escape of half a surrogate pair
// (encoding/json reads it as U+FFFD; the scanner refuses it).
func loneSurrogate(b []byte) bool {
	var v any
	if json.Unmarshal(b, &v) != nil {
		return false
	}
	out, err := json.Marshal(v)
	if err != nil {
		return false
	}
	lower := bytes.ToLower(b)
	replacement := []byte("\uFFFD")
	return bytes.Count(out, replacement) > bytes.Count(b, replacement)+bytes.Count(lower, []byte(`\ufffd`))
}

var seeds = []string{
	`{}`, `[]`, `""`, `0`, `-0.5e+3`, `1E-2`, `true`, `false`, `null`, ` { "a" : [ 1 , 2 ] } `,
	`{"Time":"2026-12-01T20:20:01.78Z","Action":"output","Package":"p","Test":"T","Output":"a\"b\n"}`,
	`{"a":{"b":[{"c":1},{"c":2,"c":3}]}}`, `{"a":1,"a":2}`, `{"a":1,"A":2}`,
	`"\u00e9\ud834\udd1e\/\b\f\n\r\t"`, `"\ud800"`, `"\udc00\ud800"`, "\"\xff\"", "\"é\xe9\"",
	`{"a":01}`, `{"a":1.}`, `[1,]`, `{"a":1,}`, `{"a" 1}`, `[1 2]`, `"abc`, `{"a":tru}`, `nul`, `-`, `1e`,
	`{"v":1} x`, "\"a\x01\"", `"\q"`, `"\u12"`, `[[[[[[]]]]]]`,
	`{"k0":0,"k1":1,"k2":2,"k3":3,"k4":4,"k5":5,"k6":6,"k7":7,"k8":8,"k9":9,"k10":0,"k11":1,"k12":2,"k13":3,"k14":4,"k15":5,"k16":6,"k17":7,"k3":8}`,
}

// FuzzScanner holds the scanner to encoding/json: whatever it accepts,
// encoding/json accepts with the same tokens; whatever encoding/json
// accepts, it accepts too unless a key repeats, a string is not UTF-8 or a
// \u escape is a lone surrogate, the three ways it is stricter.
func FuzzScanner(f *testing.F) {
	for _, s := range seeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		got, err := tokens(b)
		want, repeated, stdErr := stdTokens(b)
		switch {
		case err == nil && stdErr != nil:
			t.Fatalf("accepted %q, which encoding/json refuses: %v", b, stdErr)
		case err == nil && repeated:
			t.Fatalf("accepted %q, whose object repeats a key", b)
		case err == nil && got != want:
			t.Fatalf("%q: tokens\n%s\nencoding/json\n%s", b, got, want)
		case err != nil && stdErr == nil && !repeated && utf8.Valid(b) && !loneSurrogate(b):
			t.Fatalf("refused %q (%v), which encoding/json reads", b, err)
		}
		if err == nil && len(b) <= 512 {
			// Every beginning of a whole text is whole too, or a text
			// that ends too soon (Short): what a line cut short gives.
			for n := range len(b) {
				if _, err := tokens(b[:n]); err != nil {
					var e *Error
					if !errors.As(err, &e) || !e.Short {
						t.Fatalf("%q, the beginning of %q: %v, not marked short", b[:n], b, err)
					}
				}
			}
		}
		var e *Error
		if err != nil && (!errors.As(err, &e) || e.Line < 1 || e.Column < 1 || e.Msg == "" || strings.Contains(e.Msg, "invalid character")) {
			t.Fatalf("%q: error %#v", b, err)
		}
	})
}

// TestErrors: where each mistake is reported. Columns were counted by hand
// on the input (1-based, in characters: é is one).
func TestErrors(t *testing.T) {
	for _, c := range []struct {
		in   string
		want string
	}{
		{`{"a":1,"a":2}`, `1:8: field "a" appears twice`},
		{`{"a":{"b":[{"c":1},{"c":2,"c":3}]}}`, `1:27: a.b[1]: field "c" appears twice`},
		{"{\n  \"é\": 1,\n  \"x\": [1, 2,, 3]\n}", `3:14: x[2]: malformed JSON: a value cannot start with ','`},
		{`{"é":"ü" "x":1}`, `1:10: é: malformed JSON: want ',' or '}' after the value, found '"'`},
		{`{"a":1`, `1:7: a: malformed JSON: the text ends where ',' or '}' after the value should be (is it cut short?)`},
		{`{"a":"abc`, `1:6: a: malformed JSON: the text ends inside a string (is it cut short?)`},
		{`{"a":01}`, `1:6: a: malformed JSON: "01" is not a number`},
		{`{"a":"x\qy"}`, `1:8: a: malformed JSON: unknown escape \q in a string`},
		{`["\ud800x"]`, `1:3: [0]: a \u escape of half a UTF-16 surrogate pair, without its other half`},
		{"[\"ab\xffc\"]", `1:5: [0]: a string that is not valid UTF-8 (byte 0xff)`},
		{"[\"a\tb\"]", `1:4: [0]: malformed JSON: a control character (byte 0x09) inside a string; it must be escaped`},
		{`{"v":1} x`, `1:9: malformed JSON: 'x' after the end of the value`},
		{`[tru]`, `1:2: [0]: malformed JSON: want true`},
		{`{1:2}`, `1:2: malformed JSON: want a key in quotes, found '1'`},
		{``, `1:1: malformed JSON: the text ends where a value should be (is it cut short?)`},
	} {
		_, err := tokens([]byte(c.in))
		if err == nil || err.Error() != c.want {
			t.Errorf("%q:\n got %v\nwant %s", c.in, err, c.want)
		}
	}
}

// TestInt: whole numbers as int64; the limits are 2^63-1 and -2^63.
func TestInt(t *testing.T) {
	for _, c := range []struct {
		in   string
		want int64
		err  string
	}{
		{`0`, 0, ""}, {`-0`, 0, ""}, {`9223372036854775807`, 1<<63 - 1, ""}, {`-9223372036854775808`, -1 << 63, ""},
		{`9223372036854775808`, 0, "1:1: 9223372036854775808 does not fit in 64 bits"},
		{`1.5`, 0, "1:1: want a whole number, got 1.5"},
		{`1e0`, 0, "1:1: want a whole number, got 1e0"},
		{`"1"`, 0, `1:1: want a whole number, got "1"`},
		{`{}`, 0, `1:1: want a whole number, got an object`},
	} {
		var s Scanner
		s.Reset([]byte(c.in), 1, "text")
		n, err := s.Int()
		if c.err == "" && (err != nil || n != c.want) || c.err != "" && (err == nil || err.Error() != c.err) {
			t.Errorf("%s: got %d, %v; want %d, %q", c.in, n, err, c.want, c.err)
		}
	}
}

// TestLineOffset: a scanner over the fifth line of a file says line 5.
func TestLineOffset(t *testing.T) {
	var s Scanner
	s.Reset([]byte(`{"a":[1,true,x]}`), 5, "line")
	err := s.Skip()
	if err == nil || err.Error() != `5:14: a[2]: malformed JSON: a value cannot start with 'x'` {
		t.Fatalf("got %v", err)
	}
	// Reused for the next line, it forgets the last one's keys and path.
	s.Reset([]byte(`{"a":1}`), 6, "line")
	if err := s.Skip(); err != nil {
		t.Fatal(err)
	}
}

func TestDeep(t *testing.T) {
	deep := strings.Repeat("[", MaxDepth+1) + strings.Repeat("]", MaxDepth+1)
	var s Scanner
	s.Reset([]byte(deep), 1, "text")
	if err := s.Skip(); err == nil || !strings.Contains(err.Error(), "nested deeper than 512") {
		t.Fatalf("got %v", err)
	}
	ok := strings.Repeat("[", MaxDepth) + strings.Repeat("]", MaxDepth)
	s.Reset([]byte(ok), 1, "text")
	if err := s.Skip(); err != nil {
		t.Fatal(err)
	}
}

func TestSeeds(t *testing.T) {
	for _, in := range seeds {
		got, err := tokens([]byte(in))
		want, repeated, stdErr := stdTokens([]byte(in))
		if (err == nil) != (stdErr == nil && !repeated && utf8.ValidString(in) && !loneSurrogate([]byte(in))) || err == nil && got != want {
			t.Errorf("%q: %v / encoding/json %v, repeated %v", in, err, stdErr, repeated)
		}
	}
}

// goTestLine is a go test -json event, as the benchmarks read it.
const goTestLine = `{"Time":"2026-12-01T20:20:01.000123Z","Action":"output","Package":"example.com/big/pkg07","Test":"Test012","Output":"    big_test.go:22: checked 123 cases\n"}`

func BenchmarkScanGoTestLine(b *testing.B) {
	line := []byte(goTestLine)
	benchSkip(b, len(line), func(s *Scanner) { s.Reset(line, 1, "line") })
}

// benchSkip times Skip over a text of n bytes that reset gives the
// scanner.
func benchSkip(b *testing.B, n int, reset func(*Scanner)) {
	var s Scanner
	b.SetBytes(int64(n))
	for b.Loop() {
		reset(&s)
		if err := s.Skip(); err != nil {
			b.Fatal(err)
		}
	}
}

// TestAllowRepeats: a walk that only counts holds one key per object and
// lets a repeat pass; the path still names the member being read.
func TestAllowRepeats(t *testing.T) {
	var s Scanner
	var b strings.Builder
	b.WriteString("{")
	for i := range 10000 {
		fmt.Fprintf(&b, `"key%05d": 1, `, i)
	}
	b.WriteString(`"key00000": 2, "last": [x]}`)
	s.Reset([]byte(b.String()), 1, "text")
	s.AllowRepeats()
	err := s.Skip()
	if err == nil || !strings.HasSuffix(err.Error(), `last[0]: malformed JSON: a value cannot start with 'x'`) || cap(s.keys) > 64 {
		t.Fatalf("%v; %d bytes of keys held", err, cap(s.keys))
	}
	s.Reset([]byte(b.String()), 1, "text") // Reset ends it
	if err := s.Skip(); err == nil || !strings.HasSuffix(err.Error(), `field "key00000" appears twice`) {
		t.Fatalf("got %v", err)
	}
}

// TestAllowNonFinite: the words Python's json.dumps writes for
// float("nan"), float("inf") and float("-inf") (NaN, Infinity, -Infinity,
// exactly as CPython's json/encoder.py spells them) are numbers once
// allowed, in memory and streamed, and refused as before without it;
// anything near them stays an error.
func TestAllowNonFinite(t *testing.T) {
	text := `{"a": NaN, "b": [Infinity, -Infinity, 1.5], "c": -0}`
	want := "{\n\"a\"\nNaN\n\"b\"\n[\nInfinity\n-Infinity\n1.5\n]\n\"c\"\n-0\n}\n"
	var s Scanner
	s.Reset([]byte(text), 1, "text")
	s.AllowNonFinite()
	if got, err := scanTokens(&s); err != nil || got != want {
		t.Errorf("in memory: %q, %v; want %q", got, err, want)
	}
	s.ResetReader(iotestOneByte(text), 64, "text")
	s.AllowNonFinite()
	if got, err := scanTokens(&s); err != nil || got != want {
		t.Errorf("streamed a byte at a time: %q, %v; want %q", got, err, want)
	}
	s.Reset([]byte(text), 1, "text") // Reset forgets the permission
	if _, err := scanTokens(&s); err == nil || !strings.Contains(err.Error(), "NaN and Infinity are not JSON numbers") {
		t.Errorf("strict: %v, want the NaN error", err)
	}
	for _, bad := range []string{`[nan]`, `[Nan]`, `[Inf]`, `[-Inf]`, `[+Infinity]`, `[NaNa]`, `[-NaN]`} {
		s.Reset([]byte(bad), 1, "text")
		s.AllowNonFinite()
		if _, err := scanTokens(&s); err == nil {
			t.Errorf("%s: accepted", bad)
		}
	}
}

// iotestOneByte is a reader of text that gives one byte a read.
func iotestOneByte(text string) *oneByte { return &oneByte{s: text} }

type oneByte struct{ s string }

func (r *oneByte) Read(p []byte) (int, error) {
	if r.s == "" {
		return 0, io.EOF
	}
	if len(p) == 0 {
		return 0, nil
	}
	p[0] = r.s[0]
	r.s = r.s[1:]
	return 1, nil
}

// FuzzNonFinite holds AllowNonFinite to the strict grammar with Python's
// three words replaced: a text is read in that mode exactly when the text
// with every NaN, Infinity and -Infinity outside strings replaced by 0 is
// read strictly, with the same tokens but those words.
func FuzzNonFinite(f *testing.F) {
	for _, s := range append(seeds, `[NaN, Infinity, -Infinity]`, `{"a": NaN}`, `[Na]`, `[-Inf]`, `NaN`, `"NaN"`) {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		var s Scanner
		s.Reset(b, 1, "text")
		s.AllowNonFinite()
		got, err := scanTokens(&s)
		zeroed, words := zeroNonFinite(b)
		want, strictErr := tokens(zeroed)
		if (err == nil) != (strictErr == nil) {
			t.Fatalf("%q: python mode %v; %q strictly %v", b, err, zeroed, strictErr)
		}
		if err == nil {
			for _, w := range words {
				want = strings.Replace(want, "\n0\n", "\n"+w+"\n", 1)
				if strings.HasPrefix(want, "0\n") {
					want = w + want[1:]
				}
			}
			if got != want {
				t.Fatalf("%q: tokens\n%s\nwant\n%s", b, got, want)
			}
		}
	})
}

// zeroNonFinite replaces each NaN, Infinity and -Infinity outside a string
// with " 0 " (spaced, so that it never joins the tokens beside it),
// and lists the words in order.
func zeroNonFinite(b []byte) ([]byte, []string) {
	var out []byte
	var words []string
	in, esc := false, false
	for i := 0; i < len(b); i++ {
		c := b[i]
		if in {
			out = append(out, c)
			switch {
			case esc:
				esc = false
			case c == '\\':
				esc = true
			case c == '"':
				in = false
			}
			continue
		}
		if c == '"' {
			in = true
		}
		matched := false
		for _, w := range nonFinite {
			if strings.HasPrefix(string(b[i:]), w) {
				out, words, i, matched = append(out, " 0 "...), append(words, w), i+len(w)-1, true
				break
			}
		}
		if !matched {
			out = append(out, c)
		}
	}
	return out, words
}
