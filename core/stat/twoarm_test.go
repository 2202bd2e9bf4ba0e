package stat

import (
	"math"
	"math/big"
	"math/rand/v2"
	"testing"
)

// The pair's e-value has expectation exactly 1 − ((a−b)/2)²(u−v)² under a
// common rate p (u = p/m, v = (1−p)/(1−m), m = (a+b)/2), so at most 1:
// checked in exact rational arithmetic over a grid of estimates and rates,
// and the float64 logPair checked against the exact factor (relative
// 1e-14).
func TestPairEValueExpectation(t *testing.T) {
	grid := []*big.Rat{big.NewRat(1, 50), big.NewRat(1, 4), big.NewRat(1, 2), big.NewRat(17, 20), big.NewRat(49, 50)}
	one := big.NewRat(1, 1)
	for _, a := range grid {
		for _, b := range grid {
			m := new(big.Rat).Quo(new(big.Rat).Add(a, b), big.NewRat(2, 1))
			factor := func(x, y bool) *big.Rat {
				f := big.NewRat(1, 1)
				for _, c := range []struct {
					r    *big.Rat
					pass bool
				}{{a, x}, {b, y}} {
					if c.pass {
						f.Mul(f, new(big.Rat).Quo(c.r, m))
					} else {
						f.Mul(f, new(big.Rat).Quo(new(big.Rat).Sub(one, c.r), new(big.Rat).Sub(one, m)))
					}
				}
				return f
			}
			for _, p := range grid {
				q := new(big.Rat).Sub(one, p)
				exp := new(big.Rat)
				for _, x := range []bool{false, true} {
					for _, y := range []bool{false, true} {
						pr := big.NewRat(1, 1)
						for _, pass := range []bool{x, y} {
							if pass {
								pr.Mul(pr, p)
							} else {
								pr.Mul(pr, q)
							}
						}
						exp.Add(exp, pr.Mul(pr, factor(x, y)))
					}
				}
				d := new(big.Rat).Quo(new(big.Rat).Sub(a, b), big.NewRat(2, 1))
				uv := new(big.Rat).Sub(new(big.Rat).Quo(p, m), new(big.Rat).Quo(q, new(big.Rat).Sub(one, m)))
				want := new(big.Rat).Sub(one, new(big.Rat).Mul(new(big.Rat).Mul(d, d), new(big.Rat).Mul(uv, uv)))
				if exp.Cmp(want) != 0 || exp.Cmp(one) > 0 {
					t.Errorf("a=%v b=%v p=%v: E[e] = %v, want %v (at most 1)", a, b, p, exp, want)
				}
			}
			af, _ := a.Float64()
			bf, _ := b.Float64()
			for _, x := range []bool{false, true} {
				for _, y := range []bool{false, true} {
					want, _ := factor(x, y).Float64()
					if got := Exp(logPair(af, bf, x, y)); math.Abs(got-want) > 1e-14*want {
						t.Errorf("a=%v b=%v x=%v y=%v: e = %v, exact %v", af, bf, x, y, got, want)
					}
				}
			}
		}
	}
}

// seqOutcome runs one sequential test on pairs drawn at the rates
// (pa, pb), looked at after every pair, up to cap pairs; it returns the
// verdict ("" at the cap) and the pairs used.
func seqOutcome(tw TwoArm, pa, pb float64, cap int, r *rand.Rand) (string, int) {
	var s TwoArmState
	for i := 1; i <= cap; i++ {
		s = tw.Add(s, r.Float64() < pa, r.Float64() < pb)
		if v := tw.Verdict(s); v != SeqContinue {
			return v, i
		}
	}
	return SeqContinue, cap
}

