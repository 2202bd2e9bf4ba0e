package core

// AA computes the A/A check of base and, when cand is not nil, compares it.
func AA(base, cand *AASide, opt AAOptions) (*AAResult, error) { panic("implemented in aa_stats.go") }
