// Command reports measures how fast report.Read reads a large go test
// -json stream and how much memory it holds while doing so.
//
//	go run ./bench/reports            # 100 MB, written to a temporary file
//	go run ./bench/reports -mb 500
//
// It writes the stream to a temporary file (never committed), then runs
// itself again with -read on that file, so that the peak resident memory
// (VmHWM) it reports belongs to the reading process alone. The stream looks
// like a large suite's: 50 packages of 40 tests, each with a run event, two
// output lines and a pass (one in 37 fails), repeated until the size.
package main

import (
	"bufio"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"time"

	"github.com/flakegate/flakegate/core/ledger"
	"github.com/flakegate/flakegate/core/report"
)

func main() {
	mb := flag.Int("mb", 100, "size of the generated stream in MiB")
	read := flag.String("read", "", "read this file and report (the child process)")
	flag.Parse()
	if *read != "" {
		if err := readOne(*read); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		return
	}
	f, err := os.CreateTemp("", "gotest-*.json")
	if err != nil {
		fail(err)
	}
	defer os.Remove(f.Name())
	w := bufio.NewWriterSize(f, 1<<20)
	n, err := generate(w, int64(*mb)<<20)
	if err == nil {
		err = w.Flush()
	}
	if err == nil {
		err = f.Close()
	}
	if err != nil {
		fail(err)
	}
	fmt.Printf("generated %d bytes (%d test blocks) in %s\n", n, n/blockSize, f.Name())
	self, err := os.Executable()
	if err != nil {
		fail(err)
	}
	cmd := exec.Command(self, "-read", f.Name())
	cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
	if err := cmd.Run(); err != nil {
		fail(err)
	}
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "bench/reports:", err)
	os.Exit(1)
}

const blockSize = 560 // about, for the message only

func generate(w io.Writer, size int64) (int64, error) {
	var written int64
	var buf []byte
	for i := 0; written < size; i++ {
		pkg, test := i/40%50, i%40
		action := "pass"
		if i%37 == 0 {
			action = "fail"
		}
		ts := i % 1000000
		buf = fmt.Appendf(buf[:0], `{"Time":"2026-12-01T20:20:01.%06dZ","Action":"run","Package":"example.com/big/pkg%02d","Test":"Test%03d"}
{"Time":"2026-12-01T20:20:01.%06dZ","Action":"output","Package":"example.com/big/pkg%02d","Test":"Test%03d","Output":"=== RUN   Test%03d\n"}
{"Time":"2026-12-01T20:20:01.%06dZ","Action":"output","Package":"example.com/big/pkg%02d","Test":"Test%03d","Output":"    big_test.go:%d: checked %d cases\n"}
{"Time":"2026-12-01T20:20:01.%06dZ","Action":"%s","Package":"example.com/big/pkg%02d","Test":"Test%03d","Elapsed":0.01}
`, ts, pkg, test, ts, pkg, test, test, ts, pkg, test, 10+test, i, ts, action, pkg, test)
		n, err := w.Write(buf)
		written += int64(n)
		if err != nil {
			return written, err
		}
	}
	return written, nil
}

func readOne(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return err
	}
	start := time.Now()
	l := ledger.New()
	if err := report.Read(f, report.Options{Format: report.FormatGoTest}, l); err != nil {
		return err
	}
	res, err := l.Result(ledger.DefaultOptions)
	if err != nil {
		return err
	}
	took := time.Since(start)
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	var trials int64
	for _, t := range res.Tests {
		trials += t.Baseline.Trials
	}
	mbs := float64(st.Size()) / (1 << 20) / took.Seconds()
	fmt.Printf("read %.1f MiB in %.2fs: %.1f MiB/s; %d tests, %d trials\n", float64(st.Size())/(1<<20), took.Seconds(), mbs, len(res.Tests), trials)
	fmt.Printf("peak resident memory (VmHWM) %s; Go heap in use at the end %.1f MiB; GOMAXPROCS %d\n",
		vmHWM(), float64(ms.HeapInuse)/(1<<20), runtime.GOMAXPROCS(0))
	return nil
}

// vmHWM is the process's peak resident set size from /proc (Linux).
func vmHWM() string {
	raw, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return "unknown"
	}
	for _, line := range strings.Split(string(raw), "\n") {
		if v, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			return strings.TrimSpace(v)
		}
	}
	return "unknown"
}
