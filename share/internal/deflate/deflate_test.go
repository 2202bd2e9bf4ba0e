package deflate

import (
	"bytes"
	"compress/flate"
	"fmt"
	"io"
	"math/rand/v2"
	"strings"
	"testing"
)

// The expected bytes are compress/flate's at BestCompression, from a fresh
// writer for every input.

func stdDeflate(t testing.TB, in []byte) []byte {
	var b bytes.Buffer
	w, err := flate.NewWriter(&b, flate.BestCompression)
	if err != nil {
		t.Fatal(err)
	}
	w.Write(in)
	w.Close()
	return b.Bytes()
}

// compress writes in to w after a Reset, in chunks of chunk bytes (all at
// once when chunk <= 0).
func compress(w *Writer, in []byte, chunk int) []byte {
	var b bytes.Buffer
	w.Reset(&b)
	for len(in) > 0 {
		n := len(in)
		if chunk > 0 {
			n = min(n, chunk)
		}
		w.Write(in[:n])
		in = in[n:]
	}
	w.Close()
	return b.Bytes()
}

// inputs are texts of every kind a compressor treats differently: empty,
// tiny, JSON as share links hold it, text with long and short repeats, runs
// of one byte (matches of the longest length), random bytes (stored
// blocks), and sizes past the 32 KB window and the 64 KB the window slides
// at, and past a block's 16,384 tokens.
func inputs() map[string][]byte {
	rng := rand.New(rand.NewPCG(1, 1))
	var js strings.Builder
	js.WriteString(`{"v":1,"baseline":{"scenarios":[`)
	for i := range 400 {
		fmt.Fprintf(&js, `{"id":"scenario-%03d","passed":%d,"total":20},`, i, rng.IntN(21))
	}
	js.WriteString(`{"id":"x","passed":1,"total":1}],"rows":8000,"duplicates":0}}`)
	random := func(n int) []byte {
		b := make([]byte, n)
		for i := range b {
			b[i] = byte(rng.Uint32())
		}
		return b
	}
	words := func(n int) []byte {
		ws := []string{"flake", "gate", "run", "pass", "fail", "the", "a", "scenario", "\n", "  "}
		var b bytes.Buffer
		for b.Len() < n {
			b.WriteString(ws[rng.IntN(len(ws))])
		}
		return b.Bytes()[:n]
	}
	return map[string][]byte{
		"empty":        {},
		"one byte":     {'x'},
		"three bytes":  []byte("abc"),
		"json":         []byte(js.String()),
		"one run":      bytes.Repeat([]byte{'a'}, 70000),
		"random small": random(300),
		"random 100K":  random(100000),
		"words 10K":    words(10000),
		"words 200K":   words(200000),
		"mixed":        append(append(words(40000), random(30000)...), words(50000)...),
	}
}

// TestSameBytes: one writer, reused on every input many times over, in one
// piece and in chunks, gives compress/flate's bytes each time.
func TestSameBytes(t *testing.T) {
	w := NewWriter(nil)
	in := inputs()
	for round := range 3 {
		for name, b := range in {
			want := stdDeflate(t, b)
			for _, chunk := range []int{0, 1000, 7, 65536} {
				if chunk == 7 && len(b) > 20000 {
					continue // byte-sized writes of large inputs are slow, and the 1000 covers them
				}
				if got := compress(w, b, chunk); !bytes.Equal(got, want) {
					t.Fatalf("round %d, %s (%d bytes) in chunks of %d: %d bytes, compress/flate %d", round, name, len(b), chunk, len(got), len(want))
				}
			}
		}
	}
}

// TestResetPastTheOffsetLimit: when moving the offset would pass the
// limit compress/flate rebases at, Reset clears the tables instead; the
// bytes stay the same on both sides of that point.
func TestResetPastTheOffsetLimit(t *testing.T) {
	w := NewWriter(nil)
	in := inputs()
	for _, start := range []int{maxHashOffset - 200000, maxHashOffset - 70000, maxHashOffset - 10, maxHashOffset - 1} {
		compress(w, in["words 10K"], 0)
		w.d.hashOffset = start
		for _, name := range []string{"words 200K", "json", "one run", "words 10K", "json"} {
			if got, want := compress(w, in[name], 0), stdDeflate(t, in[name]); !bytes.Equal(got, want) {
				t.Fatalf("offset from %d, %s: not compress/flate's bytes (offset now %d)", start, name, w.d.hashOffset)
			}
		}
		if w.d.hashOffset > maxHashOffset {
			t.Fatalf("offset %d past the limit", w.d.hashOffset)
		}
	}
}

// TestMatchLen: the 8-byte comparison finds the first differing byte, as
// the byte loop it replaces does.
func TestMatchLen(t *testing.T) {
	rng := rand.New(rand.NewPCG(2, 2))
	for range 20000 {
		n := rng.IntN(300)
		a := make([]byte, n)
		for i := range a {
			a[i] = byte(rng.IntN(2))
		}
		b := append([]byte(nil), a...)
		if n > 0 && rng.IntN(4) > 0 {
			b[rng.IntN(n)] ^= 1
		}
		max := rng.IntN(n + 1)
		want := max
		for i := range max {
			if a[i] != b[i] {
				want = i
				break
			}
		}
		if got := matchLen(a, b, max); got != want {
			t.Fatalf("matchLen(%v, %v, %d) = %d, want %d", a, b, max, got, want)
		}
	}
}

// FuzzSameBytes: any input, written once or in two pieces, to a reused
// writer, gives compress/flate's bytes.
func FuzzSameBytes(f *testing.F) {
	for _, b := range inputs() {
		if len(b) < 20000 {
			f.Add(b, uint16(0))
		}
	}
	w := NewWriter(nil)
	f.Fuzz(func(t *testing.T, b []byte, split uint16) {
		want := stdDeflate(t, b)
		if got := compress(w, b, int(split)); !bytes.Equal(got, want) {
			t.Fatalf("%d bytes in chunks of %d: not compress/flate's bytes", len(b), split)
		}
	})
}

// BenchmarkDeflate: a share link's JSON of 400 scenarios, on a reused
// writer, here and in compress/flate (its peer).
func BenchmarkDeflate(b *testing.B) {
	in := inputs()["json"]
	std, _ := flate.NewWriter(nil, flate.BestCompression)
	for _, c := range []struct {
		name string
		w    interface {
			io.WriteCloser
			Reset(io.Writer)
		}
	}{{"deflate", NewWriter(nil)}, {"compress/flate", std}} {
		b.Run(c.name, func(b *testing.B) {
			var out bytes.Buffer
			for b.Loop() {
				out.Reset()
				c.w.Reset(&out)
				c.w.Write(in)
				c.w.Close()
			}
		})
	}
}
