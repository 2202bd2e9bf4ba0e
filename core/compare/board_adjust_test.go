package compare

import (
	"math"
	"math/rand/v2"
	"slices"
	"sort"
	"testing"
)

// statsmodelsMultipletests is an independent transcription, operation by
// operation, of statsmodels' multipletests for method "holm" and "fdr_bh"
// (statsmodels/stats/multitest.py at commit
// 01a3a95fcfd2cc0ce38a678d9e8a745dda6c6cd4, functions multipletests and
// fdrcorrection), the numpy steps spelled out:
//
//	sortind = np.argsort(pvals); pvals = pvals[sortind]; sortrevind = sortind.argsort()
//	holm:   pvals_corrected_raw = pvals * np.arange(ntests, 0, -1)
//	        pvals_corrected = np.maximum.accumulate(pvals_corrected_raw)
//	fdr_bh: ecdffactor = np.arange(1, nobs + 1) / float(nobs)
//	        pvals_corrected_raw = pvals_sorted / ecdffactor
//	        pvals_corrected = np.minimum.accumulate(pvals_corrected_raw[::-1])[::-1]
//	pvals_corrected[pvals_corrected > 1] = 1
//	return pvals_corrected[sortrevind]
//
// np.argsort's default sort is not stable; sort.Slice (not stable either)
// stands in for it, since tied p-values get tied adjusted values whatever
// their order (the tests check that too).
func statsmodelsMultipletests(pvals []float64, method string) []float64 {
	n := len(pvals)
	sortind := make([]int, n)
	for i := range sortind {
		sortind[i] = i
	}
	sort.Slice(sortind, func(x, y int) bool { return pvals[sortind[x]] < pvals[sortind[y]] })
	sorted := make([]float64, n)
	for i, k := range sortind {
		sorted[i] = pvals[k]
	}
	corrected := make([]float64, n)
	switch method {
	case "holm":
		raw := make([]float64, n)
		for i := range raw {
			raw[i] = sorted[i] * float64(n-i) // np.arange(ntests, 0, -1)[i] = n−i
		}
		for i := range raw { // np.maximum.accumulate
			corrected[i] = raw[i]
			if i > 0 && corrected[i-1] > corrected[i] {
				corrected[i] = corrected[i-1]
			}
		}
	case "fdr_bh":
		raw := make([]float64, n)
		for i := range raw {
			ecdf := float64(i+1) / float64(n)
			raw[i] = sorted[i] / ecdf
		}
		rev := slices.Clone(raw)
		slices.Reverse(rev)
		for i := range rev { // np.minimum.accumulate on the reversed array
			if i > 0 && rev[i-1] < rev[i] {
				rev[i] = rev[i-1]
			}
		}
		slices.Reverse(rev)
		copy(corrected, rev)
	default:
		panic(method)
	}
	for i := range corrected {
		if corrected[i] > 1 {
			corrected[i] = 1
		}
	}
	out := make([]float64, n)
	for i, k := range sortind { // pvals_corrected[sortrevind]
		out[k] = corrected[i]
	}
	return out
}

