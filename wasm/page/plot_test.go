package page

import (
	"flag"
	"math"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/flakegate/flakegate/core"
	"github.com/flakegate/flakegate/core/aa"
	"github.com/flakegate/flakegate/core/gate"
	"github.com/flakegate/flakegate/internal/testfile"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// The plots are part of the page bytes: golden files pin them, so a change
// is seen in review. Regenerate with: go test ./wasm/page -run Plot -update
func TestPlotGolden(t *testing.T) {
	cost := 8.0
	b, _ := gate.Budget(gate.BudgetInput{Target: 0.95, Cap: 3, Confidence: 0.95, CostSeconds: &cost,
		Rates: []float64{0.05, 0.02, 0.01}, Observed: &core.Count{Passed: 1, Trials: 120}})
	d, _ := gate.Decide(gate.DecideInput{Baseline: core.Count{Passed: 10, Trials: 20}, Patched: core.Count{Passed: 17, Trials: 20},
		MinTrials: 20, Confidence: 0.95, Property: core.PropertyUnknown})
	aa, err := aa.Check(sampleSide(t, aaCSV(30, 9, func(s, r int) bool { return (s*7+r*r)%10 == 0 })), nil, aa.DefaultOptions)
	if err != nil {
		t.Fatal(err)
	}
	for name, svg := range map[string]string{"power.svg": PowerPlot(b), "intervals.svg": IntervalPlot(d), "runs.svg": RunPlot(aa, nil, RunPlotWide), "runs-narrow.svg": RunPlot(aa, nil, RunPlotNarrow)} {
		testfile.Golden(t, filepath.Join("testdata", name), []byte(svg), *update, "-update")
		if strings.Contains(svg, "NaN") || strings.Contains(svg, "Inf") || strings.Contains(svg, "style=") {
			t.Errorf("%s has a NaN, an Inf or an inline style", name)
		}
	}
}

func TestFitTrend(t *testing.T) {
	// rates 0.9, 0.8, 0.7: slope exactly -0.1 per run (up to rounding, 1e-12).
	tr := FitTrend([]aa.RunRate{{Rate: 0.9}, {Rate: 0.8}, {Rate: 0.7}})
	if math.Abs(tr.Slope+0.1) > 1e-12 || math.Abs(tr.Intercept-0.9) > 1e-12 {
		t.Errorf("trend %+v", tr)
	}
	if tr := FitTrend([]aa.RunRate{{Rate: 0.5}}); tr.Slope != 0 || tr.Intercept != 0.5 {
		t.Errorf("one run: %+v", tr)
	}
}

// Thirty rates: every legend line lies inside the plot's viewBox, the k
// labels (which would pile up) are left out, and past six curves the
// colours come back dashed.
func TestPowerPlotManyRates(t *testing.T) {
	var rates []float64
	for i := 1; i <= 30; i++ {
		rates = append(rates, 0.00011*float64(i))
	}
	r, err := gate.Budget(gate.BudgetInput{Target: 0.95, Cap: 3, Confidence: 0.95, Rates: rates})
	if err != nil {
		t.Fatal(err)
	}
	svg := PowerPlot(r)
	m := regexp.MustCompile(`viewBox="0 0 ([0-9.]+) ([0-9.]+)"`).FindStringSubmatch(svg)
	if m == nil {
		t.Fatalf("no viewBox:\n%s", svg)
	}
	h, _ := strconv.ParseFloat(m[2], 64)
	texts := regexp.MustCompile(`<text [^>]*y="([0-9.-]+)"[^>]*>p = `).FindAllStringSubmatch(svg, -1)
	if len(texts) != 30 {
		t.Fatalf("%d legend labels, want 30", len(texts))
	}
	for _, tm := range texts {
		if y, _ := strconv.ParseFloat(tm[1], 64); y <= 0 || y > h-4 {
			t.Errorf("legend label at y %v outside the viewBox height %v", y, h)
		}
	}
	if strings.Contains(svg, ">k=") {
		t.Error("k labels drawn for 30 curves")
	}
	if !strings.Contains(svg, "pl-series0 pl-dash1") || !strings.Contains(svg, "pl-series5 pl-dash2") {
		t.Error("curves past the sixth are not dashed")
	}
}
