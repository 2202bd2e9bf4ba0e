package aabench

import (
	"bytes"
	"strings"
	"sync"
	"testing"

	"github.com/flakegate/flakegate/bench/internal/proc"
	"github.com/flakegate/flakegate/core/aa"
)

var (
	bigOnce sync.Once
	bigCSV  []byte
)

func big(b *testing.B) []byte {
	bigOnce.Do(func() {
		var buf bytes.Buffer
		if err := WriteCSV(&buf, Scenarios, Runs, Seed); err != nil {
			b.Fatal(err)
		}
		bigCSV = buf.Bytes()
	})
	return bigCSV
}

// BenchmarkReadAA reads the 1,000,000-row CSV (10,000 scenarios × 100 runs).
func BenchmarkReadAA(b *testing.B) {
	data := big(b)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	b.ResetTimer()
	start := proc.CPUTime()
	for b.Loop() {
		if _, err := aa.ReadCSV(bytes.NewReader(data)); err != nil {
			b.Fatal(err)
		}
	}
	proc.ReportCPU(b, start)
}

// BenchmarkAA computes the figures of the 1,000,000-row CSV's tallies, with
// itself as the candidate.
func BenchmarkAA(b *testing.B) {
	side, err := aa.ReadCSV(bytes.NewReader(big(b)))
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	start := proc.CPUTime()
	for b.Loop() {
		if _, err := aa.Check(side, side, aa.DefaultOptions); err != nil {
			b.Fatal(err)
		}
	}
	proc.ReportCPU(b, start)
}

// The generator writes the shape it promises, deterministically.
func TestWriteCSV(t *testing.T) {
	var a, b bytes.Buffer
	if err := WriteCSV(&a, 50, 7, Seed); err != nil {
		t.Fatal(err)
	}
	WriteCSV(&b, 50, 7, Seed)
	if !bytes.Equal(a.Bytes(), b.Bytes()) {
		t.Fatal("two calls with one seed wrote different bytes")
	}
	if !strings.HasPrefix(a.String(), "scenario,run,passed\nscenario-000") {
		t.Fatalf("unexpected start %q", a.String()[:40])
	}
	side, err := aa.ReadCSV(&a)
	if err != nil {
		t.Fatal(err)
	}
	if side.Rows != 350 || len(side.Scenarios) != 50 || len(side.Runs) != 7 || side.Duplicates != 0 {
		t.Fatalf("shape %d rows, %d scenarios, %d runs, %d duplicates", side.Rows, len(side.Scenarios), len(side.Runs), side.Duplicates)
	}
}
