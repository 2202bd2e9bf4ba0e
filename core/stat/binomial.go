package stat

// PoissonBinomial returns the distribution of the number of successes of
// independent Bernoulli(q_i) trials: element k is P(K = k), k = 0 … len(qs).
func PoissonBinomial(qs []float64) []float64 {
	pmf := make([]float64, len(qs)+1)
	pmf[0] = 1
	for i, q := range qs {
		for k := i + 1; k >= 1; k-- {
			// Conversions forbid fused multiply-adds, which some platforms
			// would round differently.
			pmf[k] = float64(pmf[k]*(1-q)) + float64(pmf[k-1]*q)
		}
		pmf[0] = float64(pmf[0] * (1 - q))
	}
	return pmf
}
