// Command gen builds published_like.csv: a synthetic A/A run of 200 scenarios
// over 20 runs whose summary figures match what a published A/A check reports
// for its 20 measured runs. It is not that data (which is unpublished); it
// is one data set consistent with every figure published, so that
// the tests can check that flakegate reproduces those figures from the
// formulas (docs/STATISTICS.md, A/A check). It also writes candidate.csv: 4 runs of a candidate that
// lost about 2 points (its flaky scenarios a little worse, two stable ones
// broken), for the paired t-test. Run from this folder: go run .
//
// Targets (the published figures): 158 scenarios pass all 20 runs, 14 fail all, 28 go
// both ways; v = 0.024 and a formula noise of 1.55 points; pass^1 = 87.6%,
// pass^8 = 80.6%; the first ten runs average 88.35%, the last ten 86.85%;
// measured noise 1.95 points (variance ratio 1.6), 0.97 after removing the
// line; the 2-point rule fires on 69 of 190 pairs with the earlier run as
// baseline and on 6 the other way (75 of 380); the one-run threshold fires
// on 18 and 0; independent runs fitted to the scenarios give "about one in
// eight" (the published 13% came from a simulation; with v = 0.024 the exact
// rate lands near 12%, so the fixture asks for 12% to 13%).
package main

import (
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"slices"
	"strings"
)

const (
	nScen  = 200
	nRuns  = 20
	stable = 158
	failed = 14
	nFlaky = 28
)

func main() {
	rng := rand.New(rand.NewPCG(4, 2026))
	c := flaky(rng)
	p := runs(rng, c)
	m := matrix(c, p)
	write("../published_like.csv", m, "run", rng)
	write("../candidate.csv", candidate(m, rng), "cand", rng)
}

// write writes runs in order; within a run the scenarios come in a shuffled
// order, as the published runs did.
func write(path string, m [][]int, prefix string, rng *rand.Rand) {
	var b strings.Builder
	b.WriteString("scenario,run,passed\n")
	for r := range m[0] {
		for _, s := range rng.Perm(len(m)) {
			fmt.Fprintf(&b, "s%03d,%s%02d,%d\n", s+1, prefix, r+1, m[s][r])
		}
	}
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		panic(err)
	}
}

// candidate draws 4 runs from the baseline's fitted rates, with each flaky
// scenario's rate scaled by 0.85 and the first two stable scenarios broken.
func candidate(m [][]int, rng *rand.Rand) [][]int {
	out := make([][]int, len(m))
	broken := 0
	for s, row := range m {
		q := 0.0
		for _, x := range row {
			q += float64(x)
		}
		q /= float64(len(row))
		switch {
		case q == 1 && broken < 2:
			q = 0
			broken++
		case q > 0 && q < 1:
			q *= 0.85
		}
		out[s] = make([]int, 4)
		for r := range out[s] {
			if rng.Float64() < q {
				out[s][r] = 1
			}
		}
	}
	return out
}

// independent is the chance that, of two independent runs in which each
// scenario passes with its rate c/20, the second passes 4 or more fewer (a
// 2-point drop on 200 scenarios).
func independent(c []int) float64 {
	pmf := []float64{1}
	for _, x := range c {
		q := float64(x) / 20
		next := make([]float64, len(pmf)+1)
		for k, p := range pmf {
			next[k] += p * (1 - q)
			next[k+1] += p * q
		}
		pmf = next
	}
	var p float64
	for x := range pmf {
		for y := 0; y <= x-4; y++ {
			p += pmf[x] * pmf[y]
		}
	}
	return p
}

// outside is how far x lies outside [want-half, want+half): 0 when x prints
// as want.
func outside(x, want, half float64) float64 {
	switch {
	case x < want-half:
		return want - half - x
	case x >= want+half:
		return x - want - half + 1e-12
	}
	return 0
}

func binom(n, k int) float64 {
	if k < 0 || k > n {
		return 0
	}
	r := 1.0
	for i := 0; i < k; i++ {
		r = r * float64(n-i) / float64(i+1)
	}
	return r
}

// flaky picks the 28 mixed scenarios' pass counts.
func flaky(rng *rand.Rand) []int {
	cost := func(c []int) float64 {
		var sq, p8 float64
		for _, x := range c {
			sq += float64(x * (20 - x))
			p8 += binom(x, 8) / binom(20, 8)
		}
		v := sq / 380 / nScen
		passK8 := (stable + p8) / nScen
		sf := math.Sqrt(2*v/nScen) * 100
		return outside(v, 0.024, 0.0005)/0.0001 + outside(sf, 1.55, 0.005)/0.001 +
			outside(passK8, 0.806, 0.0005)/0.0001 + outside(independent(c), 0.125, 0.005)/0.001
	}
	c := make([]int, nFlaky)
	for i := range c {
		c[i] = 12
	}
	c[0] += 344 - 12*nFlaky // Σc = 344 so that pass^1 = 3504/4000
	for c[0] > 19 {
		i := 1 + rng.IntN(nFlaky-1)
		if c[i] < 19 {
			c[i]++
			c[0]--
		}
	}
	best := cost(c)
	for it := 0; it < 200000 && best > 0; it++ {
		i, j := rng.IntN(nFlaky), rng.IntN(nFlaky)
		if i == j || c[i] >= 19 || c[j] <= 1 {
			continue
		}
		c[i]++
		c[j]--
		if k := cost(c); k <= best || rng.Float64() < 0.01 {
			best = k
		} else {
			c[i]--
			c[j]++
		}
	}
	slices.Sort(c)
	fmt.Fprintf(os.Stderr, "flaky counts %v cost %.3f\n", c, best)
	return c
}

