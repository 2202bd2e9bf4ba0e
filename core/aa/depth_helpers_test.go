package aa

import (
	"fmt"
	"github.com/flakegate/flakegate/internal/testfile"
	"math"
	"strings"
	"testing"
)

// loadDepthCSV reads a scenario,run,passed fixture the slow, obvious way,
// without ReadCSV, so that these tests check the analyses on their own.
func loadDepthCSV(t testing.TB, path string) *Side {
	t.Helper()
	rows := testfile.Rows(t, path, ",", 3)
	if strings.Join(rows[0], ",") != "scenario,run,passed" {
		t.Fatalf("%s: want the header scenario,run,passed", path)
	}
	s := &Side{}
	scen, run := map[string]int{}, map[string]int{}
	for _, p := range rows[1:] {
		if p[2] != "0" && p[2] != "1" {
			t.Fatalf("%s: bad row %q", path, p)
		}
		i, ok := scen[p[0]]
		if !ok {
			i = len(s.Scenarios)
			scen[p[0]] = i
			s.Scenarios = append(s.Scenarios, Tally{ID: p[0]})
		}
		j, ok := run[p[1]]
		if !ok {
			j = len(s.Runs)
			run[p[1]] = j
			s.Runs = append(s.Runs, Tally{ID: p[1]})
		}
		s.Scenarios[i].Total++
		s.Runs[j].Total++
		if p[2] == "1" {
			s.Scenarios[i].Passed++
			s.Runs[j].Passed++
		}
		s.Rows++
	}
	return s
}

// synthSide builds a side of len(passed) scenarios, each seen in runs runs,
// scenario i passing passed[i] of them, with the passes dealt to the runs
// round-robin (so that run tallies add up). runBias, when not nil, moves
// passes between runs afterwards: it must sum to 0.
func synthSide(passed []int64, runs int, runBias []int64) *Side {
	s := &Side{}
	rp := make([]int64, runs)
	next := 0
	for i, c := range passed {
		s.Scenarios = append(s.Scenarios, Tally{ID: fmt.Sprintf("s%04d", i), Passed: c, Total: int64(runs)})
		for range c {
			rp[next%runs]++
			next++
		}
		s.Rows += int64(runs)
	}
	for r := range runs {
		p := rp[r]
		if runBias != nil {
			p += runBias[r]
		}
		s.Runs = append(s.Runs, Tally{ID: fmt.Sprintf("r%02d", r), Passed: p, Total: int64(len(passed))})
	}
	return s
}

// within reports whether got is want to within tol, absolute.
func within(got, want, tol float64) bool { return math.Abs(got-want) <= tol }
