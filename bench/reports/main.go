// Command reports measures how fast report.Read reads large reports and
// how much memory it holds while doing so, for the formats whose files get
// biggest: go test -json, the JSONL ledger, JUnit XML, Playwright's JSON and inspect_ai logs.
//
//	go run ./bench/reports                   # 100 MB of each format
//	go run ./bench/reports -mb 500 -format junit
//
// It writes each report to a temporary file (never committed), then runs
// itself again with -read on that file, so that the peak resident memory
// (VmHWM) it reports belongs to the reading process alone. Beside the
// reader's speed it prints two peers measured in the same process on the
// same file: the floor (reading the bytes and nothing else) and the
// standard library's tokenizer for the syntax (encoding/json's Token,
// encoding/xml's Token), as ratios, because absolute times drift on a
// shared machine. The go test -json stream looks like a large suite's: 50
// packages of 40 tests, each with a run event, two output lines and a pass
// (one in 37 fails), repeated until the size; the others hold as many
// tests, with failure messages and output of a realistic length.
package main

import (
	"bufio"
	"encoding/json"
	"encoding/xml"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"runtime"
	"time"

	"github.com/flakegate/flakegate/bench/internal/proc"
	"github.com/flakegate/flakegate/core/ledger"
	"github.com/flakegate/flakegate/core/report"
)

func main() {
	mb := flag.Int("mb", 100, "size of each generated report in MiB")
	format := flag.String("format", "all", "gotest, ledger, junit, playwright, inspect or all")
	read := flag.String("read", "", "read this file and report (the child process)")
	flag.Parse()
	if *read != "" {
		if err := readOne(*read, *format); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		return
	}
	formats := []string{*format}
	if *format == "all" {
		formats = []string{"gotest", "ledger", "junit", "playwright", "inspect"}
	}
	for _, f := range formats {
		if generators[f] == nil {
			fail(fmt.Errorf("unknown format %q", f))
		}
		bench(f, int64(*mb)<<20)
	}
}

func bench(format string, size int64) {
	f, err := os.CreateTemp("", "report-*."+format)
	if err != nil {
		fail(err)
	}
	defer os.Remove(f.Name())
	w := bufio.NewWriterSize(f, 1<<20)
	n, err := generators[format](w, size)
	if err == nil {
		err = w.Flush()
	}
	if err == nil {
		err = f.Close()
	}
	if err != nil {
		fail(err)
	}
	fmt.Printf("\n%s: generated %d bytes in %s\n", format, n, f.Name())
	self, err := os.Executable()
	if err != nil {
		fail(err)
	}
	cmd := exec.Command(self, "-read", f.Name(), "-format", format)
	cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
	if err := cmd.Run(); err != nil {
		fail(err)
	}
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "bench/reports:", err)
	os.Exit(1)
}

func generateGoTest(w io.Writer, size int64) (int64, error) {
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

func readOne(path, format string) error {
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
	if err := report.Read(f, report.Options{Format: format}, l); err != nil {
		return err
	}
	res, err := l.Result(ledger.DefaultOptions)
	if err != nil {
		return err
	}
	took := time.Since(start)
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	hwm, err := proc.Status("self", "VmHWM") // the peak resident set size
	if err != nil {
		hwm = "unknown"
	}
	var trials int64
	for _, t := range res.Tests {
		trials += t.Baseline.Trials
	}
	mib := float64(st.Size()) / (1 << 20)
	mbs := mib / took.Seconds()
	fmt.Printf("read %.1f MiB in %.2fs: %.1f MiB/s; %d tests, %d trials\n", mib, took.Seconds(), mbs, len(res.Tests), trials)
	fmt.Printf("peak resident memory (VmHWM) %s; Go heap in use at the end %.1f MiB; GOMAXPROCS %d\n",
		hwm, float64(ms.HeapInuse)/(1<<20), runtime.GOMAXPROCS(0))
	floor, err := timed(path, func(r io.Reader) error { _, err := io.Copy(io.Discard, r); return err })
	if err != nil {
		return err
	}
	peer, name, err := tokenPeer(path, format)
	if err != nil {
		return err
	}
	fmt.Printf("same file, same process: the floor (read the bytes) %.0f MiB/s, %s %.1f MiB/s; flakegate is %.2f× %s's speed\n",
		mib/floor.Seconds(), name, mib/peer.Seconds(), peer.Seconds()/took.Seconds(), name)
	return nil
}

// timed runs read over the file and returns how long it took.
func timed(path string, read func(io.Reader) error) (time.Duration, error) {
	f, err := os.Open(path)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	start := time.Now()
	err = read(bufio.NewReaderSize(f, 64<<10))
	return time.Since(start), err
}

// drain reads every token next gives, to its end (io.EOF).
func drain[T any](next func() (T, error)) error {
	for {
		if _, err := next(); err != nil {
			if err == io.EOF {
				return nil
			}
			return err
		}
	}
}

// tokenPeer times the standard library's tokenizer of the format's syntax
// over the whole file: a line-by-line encoding/json Unmarshal of each event
// for go test -json and each row for the JSONL ledger, Decoder.Token for
// the others.
func tokenPeer(path, format string) (time.Duration, string, error) {
	switch format {
	case "junit":
		d, err := timed(path, func(r io.Reader) error { return drain(xml.NewDecoder(r).Token) })
		return d, "encoding/xml Token", err
	case "gotest", "ledger":
		d, err := timed(path, func(r io.Reader) error {
			sc := bufio.NewScanner(r)
			sc.Buffer(nil, 1<<20)
			var ev struct{ Action, Package, Test, Run, Arm, NodeID, When, Outcome string }
			for sc.Scan() {
				if err := json.Unmarshal(sc.Bytes(), &ev); err != nil {
					return err
				}
			}
			return sc.Err()
		})
		return d, "encoding/json Unmarshal per line", err
	}
	d, err := timed(path, func(r io.Reader) error { return drain(json.NewDecoder(r).Token) })
	return d, "encoding/json Token", err
}
