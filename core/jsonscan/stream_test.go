package jsonscan

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
	"testing/iotest"
)

// chunks gives its text n bytes at a time (at least one), as a pipe or a
// slow network does.
type chunks struct {
	b []byte
	n int
}

func (c *chunks) Read(p []byte) (int, error) {
	if len(c.b) == 0 {
		return 0, io.EOF
	}
	k := copy(p[:min(len(p), max(c.n, 1))], c.b)
	c.b = c.b[k:]
	return k, nil
}

// streamTokens is tokens with the scanner streaming b from a reader that
// gives chunk bytes at a time, holding at most limit bytes of a token.
func streamTokens(b []byte, chunk, limit int) (string, error) {
	var s Scanner
	s.ResetReader(&chunks{b, chunk}, limit, "text")
	return scanTokens(&s)
}

// sameScan checks that streaming b gives what reading it in memory gives:
// the same tokens, or the same error at the same place with the same path.
// A limit below the text's length may refuse a long token instead; that
// refusal must name a value at least limit bytes long.
func sameScan(t *testing.T, b []byte, chunk, limit int) {
	t.Helper()
	want, wantErr := tokens(b)
	got, err := streamTokens(b, chunk, limit)
	var e *Error
	if errors.As(err, &e) && strings.HasPrefix(e.Msg, "a value longer than") {
		if limit >= len(b) {
			t.Fatalf("%q (chunks of %d, limit %d): %v, with the whole text within the limit", b, chunk, limit, err)
		}
		return
	}
	if got != want || fmt.Sprint(err) != fmt.Sprint(wantErr) {
		t.Fatalf("%q (chunks of %d, limit %d):\nstream %v\n%s\nmemory %v\n%s", b, chunk, limit, err, got, wantErr, want)
	}
	var we *Error
	if errors.As(wantErr, &we) && e != nil && e.Short != we.Short {
		t.Fatalf("%q: stream short %v, memory short %v", b, e.Short, we.Short)
	}
	// Skip passes over strings without keeping them: a stream then lets
	// go of a long string a piece at a time, and must refuse what memory
	// refuses, where memory does.
	var m, st Scanner
	m.Reset(b, 1, "text")
	st.ResetReader(&chunks{b, chunk}, limit, "text")
	wantErr = m.Skip()
	if wantErr == nil {
		wantErr = m.End()
	}
	err = st.Skip()
	if err == nil {
		err = st.End()
	}
	if errors.As(err, &e) && strings.HasPrefix(e.Msg, "a value longer than") {
		return
	}
	if fmt.Sprint(err) != fmt.Sprint(wantErr) {
		t.Fatalf("%q (chunks of %d, limit %d): Skip: stream %v, memory %v", b, chunk, limit, err, wantErr)
	}
}

// TestStreamSkipsLongString: a string of 1 MB that the reader skips goes
// through a 64-byte limit; the same string read is refused.
func TestStreamSkipsLongString(t *testing.T) {
	in := `{"keep": 1, "attachment": "` + strings.Repeat(`é\n`, 1<<18) + `", "next": "x"}`
	var s Scanner
	s.ResetReader(strings.NewReader(in), 64, "report")
	var keys []string
	err := s.Object(func(key []byte) error {
		keys = append(keys, string(key))
		return s.Skip()
	})
	if err != nil || strings.Join(keys, ",") != "keep,attachment,next" || cap(s.b) > 65 {
		t.Fatalf("%v %q, buffer %d", err, keys, cap(s.b))
	}
	s.ResetReader(strings.NewReader(in), 64, "report")
	err = s.Object(func(key []byte) error { _, err := s.Text(); return err })
	if err == nil || err.Error() != "1:10: keep: malformed JSON: want a string, found '1'" {
		t.Fatalf("got %v", err)
	}
	s.ResetReader(strings.NewReader("{"+in[12:]), 64, "report")
	err = s.Object(func(key []byte) error { _, err := s.Text(); return err })
	if err == nil || err.Error() != "1:16: attachment: a value longer than 64 bytes" {
		t.Fatalf("got %v", err)
	}
}

// FuzzStream is the differential test of the two modes: on any text,
// streaming it in chunks of any size through a buffer of any limit gives the
// tokens and the error that reading it in memory gives.
func FuzzStream(f *testing.F) {
	for i, s := range seeds {
		f.Add([]byte(s), uint8(i%5+1), uint16(i*7%30+1))
	}
	f.Add([]byte(`{"a":"`+strings.Repeat("é", 40)+`\u00e9\ud834\udd1e","b":[1e5,-0.25,NaN]}`), uint8(3), uint16(8))
	f.Add([]byte("{\n \"a\": {\"b\": [1,\n2, \"x\"], \"b\": 1}}"), uint8(1), uint16(4))
	f.Fuzz(func(t *testing.T, b []byte, chunk uint8, limit uint16) {
		sameScan(t, b, int(chunk), int(limit)+1)
		sameScan(t, b, int(chunk), len(b)+1)
	})
}