// TestHolmBHTextbook checks hand-computed cases from the definitions
// (Holm 1979: adj_(i) = max_{j<=i} min(1, (m−j+1)p_(j)); Benjamini and
// Hochberg 1995: adj_(i) = min_{j>=i} min(1, m·p_(j)/j)), worked here in
// exact decimals; the tolerance 1e-15 covers the products' rounding.
func TestHolmBHTextbook(t *testing.T) {
	for _, c := range []struct {
		name     string
		p        []float64
		holm, bh []float64
	}{
		// Holm, sorted 0.01, 0.03, 0.04, 0.5: 4·0.01 = 0.04, 3·0.03 = 0.09, 2·0.04 = 0.08 → running max 0.09, 1·0.5.
		// BH: 0.5/1 = 0.5, 0.04·4/3 = 0.0533, 0.03·4/2 = 0.06 → min from the top 0.0533, 0.01·4 = 0.04.
		{"four", []float64{0.01, 0.04, 0.03, 0.5}, []float64{0.04, 0.09, 0.09, 0.5}, []float64{0.04, 0.16 / 3, 0.16 / 3, 0.5}},
		// Holm clips at 1: 3·0.5 = 1.5 → 1; BH: 0.5·3/1, 0.6·3/2 = 0.9, 0.9 → 0.9, 0.9, 0.9.
		{"clip", []float64{0.5, 0.6, 0.9}, []float64{1, 1, 1}, []float64{0.9, 0.9, 0.9}},
		// Ties: Holm 3·0.02 = 0.06, 2·0.02 = 0.04 → 0.06, then 0.06, 1·0.5; BH 0.02·3/2 = 0.03 for both.
		{"ties", []float64{0.02, 0.5, 0.02}, []float64{0.06, 0.5, 0.06}, []float64{0.03, 0.5, 0.03}},
		{"one", []float64{0.3}, []float64{0.3}, []float64{0.3}},
		{"zeros and ones", []float64{0, 1, 0, 1}, []float64{0, 1, 0, 1}, []float64{0, 1, 0, 1}},
	} {
		for _, m := range []struct {
			name      string
			got, want []float64
		}{{"holm", Holm(c.p), c.holm}, {"bh", BH(c.p), c.bh}} {
			for i := range m.want {
				if math.Abs(m.got[i]-m.want[i]) > 1e-15 {
					t.Errorf("%s %s: got %v, want %v", c.name, m.name, m.got, m.want)
					break
				}
			}
		}
	}
}

// TestHolmBHStatsmodels compares Holm and BH with the transcription of
// statsmodels' multipletests on 20,000 seeded random p-value vectors of 1
// to 60 values: uniform, tiny, near 1, exactly 0 or 1, rounded to a few
// digits so that ties occur, and shuffled copies. They must be equal, bit
// for bit.
func TestHolmBHStatsmodels(t *testing.T) {
	r := rand.New(rand.NewPCG(2026, 12))
	draw := func() float64 {
		switch r.IntN(6) {
		case 0:
			return r.Float64()
		case 1:
			return math.Pow(10, -20*r.Float64())
		case 2:
			return 1 - r.Float64()*1e-3
		case 3:
			return float64(r.IntN(2))
		case 4:
			return math.Round(r.Float64()*100) / 100
		default:
			return r.Float64() * 0.05
		}
	}
	vectors, ties := 0, 0
	for range 20000 {
		m := 1 + r.IntN(60)
		ps := make([]float64, m)
		for i := range ps {
			ps[i] = draw()
		}
		vectors++
		seen := map[float64]bool{}
		for _, p := range ps {
			if seen[p] {
				ties++
				break
			}
			seen[p] = true
		}
		for _, c := range []struct {
			method string
			got    []float64
		}{{"holm", Holm(ps)}, {"fdr_bh", BH(ps)}} {
			want := statsmodelsMultipletests(ps, c.method)
			if !slices.Equal(c.got, want) {
				t.Fatalf("%s of %v:\n got %v\nwant %v", c.method, ps, c.got, want)
			}
		}
		// The order of the input does not change any value's adjustment.
		perm := r.Perm(m)
		shuffled := make([]float64, m)
		for i, k := range perm {
			shuffled[i] = ps[k]
		}
		h, hs := Holm(ps), Holm(shuffled)
		for i, k := range perm {
			if hs[i] != h[k] {
				t.Fatalf("Holm of %v depends on the order", ps)
			}
		}
	}
	if ties < vectors/10 {
		t.Fatalf("only %d of %d vectors have ties; the draw should make more", ties, vectors)
	}
}

// TestHolmBounds checks Holm's defining bounds on random
// vectors: p <= Holm <= min(1, m·p) and BH <= Holm (to rounding: 1e-15 relative).
func TestHolmBounds(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 7))
	for range 2000 {
		m := 1 + r.IntN(40)
		ps := make([]float64, m)
		for i := range ps {
			ps[i] = r.Float64() * r.Float64()
		}
		h, b := Holm(ps), BH(ps)
		for i, p := range ps {
			if h[i] < p || h[i] > min(1, float64(m)*p) || b[i] > h[i]*(1+1e-15) || b[i] < p {
				t.Fatalf("p %v: Holm %v, BH %v out of bounds", p, h[i], b[i])
			}
		}
	}
}
