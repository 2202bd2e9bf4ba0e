// Command history is the benchmark of flakegate history (make bench-history):
// it plants a CI history (by default 10,000 runs of 5,000 tests: 50 million
// results, with flaky tests, outages, a group and broken tests), writes it
// as go test -json reports, one file per run, and times, on the same files
// in the same session, flakegate history and DuckDB running
// docs/warehouse/duckdb/history.sql (docs/warehouse/check/cmd/histduck),
// and DuckDB's plain per-test counts (one GROUP BY, no incident filter: the
// least a warehouse does), each a process of its own whose peak resident
// memory the kernel reports.
// It then checks that DuckDB's per-test figures and outage runs equal
// flakegate's, and prints both times, their ratio and the peak memories.
package main

import (
	"bufio"
	"encoding/csv"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/flakegate/flakegate/core/history"
	"github.com/flakegate/flakegate/core/history/histsim"
)

func main() {
	runs := flag.Int("runs", 10_000, "runs to plant")
	tests := flag.Int("tests", 5_000, "tests per run")
	rounds := flag.Int("rounds", 1, "timed rounds of each, alternating")
	dir := flag.String("dir", "", "the folder for the reports (default: a temporary one, removed after)")
	flag.Parse()
	if err := run(*runs, *tests, *rounds, *dir); err != nil {
		fmt.Fprintln(os.Stderr, "bench/history:", err)
		os.Exit(1)
	}
}

// cost is one timed process.
type cost struct {
	wall    time.Duration
	cpu     time.Duration // user and system time of the process
	peakRSS int64         // bytes
}

func timed(name string, args ...string) (cost, []byte, error) {
	cmd := exec.Command(name, args...)
	cmd.Stderr = os.Stderr
	start := time.Now()
	out, err := cmd.Output()
	c := cost{wall: time.Since(start)}
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		c.peakRSS = ru.Maxrss * 1024 // kilobytes on Linux
		c.cpu = time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	}
	if err != nil {
		return c, out, fmt.Errorf("%s: %w", name, err)
	}
	return c, out, nil
}

func run(runs, tests, rounds int, dir string) error {
	if dir == "" {
		d, err := os.MkdirTemp("", "flakegate-history-bench")
		if err != nil {
			return err
		}
		defer os.RemoveAll(d)
		dir = d
	}
	reports := filepath.Join(dir, "reports")
	if err := os.MkdirAll(reports, 0o755); err != nil {
		return err
	}
	rates := []float64{}
	for range 4 {
		rates = append(rates, 0.005, 0.01, 0.02, 0.05, 0.2)
	}
	cfg := histsim.Config{Seed: 50, Runs: runs, Stable: tests - len(rates), Flaky: rates, Outages: 5,
		OutageShare: [2]float64{0.05, 0.3}, Groups: 1, GroupSize: 4, GroupRuns: 6, Broken: 2, BrokenCommits: 10}
	start := time.Now()
	var bytes int64
	_, err := histsim.Generate(cfg, func(m history.RunMeta, rs []history.TestResult) error {
		f, err := os.Create(filepath.Join(reports, m.Name+".json"))
		if err != nil {
			return err
		}
		w := bufio.NewWriterSize(f, 256<<10)
		// go test -json as it starts a package, then one event per test.
		fmt.Fprintf(w, `{"Time":"%s","Action":"start","Package":"example.com/ci"}`+"\n", m.Time.Format(time.RFC3339))
		for _, r := range rs {
			action := "pass"
			if r.Passed < r.Trials {
				action = "fail"
			}
			fmt.Fprintf(w, `{"Action":"%s","Package":"example.com/ci","Test":%q}`+"\n", action, strings.ReplaceAll(r.Test, "/", "_"))
		}
		if err := w.Flush(); err != nil {
			return err
		}
		st, _ := f.Stat()
		bytes += st.Size()
		return f.Close()
	})
	if err != nil {
		return err
	}
	fmt.Printf("planted %d runs of %d tests (%d results, %.2f GB of go test -json) in %v\n",
		runs, tests, int64(runs)*int64(tests), float64(bytes)/1e9, time.Since(start).Round(time.Second))

	bin := filepath.Join(dir, "bin")
	fg, duck := filepath.Join(bin, "flakegate"), filepath.Join(bin, "histduck")
	if out, err := exec.Command("go", "build", "-o", fg, "./cmd/flakegate").CombinedOutput(); err != nil {
		return fmt.Errorf("building flakegate: %v\n%s", err, out)
	}
	build := exec.Command("go", "build", "-o", duck, "./cmd/histduck")
	build.Dir = "docs/warehouse/check"
	build.Env = append(os.Environ(), "CGO_ENABLED=1")
	if out, err := build.CombinedOutput(); err != nil {
		return fmt.Errorf("building the DuckDB peer (make tools-warehouse installs g++): %v\n%s", err, out)
	}
	sqlPath, _ := filepath.Abs("docs/warehouse/duckdb/history.sql")
	var fgCost, duckCost, plainCost []cost
	var fgOut []byte
	for range rounds {
		c, out, err := timed(fg, "history", "-json", reports)
		if err != nil && len(out) == 0 {
			return err
		}
		fgCost, fgOut = append(fgCost, c), out
		c, out, err = timed(duck, "-glob", filepath.Join(reports, "*.json"), "-sql", sqlPath, "-out", dir)
		if err != nil {
			return err
		}
		fmt.Print("DuckDB: ", string(out))
		duckCost = append(duckCost, c)
		c, out, err = timed(duck, "-plain", "-glob", filepath.Join(reports, "*.json"), "-out", dir)
		if err != nil {
			return err
		}
		fmt.Print("DuckDB: ", string(out))
		plainCost = append(plainCost, c)
	}
	if err := sameFigures(fgOut, dir); err != nil {
		return err
	}
	best := func(cs []cost) cost {
		return slices.MinFunc(cs, func(a, b cost) int { return int(a.wall - b.wall) })
	}
	f, d, p := best(fgCost), best(duckCost), best(plainCost)
	fmt.Printf("flakegate history: %v wall, %v CPU, peak %.0f MB\n", f.wall.Round(time.Millisecond), f.cpu.Round(time.Millisecond), float64(f.peakRSS)/1e6)
	fmt.Printf("DuckDB history.sql (load, incidents, per-test figures): %v wall, %v CPU, peak %.0f MB\n", d.wall.Round(time.Millisecond), d.cpu.Round(time.Millisecond), float64(d.peakRSS)/1e6)
	fmt.Printf("DuckDB plain per-test counts (one GROUP BY, no incidents): %v wall, %v CPU, peak %.0f MB\n", p.wall.Round(time.Millisecond), p.cpu.Round(time.Millisecond), float64(p.peakRSS)/1e6)
	fmt.Printf("flakegate/DuckDB history.sql: wall %.2f, CPU %.2f, memory %.3f\n", f.wall.Seconds()/d.wall.Seconds(), f.cpu.Seconds()/d.cpu.Seconds(), float64(f.peakRSS)/float64(d.peakRSS))
	fmt.Printf("flakegate/DuckDB plain counts: wall %.2f, CPU %.2f, memory %.3f\n", f.wall.Seconds()/p.wall.Seconds(), f.cpu.Seconds()/p.cpu.Seconds(), float64(f.peakRSS)/float64(p.peakRSS))
	fmt.Println("(wall time is only comparable when nothing else loads the machine: read the CPU ratio on a shared one)")
	if f.peakRSS > 256<<20 {
		return fmt.Errorf("flakegate history peaked at %.0f MB, over 256 MB", float64(f.peakRSS)/1e6)
	}
	return nil
}

