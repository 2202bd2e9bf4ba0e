package report

import (
	"fmt"
	"io"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/flakegate/flakegate/core"
	"github.com/flakegate/flakegate/core/ledger"
	"github.com/flakegate/flakegate/internal/coretest"
)

// The readers' memory bound: for any input, accepted or refused, the Go
// heap in use while reading stays within twice the input plus 32 MB. These
// tests read generated inputs (never held in memory: each is produced as it
// is read) and sample runtime.MemStats.HeapInuse while they do; the peak
// above the heap in use before reading is what the reader and its ledger
// held. TestReadPeakMemory checks small inputs on every go test;
// BenchmarkReadPeakMemory records the full sizes (100 MB of Playwright
// JSON and of go test -json, 30 MB of nested XML) as peak-MB and
// peak/input metrics. Two Playwright reports tell the reader from the
// ledger: one of a quarter of a million tests, whose ledger is most of the
// peak, and one of 12,000 tests retried many times, whose peak stays small
// however long the file. A go test -json stream that passes a new test on
// every 50-byte line holds the most ledger per byte of any input; go test
// reads 32 MB of it, enough that a ledger of 150 bytes a (run, test) would
// break the bound. go test -run '^$' -bench ReadPeakMemory -benchtime 1x
// ./core/report (make bench-reports runs it).

// chunkReader produces a generated input: head, then chunk(i) for i = 0,
// 1, ... until size bytes are out, then tail. It reuses the buffer chunk
// writes, so that what it allocates does not count in the peak.
type chunkReader struct {
	head, tail []byte
	chunk      func(dst []byte, i int) []byte
	size, out  int64
	buf        []byte // what is left of the last piece
	back       []byte // the buffer chunk writes, reused
	i          int
	done       bool
}

func (c *chunkReader) Read(p []byte) (int, error) {
	for len(c.buf) == 0 {
		switch {
		case c.head != nil:
			c.buf, c.head = c.head, nil
		case c.out < c.size:
			c.back = c.chunk(c.back[:0], c.i)
			c.buf = c.back
			c.i++
		case !c.done:
			c.buf, c.done = c.tail, true
		default:
			return 0, io.EOF
		}
	}
	n := copy(p, c.buf)
	c.buf = c.buf[n:]
	c.out += int64(n)
	return n, nil
}

// playwrightInput is a Playwright JSON report of about size bytes: spec
// files of 40 tests in three projects, each result with a line of output;
// tests 0 and 29 of each file are retried after a failure, with its error
// and stack: 40 passed trials of a file's 46 in each project.
func playwrightInput(size int64) io.Reader { return playwrightFiles(size, 0) }

// playwrightFiles is playwrightInput whose spec files repeat after files
// of them (0: never), each repeat more attempts of the same tests: a
// report of few tests retried many times, whose ledger stays small.
func playwrightFiles(size int64, files int) io.Reader {
	result := func(dst []byte, status string, retry int) []byte {
		errs := ""
		if status == "failed" {
			errs = `{"message": "Error: expect(received).toBe(expected)\n\nExpected: \"Bye\"\nReceived: \"Hi\"", "stack": "    at /home/user/project/page.spec.js:14:45"}`
		}
		return fmt.Appendf(dst, `{"workerIndex": 0, "status": %q, "duration": 361, "retry": %d, "startTime": "2026-12-02T09:48:15.126Z", "attachments": [], "stdout": [{"text": "navigated to http://localhost:3000/checkout in 120 ms, cart of 3 items\n"}], "stderr": [], "errors": [%s]}`, status, retry, errs)
	}
	return &chunkReader{
		head: []byte(`{"config": {"rootDir": "/home/user/project", "projects": [{"name": "chromium"}, {"name": "firefox"}, {"name": "webkit"}]}, "suites": [{"title": "", "suites": [`),
		tail: []byte(`{"title": "last.spec.js", "specs": []}]}], "errors": [], "stats": {"expected": 1}}` + "\n"),
		size: size,
		chunk: func(b []byte, file int) []byte {
			if files > 0 {
				file %= files
			}
			b = fmt.Appendf(b, `{"title": "spec%05d.spec.js", "file": "spec%05d.spec.js", "specs": [`, file, file)
			for t := range 40 {
				if t > 0 {
					b = append(b, ',')
				}
				b = fmt.Appendf(b, `{"title": "does thing %d", "ok": true, "tags": [], "tests": [`, t)
				for p, project := range []string{"chromium", "firefox", "webkit"} {
					if p > 0 {
						b = append(b, ',')
					}
					b = fmt.Appendf(b, `{"timeout": 30000, "annotations": [], "expectedStatus": "passed", "projectName": %q, "results": [`, project)
					if t%29 == 0 {
						b = result(b, "failed", 0)
						b = append(b, ',')
						b = result(b, "passed", 1)
					} else {
						b = result(b, "passed", 0)
					}
					b = append(b, `], "status": "expected"}`...)
				}
				b = append(b, `]}`...)
			}
			return append(b, `]},`...)
		},
	}
}

