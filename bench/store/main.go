// Command store is the history store's benchmark (make bench-history-store,
// part of make bench-history): it plants a CI history (by default 10,000
// runs of 5,000 tests: 50 million results, with flaky tests, outages, a
// group and broken tests), writes each run as a go test -json report with
// run times as go test prints them (two decimals; each test its own
// typical time, varying ±15% from run to run), records every report into
// one store, and measures in the same session:
//
//   - the store's size, in bits per result and against the reports';
//   - flakegate history -json on the store against the same command on
//     the reports' folder: wall time, CPU time and peak resident memory of
//     each process (the kernel's), and that both print the same bytes;
//   - one append at that size: flakegate record of one more run's report,
//     the whole process, against flakegate history on that one report.
//
// It prints the figures and their ratios and fails when the answers differ
// or a target is missed: the store ≤ 16 MB, history from the store ≥ 20×
// less CPU than from the reports and ≤ 64 MB, one append ≤ 50 ms of CPU
// (CPU time: on a shared machine wall times mostly measure the other load).
package main

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"flag"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/flakegate/flakegate/bench/internal/proc"
	"github.com/flakegate/flakegate/core/history"
	"github.com/flakegate/flakegate/core/history/histsim"
	"github.com/flakegate/flakegate/core/report"
	"github.com/flakegate/flakegate/core/store"
)

func main() {
	proc.Main("bench/store", func(ctx context.Context, args []string, stdout io.Writer) error {
		fs := flag.NewFlagSet("store", flag.ContinueOnError)
		runs := fs.Int("runs", 10_000, "runs to plant")
		tests := fs.Int("tests", 5_000, "tests per run")
		dir := fs.String("dir", "", "the folder for the reports and the store (default: a temporary one, removed after)")
		times := fs.String("times", "varied", "the reports' run times: varied (each test its own, ±15% per run) or constant (10 ms, as histsim writes them)")
		if err := fs.Parse(args); err != nil {
			return err
		}
		if *times != "varied" && *times != "constant" {
			return fmt.Errorf("-times: %q is neither varied nor constant", *times)
		}
		return run(ctx, *runs, *tests, *dir, *times == "varied", stdout)
	})
}

// cost is one timed process.
type cost struct {
	wall, cpu time.Duration
	peakRSS   int64 // bytes
}

// timed runs flakegate with args and returns its cost and output; exit 1
// (history blocks on a flaky test) is an answer, not an error.
func timed(bin string, args ...string) (cost, []byte, error) {
	var out, stderr bytes.Buffer
	cmd := exec.Command(bin, args...)
	cmd.Stdout, cmd.Stderr = &out, &stderr
	start := time.Now()
	err := cmd.Run()
	var c cost
	c.wall = time.Since(start)
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		c.cpu = time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
		c.peakRSS = ru.Maxrss << 10 // kilobytes on Linux
	}
	if code := cmd.ProcessState.ExitCode(); err != nil && code != 1 {
		return c, nil, fmt.Errorf("flakegate %s: %w\n%s", strings.Join(args, " "), err, stderr.Bytes())
	}
	return c, out.Bytes(), nil
}

// seconds are test i's run times: 10 ms each (constant), or a typical time (seven in ten tests
// under 20 ms, two in ten up to half a second, one in ten up to five
// seconds) varied ±15% per run, written as go test writes Elapsed.
type seconds struct {
	typical []float64
	rng     *rand.Rand
	varied  bool
}

func newSeconds(tests int, varied bool) *seconds {
	s := &seconds{rng: rand.New(rand.NewPCG(9, 9)), varied: varied}
	for range tests + 1000 {
		u := s.rng.Float64()
		var t float64
		switch {
		case u < 0.7:
			t = 0.02 * s.rng.Float64()
		case u < 0.9:
			t = 0.02 + 0.48*s.rng.Float64()
		default:
			t = 0.5 + 4.5*s.rng.Float64()
		}
		s.typical = append(s.typical, t)
	}
	return s
}

func (s *seconds) at(i int) string {
	if !s.varied {
		return "0.01"
	}
	t := s.typical[i%len(s.typical)] * (0.85 + 0.3*s.rng.Float64())
	return strconv.FormatFloat(math.Round(t*100)/100, 'f', 2, 64)
}

