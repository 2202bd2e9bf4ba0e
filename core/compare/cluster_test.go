package compare

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// olsCluster is statsmodels' OLS(y, X).fit(cov_type="cluster",
// cov_kwds={"groups": g}) written out in matrix algebra, for any design X
// (n rows, k columns): β = (X'X)⁻¹X'y, e = y − Xβ, the meat Σ_g
// (X_g'e_g)(X_g'e_g)', V = c·(X'X)⁻¹·meat·(X'X)⁻¹ with statsmodels'
// use_correction factor c = G/(G−1)·(n−1)/(n−k). It returns β and the
// standard errors √diag(V).
func olsCluster(X [][]float64, y []float64, g []int, G int) (beta, se []float64) {
	n, k := len(X), len(X[0])
	xtx := make([][]float64, k)
	xty := make([]float64, k)
	for a := range k {
		xtx[a] = make([]float64, k)
		for i := range n {
			xty[a] += X[i][a] * y[i]
			for b := range k {
				xtx[a][b] += X[i][a] * X[i][b]
			}
		}
	}
	inv := invert(xtx)
	beta = make([]float64, k)
	for a := range k {
		for b := range k {
			beta[a] += inv[a][b] * xty[b]
		}
	}
	score := make([][]float64, G) // X_g'e_g
	for c := range score {
		score[c] = make([]float64, k)
	}
	for i := range n {
		e := y[i]
		for a := range k {
			e -= X[i][a] * beta[a]
		}
		for a := range k {
			score[g[i]][a] += X[i][a] * e
		}
	}
	meat := make([][]float64, k)
	for a := range k {
		meat[a] = make([]float64, k)
		for c := range G {
			for b := range k {
				meat[a][b] += score[c][a] * score[c][b]
			}
		}
	}
	v := mul(mul(inv, meat), inv)
	corr := float64(G) / float64(G-1) * float64(n-1) / float64(n-k)
	se = make([]float64, k)
	for a := range k {
		se[a] = math.Sqrt(corr * v[a][a])
	}
	return beta, se
}

func mul(a, b [][]float64) [][]float64 {
	out := make([][]float64, len(a))
	for i := range a {
		out[i] = make([]float64, len(b[0]))
		for j := range b[0] {
			for l := range b {
				out[i][j] += a[i][l] * b[l][j]
			}
		}
	}
	return out
}

// invert is Gauss-Jordan elimination with partial pivoting.
func invert(m [][]float64) [][]float64 {
	k := len(m)
	a := make([][]float64, k)
	for i := range k {
		a[i] = make([]float64, 2*k)
		copy(a[i], m[i])
		a[i][k+i] = 1
	}
	for c := range k {
		p := c
		for r := c + 1; r < k; r++ {
			if math.Abs(a[r][c]) > math.Abs(a[p][c]) {
				p = r
			}
		}
		a[c], a[p] = a[p], a[c]
		piv := a[c][c]
		for j := range 2 * k {
			a[c][j] /= piv
		}
		for r := range k {
			if r != c {
				f := a[r][c]
				for j := range 2 * k {
					a[r][j] -= f * a[c][j]
				}
			}
		}
	}
	out := make([][]float64, k)
	for i := range k {
		out[i] = a[i][k:]
	}
	return out
}