// goTestDense is a go test -json stream of about size bytes in which
// every 50-byte line passes a test not seen before: the stream whose
// ledger holds the most (run, test) cells per byte. Tests are named by
// number from 10,000,000 (eight digits), without allocating: the peak is
// the reader's.
func goTestDense(size int64) io.Reader {
	return &chunkReader{
		size: size,
		chunk: func(b []byte, i int) []byte {
			b = append(b, `{"Action":"pass","Package":"p","Test":"`...)
			b = strconv.AppendInt(b, int64(10_000_000+i), 10)
			return append(b, "\"}\n"...)
		},
	}
}

// nestedXML is size bytes of JUnit XML whose suites nest without end, as a
// hostile client sends them; inProperties puts the nesting inside an
// element the reader skips.
func nestedXML(size int64, inProperties bool) io.Reader {
	head := `<?xml version="1.0"?><testsuites><testsuite name="s">`
	if inProperties {
		head += `<properties>`
	}
	return &chunkReader{
		head:  []byte(head),
		size:  size,
		chunk: func(b []byte, _ int) []byte { return append(b, `<testsuite name="s">`...) },
	}
}

// peakHeap runs read and returns the peak of the Go heap in use above the
// heap in use before it, sampled every millisecond.
func peakHeap(read func()) uint64 {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	base, peak := ms.HeapInuse, ms.HeapInuse
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		var ms runtime.MemStats
		for {
			runtime.ReadMemStats(&ms)
			peak = max(peak, ms.HeapInuse)
			select {
			case <-stop:
				return
			case <-time.After(time.Millisecond):
			}
		}
	})
	read()
	close(stop)
	wg.Wait()
	runtime.ReadMemStats(&ms)
	peak = max(peak, ms.HeapInuse)
	return peak - base
}

// memoryCase is one input of the memory bound and what reading it gives.
type memoryCase struct {
	name   string
	size   int64
	input  func(size int64) io.Reader
	format string
	check  func(t testing.TB, l *ledger.Ledger, err error)
}

// memoryCases are the inputs at the sizes given; dense is the size of the
// stream of a new test on every line.
func memoryCases(playwright, xml, gotest, dense int64) []memoryCase {
	refused := func(t testing.TB, l *ledger.Ledger, err error) {
		if core.ErrorKind(err) != core.Invalid {
			t.Errorf("want the nesting refused as invalid, got %v", err)
		}
	}
	return []memoryCase{
		{"playwright", playwright, playwrightInput, FormatPlaywright, func(t testing.TB, l *ledger.Ledger, err error) {
			if err != nil {
				t.Fatal(err)
			}
			// Each generated file adds 3 x 40 passed trials of 3 x 42.
			if c := total(l); c.Trials == 0 || c.Passed%120 != 0 || c.Trials != c.Passed/120*126 {
				t.Errorf("%d of %d trials, want 120 of every 126", c.Passed, c.Trials)
			}
		}},
		{"playwright-few-tests", playwright, func(n int64) io.Reader { return playwrightFiles(n, 100) }, FormatPlaywright, func(t testing.TB, l *ledger.Ledger, err error) {
			if err != nil {
				t.Fatal(err)
			}
			if n := len(l.Tests(ledger.ArmBaseline)); n != 100*40*3 {
				t.Errorf("%d tests, want 12,000", n)
			}
		}},
		{"nested-xml", xml, func(n int64) io.Reader { return nestedXML(n, false) }, FormatAuto, refused},
		{"nested-xml-skipped", xml, func(n int64) io.Reader { return nestedXML(n, true) }, FormatJUnit, refused},
		{"gotest", gotest, func(n int64) io.Reader { return &goTestStream{size: n} }, FormatGoTest, func(t testing.TB, l *ledger.Ledger, err error) {
			if err != nil {
				t.Fatal(err)
			}
		}},
		{"gotest-new-test-each-line", dense, goTestDense, FormatGoTest, func(t testing.TB, l *ledger.Ledger, err error) {
			if err != nil {
				t.Fatal(err)
			}
			// Each 50-byte line is a passed trial of a test of its own.
			if c, n := total(l), int64(len(l.Tests(ledger.ArmBaseline))); n < dense/50 || c.Trials != n || c.Passed != n {
				t.Errorf("%d of %d trials of %d tests, want one passed trial of each of %d", c.Passed, c.Trials, n, dense/50)
			}
		}},
	}
}