// sameFigures checks DuckDB's per-test figures and outage runs against
// flakegate's JSON: every listed test's runs, failures and incident
// failures, every test DuckDB finds failing outside incidents listed, and
// the same outage runs (by file).
func sameFigures(fgJSON []byte, dir string) error {
	var res history.Result
	if err := json.Unmarshal(fgJSON, &res); err != nil {
		return fmt.Errorf("flakegate's JSON: %w", err)
	}
	read := func(name string) ([][]string, error) {
		f, err := os.Open(filepath.Join(dir, name))
		if err != nil {
			return nil, err
		}
		defer f.Close()
		rows, err := csv.NewReader(f).ReadAll()
		if err != nil || len(rows) == 0 {
			return nil, fmt.Errorf("%s: %v", name, err)
		}
		return rows[1:], nil
	}
	rows, err := read("history-tests.csv")
	if err != nil {
		return err
	}
	figures := map[string][3]int64{}
	for _, r := range rows {
		var v [3]int64
		for i := range 3 {
			v[i], _ = strconv.ParseInt(r[1+i], 10, 64)
		}
		figures[r[0]] = v
	}
	listed := map[string]bool{}
	for _, l := range [][]history.TestHistory{res.Flakes, res.Broken} {
		for _, th := range l {
			listed[th.Test] = true
			if g, w := figures[th.Test], [3]int64{th.Runs, th.Failures, th.IncidentFailures}; g != w {
				return fmt.Errorf("%s: DuckDB runs, failures, incident failures %v, flakegate %v", th.Test, g, w)
			}
		}
	}
	for test, v := range figures {
		if v[1] > 0 && !listed[test] {
			return fmt.Errorf("%s failed outside incidents in DuckDB's figures, but flakegate does not list it", test)
		}
	}
	out, err := read("history-outages.csv")
	if err != nil {
		return err
	}
	var duckOut, fgOut []string
	for _, r := range out {
		duckOut = append(duckOut, filepath.Base(r[0]))
	}
	for _, inc := range res.Incidents {
		if inc.Kind == history.IncidentOutage {
			fgOut = append(fgOut, filepath.Base(inc.Runs[0].Run))
		}
	}
	slices.Sort(duckOut)
	slices.Sort(fgOut)
	if !slices.Equal(duckOut, fgOut) {
		return fmt.Errorf("outage runs: DuckDB %v, flakegate %v", duckOut, fgOut)
	}
	fmt.Printf("figures equal: %d tests listed, %d outage runs, %d tests in DuckDB's figures\n", len(listed), len(fgOut), len(figures))
	return nil
}