// runs picks the 20 runs' pass counts.
func runs(rng *rand.Rand, c []int) []int {
	var sq float64
	for _, x := range c {
		sq += float64(x * (20 - x))
	}
	v := sq / 380 / nScen
	cost := func(p []int) float64 {
		var mean float64
		for _, x := range p {
			mean += float64(x)
		}
		mean /= nRuns
		var ss, sxy, sxx float64
		for i, x := range p {
			d := float64(x) - mean
			ss += d * d
			dx := float64(i) - 9.5
			sxy += dx * d
			sxx += dx * dx
		}
		sdPts := math.Sqrt2 * math.Sqrt(ss/19) / nScen * 100
		rss := ss - sxy*sxy/sxx
		det := rss / 18 / (nScen * nScen) / (v / nScen)
		thr := 1.645 * math.Max(sdPts, math.Sqrt(2*v/nScen)*100) / 100 * nScen
		var e2, l2, et, lt int
		for i := 0; i < nRuns; i++ {
			for j := i + 1; j < nRuns; j++ {
				if p[i]-p[j] >= 4 {
					e2++
				}
				if p[j]-p[i] >= 4 {
					l2++
				}
				if float64(p[i]-p[j]) > thr {
					et++
				}
				if float64(p[j]-p[i]) > thr {
					lt++
				}
			}
		}
		return outside(sdPts, 1.95, 0.005)/0.001 + outside(det, 0.97, 0.005)/0.001 +
			math.Abs(float64(e2-69)) + math.Abs(float64(l2-6)) + math.Abs(float64(et-18)) + math.Abs(float64(lt))
	}
	var p []int
	best := math.Inf(1)
	for restart := 0; restart < 200 && best > 0; restart++ {
		cur := make([]int, nRuns)
		for i := range cur {
			cur[i] = 176 - 3*(i/10) + rng.IntN(5) - 2
		}
		// Pin the halves' sums at 1767 and 1737.
		for h, want := range []int{1767, 1737} {
			sum := 0
			for _, x := range cur[10*h : 10*h+10] {
				sum += x
			}
			cur[10*h] += want - sum
		}
		now := cost(cur)
		temp := 3.0
		for it := 0; it < 100000; it++ {
			h := 10 * rng.IntN(2) // moves stay inside a half, keeping its sum
			i, j := h+rng.IntN(10), h+rng.IntN(10)
			if i == j {
				continue
			}
			cur[i]++
			cur[j]--
			if k := cost(cur); k <= now || rng.Float64() < math.Exp((now-k)/temp) {
				now = k
				if now < best {
					best, p = now, slices.Clone(cur)
				}
			} else {
				cur[i]--
				cur[j]++
			}
			temp *= 0.99995
		}
	}
	fmt.Fprintf(os.Stderr, "run counts %v cost %.3f\n", p, best)
	return p
}

// matrix fills scenario × run outcomes with the given row and column sums:
// stable scenarios pass everything, failed ones nothing, and the flaky rows
// are placed greedily into the columns with the most passes still owed
// (Ryser's construction, which succeeds whenever any matrix exists).
func matrix(c, p []int) [][]int {
	m := make([][]int, nScen)
	for s := range m {
		m[s] = make([]int, nRuns)
	}
	owed := make([]int, nRuns)
	for r := range owed {
		owed[r] = p[r] - stable
	}
	for s := 0; s < stable; s++ {
		for r := range m[s] {
			m[s][r] = 1
		}
	}
	rows := slices.Clone(c)
	slices.SortFunc(rows, func(a, b int) int { return b - a })
	for i, x := range rows {
		s := stable + failed + i
		cols := make([]int, nRuns)
		for r := range cols {
			cols[r] = r
		}
		slices.SortStableFunc(cols, func(a, b int) int { return owed[b] - owed[a] })
		for _, r := range cols[:x] {
			if owed[r] == 0 {
				panic("no matrix has these sums")
			}
			m[s][r] = 1
			owed[r]--
		}
	}
	for r, o := range owed {
		if o != 0 {
			panic(fmt.Sprintf("run %d still owes %d passes", r, o))
		}
	}
	return m
}
