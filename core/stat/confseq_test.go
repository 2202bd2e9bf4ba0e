package stat

import (
	"math"
	"math/big"
	"math/rand/v2"
	"testing"
)

// bigLog is the natural log of a positive rational, from its binary
// mantissa and exponent, accurate to a few units in the last place.
func bigLog(r *big.Rat) float64 {
	f := new(big.Float).SetPrec(200).SetRat(r)
	m := new(big.Float)
	e := f.MantExp(m)
	mf, _ := m.Float64()
	return math.Log(mf) + float64(e)*math.Ln2
}

// rising is the rising factorial (x)_k = x(x+1)…(x+k-1), exactly.
func rising(x *big.Rat, k int64) *big.Rat {
	r := big.NewRat(1, 1)
	for i := range k {
		r.Mul(r, new(big.Rat).Add(x, big.NewRat(i, 1)))
	}
	return r
}

// exactMixture is M_n(θ) in exact rational arithmetic: B(A+k, B+n−k)/B(A,B)
// is (A)_k (B)_(n−k) / (A+B)_n, so for rational A, B and θ the whole ratio
// is rational; nothing of the code under test is used.
func exactMixture(a, b *big.Rat, k, n int64, theta *big.Rat) *big.Rat {
	num := new(big.Rat).Mul(rising(a, k), rising(b, n-k))
	den := rising(new(big.Rat).Add(a, b), n)
	one := big.NewRat(1, 1)
	lik := big.NewRat(1, 1)
	for range k {
		lik.Mul(lik, theta)
	}
	for range n - k {
		lik.Mul(lik, new(big.Rat).Sub(one, theta))
	}
	return num.Quo(num, den.Mul(den, lik))
}

// LogE against exact rational arithmetic over a grid of mixing shapes,
// counts and rates, including a thousand trials; tolerance 1e-12 of
// max(1, |log M|).
func TestBetaMixtureLogEExact(t *testing.T) {
	shapes := [][2]*big.Rat{{big.NewRat(1, 2), big.NewRat(1, 2)}, {big.NewRat(1, 1), big.NewRat(1, 1)},
		{big.NewRat(1, 1), big.NewRat(400, 1)}, {big.NewRat(115, 2), big.NewRat(7, 2)}, {big.NewRat(3, 1), big.NewRat(5, 2)}}
	thetas := []*big.Rat{big.NewRat(1, 100), big.NewRat(1, 4), big.NewRat(1, 2), big.NewRat(19, 20)}
	counts := [][2]int64{{0, 1}, {0, 50}, {3, 50}, {50, 50}, {7, 300}, {285, 300}, {12, 1000}, {950, 1000}}
	for _, sh := range shapes {
		a, _ := sh[0].Float64()
		b, _ := sh[1].Float64()
		m := BetaMixture{A: a, B: b}
		for _, th := range thetas {
			theta, _ := th.Float64()
			for _, c := range counts {
				want := bigLog(exactMixture(sh[0], sh[1], c[0], c[1], th))
				got := m.LogE(c[0], c[1], theta)
				if math.Abs(got-want) > 1e-12*max(1, math.Abs(want)) {
					t.Errorf("Beta(%v,%v) k=%d n=%d θ=%v: LogE = %.17g, exact %.17g", a, b, c[0], c[1], theta, got, want)
				}
			}
		}
	}
}

