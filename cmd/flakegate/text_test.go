package main

import (
	"bytes"
	"os"
	"strings"
	"testing"

	"github.com/flakegate/flakegate/core"
	"github.com/flakegate/flakegate/core/aa"
	"github.com/flakegate/flakegate/core/aa/sim"
	"github.com/flakegate/flakegate/internal/testfile"
)

// The A/A fixture shaped like a published A/A suite (core/aa/testdata/depth/gen), and a candidate, shared with the
// core's tests of the analyses.
const depthFixtures = "../../core/aa/testdata/depth/"

// readCSV reads an A/A CSV as the aa command does.
func readCSV(t *testing.T, path string) *aa.Side {
	t.Helper()
	s, err := readAA(&env{}, path)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// checkGolden compares got with the file at path (-update rewrites it).
func checkGolden(t *testing.T, path string, got []byte) {
	t.Helper()
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want := testfile.Read(t, path)
	if !bytes.Equal(got, want) {
		t.Errorf("output differs from %s:\n--- got\n%s--- want\n%s", path, got, want)
	}
}

// TestDepthText holds the in-depth analyses' text, at most 5 flaky
// scenarios listed, to testdata/published_like.depth.txt.
func TestDepthText(t *testing.T) {
	d, err := aa.InDepth(readCSV(t, depthFixtures+"published_like.csv"), readCSV(t, depthFixtures+"candidate.csv"), aa.DefaultDepthOptions)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := writeDepth(&b, d, 5); err != nil {
		t.Fatal(err)
	}
	checkGolden(t, "testdata/published_like.depth.txt", b.Bytes())
}

// TestSimTable holds a simulation of that A/A fixture, its JSON and
// then its table, to the core's golden file of it (whose JSON the core's
// tests check natively and in WebAssembly).
func TestSimTable(t *testing.T) {
	opt := sim.DefaultOptions
	opt.Sets = 1000
	res, err := aa.Simulate(readCSV(t, depthFixtures+"published_like.csv"), opt)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := core.WriteJSON(&b, res); err != nil {
		t.Fatal(err)
	}
	if err := writeSimTable(&b, res); err != nil {
		t.Fatal(err)
	}
	checkGolden(t, depthFixtures+"published_like.sim.golden", b.Bytes())
}

// TestSimTableUnavailable: a gate the baseline cannot set (the measured
// threshold needs 3 runs) still has its row, with "-" for its rates, and
// the reason follows as a warning.
func TestSimTableUnavailable(t *testing.T) {
	var csv strings.Builder
	csv.WriteString("scenario,run,passed\n")
	for _, row := range []string{"a,r1,1", "a,r2,0", "b,r1,1", "b,r2,1", "c,r1,0", "c,r2,1"} {
		csv.WriteString(row + "\n")
	}
	base, err := aa.ReadCSV(strings.NewReader(csv.String()))
	if err != nil {
		t.Fatal(err)
	}
	opt := sim.DefaultOptions
	opt.Sets = 50
	res, err := aa.Simulate(base, opt)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	if err := writeSimTable(&b, res); err != nil {
		t.Fatal(err)
	}
	var row string
	for _, l := range strings.Split(b.String(), "\n") {
		if strings.HasPrefix(strings.TrimSpace(l), "measured-threshold") {
			row = l
		}
	}
	if fields := strings.Fields(row); len(fields) < 3 || fields[1] != "-" || fields[2] != "-" {
		t.Errorf("the measured-threshold row should show - for its threshold and rates: %q\n%s", row, b.String())
	}
	if !strings.Contains(b.String(), "warning: the measured-threshold gate needs 3 or more baseline runs") {
		t.Errorf("no warning for the unavailable gate:\n%s", b.String())
	}
}
