package stat

import (
	"math"
	"math/big"
	"math/rand/v2"
	"testing"
)

// Expected sums were computed with Python 3.11.7 math.fsum (most cases come
// from CPython's own test_math.py); they are exact bit patterns, tolerance 0.
func TestFsumPython(t *testing.T) {
	harm, alt := make([]float64, 1000), make([]float64, 1000)
	for n := 1; n <= 1000; n++ {
		harm[n-1] = 1 / float64(n)
		alt[n-1] = math.Pow(-1, float64(n)) / float64(n)
	}
	var resize []float64
	for n := -1074; n < 972; n += 2 {
		resize = append(resize, math.Ldexp(1, n)-math.Ldexp(1, n+50)+math.Ldexp(1, n+52))
	}
	resize = append(resize, -math.Ldexp(1, 1022))
	p53 := math.Ldexp(1, 53)
	tenth := make([]float64, 10)
	for i := range tenth {
		tenth[i] = 0.1
	}
	cases := []struct {
		name string
		xs   []float64
		want float64
	}{
		{"empty", nil, 0},
		{"cancel", []float64{1e100, 1.0, -1e100, 1e-100, 1e50, -1.0, -1e50}, 1e-100},
		{"half-even across partials", []float64{1e16, 1, 1e-16}, 1.0000000000000002e+16},
		{"p53a", []float64{p53, -0.5, -math.Ldexp(1, -54)}, 9007199254740991},
		{"p53b", []float64{p53, 1, math.Ldexp(1, -100)}, 9007199254740994},
		{"p53c", []float64{p53 + 10, 1, math.Ldexp(1, -100)}, 9007199254741004},
		{"p53d", []float64{p53 - 4, 0.5, math.Ldexp(1, -54)}, 9007199254740989},
		{"harmonic", harm, 7.485470860550345},
		{"alternating", alt, -0.6926474305598203},
		{"tenths", tenth, 1},
		{"zero", []float64{1e16 - 2, 1 - math.Ldexp(1, -53), -(1e16 - 2), -(1 - math.Ldexp(1, -53))}, 0},
		{"resize partials", resize, 0x1.5555555555555p+970},
	}
	for _, c := range cases {
		if got := Fsum(c.xs); got != c.want {
			t.Errorf("%s: fsum = %v (%x), want %v (%x)", c.name, got, got, c.want, c.want)
		}
	}
}

func TestFsumSpecial(t *testing.T) {
	inf := math.Inf(1)
	if got := Fsum([]float64{1, inf, 2}); got != inf {
		t.Errorf("1+Inf+2 = %v", got)
	}
	if got := Fsum([]float64{inf, -inf}); !math.IsNaN(got) {
		t.Errorf("Inf-Inf = %v, want NaN", got)
	}
	if got := Fsum([]float64{1, math.NaN()}); !math.IsNaN(got) {
		t.Errorf("1+NaN = %v, want NaN", got)
	}
	if got := Fsum([]float64{math.MaxFloat64, math.MaxFloat64}); !math.IsInf(got, 1) {
		t.Errorf("overflow = %v, want +Inf", got)
	}
	if got := Fmean(nil); !math.IsNaN(got) {
		t.Errorf("fmean(nil) = %v, want NaN", got)
	}
}

// exactRounded is the oracle: the sum in a big.Float wide enough to hold any
// sum of float64 values exactly, rounded once to the nearest even float64.
func exactRounded(xs []float64) float64 {
	s := new(big.Float).SetPrec(4096)
	for _, x := range xs {
		s.Add(s, new(big.Float).SetFloat64(x))
	}
	f, _ := s.Float64()
	return f
}

// Property: Fsum is the exactly rounded sum, whatever the order and the
// spread of magnitudes.
func TestFsumExact(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for trial := 0; trial < 3000; trial++ {
		n := r.IntN(40)
		xs := make([]float64, n)
		for i := range xs {
			switch r.IntN(3) {
			case 0: // pass rates and their differences, the use in AA
				xs[i] = float64(r.IntN(21))/20 - float64(r.IntN(7))/6
			case 1:
				xs[i] = math.Ldexp(r.Float64()-0.5, r.IntN(200)-100)
			default:
				if i > 0 { // near-cancellation
					xs[i] = -xs[r.IntN(i)] * (1 + math.Ldexp(float64(r.IntN(5))-2, -52))
				}
			}
		}
		want := exactRounded(xs)
		if got := Fsum(xs); got != want {
			t.Fatalf("fsum(%v) = %x, want %x", xs, got, want)
		}
		r.Shuffle(len(xs), func(i, j int) { xs[i], xs[j] = xs[j], xs[i] })
		if got := Fsum(xs); got != want {
			t.Fatalf("shuffled fsum(%v) = %x, want %x", xs, got, want)
		}
	}
}
