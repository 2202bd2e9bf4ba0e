package gate

import (
	"math"
	"math/big"
	"math/rand/v2"
	"strings"
	"testing"
)

// ratReaches is the reference of the boundary: (1-p)^k <= 1-target in
// exact rational arithmetic, 1-p and 1-target being the exact values of
// the float64 inputs, the power taken of numerator and denominator with
// big.Int.Exp (independent of the interval arithmetic under test).
func ratReaches(p, target float64, k int64) bool {
	if k == 0 {
		return false // (1-p)^0 = 1 > 1-target for a target in (0,1)
	}
	one := big.NewRat(1, 1)
	q := new(big.Rat).Sub(one, new(big.Rat).SetFloat64(p))
	r := new(big.Rat).Sub(one, new(big.Rat).SetFloat64(target))
	n := big.NewInt(k)
	// q^k <= r  <=>  num^k * r.den <= r.num * den^k (denominators > 0)
	lhs := new(big.Int).Exp(q.Num(), n, nil)
	lhs.Mul(lhs, r.Denom())
	rhs := new(big.Int).Exp(q.Denom(), n, nil)
	rhs.Mul(rhs, r.Num())
	return lhs.Cmp(rhs) <= 0
}

// checkMinimal fails unless k is the smallest whole k >= 1 with
// (1-p)^k <= 1-target, by ratReaches: k reaches and k-1 does not.
func checkMinimal(t *testing.T, p, target, k float64) {
	t.Helper()
	if k != math.Trunc(k) || k < 1 || !ratReaches(p, target, int64(k)) || ratReaches(p, target, int64(k)-1) {
		t.Fatalf("RerunsFor(%v, %v) = %v: not the exact minimum (reaches at k: %v, at k-1: %v)",
			p, target, k, ratReaches(p, target, int64(k)), ratReaches(p, target, int64(k)-1))
	}
}

// floatOff reports whether k, the exact minimum, is not what the float
// formula gives: Power(k-1) already rounds up to the target, or Power(k)
// rounds below it.
func floatOff(p, target, k float64) bool {
	return Power(p, k-1) >= target || Power(p, k) < target
}

// Cases where the rounded power misses the boundary, found by searching
// the pairs TestRerunsForExactRandom draws, and exact ties. The wanted k
// is the exact minimum by ratReaches; float is what the smallest k with
// Power(p, k) >= target was (the budget's old rule).
func TestRerunsForExactCases(t *testing.T) {
	cases := []struct {
		p, target   float64
		want, float float64
	}{
		// 60 reruns (nightly) by the rounded power, 61 (refuse-green) exactly.
		{0.04870291331009749, 0.95, 61, 60},
		{0.3343887157331771, 0.9999999999999999, 91, 90},
		{0.02335547117144881, 0.9999999999999999, 1555, 1538},
		{0.002737437262087292, 0.9993944897033308, 2704, 2703},
		{0.007780400342883284, 0.999004813730718, 886, 885},
		{0.02400594078813972, 0.9999778076237927, 442, 441},
		// Exact ties: (1-p)^k = 1-target.
		{0.5, 0.75, 2, 2},
		{0.25, 0.4375, 2, 2},              // (3/4)^2 = 9/16
		{0.75, 1 - 0x1p-50, 25, 25},       // (1/4)^25 = 2^-50
		{0.5, 0.9999999999999999, 53, 53}, // 2^-53
	}
	// (3/4)^k = 3^k/4^k is a float64 1-target while 4^k-3^k fits 53 bits.
	for k := 1; k <= 26; k++ {
		three := math.Pow(3, float64(k))
		four := math.Pow(4, float64(k))
		cases = append(cases, struct {
			p, target   float64
			want, float float64
		}{0.25, (four - three) / four, float64(k), 0})
	}
	for _, c := range cases {
		k := RerunsFor(c.p, c.target)
		checkMinimal(t, c.p, c.target, k)
		if k != c.want {
			t.Errorf("RerunsFor(%v, %v) = %v, want %v", c.p, c.target, k, c.want)
		}
		if c.float != 0 && c.float != c.want && !floatOff(c.p, c.target, c.want) {
			t.Errorf("p %v target %v: the rounded power does not miss here; the case no longer shows what it is for", c.p, c.target)
		}
	}
}

// Thousands of random and adversarial pairs, each checked against exact
// rational arithmetic. Adversarial pairs put 1-target within a few ulps of
// (1-p)^k, or p within a few ulps of the rate whose k-th power is
// 1-target, where the rounded power lands on the wrong side; the test
// counts those and needs them to be there.
func TestRerunsForExactRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 2))
	targets := []float64{0.5, 0.8, 0.9, 0.95, 0.99, 0.999, 1 - 1e-9, 0.9999999999999999, 0.9999999999999998}
	ulps := func(x float64, n int) float64 {
		for ; n > 0; n-- {
			x = math.Nextafter(x, 2)
		}
		for ; n < 0; n++ {
			x = math.Nextafter(x, -1)
		}
		return x
	}
	const maxK = 2000
	pairs, off := 0, 0
	check := func(p, target float64) {
		if !(p > 0 && p < 1 && target > 0 && target < 1) {
			return
		}
		k := RerunsFor(p, target)
		if k > maxK {
			return // beyond the rational powers this test affords
		}
		checkMinimal(t, p, target, k)
		pairs++
		if floatOff(p, target, k) {
			off++
		}
	}
	n := 800
	if testing.Short() {
		n = 300
	}
	for range n {
		// Random: a log-uniform rate and a target from the list or uniform.
		p := math.Exp(math.Log(1e-3) * rng.Float64())
		target := rng.Float64()
		if rng.IntN(2) == 0 {
			target = targets[rng.IntN(len(targets))]
		}
		check(p, target)
		// 1-target a few ulps from the float (1-p)^k.
		k := float64(1 + rng.IntN(maxK))
		p = math.Exp(math.Log(1e-3) * rng.Float64())
		check(p, ulps(Power(p, k), rng.IntN(7)-3))
		// p a few ulps from the rate whose k-th power is 1-target.
		target = targets[rng.IntN(len(targets))]
		check(ulps(-math.Expm1(math.Log1p(-target)/k), rng.IntN(7)-3), target)
	}
	t.Logf("%d pairs checked exactly; the rounded power misses the boundary in %d", pairs, off)
	if pairs < 2*n || off < 10 {
		t.Errorf("%d pairs, %d where the rounded power misses: the search no longer finds the hard cases", pairs, off)
	}
}

