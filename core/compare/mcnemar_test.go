package compare

import (
	"bufio"
	"flag"
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata from their exact references")

// exactMcNemar is McNemar's exact p and mid-p in rational arithmetic: the
// binomial sums Σ_{k<=m} C(n,k) / 2^n with math/big, as statsmodels'
// mcnemar(exact=True) defines p (min(1, 2·binom.cdf(m, n, ½))) and
// Fagerland et al. (2013) the mid-p (p − P(X = m)).
func exactMcNemar(b, c int64) (p, mid *big.Rat) {
	m, n := min(b, c), b+c
	coef := big.NewInt(1) // C(n, k)
	le := new(big.Int)    // Σ_{k<=m} C(n,k)
	var last *big.Int
	for k := int64(0); k <= m; k++ {
		if k > 0 {
			coef.Mul(coef, big.NewInt(n-k+1))
			coef.Quo(coef, big.NewInt(k))
		}
		le.Add(le, coef)
		last = new(big.Int).Set(coef)
	}
	den := new(big.Int).Lsh(big.NewInt(1), uint(n))
	one := big.NewRat(1, 1)
	p = new(big.Rat).SetFrac(new(big.Int).Lsh(le, 1), den)
	if p.Cmp(one) > 0 {
		p = one
	}
	mid = new(big.Rat).SetFrac(new(big.Int).Sub(new(big.Int).Lsh(le, 1), last), den)
	if mid.Cmp(one) > 0 {
		mid = one
	}
	return p, mid
}

func relErr(got float64, want *big.Rat) float64 {
	w, _ := want.Float64()
	if w == 0 {
		return math.Abs(got)
	}
	return math.Abs(got-w) / w
}

// pascalMcNemar is exactMcNemar by another road, for n <= len(rows)-1:
// the binomial coefficients from Pascal's triangle, by additions alone.
func pascalMcNemar(rows [][]*big.Int, b, c int64) (p, mid *big.Rat) {
	m, n := min(b, c), b+c
	le := new(big.Int)
	for k := int64(0); k <= m; k++ {
		le.Add(le, rows[n][k])
	}
	den := new(big.Int).Lsh(big.NewInt(1), uint(n))
	twice := new(big.Int).Lsh(le, 1)
	p = new(big.Rat).SetFrac(twice, den)
	mid = new(big.Rat).SetFrac(new(big.Int).Sub(twice, rows[n][m]), den)
	one := big.NewRat(1, 1)
	if p.Cmp(one) > 0 {
		p = one
	}
	if mid.Cmp(one) > 0 {
		mid = one
	}
	return p, mid
}

func pascal(n int) [][]*big.Int {
	rows := [][]*big.Int{{big.NewInt(1)}}
	for i := 1; i <= n; i++ {
		row := make([]*big.Int, i+1)
		row[0], row[i] = big.NewInt(1), big.NewInt(1)
		for k := 1; k < i; k++ {
			row[k] = new(big.Int).Add(rows[i-1][k-1], rows[i-1][k])
		}
		rows = append(rows, row)
	}
	return rows
}

// TestMcNemarExact checks McNemarP against exact binomial sums: on every
// (b, c) with b + c <= 300 (45,451 cases) against Pascal's triangle, where
// McNemarP sums exactly and must return the correctly rounded float64 of
// the exact rational (no error at all); on 20 random cases with 300 <
// b + c <= 5,000 against exactMcNemar, exactly too; and on 40 random cases
// with 5,000 < b + c <= 40,000, where it uses the incomplete beta, against
// exactMcNemar to a relative n·1e-15 (the continued fraction's error grows
// with n; the largest measured is printed with -v).
func TestMcNemarExact(t *testing.T) {
	rows := pascal(300)
	cases := 0
	for n := int64(0); n <= 300; n++ {
		for b := int64(0); b <= n; b++ {
			p, mid := McNemarP(b, n-b)
			wp, wm := pascalMcNemar(rows, b, n-b)
			fp, _ := wp.Float64()
			fm, _ := wm.Float64()
			if p != fp || mid != fm {
				t.Errorf("McNemarP(%d, %d) = %v, %v; exact %v, %v", b, n-b, p, mid, fp, fm)
			}
			cases++
		}
	}
	if testing.Short() {
		return
	}
	r := rand.New(rand.NewPCG(28, 1))
	for range 20 {
		n := 301 + r.Int64N(exactUpTo-300)
		b := n/2 - int64(r.NormFloat64()*2*math.Sqrt(float64(n)))
		b = max(0, min(n, b))
		p, mid := McNemarP(b, n-b)
		wp, wm := exactMcNemar(b, n-b)
		fp, _ := wp.Float64()
		fm, _ := wm.Float64()
		if p != fp || mid != fm {
			t.Errorf("McNemarP(%d, %d) = %v, %v; exact %v, %v", b, n-b, p, mid, fp, fm)
		}
		cases++
	}
	worst := 0.0
	for range 40 {
		n := exactUpTo + 1 + r.Int64N(35000)
		// near the centre, where p is not negligibly small
		b := n/2 - int64(r.NormFloat64()*2*math.Sqrt(float64(n)))
		b = max(0, min(n, b))
		p, mid := McNemarP(b, n-b)
		wp, wm := exactMcNemar(b, n-b)
		e := max(relErr(p, wp), relErr(mid, wm))
		worst = max(worst, e)
		if e > float64(n)*1e-15 {
			t.Errorf("McNemarP(%d, %d) = %v, %v; exact %s, %s (relative error %.2g)", b, n-b, p, mid, wp.FloatString(17), wm.FloatString(17), e)
		}
		cases++
	}
	t.Logf("%d cases; past %d pairs, max relative error %.3g", cases, exactUpTo, worst)
}

// TestMcNemarPublished checks the worked example of Fagerland, Lydersen and
// Laake (2013), "The McNemar test for binary matched-pairs data: mid-p and
// asymptotic are better than exact conditional", BMC Medical Research
// Methodology 13:91, Table 3 (Bentur et al. 2009, airway
// hyper-responsiveness before and after stem cell transplantation: 1 and
// 7 discordant pairs): exact conditional p = 0.070, mid-p = 0.039. By hand:
// 2·(1+8)/2⁸ = 0.0703125 and 2·(1+8)/2⁸ − 8/2⁸ = 0.0390625.
func TestMcNemarPublished(t *testing.T) {
	p, mid := McNemarP(1, 7)
	if math.Abs(p-0.0703125) > 1e-15 || math.Abs(mid-0.0390625) > 1e-15 {
		t.Errorf("McNemarP(1, 7) = %v, %v; want 0.0703125, 0.0390625", p, mid)
	}
	if p2, mid2 := McNemarP(7, 1); p2 != p || mid2 != mid {
		t.Errorf("McNemarP is not symmetric: (7,1) gives %v, %v", p2, mid2)
	}
	for _, bc := range [][2]int64{{0, 0}, {5, 5}, {1000, 1000}} {
		if p, mid := McNemarP(bc[0], bc[1]); p != 1 || mid != 1 {
			t.Errorf("McNemarP(%d, %d) = %v, %v; want 1, 1", bc[0], bc[1], p, mid)
		}
	}
}

// TestMcNemarGolden holds McNemarP to testdata/mcnemar.golden, whose
// reference columns are the exact rationals of exactMcNemar rounded to 17
// significant digits (go test -run McNemarGolden -update writes it again;
// the test then checks the file's values against math/big too).
func TestMcNemarGolden(t *testing.T) {
	const path = "testdata/mcnemar.golden"
	var cases [][2]int64
	for _, n := range []int64{1, 2, 5, 10, 20, 41 + 19, 100, 333, 1000, 3000} {
		for _, frac := range []float64{0, 0.1, 0.3, 0.45, 0.5} {
			b := int64(frac * float64(n))
			cases = append(cases, [2]int64{b, n - b})
		}
	}
	if *update {
		var sb strings.Builder
		sb.WriteString("# McNemar's exact two-sided p and mid-p: b c p mid_p\n")
		sb.WriteString("# exact rationals from math/big binomial sums (exactMcNemar in mcnemar_test.go), rounded to 17 digits\n")
		for _, bc := range cases {
			p, mid := exactMcNemar(bc[0], bc[1])
			pf, _ := p.Float64()
			mf, _ := mid.Float64()
			fmt.Fprintf(&sb, "%d %d %.17g %.17g\n", bc[0], bc[1], pf, mf)
		}
		if err := os.WriteFile(path, []byte(sb.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	rows := 0
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "#") {
			continue
		}
		fs := strings.Fields(line)
		b, _ := strconv.ParseInt(fs[0], 10, 64)
		c, _ := strconv.ParseInt(fs[1], 10, 64)
		wp, _ := strconv.ParseFloat(fs[2], 64)
		wm, _ := strconv.ParseFloat(fs[3], 64)
		ep, em := exactMcNemar(b, c)
		if relErr(wp, ep) > 1e-15 || relErr(wm, em) > 1e-15 {
			t.Errorf("%s: line %q disagrees with math/big", path, line)
		}
		p, mid := McNemarP(b, c)
		if math.Abs(p-wp) > 1e-12*wp || math.Abs(mid-wm) > 1e-12*wm {
			t.Errorf("McNemarP(%d, %d) = %v, %v; golden %v, %v", b, c, p, mid, wp, wm)
		}
		rows++
	}
	if rows != len(cases) {
		t.Errorf("%s has %d rows, want %d", path, rows, len(cases))
	}
}