// TestClusteredAgainstOLS compares Compare's clustered SE with olsCluster's
// for the regression of the differences on a constant, on 3,000 random
// comparisons (2 to 400 questions in 2 to 60 clusters of uneven size, 1 to
// 5 trials). Tolerance 1e-9 relative on the SE, 1e-12 absolute on the
// mean. It also checks the interval on G−1 degrees of freedom. With
// -short (WebAssembly, arm64 under emulation) the first 600 of them.
func TestClusteredAgainstOLS(t *testing.T) {
	r := rand.New(rand.NewPCG(28, 3))
	worst, cases := 0.0, 0
	for range seqReps(3000, 600) {
		n := 2 + r.IntN(399)
		a, b := randomSides(r, n, 0)
		G := 2 + r.IntN(min(n-1, 59))
		opt := DefaultOptions
		opt.Clusters = map[string]string{}
		group := make([]int, n)
		seen := map[int]bool{}
		for i, s := range a.Scenarios {
			group[i] = r.IntN(G)
			if i < G {
				group[i] = i // every cluster used
			}
			seen[group[i]] = true
			opt.Clusters[s.ID] = fmt.Sprintf("passage %d", group[i])
		}
		res, err := Compare(a, b, opt)
		if err != nil {
			t.Fatal(err)
		}
		if res.Cluster == nil {
			t.Fatalf("no clustered result with %d clusters: %v", G, res.Warnings)
		}
		X := make([][]float64, n)
		y := make([]float64, n)
		for i := range n {
			X[i] = []float64{1}
			y[i] = rate(b.Scenarios[i]) - rate(a.Scenarios[i])
		}
		beta, se := olsCluster(X, y, group, G)
		if res.SE == 0 {
			continue
		}
		cases++
		e := math.Abs(res.Cluster.SE-se[0]) / math.Max(se[0], 1e-300)
		if se[0] < 1e-15 { // the residual sums cancel: both are rounding residues of 0
			e = math.Abs(res.Cluster.SE - se[0])
		}
		worst = max(worst, e)
		if e > 1e-9 || math.Abs(res.Diff-beta[0]) > 1e-12 || res.Cluster.Clusters != G || res.Cluster.DF != G-1 {
			t.Fatalf("n=%d G=%d: clustered SE %v, OLS %v (relative error %.3g); diff %v, β %v", n, G, res.Cluster.SE, se[0], e, res.Diff, beta[0])
		}
		_, _, _, p := tInterval(res.Diff, se[0], float64(G-1), opt.Level)
		if math.Abs(res.Cluster.PValue-p) > 1e-9 {
			t.Fatalf("clustered p %v, want %v", res.Cluster.PValue, p)
		}
		if de := res.Cluster.SE * res.Cluster.SE / (res.SE * res.SE); !near(res.Cluster.DesignEffect, de, 1e-12) {
			t.Fatalf("design effect %v, want %v", res.Cluster.DesignEffect, de)
		}
	}
	t.Logf("%d cases, largest relative error of the SE %.3g", cases, worst)
}

// TestClusteredByHand: d = 1, 0, 0, 1, −1, 0 in clusters {1,2}, {3,4},
// {5,6}. Mean 1/6; residual sums 4/6, 4/6, −8/6; Σ E_g² = 96/36; V =
// 3/2 · (96/36) / 6² = 1/9, SE = 1/3 (computed by hand).
func TestClusteredByHand(t *testing.T) {
	se, mean := ClusteredSE([]float64{1, 0, 0, 1, -1, 0}, []int{0, 0, 1, 1, 2, 2}, 3)
	if !near(se, 1.0/3, 1e-15) || !near(mean, 1.0/6, 1e-15) {
		t.Errorf("ClusteredSE = %v (mean %v), want 1/3 (1/6)", se, mean)
	}
}

// TestClusteredSingletons: with every question its own cluster, CR1 is
// G/(G−1)·Σe²/n² = s²/n, the paired SE (an identity of the formula).
func TestClusteredSingletons(t *testing.T) {
	r := rand.New(rand.NewPCG(28, 4))
	for range 200 {
		a, b := randomSides(r, 3+r.IntN(200), 0)
		opt := DefaultOptions
		opt.Clusters = map[string]string{}
		for _, s := range a.Scenarios {
			opt.Clusters[s.ID] = s.ID
		}
		res, err := Compare(a, b, opt)
		if err != nil {
			t.Fatal(err)
		}
		if !near(res.Cluster.SE, res.SE, 1e-12) {
			t.Fatalf("singleton clusters: clustered SE %v, paired %v", res.Cluster.SE, res.SE)
		}
	}
}

// TestClusterMissing: questions without a cluster are clusters of their
// own, named in a warning; one cluster for everything gives no clustered
// result and says why.
func TestClusterMissing(t *testing.T) {
	a, b := sides("q1:0/1 q2:1/1 q3:0/1 q4:1/1"), sides("q1:1/1 q2:1/1 q3:1/1 q4:0/1")
	opt := DefaultOptions
	opt.ClusterField = "passage"
	opt.Clusters = map[string]string{"q1": "p1", "q2": "p1"}
	res, err := Compare(a, b, opt)
	if err != nil {
		t.Fatal(err)
	}
	if res.Cluster == nil || res.Cluster.Clusters != 3 || !hasWarning(res, "2 questions have no passage") {
		t.Errorf("cluster %+v, warnings %q", res.Cluster, res.Warnings)
	}
	opt.Clusters = map[string]string{"q1": "p", "q2": "p", "q3": "p", "q4": "p"}
	res, _ = Compare(a, b, opt)
	if res.Cluster != nil || !hasWarning(res, "every question is in one passage") {
		t.Errorf("one cluster: %+v, warnings %q", res.Cluster, res.Warnings)
	}
}
