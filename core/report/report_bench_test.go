package report

import (
	"fmt"
	"io"
	"testing"

	"github.com/flakegate/flakegate/core/ledger"
)

// goTestStream generates a go test -json stream like a large CI suite's:
// 50 packages of 40 tests, each test a run, two output lines and a pass or
// (one in 37) a fail, repeated -count times until size bytes are written.
type goTestStream struct {
	size, written int64
	buf           []byte
	i             int
}

func (g *goTestStream) Read(p []byte) (int, error) {
	for len(g.buf) == 0 {
		if g.written >= g.size {
			return 0, io.EOF
		}
		pkg, test := g.i/40%50, g.i%40
		action := "pass"
		if g.i%37 == 0 {
			action = "fail"
		}
		g.buf = fmt.Appendf(g.buf[:0], `{"Time":"2026-12-01T20:20:01.%06dZ","Action":"run","Package":"example.com/big/pkg%02d","Test":"Test%03d"}
{"Time":"2026-12-01T20:20:01.%06dZ","Action":"output","Package":"example.com/big/pkg%02d","Test":"Test%03d","Output":"=== RUN   Test%03d\n"}
{"Time":"2026-12-01T20:20:01.%06dZ","Action":"output","Package":"example.com/big/pkg%02d","Test":"Test%03d","Output":"    big_test.go:%d: checked %d cases\n"}
{"Time":"2026-12-01T20:20:01.%06dZ","Action":"%s","Package":"example.com/big/pkg%02d","Test":"Test%03d","Elapsed":0.01}
`, g.i%1000000, pkg, test, g.i%1000000, pkg, test, test, g.i%1000000, pkg, test, 10+test, g.i, g.i%1000000, action, pkg, test)
		g.i++
	}
	n := copy(p, g.buf)
	g.buf = g.buf[n:]
	g.written += int64(n)
	return n, nil
}

// BenchmarkReadGoTest reads a generated 16 MB go test -json stream; the
// 100 MB measurement with peak memory is bench/reports.
func BenchmarkReadGoTest(b *testing.B) {
	const size = 16 << 20
	b.SetBytes(size)
	b.ReportAllocs()
	for b.Loop() {
		l := ledger.New()
		if err := Read(&goTestStream{size: size}, Options{Format: FormatGoTest}, l); err != nil {
			b.Fatal(err)
		}
	}
}

func TestGoTestStreamCounts(t *testing.T) {
	g := &goTestStream{size: 1 << 20}
	l := ledger.New()
	if err := Read(g, Options{}, l); err != nil {
		t.Fatal(err)
	}
	var trials, passed int64
	for _, c := range armCounts(l, ledger.ArmBaseline) {
		trials += c.Trials
		passed += c.Passed
	}
	// Every generated test block is one trial; one in 37 fails (i = 0, 37, ...).
	if trials != int64(g.i) || trials-passed != int64((g.i+36)/37) {
		t.Fatalf("%d trials, %d passed, from %d blocks", trials, passed, g.i)
	}
}