// bigReaches is (1-p)^k <= 1-target at 256 bits, rounded to nearest: for
// budgets too large for ratReaches. A power of k < 2^63 takes at most 126
// roundings, so its relative error is below 2^-248; the test fails if the
// power is closer than 2^-240 to 1-target, where this cannot decide.
func bigReaches(t *testing.T, p, target float64, k int64) bool {
	t.Helper()
	const prec = 256
	one := new(big.Float).SetPrec(prec).SetInt64(1)
	q := new(big.Float).SetPrec(prec).Sub(one, big.NewFloat(p))
	r := new(big.Float).SetPrec(prec).Sub(one, big.NewFloat(target))
	z := new(big.Float).SetPrec(prec).SetInt64(1)
	for n := k; n > 0; n >>= 1 {
		if n&1 == 1 {
			z.Mul(z, q)
		}
		q.Mul(q, q)
	}
	d := new(big.Float).SetPrec(prec).Sub(z, r)
	if d.Sign() != 0 && d.Abs(d).Cmp(new(big.Float).SetPrec(prec).SetMantExp(r, -240)) < 0 {
		t.Fatalf("p %v target %v k %d: too close to decide at %d bits", p, target, k, prec)
	}
	return z.Cmp(r) <= 0
}

// Budgets of billions of reruns and beyond 2^53, where Power moves by less
// than an ulp per rerun, are still the exact minimum (at 256 bits).
func TestRerunsForLarge(t *testing.T) {
	for _, c := range []struct{ p, target float64 }{
		{2.26273976e-09, 0.9999999999999999}, // froze the calculator once: 1.79e8 too many by the logarithms
		{1e-9, 1 - 1e-12},
		{1e-12, 0.95},
		{3e-17, 0.95}, // about 1e17 reruns: beyond 2^53
		{1.1102230246251565e-16, 0.9999999999999999},
		{4e-18, 0.5},
	} {
		k, _, ok := budgetReruns(c.p, c.target)
		if !ok || !bigReaches(t, c.p, c.target, k) || bigReaches(t, c.p, c.target, k-1) {
			t.Errorf("p %v target %v: %d reruns (ok %v) is not the exact minimum", c.p, c.target, k, ok)
		}
	}
}

// The budget of the first rate below (0.04870291331009749 at 95%): 61 reruns, refuse-green; the rounded
// power at 60 already shows the target, which a warning explains.
func TestBudgetRoundedPowers(t *testing.T) {
	in := DefaultBudgetInput
	in.Rates = []float64{0.04870291331009749, 3e-17, 0.05}
	res, err := Budget(in)
	if err != nil {
		t.Fatal(err)
	}
	edge, huge, plain := res.Rows[0], res.Rows[1], res.Rows[2]
	// The exact power at k reaches the target; the rounded one is 2 ulps
	// below it at this target (found by the search of TestRerunsForExactRandom).
	in.Target, in.Rates = 0.07622590973772227, []float64{2.1674923184961947e-05}
	low, err := Budget(in)
	if err != nil {
		t.Fatal(err)
	}
	if r := low.Rows[0]; *r.Reruns != 3658 || !(*r.Power < in.Target) || len(low.Warnings) != 1 {
		t.Errorf("power below the target as rounded: %d reruns, power %v, warnings %q", *r.Reruns, *r.Power, low.Warnings)
	}
	checkMinimal(t, 2.1674923184961947e-05, 0.07622590973772227, 3658)
	in.Target = 0.95
	if *edge.Reruns != 61 || edge.Lane != "refuse-green" || *edge.PowerOneShort < in.Target {
		t.Errorf("edge: %d reruns, lane %s, power one short %v", *edge.Reruns, edge.Lane, *edge.PowerOneShort)
	}
	if *huge.Reruns < 1<<53 || *huge.PowerOneShort != in.Target || *huge.Gain != 0 {
		t.Errorf("beyond 2^53: %d reruns, power one short %v, gain %v", *huge.Reruns, *huge.PowerOneShort, *huge.Gain)
	}
	if !(*plain.PowerOneShort < in.Target && *plain.Power >= in.Target) {
		t.Errorf("0.05: %+v", plain)
	}
	w := strings.Join(res.Warnings, "\n")
	if len(res.Warnings) != 2 || !strings.Contains(w, "rate 0.04870291331009749: one rerun more or less") || !strings.Contains(w, "rate 3e-17: ") {
		t.Errorf("warnings %q", res.Warnings)
	}
}

// BenchmarkRerunsForTypical: a rate of a few percent at 95%, far from the
// boundary: the ratio of logarithms alone.
func BenchmarkRerunsForTypical(b *testing.B) {
	for b.Loop() {
		RerunsFor(0.02, 0.95)
	}
}

// BenchmarkRerunsForBoundary: that rate at 95%, where the exact test runs.
func BenchmarkRerunsForBoundary(b *testing.B) {
	for b.Loop() {
		RerunsFor(0.04870291331009749, 0.95)
	}
}