// TestStreamErrors: the table of TestErrors, streamed a byte at a time
// through the smallest buffer that holds each text's longest token, gives
// the same positions, counted by hand on the input.
func TestStreamErrors(t *testing.T) {
	for _, c := range []struct {
		in    string
		limit int
		want  string
	}{
		{`{"a":1,"a":2}`, 3, `1:8: field "a" appears twice`},
		{`{"a":{"b":[{"c":1},{"c":2,"c":3}]}}`, 3, `1:27: a.b[1]: field "c" appears twice`},
		{"{\n  \"é\": 1,\n  \"x\": [1, 2,, 3]\n}", 4, `3:14: x[2]: malformed JSON: a value cannot start with ','`},
		{`{"a":1`, 3, `1:7: a: malformed JSON: the text ends where ',' or '}' after the value should be (is it cut short?)`},
		{`{"a":"x\qy"}`, 8, `1:8: a: malformed JSON: unknown escape \q in a string`},
		{"[\"ab\xffc\"]", 8, `1:5: [0]: a string that is not valid UTF-8 (byte 0xff)`},
		{`{"v":1} x`, 3, `1:9: malformed JSON: 'x' after the end of the value`},
		{`{"v":NaN}`, 3, `1:6: v: malformed JSON: NaN and Infinity are not JSON numbers`},
		{`{"v":[-Infinity]}`, 3, `1:7: v[0]: malformed JSON: NaN and Infinity are not JSON numbers`},
		{`[Infinity]`, 3, `1:2: [0]: malformed JSON: NaN and Infinity are not JSON numbers`},
		// Too long for the limit: refused at the token's first character.
		{"{\"ok\": 1,\n \"long\": \"abcdefghijklmnop\"}", 10, `2:10: long: a value longer than 10 bytes`},
		{"[1,\n 12345678901234567890]", 10, `2:2: [1]: a value longer than 10 bytes`},
		{`["\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9"]`, 10, `1:2: [0]: a value longer than 10 bytes`},
	} {
		_, err := streamTokens([]byte(c.in), 1, c.limit)
		if err == nil || err.Error() != c.want {
			t.Errorf("%q:\n got %v\nwant %s", c.in, err, c.want)
		}
	}
}

// TestKeyErrorAfterRefill: a key the stream has let go of by the time its
// object is refused is still placed where it was (line 2, column 2).
func TestKeyErrorAfterRefill(t *testing.T) {
	in := "{\n \"big\": [" + strings.Repeat("1,\n", 2000) + "1]}"
	var s Scanner
	s.ResetReader(strings.NewReader(in), 64, "text")
	err := s.Object(func(key []byte) error {
		if err := s.Skip(); err != nil {
			return err
		}
		return s.KeyErrorf("unknown field %q", key)
	})
	if err == nil || err.Error() != `2:2: unknown field "big"` {
		t.Fatalf("got %v", err)
	}
}

// endless is an array of n numbers, made as it is read.
type endless struct{ n, i int }

func (e *endless) Read(p []byte) (int, error) {
	k := 0
	for k+8 <= len(p) && e.i < e.n {
		sep := byte(',')
		if e.i == 0 {
			sep = '['
		}
		k += copy(p[k:], []byte{sep, '1', '2', '3', '4', '.', '5', '\n'})
		e.i++
	}
	if e.i == e.n {
		if k == len(p) {
			return k, nil
		}
		p[k] = ']'
		return k + 1, io.EOF
	}
	return k, nil
}

// TestStreamBounded: 10 MB read through a 1 KB limit keeps a buffer of at
// most 1 KB, and places its last element on the line it is on: element i
// (from 0) is on line i+1, after the ',' that opens it.
func TestStreamBounded(t *testing.T) {
	const n = 1_250_000 // 8 bytes each
	var s Scanner
	s.ResetReader(&endless{n: n}, 1024, "text")
	count := 0
	err := s.Array(func(i int) error {
		count++
		if i == n-1 {
			if line, col := s.Where(s.At()); line != n || col != 2 {
				t.Errorf("last element at %d:%d, want %d:2", line, col, n)
			}
		}
		_, err := s.Number()
		return err
	})
	if err != nil || count != n || s.End() != nil {
		t.Fatalf("%d elements, %v", count, err)
	}
	if cap(s.b) > 1024 {
		t.Errorf("buffer of %d bytes, limit 1024", cap(s.b))
	}
}

// TestStreamReadError: the reader's own error comes back, wrapped with the
// place the scanner had reached.
func TestStreamReadError(t *testing.T) {
	boom := errors.New("disk gone")
	var s Scanner
	s.ResetReader(io.MultiReader(strings.NewReader(`{"a": [1, 2`), iotest.ErrReader(boom)), 100, "report")
	err := s.Skip()
	if !errors.Is(err, boom) || err.Error() != "1:12: a[1]: the report cannot be read: disk gone" {
		t.Fatalf("got %v", err)
	}
}

// TestStreamValue: Value returns a whole value from a stream, at most the
// limit long.
func TestStreamValue(t *testing.T) {
	var s Scanner
	s.ResetReader(iotest.OneByteReader(strings.NewReader(`{"a": {"b": [1, "x"]}, "c": 2}`)), 16, "text")
	var got []string
	err := s.Object(func(key []byte) error {
		v, err := s.Value()
		got = append(got, string(key)+"="+string(v))
		return err
	})
	if err != nil || strings.Join(got, " ") != `a={"b": [1, "x"]} c=2` {
		t.Fatalf("%v %q", err, got)
	}
	s.ResetReader(bytes.NewReader([]byte(`[{"a": [1, 2, 3, 4, 5, 6, 7]}]`)), 16, "text")
	err = s.Array(func(int) error { _, err := s.Value(); return err })
	if err == nil || err.Error() != "1:2: [0]: a value longer than 16 bytes" {
		t.Fatalf("got %v", err)
	}
}

// BenchmarkStream reads 1 MB of go test -json events as one stream and in
// memory: the ratio is what streaming costs.
func BenchmarkStream(b *testing.B) {
	text := []byte("[" + strings.Repeat(goTestLine+",\n", 7000) + goTestLine + "]")
	b.Run("memory", func(b *testing.B) {
		benchSkip(b, len(text), func(s *Scanner) { s.Reset(text, 1, "text") })
	})
	b.Run("stream", func(b *testing.B) {
		benchSkip(b, len(text), func(s *Scanner) {
			s.ResetReader(struct{ io.Reader }{bytes.NewReader(text)}, 1<<20, "text")
		})
	})
}