// writeRun writes one run as go test -json: a start event with the run's
// time, then a run and a pass or fail event per attempt (retried tests
// fail first), timed.
func writeRun(path string, m history.RunMeta, rs []history.TestResult, index map[string]int, secs *seconds) (int64, error) {
	f, err := os.Create(path)
	if err != nil {
		return 0, err
	}
	w := bufio.NewWriterSize(f, 256<<10)
	fmt.Fprintf(w, `{"Time":"%s","Action":"start","Package":"example.com/ci"}`+"\n", m.Time.Format(time.RFC3339))
	for _, r := range rs {
		name := strconv.Quote(strings.ReplaceAll(r.Test, "/", "_"))
		i, ok := index[r.Test]
		if !ok {
			i = len(index)
			index[r.Test] = i
		}
		for a := range r.Trials {
			action := "pass"
			if a < r.Trials-r.Passed {
				action = "fail"
			}
			fmt.Fprintf(w, `{"Action":"%s","Package":"example.com/ci","Test":%s,"Elapsed":%s}`+"\n", action, name, secs.at(i))
		}
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return 0, err
	}
	st, _ := f.Stat()
	return st.Size(), f.Close()
}

func run(ctx context.Context, runs, tests int, dir string, varied bool, stdout io.Writer) error {
	dir, done, err := workDir(dir)
	if err != nil {
		return err
	}
	defer done()
	reports := filepath.Join(dir, "reports")
	if err := os.MkdirAll(reports, 0o755); err != nil {
		return err
	}
	// bench/history's planted history: five flaky rates four times over.
	rates := slices.Repeat([]float64{0.005, 0.01, 0.02, 0.05, 0.2}, 4)
	// One run more than the store holds: the append's.
	cfg := histsim.Config{Seed: 50, Runs: runs + 1, Stable: tests - len(rates), Flaky: rates, Outages: 5,
		OutageShare: [2]float64{0.05, 0.3}, Groups: 1, GroupSize: 4, GroupRuns: 6, Broken: 2, BrokenCommits: 10}
	start := time.Now()
	var reportBytes int64
	var paths []string
	index := map[string]int{}
	secs := newSeconds(tests, varied)
	_, err = histsim.Generate(cfg, func(m history.RunMeta, rs []history.TestResult) error {
		p := filepath.Join(reports, m.Name+".json")
		if len(paths) == runs {
			p = filepath.Join(dir, "next.json") // the appended run, outside the folder
		}
		n, err := writeRun(p, m, rs, index, secs)
		reportBytes += n
		paths = append(paths, p)
		return err
	})
	if err != nil {
		return err
	}
	next := paths[runs]
	paths = paths[:runs]
	results := int64(runs) * int64(tests)
	fmt.Fprintf(stdout, "planted %d runs of %d tests (%d results, %.2f GB of go test -json) in %v\n",
		runs, tests, results, float64(reportBytes)/1e9, time.Since(start).Round(time.Second))

	// The store, recorded as flakegate record does (history.ParseRun of
	// each report, then one record each), the reports parsed side by side.
	start = time.Now()
	fgs := filepath.Join(dir, "runs.fgs")
	size, err := record(ctx, fgs, paths)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "recorded them in %v\n", time.Since(start).Round(time.Second))

	bin := filepath.Join(dir, "flakegate")
	if out, err := exec.Command("go", "build", "-o", bin, "./cmd/flakegate").CombinedOutput(); err != nil {
		return fmt.Errorf("building flakegate: %v\n%s", err, out)
	}
	fromReports, outReports, err := timed(bin, "history", "-json", reports)
	if err != nil {
		return err
	}
	fromStore, outStore, err := timed(bin, "history", "-json", fgs)
	if err != nil {
		return err
	}
	var failed []string
	if !bytes.Equal(outReports, outStore) {
		failed = append(failed, "history from the store differs from history from the reports")
	}
	// One append: the whole record process, on a copy of the store, against
	// history of that one report (reading it and answering).
	cp := filepath.Join(dir, "append.fgs")
	if err := copyFile(fgs, cp); err != nil {
		return err
	}
	appendCost, _, err := timed(bin, "record", "-store", cp, "-time", "2026-12-01T00:00:00Z", next)
	if err != nil {
		return err
	}
	oneReport, _, err := timed(bin, "history", "-json", next)
	if err != nil {
		return err
	}
	st, _ := os.Stat(cp)

	mb := func(b int64) float64 { return float64(b) / 1e6 }
	fmt.Fprintf(stdout, "store: %.2f MB for %d results: %.3f bits per result; the reports are %.0f× larger (%.2f GB)\n",
		mb(size), results, float64(size)*8/float64(results), float64(reportBytes)/float64(size), float64(reportBytes)/1e9)
	fmt.Fprintf(stdout, "history from the reports: %v wall, %v CPU, peak %.0f MB\n", fromReports.wall.Round(time.Millisecond), fromReports.cpu.Round(time.Millisecond), mb(fromReports.peakRSS))
	fmt.Fprintf(stdout, "history from the store:   %v wall, %v CPU, peak %.0f MB\n", fromStore.wall.Round(time.Millisecond), fromStore.cpu.Round(time.Millisecond), mb(fromStore.peakRSS))
	fmt.Fprintf(stdout, "reports/store: wall %.1f×, CPU %.1f×, memory %.2f×; the same answer: %v\n",
		fromReports.wall.Seconds()/fromStore.wall.Seconds(), fromReports.cpu.Seconds()/fromStore.cpu.Seconds(),
		float64(fromReports.peakRSS)/float64(fromStore.peakRSS), bytes.Equal(outReports, outStore))
	fmt.Fprintf(stdout, "one append (flakegate record, the whole process): %v wall, %v CPU, store now %.2f MB; history of that one report: %v wall, %v CPU (append/one report: CPU %.2f)\n",
		appendCost.wall.Round(time.Millisecond), appendCost.cpu.Round(time.Millisecond), mb(st.Size()), oneReport.wall.Round(time.Millisecond), oneReport.cpu.Round(time.Millisecond), appendCost.cpu.Seconds()/oneReport.cpu.Seconds())
	full := runs == 10_000 && tests == 5_000
	if full && size > 16e6 {
		failed = append(failed, fmt.Sprintf("the store is %.2f MB, over 16 MB", mb(size)))
	}
	// CPU time is the measure: on a shared machine wall times mostly
	// measure the other load.
	if full && fromReports.cpu < 20*fromStore.cpu {
		failed = append(failed, "history from the store takes more than a twentieth of the CPU time of the reports")
	}
	if full && fromStore.peakRSS > 64<<20 {
		failed = append(failed, fmt.Sprintf("history from the store peaked at %.0f MB, over 64 MiB", mb(fromStore.peakRSS)))
	}
	if full && appendCost.cpu > 50*time.Millisecond {
		failed = append(failed, fmt.Sprintf("one append took %v of CPU, over 50 ms", appendCost.cpu.Round(time.Millisecond)))
	}
	return proc.Finish("", nil, failed)
}

