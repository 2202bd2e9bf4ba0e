package sim

import (
	"fmt"
	"math"
	"math/big"
	"testing"

	"gonum.org/v1/gonum/stat/distuv"
)

// knownModel is a synthetic suite with known pass probabilities: 200
// scenarios seen in 20 runs each, 150 always passing, 10 always failing and
// 40 at rates 1/20 … 19/20. Its thresholds are those the A/A check sets for
// it at 4 runs per side when its runs' tallies are spread by a few passes
// (the same suite in package aa's tests, which check how Simulate sets
// them); the tests here compute the exact firing chances for whatever
// thresholds the gates are given.
func knownModel() Model {
	q := make([]float64, 200)
	for i := range q {
		if i < 150 {
			q[i] = 1
		} else if i >= 160 {
			q[i] = float64(1+(i*7)%19) / 20
		}
	}
	measured := 0.010352431223478004
	return Model{Pass: q, Runs: 20, FormulaDrop: 0.015702506975924176, MeasuredDrop: &measured}
}

// runKnown runs the default simulation of knownModel with seed.
func runKnown(t *testing.T, seed uint64) (Model, Options, *Result) {
	t.Helper()
	m := knownModel()
	opt := DefaultOptions
	opt.Seed = seed
	res, err := Run(m, opt)
	if err != nil {
		t.Fatal(err)
	}
	return m, opt, res
}

// show prints an optional rate.
func show(x *float64) string {
	if x == nil {
		return "null"
	}
	return fmt.Sprint(*x)
}

// plantSlow builds each shape's pass probabilities from its definition,
// independently of plantShapes.
func plantSlow(q []float64, shape string, drop float64, broken, halved int) []float64 {
	p := append([]float64(nil), q...)
	switch shape {
	case ShapeFlakyWorse, ShapeAllWorse:
		var sum float64
		for _, x := range q {
			if shape == ShapeAllWorse || (x > 0 && x < 1) {
				sum += x
			}
		}
		f := drop * float64(len(q)) / sum
		for i, x := range q {
			if shape == ShapeAllWorse || (x > 0 && x < 1) {
				p[i] = x * (1 - f)
			}
		}
	case ShapeStableBreak, ShapeStableHalf:
		m, to := broken, 0.0
		if shape == ShapeStableHalf {
			m, to = halved, 0.5
		}
		for i, x := range q {
			if x == 1 && m > 0 {
				p[i] = to
				m--
			}
		}
	}
	return p
}

// totalPMF is the distribution of the sum over scenarios of Binomial(k, q_s),
// convolved scenario by scenario.
func totalPMF(q []float64, k int) []float64 {
	pmf := []float64{1}
	bp := make([]float64, k+1)
	for _, x := range q {
		for j := range bp {
			// C(k,j)·x^j·(1-x)^(k-j), with 0^0 = 1 at x = 0 and x = 1.
			bp[j] = binomCoef(k, j) * math.Pow(x, float64(j)) * math.Pow(1-x, float64(k-j))
		}
		next := make([]float64, len(pmf)+k)
		for t, pt := range pmf {
			for j, pj := range bp {
				next[t+j] += pt * pj
			}
		}
		pmf = next
	}
	return pmf
}

func binomCoef(n, k int) float64 {
	c := 1.0
	for i := range k {
		c = c * float64(n-i) / float64(i+1)
	}
	return c
}

// probDropAtLeast is P(B - C >= d) for independent B ~ pb and C ~ pc.
func probDropAtLeast(pb, pc []float64, d int) float64 {
	cdf := make([]float64, len(pc))
	var run float64
	for i, p := range pc {
		run += p
		cdf[i] = run
	}
	var p float64
	for b, x := range pb {
		if c := b - d; c >= 0 {
			p += x * cdf[min(c, len(cdf)-1)]
		}
	}
	return p
}

