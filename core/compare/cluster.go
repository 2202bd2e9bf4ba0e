package compare

import (
	"fmt"
	"math"

	"github.com/flakegate/flakegate/core"
	"github.com/flakegate/flakegate/core/stat"
)

// Cluster is the comparison with cluster-robust standard errors, for
// questions that come in groups (several questions on one passage, file or
// task) and so are not independent. It is the CR1 estimator, statsmodels'
// OLS(d, 1).fit(cov_type="cluster") on the per-question differences: with
// e_i = d_i − mean(d), E_g the sum of e_i over cluster g, G clusters and
// n questions (one regressor, K = 1),
//
//	V  = G/(G−1) · (n−1)/(n−K) · Σ_g E_g² / n²      ((n−1)/(n−K) = 1 here)
//	SE = √V, interval mean ± t_{(1+level)/2, G−1}·SE
//
// (Cameron and Miller 2015, "A Practitioner's Guide to Cluster-Robust
// Inference": the CR1 factor, and the t on G−1 degrees of freedom they
// advise with few clusters).
// With every question its own cluster it is the paired SE exactly.
type Cluster struct {
	Field    string   `json:"field"`    // what the clusters are: passage, file, task
	Clusters int      `json:"clusters"` // G
	SE       float64  `json:"se"`       // √V, a fraction
	DF       int      `json:"df"`       // G−1
	Low      float64  `json:"low"`      // the interval of Result.Diff at Result.Level
	High     float64  `json:"high"`
	T        *float64 `json:"t"`       // Diff/SE; null when SE = 0
	PValue   float64  `json:"p_value"` // two-sided, on DF degrees of freedom
	// DesignEffect is V over the paired SE², how much the clusters inflate
	// the variance (1 when they do not; below 1 when they cancel).
	DesignEffect float64 `json:"design_effect"`
}

// clusterOf groups the paired questions by opt.Clusters; a question
// without a cluster is a cluster of its own.
func clusterOf(pairs []pair, d []float64, opt Options) (*Cluster, []string) {
	var warns []string
	idx := map[string]int{}
	var missing []string
	group := make([]int, len(pairs))
	for i, p := range pairs {
		c, ok := opt.Clusters[p.id]
		key := "\x00" + c // keeps named clusters apart from questions on their own
		if !ok {
			missing = append(missing, p.id)
			key = "\x01" + p.id
		}
		g, seen := idx[key]
		if !seen {
			g = len(idx)
			idx[key] = g
		}
		group[i] = g
	}
	field := opt.ClusterField
	if field == "" {
		field = "cluster"
	}
	if len(missing) > 0 {
		has := "questions have"
		if len(missing) == 1 {
			has = "question has"
		}
		warns = append(warns, fmt.Sprintf("%d %s no %s: each is taken as a %s of its own (%s)",
			len(missing), has, field, field, core.ListNames(missing)))
	}
	G := len(idx)
	if G < 2 {
		return nil, append(warns, fmt.Sprintf("every question is in one %s: clustered standard errors need 2 or more", field))
	}
	se, mean := ClusteredSE(d, group, G)
	c := &Cluster{Field: field, Clusters: G, SE: se, DF: G - 1, DesignEffect: 1}
	naive := math.Sqrt(stat.SampleVariance(d) / float64(len(d)))
	if equalDiffs(pairs) {
		c.SE, naive = 0, 0
	}
	if naive > 0 {
		c.DesignEffect = float64(c.SE*c.SE) / float64(naive*naive)
	}
	c.Low, c.High, c.T, c.PValue = tInterval(mean, c.SE, float64(G-1), opt.Level)
	if G < 20 {
		warns = append(warns, fmt.Sprintf("only %s: the clustered standard error is rough below about 20", core.Nouns(G, field)))
	}
	return c, warns
}

// ClusteredSE is the CR1 standard error of the mean of d, with d[i] in
// cluster group[i] of G (0 <= group[i] < G, G >= 2), and the mean: the
// sandwich of an OLS of d on a constant, with statsmodels' small-sample
// factor G/(G−1)·(n−1)/(n−1). Sums are exactly rounded, so the figure does
// not depend on the order of the questions.
func ClusteredSE(d []float64, group []int, G int) (se, mean float64) {
	n := float64(len(d))
	mean = stat.Fmean(d)
	sums := make([]stat.Sum, G)
	for i, x := range d {
		sums[group[i]].Add(x - mean)
	}
	var meat stat.Sum
	for g := range sums {
		e := sums[g].Sum()
		meat.Add(float64(e * e))
	}
	v := float64(G) / float64(G-1) * meat.Sum() / float64(n*n)
	return math.Sqrt(v), mean
}
