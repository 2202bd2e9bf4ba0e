package words

import (
	"testing"

	"github.com/flakegate/flakegate/core/history"
)

// TestCostCell: a cost says where its run time came from; a reported run
// time of 0 (go test writes Elapsed to 0.01 s) is said to be one, not read
// as a run that costs nothing. Expected cells written by hand from
// Duration's units.
func TestCostCell(t *testing.T) {
	f := func(v float64) *float64 { return &v }
	cases := []struct {
		name string
		in   history.TestHistory
		want string
	}{
		{"no cost", history.TestHistory{}, "—"},
		{"given", history.TestHistory{CostSeconds: f(2), CostBasis: history.CostGiven}, "2 s"}, // one decimal, dropped when it is 0 (Duration's doc)
		{"reported", history.TestHistory{CostSeconds: f(0.3), RunSeconds: f(6), CostBasis: history.CostReported}, "0.3 s (runs take 6 s)"},
		{"reported zero", history.TestHistory{CostSeconds: f(0), RunSeconds: f(0), CostBasis: history.CostReported}, "0 s (its reports give its runs 0 s)"},
	}
	for _, c := range cases {
		if got := CostCell(c.in); got != c.want {
			t.Errorf("%s: CostCell = %q, want %q", c.name, got, c.want)
		}
	}
}
