package compare

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/flakegate/flakegate/core/aa"
	"github.com/flakegate/flakegate/core/stat"
)

// world is a population of questions to simulate evals from: A's pass
// rate on a question is uniform on [lo, hi], B's is A's plus delta plus a
// question's own shift, uniform on [−h, h]. Its true variance components,
// in closed form: Q = Var(shift) = h²/3; S = E[p_A(1−p_A)] + E[p_B(1−p_B)]
// with E[p_A] = (lo+hi)/2, E[p_A²] = (lo²+lo·hi+hi²)/3, E[p_B] = E[p_A] + δ,
// E[p_B²] = E[p_A²] + 2δE[p_A] + δ² + h²/3.
type world struct{ lo, hi, h, delta float64 }

func (w world) components() (q, s float64) {
	ma, m2a := (w.lo+w.hi)/2, (w.lo*w.lo+w.lo*w.hi+w.hi*w.hi)/3
	mb, m2b := ma+w.delta, m2a+2*w.delta*ma+w.delta*w.delta+w.h*w.h/3
	return w.h * w.h / 3, ma - m2a + mb - m2b
}

var simIDs = func() []string {
	out := make([]string, 1000)
	for i := range out {
		out[i] = fmt.Sprint(i)
	}
	return out
}()

func (w world) eval(r *rand.Rand, n, k int) (a, b *aa.Side) {
	a, b = &aa.Side{}, &aa.Side{}
	for i := range n {
		pa := w.lo + (w.hi-w.lo)*r.Float64()
		pb := pa + w.delta + w.h*(2*r.Float64()-1)
		id := simIDs[i]
		a.Scenarios = append(a.Scenarios, draw(r, id, pa, k))
		b.Scenarios = append(b.Scenarios, draw(r, id, pb, k))
	}
	return a, b
}

// TestPowerAgainstSimulation runs, for 30 random worlds (100 to 500
// questions, 1 to 5 epochs, true changes from 0 to 1.5 MDE), 1,500
// simulated evals each (45,000 comparisons, seeded) through Compare and
// counts how often its two-sided test at 95% rejects "no change" (p <
// 0.05). PowerAt, from the world's true variance components, must be
// within 0.05 of each world's rate (3.9 binomial standard errors at
// 1,500 runs, plus 0.01 for the normal formula against the t test), and
// within 0.01 on average over the worlds. For worlds with 2 or more epochs
// it also checks that the noise split is unbiased: the mean over runs of
// S and of s²_d − W are within 4 Monte Carlo standard errors of S and Q.
func TestPowerAgainstSimulation(t *testing.T) {
	r := rand.New(rand.NewPCG(28, 5))
	worlds, reps := 30, 1500
	if testing.Short() {
		worlds, reps = 6, 400
	}
	worst, sumDiff := 0.0, 0.0
	for wi := range worlds {
		w := world{lo: 0.15 + 0.15*r.Float64(), hi: 0.6 + 0.2*r.Float64(), h: 0.15 * r.Float64()}
		n := 100 + r.IntN(401)
		k := []int{1, 2, 3, 5}[r.IntN(4)]
		q, s := w.components()
		mde := MDE(q+s/float64(k), float64(n), 0.95, 0.8)
		w.delta = min(0.05, mde*[]float64{0, 0.5, 1, 1.5}[r.IntN(4)])
		q, s = w.components()
		v := q + s/float64(k)
		want := PowerAt(w.delta, v, float64(n), 0.95)
		rejected := 0
		var sHat, qHat, sHat2, qHat2 float64
		for range reps {
			a, b := w.eval(r, n, k)
			res, err := Compare(a, b, DefaultOptions)
			if err != nil {
				t.Fatal(err)
			}
			if res.PValue < 0.05 {
				rejected++
			}
			if nz := res.Noise; nz != nil {
				qh := res.SE*res.SE*float64(n) - nz.AnswerVariance
				sHat, sHat2 = sHat+nz.TrialVariance, sHat2+nz.TrialVariance*nz.TrialVariance
				qHat, qHat2 = qHat+qh, qHat2+qh*qh
			}
		}
		got := float64(rejected) / float64(reps)
		worst = max(worst, math.Abs(got-want))
		sumDiff += got - want
		if math.Abs(got-want) > 0.05 {
			t.Errorf("world %d %+v, n=%d k=%d: rejected %.3f of runs, PowerAt %.3f", wi, w, n, k, got, want)
		}
		if k >= 2 {
			fr := float64(reps)
			for _, c := range []struct {
				name            string
				sum, sum2, want float64
			}{{"S", sHat, sHat2, s}, {"Q", qHat, qHat2, q}} {
				mean := c.sum / fr
				mcse := math.Sqrt((c.sum2/fr - mean*mean) / fr)
				if math.Abs(mean-c.want) > 4*mcse+1e-12 {
					t.Errorf("world %d, n=%d k=%d: mean estimate of %s %.6f, true %.6f (Monte Carlo SE %.2g)", wi, n, k, c.name, mean, c.want, mcse)
				}
			}
		}
	}
	if avg := sumDiff / float64(worlds); math.Abs(avg) > 0.01 {
		t.Errorf("simulated power exceeds PowerAt by %.4f on average", avg)
	}
	t.Logf("%d worlds × %d evals: largest |simulated − PowerAt| %.4f, mean %+.4f", worlds, reps, worst, sumDiff/float64(worlds))
}

