package page

import (
	"strconv"
	"strings"

	"github.com/flakegate/flakegate/core/aa"
)

// The A/A example is shaped like a published A/A suite: 200 tool-calling
// scenarios ("simple_…" give the model one tool, "multiple_…" several), 20
// unchanged runs in which 158 scenarios always pass, 14 always fail and 28
// go both ways, with a pass rate that drifts down (87.7% in the first ten
// runs, 85.6% in the last ten; the runs spread more than the formula
// predicts, 2.12 against 1.64 points, as the published 1.95 against 1.55),
// where a fixed 2-point rule blocks a quarter of unchanged comparisons;
// and 4 runs of a candidate whose drop, 1.40 points, only just passes the
// 1.35-point threshold of 20 runs against 4. The seed, drift and drop were
// chosen among the first 400 seeds for those properties. The runs are
// written out as CSV rows and read with aa.ReadCSV, as a pasted file would
// be.

// exampleU is a fixed pseudo-random number in [0,1) for scenario s in run
// r of a side (splitmix64 of the three), so that the example is the same
// bytes everywhere.
func exampleU(s, r, side int) float64 {
	x := uint64(s)*0x9e3779b97f4a7c15 + uint64(r)*0xbf58476d1ce4e5b9 + uint64(side)*0x94d049bb133111eb + exampleSeed
	x ^= x >> 30
	x *= 0xbf58476d1ce4e5b9
	x ^= x >> 27
	x *= 0x94d049bb133111eb
	x ^= x >> 31
	return float64(x>>11) / (1 << 53)
}

const (
	exampleSeed  = 8
	exampleShift = 0.3 // the baseline's drift over its runs, in pass chance of a flaky scenario
	exampleLower = 0.1 // how much less often the candidate's flaky scenarios pass
)

// exampleCSV writes the rows of one side (0 the baseline, 1 the
// candidate), its runs named prefix01, prefix02… Every seventh of the
// first 196 scenarios goes both ways, with a pass chance between 0.15 and
// 0.95 that drifts down by shift over the runs; 14 others always fail.
func exampleCSV(prefix string, side, runs int, shift, lower float64) string {
	var b strings.Builder
	b.WriteString("scenario,run,passed\n")
	for r := 0; r < runs; r++ {
		run := prefix + twoDigits(r+1)
		for s := 0; s < 200; s++ {
			name := "simple_" + threeDigits(s)
			if s >= 100 {
				name = "multiple_" + threeDigits(s-100)
			}
			passed := true
			switch {
			case s%7 == 3 && s/7 < 28:
				q := 0.15 + 0.8*float64((s/7)*17%28)/27
				if runs > 1 {
					q += shift * (0.5 - float64(r)/float64(runs-1))
				}
				passed = exampleU(s, r, side) < q-lower
			case s%14 == 5:
				passed = false
			}
			p := "0"
			if passed {
				p = "1"
			}
			b.WriteString(name + "," + run + "," + p + "\n")
		}
	}
	return b.String()
}

func twoDigits(i int) string {
	if i < 10 {
		return "0" + strconv.Itoa(i)
	}
	return strconv.Itoa(i)
}

func threeDigits(i int) string { return strings.Repeat("0", 3-len(strconv.Itoa(i))) + strconv.Itoa(i) }

// exampleAA is the example's two sides.
func exampleAA() AAShare {
	b, c := ExampleAACSV()
	base, err := aa.ReadCSV(strings.NewReader(b))
	if err != nil {
		panic("the A/A example does not read: " + err.Error())
	}
	cand, err := aa.ReadCSV(strings.NewReader(c))
	if err != nil {
		panic("the A/A example does not read: " + err.Error())
	}
	return AAShare{Baseline: base, Candidate: cand}
}

// ExampleAACSV is the example's baseline and candidate as the CSV files
// they stand for, for `flakegate aa` to check the page against.
func ExampleAACSV() (baseline, candidate string) {
	return exampleCSV("run", 0, 20, exampleShift, 0), exampleCSV("candidate", 1, 4, 0, exampleLower)
}
