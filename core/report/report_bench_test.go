package report

import (
	"bytes"
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

// ledgerRows generates the JSONL ledger as flakegate run writes it, the
// rows bench/reports writes: runs of 2,000 trials alternating between the
// arms, each followed by its run record, until size bytes.
func ledgerRows(size int) []byte {
	var b []byte
	for run := 0; len(b) < size; run++ {
		arm := [2]string{"baseline", "patched"}[run%2]
		for i := range 2000 {
			outcome := "passed"
			if (run*2000+i)%37 == 0 {
				outcome = "failed"
			}
			b = fmt.Appendf(b, `{"run":"r%d","arm":"%s","nodeid":"tests/pkg%02d/test_big.py::test_%03d","when":"call","outcome":"%s","ts":%d.%03d}`+"\n",
				run, arm, i/40, i%40, outcome, 1700000000+run, i%1000)
		}
		b = fmt.Appendf(b, `{"run":"r%d","arm":"%s","when":"run","outcome":"done","seq":%d,"trials":2000,"passed":1946,"exit":1,"seconds":61.5,"command":"pytest -p flake_ledger","ts":%d}`+"\n",
			run, arm, run+1, 1700000000+run)
	}
	return b
}

// BenchmarkReadLedger reads a generated 16 MB JSONL ledger.
func BenchmarkReadLedger(b *testing.B) {
	rows := ledgerRows(16 << 20)
	b.SetBytes(int64(len(rows)))
	b.ReportAllocs()
	for b.Loop() {
		if err := ReadLedger(bytes.NewReader(rows), ledger.New()); err != nil {
			b.Fatal(err)
		}
	}
}

// playwrightReport generates a Playwright JSON report of about size bytes:
// spec files of 40 tests in two projects, tests 0 and 29 of each failing
// their first attempt, as the API's hostile suite sends (apitest).
func playwrightReport(size int) []byte {
	b := []byte(`{"config": {"rootDir": "/home/user/project"}, "suites": [`)
	for i := 0; len(b) < size; i++ {
		b = fmt.Appendf(b, `{"title": "spec%03d.spec.js", "specs": [`, i%100)
		for t := range 40 {
			results := `{"status": "passed", "retry": 0, "stdout": [{"text": "navigated to /checkout in 120 ms\n"}], "errors": []}`
			if t%29 == 0 {
				results = `{"status": "failed", "retry": 0, "errors": [{"message": "Error: expect(received).toBe(expected)"}]}, ` + results
			}
			for p, project := range []string{"chromium", "firefox"} {
				if t > 0 || p > 0 {
					b = append(b, ',')
				}
				b = fmt.Appendf(b, `{"title": "does thing %d", "tests": [{"expectedStatus": "passed", "projectName": %q, "results": [%s]}]}`, t, project, results)
			}
		}
		b = append(b, `]},`...)
	}
	return append(b, `{"title": "last.spec.js", "specs": []}], "errors": []}`+"\n"...)
}

// BenchmarkReadPlaywright reads a generated 16 MB Playwright report as a
// stream (the JSON report readers' path).
func BenchmarkReadPlaywright(b *testing.B) {
	doc := playwrightReport(16 << 20)
	b.SetBytes(int64(len(doc)))
	b.ReportAllocs()
	for b.Loop() {
		if err := Read(struct{ io.Reader }{bytes.NewReader(doc)}, Options{Format: FormatPlaywright}, ledger.New()); err != nil {
			b.Fatal(err)
		}
	}
}