// workDir is dir, or a new temporary folder that done removes.
func workDir(dir string) (string, func(), error) {
	if dir != "" {
		return dir, func() {}, nil
	}
	d, err := os.MkdirTemp("", "flakegate-store-bench")
	return d, func() { os.RemoveAll(d) }, err
}

// record writes a store of the reports at paths, one entry each, and
// returns its size. The reports are parsed on every CPU, at most 16 ahead
// of the one recorded.
func record(ctx context.Context, path string, paths []string) (int64, error) {
	parsed := make([]chan parse, len(paths))
	for i := range parsed {
		parsed[i] = make(chan parse, 1)
	}
	next, tokens := make(chan int), make(chan struct{}, 16)
	var wg sync.WaitGroup
	for range runtime.GOMAXPROCS(0) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				parsed[i] <- parseReport(paths[i])
			}
		}()
	}
	stop := make(chan struct{})
	go func() {
		defer close(next)
		for i := range paths {
			select {
			case tokens <- struct{}{}:
			case <-stop:
				return
			}
			next <- i
		}
	}()
	defer wg.Wait()
	defer close(stop)
	out, err := os.Create(path)
	if err != nil {
		return 0, err
	}
	defer out.Close()
	w := bufio.NewWriterSize(out, 1<<20)
	st := store.NewState()
	for i := range paths {
		r := <-parsed[i]
		<-tokens
		if r.err != nil {
			return 0, r.err
		}
		if err := ctx.Err(); err != nil {
			return 0, err
		}
		b, _ := st.Add(store.Entry{Report: r.p, Ledger: r.rec, Recorded: time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)})
		w.Write(b)
	}
	if err := w.Flush(); err != nil {
		return 0, err
	}
	return st.End, out.Sync()
}

type parse struct {
	p   *history.Parsed
	rec *store.Recorded
	err error
}

// parseReport reads a report as flakegate record does, with the retry
// history and a run identity of the size quarantine check's (16 bytes).
func parseReport(path string) parse {
	f, err := os.Open(path)
	if err != nil {
		return parse{err: err}
	}
	defer f.Close()
	p, l, err := history.ParseRunLedger(history.RunMeta{Name: path, File: path}, f, report.Options{}, 0)
	if err != nil {
		return parse{err: err}
	}
	rec := store.RecordedOf(l, func(arm, run string) string {
		sum := sha256.Sum256([]byte(path + "\x00" + arm + "\x00" + run))
		return hex.EncodeToString(sum[:16])
	})
	return parse{p, rec, nil}
}

func copyFile(from, to string) error {
	b, err := os.ReadFile(from)
	if err != nil {
		return err
	}
	return os.WriteFile(to, b, 0o644)
}