// exactBelow is M⁻_n(p) for the mixing Beta(1, B) with integer B, exactly:
// ∫_0^p t^k (1−t)^(n−k+B−1) dt with u = 1−t is the finite sum
// Σ_j C(k,j) (−1)^j (1 − (1−p)^(m+j+1))/(m+j+1), m = n−k+B−1; the prior's
// mass below p is 1 − (1−p)^B; the density's constant B cancels against
// nothing and is kept.
func exactBelow(bInt, k, n int64, p *big.Rat) *big.Rat {
	one := big.NewRat(1, 1)
	q := new(big.Rat).Sub(one, p)
	pow := func(x *big.Rat, e int64) *big.Rat {
		r := big.NewRat(1, 1)
		for range e {
			r.Mul(r, x)
		}
		return r
	}
	m := n - k + bInt - 1
	integral := new(big.Rat)
	binom := big.NewRat(1, 1)
	qpow := pow(q, m+1) // (1−p)^(m+j+1), one more factor each j
	for j := int64(0); j <= k; j++ {
		if j > 0 {
			qpow.Mul(qpow, q)
		}
		term := new(big.Rat).Sub(one, qpow)
		term.Quo(term, big.NewRat(m+j+1, 1))
		term.Mul(term, binom)
		if j%2 == 1 {
			term.Neg(term)
		}
		integral.Add(integral, term)
		binom.Mul(binom, big.NewRat(k-j, j+1))
	}
	integral.Mul(integral, big.NewRat(bInt, 1)) // Beta(1,B)'s density is B(1−t)^(B−1)
	mass := new(big.Rat).Sub(one, pow(q, bInt))
	lik := new(big.Rat).Mul(pow(p, k), pow(q, n-k))
	return integral.Quo(integral, mass.Mul(mass, lik))
}

// LogEBelow against exact rational arithmetic for the release rule's
// mixing shapes (Beta(1, 4/p)) and others; tolerance 1e-11 of max(1, |log M⁻|)
// (the incomplete beta function's continued fraction is accurate to about
// 1e-15 relative, and its log near 1 to that absolute).
func TestBetaMixtureLogEBelowExact(t *testing.T) {
	cases := []struct {
		b    int64
		k, n int64
		p    *big.Rat
	}{
		{400, 0, 0, big.NewRat(1, 100)}, {400, 0, 1, big.NewRat(1, 100)}, {400, 0, 361, big.NewRat(1, 100)},
		{400, 1, 361, big.NewRat(1, 100)}, {400, 3, 500, big.NewRat(1, 100)}, {400, 2, 1000, big.NewRat(1, 100)},
		{400, 20, 1000, big.NewRat(1, 100)}, {40, 0, 35, big.NewRat(1, 10)}, {40, 5, 120, big.NewRat(1, 10)},
		{1, 0, 10, big.NewRat(1, 2)}, {1, 4, 10, big.NewRat(1, 2)}, {7, 9, 9, big.NewRat(1, 3)},
	}
	for _, c := range cases {
		p, _ := c.p.Float64()
		want := bigLog(exactBelow(c.b, c.k, c.n, c.p))
		got := BetaMixture{A: 1, B: float64(c.b)}.LogEBelow(c.k, c.n, p)
		if math.Abs(got-want) > 1e-11*max(1, math.Abs(want)) {
			t.Errorf("Beta(1,%d) k=%d n=%d p=%v: LogEBelow = %.17g, exact %.17g", c.b, c.k, c.n, p, got, want)
		}
	}
}

// A trial without the event never lowers the evidence that the rate is
// below p, and an event never raises it: every integrand factor moves the
// same way (the package comment). Checked along a path of 3,000 trials.
func TestLogEBelowMonotone(t *testing.T) {
	m := BetaMixture{A: 1, B: 400}
	r := rand.New(rand.NewPCG(7, 7))
	var k, n int64
	prev := m.LogEBelow(0, 0, 0.01)
	for range 3000 {
		event := r.Float64() < 0.004
		if event {
			k++
		}
		n++
		cur := m.LogEBelow(k, n, 0.01)
		if event && cur > prev || !event && cur < prev {
			t.Fatalf("k=%d n=%d (event %v): LogEBelow went from %v to %v", k, n, event, prev, cur)
		}
		prev = cur
	}
}

