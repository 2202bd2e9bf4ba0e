// Command aabench makes the benchmark CSV and times flakegate's A/A check on
// a CSV, for bench/aa/compare.sh:
//
//	aabench gen [-scenarios 10000] [-runs 100] > big.csv
//	aabench run [-n 1] big.csv [candidate.csv]
//	aabench time out-file command [args...]
//
// run prints the figures' JSON to standard output and, on standard error,
// the fastest of n passes (read and compute, file opening included) and,
// when n > 1, the memory the Go runtime obtained from the OS. time runs a
// command and writes its wall and CPU time and peak memory to out-file.
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"runtime"
	"time"

	aabench "github.com/flakegate/flakegate/bench/aa"
	"github.com/flakegate/flakegate/core"
	"github.com/flakegate/flakegate/core/aa"
)

func main() {
	if err := run(os.Args[1:], os.Stdout, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "aabench:", err)
		os.Exit(2)
	}
}

func run(args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		return fmt.Errorf("usage: aabench gen|run|time ...")
	}
	switch args[0] {
	case "gen":
		fs := flag.NewFlagSet("gen", flag.ContinueOnError)
		sc := fs.Int("scenarios", aabench.Scenarios, "scenarios")
		runs := fs.Int("runs", aabench.Runs, "runs")
		if err := fs.Parse(args[1:]); err != nil {
			return err
		}
		return aabench.WriteCSV(stdout, *sc, *runs, aabench.Seed)
	case "time":
		return timeCmd(args[1:])
	case "run":
		fs := flag.NewFlagSet("run", flag.ContinueOnError)
		n := fs.Int("n", 1, "passes; the fastest is reported")
		figures := fs.String("figures", "reference", "which figures to compute: reference (what aa_check.py prints) or all (with the in-depth analyses)")
		if err := fs.Parse(args[1:]); err != nil {
			return err
		}
		opt := aa.Options{Ks: aa.DefaultOptions.Ks, Drops: aa.DefaultOptions.Drops}
		switch *figures {
		case "reference":
		case "all":
			opt = aa.DefaultOptions
		default:
			return fmt.Errorf("-figures: want reference or all, got %q", *figures)
		}
		files := fs.Args()
		if len(files) < 1 || len(files) > 2 || *n < 1 {
			return fmt.Errorf("usage: aabench run [-n passes] base.csv [candidate.csv]")
		}
		var res *aa.Result
		var elapsed time.Duration
		for pass := 0; pass < *n; pass++ {
			start := time.Now()
			r, err := once(files, opt)
			if err != nil {
				return err
			}
			if d := time.Since(start); pass == 0 || d < elapsed {
				elapsed = d
			}
			res = r
		}
		if err := core.WriteJSON(stdout, res); err != nil {
			return err
		}
		fmt.Fprintf(stderr, "go (%s figures): %d rows in %.1f ms (fastest of %d)", *figures, res.Rows, float64(elapsed.Microseconds())/1000, *n)
		if *n > 1 {
			// Not in a single pass, which compare.sh times as a whole
			// process: ReadMemStats stops the world and touches every
			// span, work that is the benchmark's, not the check's.
			var m runtime.MemStats
			runtime.ReadMemStats(&m)
			fmt.Fprintf(stderr, ", memory obtained from the OS %.1f MB", float64(m.Sys)/1e6)
		}
		fmt.Fprintln(stderr)
		return nil
	}
	return fmt.Errorf("unknown command %q: want gen, run or time", args[0])
}

// once reads the CSVs and computes the A/A figures.
func once(files []string, opt aa.Options) (*aa.Result, error) {
	sides := make([]*aa.Side, 2)
	for i, name := range files {
		f, err := os.Open(name)
		if err != nil {
			return nil, err
		}
		sides[i], err = aa.ReadCSV(f)
		f.Close()
		if err != nil {
			return nil, core.WithFile(err, name)
		}
	}
	return aa.Check(sides[0], sides[1], opt)
}
