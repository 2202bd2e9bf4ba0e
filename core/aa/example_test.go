package aa_test

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/flakegate/flakegate/core/aa"
)

// runsCSV is the scenario,run,passed CSV of outcomes (scenario: its
// outcome in runs 1, 2, ..., 1 passed and 0 failed), run after run, the
// scenarios of a run in the order of their names.
func runsCSV(outcomes map[string]string) string {
	names := slices.Sorted(maps.Keys(outcomes))
	var b strings.Builder
	b.WriteString("scenario,run,passed\n")
	for run := range len(outcomes[names[0]]) {
		for _, sc := range names {
			fmt.Fprintf(&b, "%s,run%d,%c\n", sc, run+1, outcomes[sc][run])
		}
	}
	return b.String()
}

// ReadCSV keeps only tallies: per scenario and per run, in order of first
// appearance.
func ExampleReadCSV() {
	csv := "scenario,run,passed\n" +
		"lookup,r1,1\nsearch,r1,0\n" +
		"lookup,r2,true\nsearch,r2,1\n"
	side, err := aa.ReadCSV(strings.NewReader(csv))
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, t := range side.Scenarios {
		fmt.Printf("scenario %s: %d of %d\n", t.ID, t.Passed, t.Total)
	}
	for _, t := range side.Runs {
		fmt.Printf("run %s: %d of %d\n", t.ID, t.Passed, t.Total)
	}
	// Output:
	// scenario lookup: 2 of 2
	// scenario search: 1 of 2
	// run r1: 1 of 2
	// run r2: 2 of 2
}

// Errors name the line and column of the field at fault.
func ExampleReadCSV_error() {
	_, err := aa.ReadCSV(strings.NewReader("scenario,run,passed\nlookup,r1,yes\n"))
	fmt.Println(err)
	// Output:
	// 2:11: passed must be 0, 1, true or false, found "yes"
}

// An A/A check of four runs of an unchanged suite, then a candidate run. The
// original A/A script the formulas were first written in prints the same
// figures for these CSVs (s = 25.82
// points, thresholds 42.47/30.03/21.24/15.02, -20.00 against 33.58).
func ExampleCheck() {
	outcomes := map[string]string{ // scenario: outcome in runs 1..4
		"book": "1111", "cancel": "1011", "lookup": "0110", "refund": "1110", "search": "0000",
	}
	base, _ := aa.ReadCSV(strings.NewReader(runsCSV(outcomes)))
	cand, _ := aa.ReadCSV(strings.NewReader("scenario,run,passed\nbook,c1,0\ncancel,c1,0\nlookup,c1,1\nrefund,c1,1\nsearch,c1,0\n"))

	res, err := aa.Check(base, cand, aa.DefaultOptions)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%d scenarios, %d runs, %d mixed, s = %.3f\n", res.Scenarios, res.Runs, res.Mixed, res.Noise.S)
	for _, t := range res.Thresholds {
		fmt.Printf("%d run(s) per side: flag drops over %.3f\n", t.RunsPerSide, t.Drop)
	}
	c := res.Candidate
	fmt.Printf("candidate: %+.3f against %.3f: %s\n", c.Diff, c.Threshold, c.Verdict)
	fmt.Println("largest drop:", c.LargestDrops[0].Scenario)
	// Output:
	// 5 scenarios, 4 runs, 3 mixed, s = 0.258
	// 1 run(s) per side: flag drops over 0.425
	// 2 run(s) per side: flag drops over 0.300
	// 4 run(s) per side: flag drops over 0.212
	// 8 run(s) per side: flag drops over 0.150
	// candidate: -0.200 against 0.336: no-regression
	// largest drop: book
}
