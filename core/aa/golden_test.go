package aa

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/flakegate/flakegate/core"
	"github.com/flakegate/flakegate/internal/testfile"
)

var aaUpdate = flag.Bool("update-aa", false, "rewrite core/aa/testdata/aa/*.out.json from the current code")

// aaGolden is one case written by testdata/aa/gen.py: the figures that the
// original A/A script the formulas were first written in computes from the CSVs (Python 3.11).
type aaGolden struct {
	Case      string  `json:"case"`
	Baseline  string  `json:"baseline"`
	Candidate *string `json:"candidate_csv"`
	Figures   Result  `json:"figures"`
}

// readAAFile reads testdata/aa/name with ReadCSV.
func readAAFile(t testing.TB, name string) *Side {
	return readCSVFile(t, filepath.Join("testdata", "aa", name))
}

// readCSVFile reads the scenario,run,passed CSV at path with ReadCSV.
func readCSVFile(t testing.TB, path string) *Side {
	t.Helper()
	s, err := ReadCSV(bytes.NewReader(testfile.Read(t, path)))
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return s
}

func loadAAGoldens(t *testing.T) []aaGolden {
	t.Helper()
	names, err := filepath.Glob(filepath.Join("testdata", "aa", "*.golden.json"))
	if err != nil || len(names) < 8 {
		t.Fatalf("want at least 8 golden cases in testdata/aa, found %d (%v)", len(names), err)
	}
	var out []aaGolden
	for _, n := range names {
		b, err := os.ReadFile(n)
		if err != nil {
			t.Fatal(err)
		}
		var g aaGolden
		if err := json.Unmarshal(b, &g); err != nil {
			t.Fatalf("%s: %v", n, err)
		}
		out = append(out, g)
	}
	return out
}

func (g aaGolden) run(t *testing.T) *Result {
	t.Helper()
	base := readAAFile(t, g.Baseline)
	var cand *Side
	if g.Candidate != nil {
		cand = readAAFile(t, *g.Candidate)
	}
	res, err := Check(base, cand, DefaultOptions)
	if err != nil {
		t.Fatalf("AA: %v", err)
	}
	return res
}

// aaFloats lists every float of a result with its path, and every other
// figure as a string, so two results can be compared figure by figure.
func aaFigures(r *Result) (floats map[string]float64, other map[string]string) {
	floats, other = map[string]float64{}, map[string]string{}
	other["scenarios/runs/rows/mixed"] = fmt.Sprint(r.Scenarios, r.Runs, r.Rows, r.Mixed)
	floats["v"] = r.V
	floats["noise.formula"] = r.Noise.Formula
	floats["noise.s"] = r.Noise.S
	if r.Noise.Measured != nil {
		floats["noise.measured"] = *r.Noise.Measured
	} else {
		other["noise.measured"] = "null"
	}
	other["len(thresholds)"] = fmt.Sprint(len(r.Thresholds))
	for i, x := range r.Thresholds {
		other[fmt.Sprintf("thresholds[%d].runs_per_side", i)] = fmt.Sprint(x.RunsPerSide)
		floats[fmt.Sprintf("thresholds[%d].drop", i)] = x.Drop
	}
	other["len(runs_needed)"] = fmt.Sprint(len(r.RunsNeeded))
	for i, x := range r.RunsNeeded {
		other[fmt.Sprintf("runs_needed[%d]", i)] = fmt.Sprint(x.Drop, x.RunsPerSide)
	}
	other["trend"] = "null"
	if r.Trend != nil {
		other["trend"] = fmt.Sprint(*r.Trend)
	}
	other["len(run_rates)"] = fmt.Sprint(len(r.RunRates))
	for i, x := range r.RunRates {
		other[fmt.Sprintf("run_rates[%d].run", i)] = x.Run
		floats[fmt.Sprintf("run_rates[%d].rate", i)] = x.Rate
	}
	other["candidate"] = "null"
	if c := r.Candidate; c != nil {
		other["candidate"] = fmt.Sprint(c.Runs, c.Scenarios, c.Verdict, c.Blocks, len(c.LargestDrops))
		floats["candidate.diff"] = c.Diff
		floats["candidate.threshold"] = c.Threshold
		for i, d := range c.LargestDrops {
			other[fmt.Sprintf("largest_drops[%d].scenario", i)] = d.Scenario
			floats[fmt.Sprintf("largest_drops[%d].diff", i)] = d.Diff
		}
	}
	return floats, other
}

// TestAAGoldenReference compares every figure with the reference's, to 1e-12
// relative (absolute below 1e-300), the tolerance the contract states where
// the formula is the same.
func TestAAGoldenReference(t *testing.T) {
	for _, g := range loadAAGoldens(t) {
		t.Run(g.Case, func(t *testing.T) {
			got := g.run(t)
			gf, go_ := aaFigures(got)
			wf, wo := aaFigures(&g.Figures)
			for k, w := range wo {
				if go_[k] != w {
					t.Errorf("%s = %s, reference %s", k, go_[k], w)
				}
			}
			if len(go_) != len(wo) {
				t.Errorf("%d non-float figures, reference has %d", len(go_), len(wo))
			}
			for k, w := range wf {
				g, ok := gf[k]
				if !ok {
					t.Errorf("%s missing", k)
					continue
				}
				if d := math.Abs(g - w); d > 1e-12*math.Abs(w) && d > 1e-300 {
					t.Errorf("%s = %v, reference %v (relative error %.3g)", k, g, w, d/math.Abs(w))
				}
			}
		})
	}
}

// TestAAGoldenBitExact holds us to more than the tolerance: with stat.Fsum for
// Python's fmean, an exact stdev and Python's order of operations, every
// float is the reference's to the last bit.
func TestAAGoldenBitExact(t *testing.T) {
	for _, g := range loadAAGoldens(t) {
		got := g.run(t)
		gf, _ := aaFigures(got)
		wf, _ := aaFigures(&g.Figures)
		for k, w := range wf {
			if g, ok := gf[k]; ok && g != w {
				t.Errorf("%s = %v (%x), reference %v (%x)", k, g, g, w, w)
			}
		}
	}
}

// TestAAGoldenOutput pins the full JSON bytes (warnings included), so that a
// change of wording or figures is seen, and so that WebAssembly writes the
// same bytes. Rewrite with go test ./core/aa -run AAGoldenOutput -update-aa.
func TestAAGoldenOutput(t *testing.T) {
	for _, g := range loadAAGoldens(t) {
		var b bytes.Buffer
		if err := core.WriteJSON(&b, g.run(t)); err != nil {
			t.Fatal(err)
		}
		testfile.Golden(t, filepath.Join("testdata", "aa", g.Case+".out.json"), b.Bytes(), *aaUpdate, "-update-aa")
	}
}

// The reference cannot read a byte order mark or true/false, so bom_words.csv
// (BOM, CRLF header, mixed-case header names with blanks, true/false in any
// case, blank and blank-looking lines) must read exactly as its plain twin,
// whose figures are in bom_plain.golden.json.
func TestAABOMTwin(t *testing.T) {
	plain := readAAFile(t, "bom_plain.csv")
	words := readAAFile(t, "bom_words.csv")
	if !reflect.DeepEqual(plain, words) {
		t.Errorf("bom_words.csv reads as\n%+v\nbom_plain.csv as\n%+v", words, plain)
	}
}