// falseClaims is the fraction of reps tests of equal arms at rate p that
// claimed improved or regressed at some pair up to cap, looked at after
// every pair. Futility is not allowed to stop a test, so every one of the
// cap looks is made: the worst case for the efficacy claims.
func falseClaims(tw TwoArm, p float64, reps, cap int, seed uint64) float64 {
	r := rand.New(rand.NewPCG(seed, 0x2a))
	thr := Log(2 / tw.Alpha)
	bad := 0
	for range reps {
		var s TwoArmState
		for range cap {
			s = tw.Add(s, r.Float64() < p, r.Float64() < p)
			if s.LogImproved >= thr || s.LogRegressed >= thr {
				bad++
				break
			}
		}
	}
	return float64(bad) / float64(reps)
}

// Under equal arms, with a look after every pair up to a cap of 1,000
// pairs, the test claims a change in at most α = 5% of 400 seeded runs,
// for plans that expect a change and arms at rates the plan did not
// expect (the full size, 10,000 pairs and 2,000 runs, is
// BenchmarkTwoArmFalseClaims).
func TestTwoArmFalseClaims(t *testing.T) {
	for _, c := range []struct{ plan0, plan1, p float64 }{
		{0.50, 0.85, 0.50}, {0.50, 0.85, 0.85}, {0.90, 0.95, 0.90}, {0.90, 0.95, 0.99}, {0.95, 0.90, 0.70},
	} {
		tw := TwoArm{Baseline: c.plan0, Patched: c.plan1, Alpha: 0.05, Weight: DefaultPlanWeight}
		if got := falseClaims(tw, c.p, 400, 1000, 3); got > 0.05 {
			t.Errorf("plan %v→%v, both arms at %v: false claims in %.3f of runs, more than α = 0.05", c.plan0, c.plan1, c.p, got)
		}
	}
}

// When the change is exactly the planned one, "no change as large as
// planned" is a false claim: it happens in at most α of 400 seeded runs
// looked at after every pair up to 2,000 pairs.
func TestTwoArmFalseFutility(t *testing.T) {
	for _, c := range [][2]float64{{0.50, 0.85}, {0.90, 0.95}, {0.85, 0.50}} {
		tw := TwoArm{Baseline: c[0], Patched: c[1], Alpha: 0.05, Weight: DefaultPlanWeight}
		r := rand.New(rand.NewPCG(5, 0x2a))
		bad := 0
		for range 400 {
			if v, _ := seqOutcome(tw, c[0], c[1], 2000, r); v == SeqFutile {
				bad++
			}
		}
		if got := float64(bad) / 400; got > 0.05 {
			t.Errorf("plan and truth %v→%v: futility claimed in %.3f of runs, more than α = 0.05", c[0], c[1], got)
		}
	}
}

// The direction of a claim follows the change, and a large change is
// found long before a small one would be (each case one seeded run).
func TestTwoArmDirection(t *testing.T) {
	tw := TwoArm{Baseline: 0.5, Patched: 0.85, Alpha: 0.05, Weight: DefaultPlanWeight}
	r := rand.New(rand.NewPCG(9, 9))
	if v, n := seqOutcome(tw, 0.5, 0.95, 1000, r); v != SeqImproved || n > 100 {
		t.Errorf("0.50→0.95: %q after %d pairs, want improved within 100", v, n)
	}
	if v, n := seqOutcome(tw, 0.95, 0.5, 1000, r); v != SeqRegressed || n > 100 {
		t.Errorf("0.95→0.50: %q after %d pairs, want regressed within 100", v, n)
	}
	if v, _ := seqOutcome(tw, 0.7, 0.7, 5000, r); v != SeqFutile {
		t.Errorf("0.70→0.70 planned against a change of 0.35: %q, want futile", v)
	}
}

// BenchmarkTwoArmFalseClaims is the false-claim simulation at full size:
// equal arms, a look after every pair up to 10,000 pairs, 2,000 runs
// (make bench-anytime).
func BenchmarkTwoArmFalseClaims(b *testing.B) {
	tw := TwoArm{Baseline: 0.90, Patched: 0.95, Alpha: 0.05, Weight: DefaultPlanWeight}
	for range b.N {
		b.ReportMetric(falseClaims(tw, 0.90, 2000, 10000, 3), "false-claims")
	}
}
