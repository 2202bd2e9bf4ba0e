package page

import (
	"testing"

	"github.com/flakegate/flakegate/core/gate"
)

// BenchmarkPowerPlot is the plot the budget page rebuilds on every
// keystroke (three rates, the default form).
func BenchmarkPowerPlot(b *testing.B) {
	r, err := gate.Budget(gate.BudgetInput{Target: 0.95, Cap: 3, Confidence: 0.95, Rates: []float64{0.05, 0.02, 0.01}})
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		PowerPlot(r)
	}
}
