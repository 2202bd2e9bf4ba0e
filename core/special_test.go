package core

import (
	"math"
	"testing"
)

// relErr is |got-want|/|want|, or |got-want| when want is 0.
func relErr(got, want float64) float64 {
	if got == want {
		return 0
	}
	if want == 0 {
		return math.Abs(got)
	}
	return math.Abs(got-want) / math.Abs(want)
}

// grid returns n+1 points evenly spaced over [lo, hi].
func grid(lo, hi float64, n int) []float64 {
	out := make([]float64, n+1)
	for i := range out {
		out[i] = lo + (hi-lo)*float64(i)/float64(n)
	}
	return out
}

// The ports must agree with the standard library. Natively on amd64 math.Exp
// and math.Log run assembly that may differ from the portable Go by an ulp
// or so, hence 1e-15 relative rather than equality; math.Erfc and
// math.Erfcinv are built on them and inherit that.
func TestPortsMatchMath(t *testing.T) {
	for _, x := range append(grid(-745, 709, 200003), 0, 1e-300, -1e-300, 1e-9, 0.5, -0.5) {
		if e := relErr(pexp(x), math.Exp(x)); e > 1e-15 && math.Abs(pexp(x)-math.Exp(x)) > 1e-322 { // subnormals: a few units of 5e-324
			t.Errorf("pexp(%v) = %v, math.Exp %v (rel %.2g)", x, pexp(x), math.Exp(x), e)
		}
	}
	for _, x := range append(grid(1e-300, 1e6, 200003), grid(0.5, 2, 100003)...) {
		if e := relErr(plog(x), math.Log(x)); e > 1e-15 {
			t.Errorf("plog(%v) = %v, math.Log %v (rel %.2g)", x, plog(x), math.Log(x), e)
		}
	}
	// erfc loses relative accuracy deep in the tail through exp's argument
	// (|x|² up to 784): 1e-14 there, as both compute the same formula.
	for _, x := range grid(-6, 27.5, 200003) {
		if e := relErr(perfc(x), math.Erfc(x)); e > 1e-14 {
			t.Errorf("perfc(%v) = %v, math.Erfc %v (rel %.2g)", x, perfc(x), math.Erfc(x), e)
		}
	}
	for _, x := range grid(1e-300, 2, 200003) {
		if e := relErr(perfcinv(x), math.Erfcinv(x)); e > 1e-15 {
			t.Errorf("perfcinv(%v) = %v, math.Erfcinv %v (rel %.2g)", x, perfcinv(x), math.Erfcinv(x), e)
		}
	}
}

func TestPortsSpecialCases(t *testing.T) {
	inf, nan := math.Inf(1), math.NaN()
	cases := []struct {
		name      string
		got, want float64
	}{
		{"pexp(+Inf)", pexp(inf), inf},
		{"pexp(-Inf)", pexp(-inf), 0},
		{"pexp(0)", pexp(0), 1},
		{"pexp(710)", pexp(710), inf},
		{"plog(0)", plog(0), -inf},
		{"plog(1)", plog(1), 0},
		{"plog(+Inf)", plog(inf), inf},
		{"perfc(+Inf)", perfc(inf), 0},
		{"perfc(-Inf)", perfc(-inf), 2},
		{"perfc(0)", perfc(0), 1},
		{"perfcinv(0)", perfcinv(0), inf},
		{"perfcinv(2)", perfcinv(2), -inf},
		{"perfcinv(1)", perfcinv(1), 0},
	}
	for _, c := range cases {
		if c.got != c.want {
			t.Errorf("%s = %v, want %v", c.name, c.got, c.want)
		}
	}
	for name, v := range map[string]float64{"pexp(NaN)": pexp(nan), "plog(-1)": plog(-1), "plog(NaN)": plog(nan),
		"perfc(NaN)": perfc(nan), "perfcinv(-0.1)": perfcinv(-0.1), "perfcinv(2.1)": perfcinv(2.1)} {
		if !math.IsNaN(v) {
			t.Errorf("%s = %v, want NaN", name, v)
		}
	}
}

// Normal tail probabilities erfc(x/√2)/2 computed with mpmath at 40 digits
// and rounded to float64 (SciPy's norm.sf agrees to the printed digits);
// 1e-14 relative.
func TestNormalSurvival(t *testing.T) {
	cases := []struct{ x, want float64 }{
		{0, 0.5},
		{1, 0.15865525393145705},
		{1.959963984540054, 0.025000000000000015},
		{3, 0.0013498980316300946},
		{-2, 0.9772498680518208},
		{8, 6.220960574271784e-16},
	}
	for _, c := range cases {
		if got := normalSurvival(c.x); relErr(got, c.want) > 1e-14 {
			t.Errorf("normalSurvival(%v) = %v, want %v", c.x, got, c.want)
		}
	}
}