// Interval's bounds are on the outer side of the boundary: the evidence
// against each bound reaches 1/α and against the next float64 inwards it
// does not; the MLE is inside.
func TestIntervalBoundary(t *testing.T) {
	m := BetaMixture{A: 0.5, B: 0.5}
	thr := -Log(0.05)
	for _, c := range [][2]int64{{0, 10}, {3, 10}, {57, 60}, {60, 60}, {500, 1000}, {1, 10000}} {
		lo, hi := m.Interval(c[0], c[1], 0.05)
		mle := float64(c[0]) / float64(c[1])
		if !(lo <= mle && mle <= hi) {
			t.Errorf("k=%d n=%d: [%v, %v] misses the MLE %v", c[0], c[1], lo, hi, mle)
		}
		if lo > 0 && !(m.LogE(c[0], c[1], lo) >= thr && m.LogE(c[0], c[1], math.Nextafter(lo, 1)) < thr) {
			t.Errorf("k=%d n=%d: lower bound %v is not the boundary", c[0], c[1], lo)
		}
		if hi < 1 && !(m.LogE(c[0], c[1], hi) >= thr && m.LogE(c[0], c[1], math.Nextafter(hi, 0)) < thr) {
			t.Errorf("k=%d n=%d: upper bound %v is not the boundary", c[0], c[1], hi)
		}
		// The bounds are outside (the evidence reached 1/α there), the
		// next float64 inwards is inside.
		if hi < 1 {
			if m.MeetsInterval(c[0], c[1], 0.05, hi, 1) || !m.MeetsInterval(c[0], c[1], 0.05, math.Nextafter(hi, 0), 1) {
				t.Errorf("k=%d n=%d: MeetsInterval disagrees with the upper bound %v", c[0], c[1], hi)
			}
		}
		if lo > 0 {
			if m.MeetsInterval(c[0], c[1], 0.05, 0, lo) || !m.MeetsInterval(c[0], c[1], 0.05, 0, math.Nextafter(lo, 1)) {
				t.Errorf("k=%d n=%d: MeetsInterval disagrees with the lower bound %v", c[0], c[1], lo)
			}
		}
	}
	if lo, hi := m.Interval(0, 0, 0.05); lo != 0 || hi != 1 {
		t.Errorf("no trials: [%v, %v], want [0, 1]", lo, hi)
	}
	for _, bad := range [][2]int64{{-1, 3}, {4, 3}} {
		if lo, _ := m.Interval(bad[0], bad[1], 0.05); !math.IsNaN(lo) {
			t.Errorf("k=%d n=%d must give NaN", bad[0], bad[1])
		}
	}
}

// everExcluded runs reps sequences of looks Bernoulli(theta) trials,
// checking after each trial whether the confidence sequence still covers
// theta, and returns the fraction of sequences that ever stopped covering
// it: the error rate under continuous monitoring.
func everExcluded(m BetaMixture, theta, alpha float64, reps, looks int, seed uint64) float64 {
	r := rand.New(rand.NewPCG(seed, 0xc5))
	thr := -Log(alpha)
	miss := 0
	for range reps {
		var k int64
		for n := int64(1); n <= int64(looks); n++ {
			if r.Float64() < theta {
				k++
			}
			if m.LogE(k, n, theta) >= thr {
				miss++
				break
			}
		}
	}
	return float64(miss) / float64(reps)
}

// Coverage under continuous monitoring: the confidence sequence, looked at
// after every one of 2,000 trials, excludes the true rate in at most α of
// 400 seeded sequences (the full size, 10,000 looks and 2,000 sequences,
// is BenchmarkConfSeqCoverage). Ville's inequality is the bound; the
// sampling error of 400 sequences (±2.2 points at α = 5%) is why the
// test allows no slack above α: the mixture's true error is well below
// it.
func TestConfSeqCoverage(t *testing.T) {
	for _, theta := range []float64{0.01, 0.2, 0.5, 0.95} {
		got := everExcluded(BetaMixture{A: 0.5, B: 0.5}, theta, 0.05, 400, 2000, 1)
		if got > 0.05 {
			t.Errorf("θ=%v: excluded at some look in %.3f of sequences, more than α = 0.05", theta, got)
		}
	}
}

// BenchmarkConfSeqCoverage is the coverage simulation at full size: 2,000
// sequences of 10,000 looks each, for four rates; it reports the fraction
// of sequences that ever excluded the truth (make bench-anytime).
func BenchmarkConfSeqCoverage(b *testing.B) {
	for range b.N {
		for i, theta := range []float64{0.01, 0.2, 0.5, 0.95} {
			got := everExcluded(BetaMixture{A: 0.5, B: 0.5}, theta, 0.05, 2000, 10000, 1)
			b.ReportMetric(got, "excluded@"+[]string{"0.01", "0.2", "0.5", "0.95"}[i])
		}
	}
}