// TestMDEInverse: PowerAt at the MDE is the target power (the far tail
// adds at most Φ(−2z_{1−α/2}), 1e-4 at 95%), and QuestionsNeeded
// is the least n whose MDE is at most the effect.
func TestMDEInverse(t *testing.T) {
	r := rand.New(rand.NewPCG(28, 6))
	for range 2000 {
		v, n := 0.01+0.5*r.Float64(), float64(10+r.IntN(5000))
		level, power := 0.8+0.19*r.Float64(), 0.5+0.45*r.Float64()
		mde := MDE(v, n, level, power)
		if got := PowerAt(mde, v, n, level); got-power > stat.NormalSurvival(2*stat.Z(level))+1e-12 || got < power-1e-12 {
			t.Fatalf("PowerAt(MDE) = %v, want %v (v %v n %v level %v)", got, power, v, n, level)
		}
		effect := 0.005 + 0.1*r.Float64()
		need := QuestionsNeeded(v, effect, level, power)
		if MDE(v, float64(need), level, power) > effect*(1+1e-9) || need > 2 && MDE(v, float64(need-1), level, power) <= effect*(1-1e-9) {
			t.Fatalf("QuestionsNeeded(%v, %v) = %d is not the least n", v, effect, need)
		}
	}
}

// TestPlanRows: with a noise split the plan lists 1, 2, 3, 5 and 10 epochs,
// its MDE shrinking with epochs towards the question-sampling floor, and at
// the eval's own epochs the row's MDE is the eval's (Q + S/K = s²_d when Q
// is not floored).
func TestPlanRows(t *testing.T) {
	r := rand.New(rand.NewPCG(28, 7))
	w := world{lo: 0.2, hi: 0.8, h: 0.15, delta: 0.02}
	a, b := w.eval(r, 500, 3)
	res, err := Compare(a, b, DefaultOptions)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Plan.Epochs) != 5 || res.Noise == nil {
		t.Fatalf("plan %+v noise %+v", res.Plan, res.Noise)
	}
	for i, row := range res.Plan.Epochs[1:] {
		if row.MDE >= res.Plan.Epochs[i].MDE || row.QuestionsNeeded > res.Plan.Epochs[i].QuestionsNeeded {
			t.Errorf("plan does not shrink with epochs: %+v", res.Plan.Epochs)
		}
	}
	if row := res.Plan.Epochs[2]; !near(row.MDE, res.Plan.MDE, 1e-12) || row.QuestionsNeeded != res.Plan.QuestionsNeeded {
		t.Errorf("at 3 epochs the plan says %+v, the eval %v and %d", row, res.Plan.MDE, res.Plan.QuestionsNeeded)
	}
}
