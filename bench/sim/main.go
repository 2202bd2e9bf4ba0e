// Command sim times the gate simulator at its reference size: 4,000 sets,
// 4 shapes, 200 scenarios, 4 runs per side, on a baseline shaped like a
// published A/A suite (158 scenarios always passing, 14 always failing, 28 flaky, 20 runs:
// core/aa/testdata/depth/published_like.csv, so run it from the repository root).
// It prints each gate's rates once, then the fastest and the median time of -reps
// calls, and fails when the median exceeds -budget.
//
// Natively: go run ./bench/sim
// WebAssembly under Node, a proxy for the browser:
//
//	GOOS=js GOARCH=wasm go run -exec="$(go env GOROOT)/lib/wasm/go_js_wasm_exec" ./bench/sim -budget 3s
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"runtime"
	"slices"
	"time"

	"github.com/flakegate/flakegate/bench/internal/proc"
	"github.com/flakegate/flakegate/core"
	"github.com/flakegate/flakegate/core/aa"
	"github.com/flakegate/flakegate/core/aa/sim"
)

func main() { proc.Exit("sim", run(os.Args[1:], os.Stdout)) }

func run(args []string, out io.Writer) error {
	fs := flag.NewFlagSet("sim", flag.ContinueOnError)
	reps := fs.Int("reps", 7, "timed calls")
	budget := fs.Duration("budget", time.Second, "largest acceptable median time per call")
	sets := fs.Int("sets", 4000, "simulated sets per shape")
	k := fs.Int("k", 4, "runs per side")
	csv := fs.String("csv", "core/aa/testdata/depth/published_like.csv", "baseline A/A runs, scenario,run,passed")
	if err := fs.Parse(args); err != nil {
		return err
	}
	f, err := os.Open(*csv)
	if err != nil {
		return err
	}
	base, err := aa.ReadCSV(f)
	f.Close()
	if err != nil {
		return core.WithFile(err, *csv)
	}
	opt := sim.DefaultOptions
	opt.Sets, opt.RunsPerSide = *sets, *k
	res, err := aa.Simulate(base, opt)
	if err != nil {
		return err
	}
	printGates(out, res)
	times := make([]time.Duration, *reps)
	for i := range times {
		start := time.Now()
		if _, err := aa.Simulate(base, opt); err != nil {
			return err
		}
		times[i] = time.Since(start)
	}
	slices.Sort(times)
	median := times[len(times)/2]
	fmt.Fprintf(out, "%s/%s %s: %d scenarios, %d sets × 5 conditions, %d runs per side: fastest %v, median %v of %d (budget %v)\n",
		runtime.GOOS, runtime.GOARCH, runtime.Version(), len(base.Scenarios), *sets, *k,
		times[0].Round(time.Millisecond), median.Round(time.Millisecond), *reps, *budget)
	if median > *budget {
		return fmt.Errorf("median %v is over the budget of %v", median, *budget)
	}
	return nil
}

// printGates prints each gate's false alarms and detection rates, one line a
// gate (flakegate aa -simulate prints them as a table).
func printGates(w io.Writer, res *sim.Result) {
	pct := func(x *float64) string {
		if x == nil {
			return "-"
		}
		return fmt.Sprintf("%.1f%%", 100**x)
	}
	for _, g := range res.Gates {
		fmt.Fprintf(w, "%-18s false alarms %6s; caught", g.Gate, pct(g.FalseAlarm))
		for i, d := range g.Detection {
			fmt.Fprintf(w, "  %s %s", res.Shapes[i].Shape, pct(d))
		}
		fmt.Fprintln(w)
	}
}