// measure reads one case and returns its peak heap above the start.
func (c memoryCase) measure(t testing.TB) uint64 {
	var l *ledger.Ledger
	var err error
	peak := peakHeap(func() {
		l = ledger.New()
		err = Read(c.input(c.size), Options{Format: c.format}, l)
	})
	c.check(t, l, err)
	return peak
}

func TestReadPeakMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("reads inputs of 8 to 32 MB")
	}
	for _, c := range memoryCases(8<<20, 8<<20, 8<<20, 32<<20) {
		t.Run(c.name, func(t *testing.T) {
			peak := c.measure(t)
			bound := uint64(2*c.size + 32<<20)
			t.Logf("%s: %d bytes read, peak heap %.1f MB", c.name, c.size, float64(peak)/1e6)
			if peak > bound {
				t.Errorf("peak heap %d bytes for %d bytes of input, over the bound of %d (2x input + 32 MB)", peak, c.size, bound)
			}
		})
	}
}

func BenchmarkReadPeakMemory(b *testing.B) {
	for _, c := range memoryCases(100<<20, 30<<20, 100<<20, 100<<20) {
		b.Run(c.name, func(b *testing.B) {
			var peak uint64
			for b.Loop() {
				peak = max(peak, c.measure(b))
			}
			b.ReportMetric(float64(peak)/1e6, "peak-MB")
			b.ReportMetric(float64(peak)/float64(c.size), "peak/input")
			if bound := uint64(2*c.size + 32<<20); peak > bound {
				b.Errorf("peak heap %d bytes for %d bytes of input, over the bound of %d (2x input + 32 MB)", peak, c.size, bound)
			}
		})
	}
}

// XML nests up to MaxXMLDepth elements: a testcase at that depth counts, one
// a level deeper is refused with the depth in the message, in every XML
// format (the root element of each, then the nesting).
func TestXMLDepthLimit(t *testing.T) {
	nest := func(root, inner, leaf string, depth int) string {
		s := "<" + root + ">" + strings.Repeat("<"+inner+">", depth-2) + leaf
		return s + strings.Repeat("</"+inner+">", depth-2) + "</" + root + ">"
	}
	l := readBytes(t, []byte(nest("testsuites", "testsuite", `<testcase name="t"/>`, MaxXMLDepth)), Options{})
	if c := total(l); c.Trials != 1 || c.Passed != 1 {
		t.Errorf("a testcase at depth %d: %d of %d, want 1 of 1", MaxXMLDepth, c.Passed, c.Trials)
	}
	for _, c := range []struct{ root, inner, leaf string }{
		{"testsuites", "testsuite", `<testcase name="t"/>`},
		{"testsuites", "testsuite", `<testcase name="t"><system-out><x/></system-out></testcase>`},
		{"test-run", "test-suite", `<test-case name="t" result="Passed"/>`},
		{"TestRun", "Results", `<UnitTestResult testName="t" outcome="Passed"/>`},
		{"assemblies", "assembly", `<test name="t" result="Pass"/>`},
	} {
		depth := MaxXMLDepth + 1
		if strings.Contains(c.leaf, "<x/>") {
			depth = MaxXMLDepth - 1 // x is three levels below the testcase's parent
		}
		err := Read(strings.NewReader(nest(c.root, c.inner, c.leaf, depth)), Options{}, ledger.New())
		coretest.Refused(t, err, "nested deeper than 256", fmt.Sprintf("<%s> nested %d deep", c.root, depth))
	}
}