// TestSimulateExact checks the three threshold gates, with no change and
// with each shape, against their exact firing probabilities: each fires when
// the k-run pass totals B and C differ by some integer D or more, and B and C
// are sums of independent binomials, so the chance is an exact convolution.
// The simulated rate must fall within 4.5 binomial standard deviations.
func TestRunExact(t *testing.T) {
	m, opt, res := runKnown(t, 2026)
	n, k, N := 200, opt.RunsPerSide, float64(opt.Sets)
	q := m.Pass
	// The integer drop of the totals at which each gate starts firing.
	delta, _ := new(big.Rat).SetString("0.02")
	fixedD := new(big.Rat).Mul(delta, big.NewRat(int64(n*k), 1))
	dFixed := int(new(big.Int).Quo(new(big.Int).Add(fixedD.Num(), new(big.Int).Sub(fixedD.Denom(), big.NewInt(1))), fixedD.Denom()).Int64())
	firstAbove := func(thr float64) int {
		d := 0
		for float64(d)/float64(n*k) <= thr {
			d++
		}
		return d
	}
	limits := map[string]int{
		GateFixedDrop: dFixed,
		GateFormula:   firstAbove(*res.Gates[2].Threshold),
		GateMeasured:  firstAbove(*res.Gates[3].Threshold),
	}
	if dFixed != 16 {
		t.Fatalf("a 2-point rule on 200 scenarios × 4 runs starts at %d, want 16", dFixed)
	}
	pb := totalPMF(q, k)
	check := func(what string, got *float64, p float64) {
		t.Helper()
		tol := 4.5*math.Sqrt(p*(1-p)/N) + 0.5/N
		if got == nil || !(math.Abs(*got-p) <= tol) { // false for NaN too
			t.Errorf("%s: simulated %s, exact %.5f ± %.5f", what, show(got), p, tol)
		}
	}
	for _, g := range res.Gates {
		d, ok := limits[g.Gate]
		if !ok {
			continue
		}
		check(g.Gate+" false alarms", g.FalseAlarm, probDropAtLeast(pb, pb, d))
		for i, sh := range res.Shapes {
			p2 := plantSlow(q, sh.Shape, opt.Drop, res.Broken, res.Halved)
			for s := range p2 {
				if math.Abs(p2[s]-res.planted[i][s]) > 1e-15 {
					t.Fatalf("%s: scenario %d planted at %v, definition says %v", sh.Shape, s, res.planted[i][s], p2[s])
				}
			}
			check(g.Gate+" on "+sh.Shape, g.Detection[i], probDropAtLeast(pb, totalPMF(p2, k), d))
		}
	}
}

// TestSimulatePairedTPower compares the paired t-test's simulated rates with
// its power computed analytically: with D_s = C_s - B_s (mean μ_s, variance
// σ²_s), the test fires when ΣD < -t_c·√(n·V), V the expected sample
// variance of D, Σσ²/n + Σ(μ_s-μ̄)²/(n-1); ΣD is close to normal, so the
// power is Φ((-t_c·√(nV) - Σμ)/√(Σσ²)). The approximation ignores the
// randomness of the sample variance and the discreteness of D, so the
// tolerance is 0.03 plus 4.5 binomial standard deviations (the original A/A
// script reports its own check within 3.5 points).
func TestRunPairedTPower(t *testing.T) {
	m, opt, res := runKnown(t, 7)
	n, k, N := 200, float64(opt.RunsPerSide), float64(opt.Sets)
	q := m.Pass
	power := func(p2 []float64) float64 {
		var sumMu, sumVar float64
		mu := make([]float64, n)
		for s := range q {
			mu[s] = k * (p2[s] - q[s])
			sumMu += mu[s]
			sumVar += k * (q[s]*(1-q[s]) + p2[s]*(1-p2[s]))
		}
		var spread float64
		for s := range mu {
			spread += (mu[s] - sumMu/float64(n)) * (mu[s] - sumMu/float64(n))
		}
		v := sumVar/float64(n) + spread/float64(n-1)
		return distuv.UnitNormal.CDF((-res.TCritical*math.Sqrt(float64(n)*v) - sumMu) / math.Sqrt(sumVar))
	}
	row := res.Gates[1]
	if row.Gate != GatePairedT {
		t.Fatalf("row 1 is %s", row.Gate)
	}
	check := func(what string, got *float64, p float64) {
		tol := 0.03 + 4.5*math.Sqrt(p*(1-p)/N)
		if got == nil || !(math.Abs(*got-p) <= tol) {
			t.Errorf("%s: simulated %v, analytic %.4f ± %.4f", what, show(got), p, tol)
		} else {
			t.Logf("%s: simulated %.4f, analytic %.4f", what, *got, p)
		}
	}
	check("false alarms", row.FalseAlarm, power(q))
	for i, sh := range res.Shapes {
		check(sh.Shape, row.Detection[i], power(plantSlow(q, sh.Shape, opt.Drop, res.Broken, res.Halved)))
	}
}
