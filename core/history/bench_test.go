package history

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/flakegate/flakegate/core/report"
)

// BenchmarkReadRun reads one go test -json run of 5,000 tests (one event
// each, 1% failing) into a history.
func BenchmarkReadRun(b *testing.B) {
	var buf bytes.Buffer
	buf.WriteString(`{"Time":"2026-11-01T00:00:00Z","Action":"start","Package":"p"}` + "\n")
	for i := range 5000 {
		a := "pass"
		if i%100 == 0 {
			a = "fail"
		}
		fmt.Fprintf(&buf, `{"Action":"%s","Package":"p","Test":"Test%05d"}`+"\n", a, i)
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
