package sim_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/flakegate/flakegate/core"
	"github.com/flakegate/flakegate/core/aa"
	"github.com/flakegate/flakegate/core/aa/sim"
	"gonum.org/v1/gonum/stat/distuv"
)

// side is an A/A baseline of len(passed) scenarios seen in runs runs each,
// scenario s passing passed[s] of them, its passes dealt to the runs in
// turn.
func side(passed []int64, runs int) *aa.Side {
	s := &aa.Side{}
	rp := make([]int64, runs)
	next := 0
	for i, c := range passed {
		s.Scenarios = append(s.Scenarios, aa.Tally{ID: fmt.Sprint("s", i), Passed: c, Total: int64(runs)})
		s.Rows += int64(runs)
		for range c {
			rp[next%runs]++
			next++
		}
	}
	for r, p := range rp {
		s.Runs = append(s.Runs, aa.Tally{ID: fmt.Sprint("r", r), Passed: p, Total: int64(len(passed))})
	}
	return s
}

// TestPairedFires: the simulator's integer form of the paired t-test agrees
// with Depth's paired t-test on the same counts.
func TestPairedFires(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 11))
	agree, fired := 0, 0
	for trial := range 400 {
		n := 2 + rng.IntN(60)
		k := 1 + rng.IntN(6)
		b, c := make([]int64, n), make([]int64, n)
		var sd, sq int64
		for s := range n {
			b[s] = int64(rng.IntN(k + 1))
			c[s] = max(0, min(int64(k), b[s]+int64(rng.IntN(3))-1-int64(trial%2)))
			d := c[s] - b[s]
			sd += d
			sq += d * d
		}
		dep, err := aa.InDepth(side(b, k+1), side(c, k+1), aa.DefaultDepthOptions)
		if err != nil {
			t.Fatal(err)
		}
		tc := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: float64(n - 1)}.Quantile(0.95)
		got := sim.PairedFires(sd, sq, n, tc*tc)
		if want := dep.PairedT.Verdict == core.VerdictRegression; got != want {
			t.Errorf("trial %d: fires %v, Depth says %s (p %v, t %v)", trial, got, dep.PairedT.Verdict, dep.PairedT.PValue, dep.PairedT.T)
		} else {
			agree++
		}
		if got {
			fired++
		}
	}
	if fired < 50 || fired > 350 {
		t.Errorf("fired on %d of 400 trials: the cases do not exercise both answers", fired)
	}
}
