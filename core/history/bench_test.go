package history

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/flakegate/flakegate/core/report"
)

// BenchmarkReadRun reads one go test -json run of 5,000 tests (one event
// each, 1% failing) into a history; Timed gives each event an Elapsed,
// which the history keeps as the test's run time.
func BenchmarkReadRun(b *testing.B) {
	for _, timed := range []bool{false, true} {
		b.Run(map[bool]string{false: "untimed", true: "timed"}[timed], func(b *testing.B) { benchReadRun(b, timed) })
	}
}

func benchReadRun(b *testing.B, timed bool) {
	elapsed := ""
	if timed {
		elapsed = `,"Elapsed":0.013`
	}
	var buf bytes.Buffer
	buf.WriteString(`{"Time":"2026-11-01T00:00:00Z","Action":"start","Package":"p"}` + "\n")
	for i := range 5000 {
		a := "pass"
		if i%100 == 0 {
			a = "fail"
		}
		fmt.Fprintf(&buf, `{"Action":"%s","Package":"p","Test":"Test%05d"%s}`+"\n", a, i, elapsed)
	}
	data := buf.Bytes()
	h := New()
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if err := h.ReadRun(RunMeta{Name: "r"}, bytes.NewReader(data), report.Options{}); err != nil {
			b.Fatal(err)
		}
	}
}
