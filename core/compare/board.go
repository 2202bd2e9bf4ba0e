package compare

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/flakegate/flakegate/core"
	"github.com/flakegate/flakegate/core/aa"
	"github.com/flakegate/flakegate/core/stat"
)

// Limits of a leaderboard: the models it ranks, the categories it splits
// the questions into, and its work, the paired tests' questions summed
// over every pair and category (checked before any test runs).
const (
	MaxBoardModels     = 50
	MaxBoardCategories = 20
	MaxBoardWork       = 1 << 26
)

// Model is one model of a leaderboard: its name and its answers.
type Model struct {
	Name string // shown as given; unique, 1 to 200 characters
	Side *aa.Side
}

// BoardOptions say what Leaderboard reports.
type BoardOptions struct {
	// Level is the confidence level, in (0,1): each model's interval is at
	// Level, and the pairwise tests are corrected so that all of them
	// together err with chance at most α = 1−Level (Holm).
	Level float64
	// BH adds Benjamini–Hochberg adjusted p-values (false discovery rate)
	// to every pair, beside Holm's.
	BH bool
	// Categories maps a question id (the first model's) to its category
	// (task, subject); nil gives no per-category rows.
	Categories map[string]string
	// CategoryField names what the categories are ("task"), for the words.
	CategoryField string
}

// DefaultBoardOptions: 95% intervals, Holm at α = 0.05, no BH.
var DefaultBoardOptions = BoardOptions{Level: 0.95}

// Test names of a pair's p-value, the one `compare A B` reports first.
const (
	TestMcNemar = "mcnemar-exact" // every question answered once by each model
	TestPairedT = "paired-t"      // otherwise: the paired t-test of per-question rates
)

// BoardModel is one row of the leaderboard.
type BoardModel struct {
	Name string `json:"name"`
	// Place is the row's place by accuracy, 1 the highest; equal
	// accuracies keep the input order.
	Place int `json:"place"`
	// Accuracy is the mean over the shared questions of the model's pass
	// rate on each, in [0,1]; Low and High its Student t interval at Level
	// (per-question rates, n−1 degrees of freedom), each model on its own.
	Accuracy float64 `json:"accuracy"`
	Low      float64 `json:"low"`
	High     float64 `json:"high"`
	// RankLow and RankHigh are the simultaneous rank interval, in [1,K]:
	// 1 + the models significantly better, K − those significantly worse.
	RankLow  int `json:"rank_low"`
	RankHigh int `json:"rank_high"`
	// Groups are the letters of the tied groups the model is in.
	Groups string `json:"groups"`
	// Tied names the models the eval cannot tell from this one (Holm
	// adjusted p at or above α), in leaderboard order.
	Tied []string `json:"tied"`
}

// BoardPair is the paired comparison of two models on the shared
// questions, the higher-placed first; its figures are `compare Lower
// Higher`'s on the same questions.
type BoardPair struct {
	Higher string `json:"higher"`
	Lower  string `json:"lower"`
	// Diff is Higher's accuracy minus Lower's, a fraction in [-1,1] (0 or
	// more but for rounding); Low and High the paired t interval at Level,
	// not corrected for the other pairs.
	Diff float64 `json:"diff"`
	Low  float64 `json:"low"`
	High float64 `json:"high"`
	Test string  `json:"test"` // mcnemar-exact or paired-t
	// PValue is the test's two-sided p, in [0,1]: McNemar's exact p with
	// one answer a question on each side, else the paired t-test's.
	PValue float64 `json:"p_value"`
	// Holm is PValue adjusted by Holm's step-down over every pair of the
	// family, in [0,1]; BH the Benjamini–Hochberg adjusted value, null
	// unless asked for.
	Holm float64  `json:"holm"`
	BH   *float64 `json:"bh"`
	// Significant says Holm < α: the eval tells the two apart.
	Significant bool `json:"significant"`
}

// BoardGroup is a tied group: a run of consecutive rows of the leaderboard
// no two of which the eval tells apart, not inside a longer such run.
type BoardGroup struct {
	Letter string   `json:"letter"`
	Models []string `json:"models"`
}

// BoardCategory is the leaderboard on one category's questions.
type BoardCategory struct {
	Name      string       `json:"name"`
	Questions int          `json:"questions"`
	Models    []BoardModel `json:"models"` // by accuracy in the category
	Pairs     []BoardPair  `json:"pairs"`
	Groups    []BoardGroup `json:"groups"`
}

// Board is a leaderboard of K models on the questions they share. Its JSON
// is the public contract.
type Board struct {
	// Level is the confidence level, in (0,1); the pairs' Holm values are
	// significant below α = 1 − Level, the family-wise error rate.
	Level float64 `json:"level"`
	// Questions is n, the questions every model has.
	Questions int          `json:"questions"`
	Models    []BoardModel `json:"models"` // by accuracy, highest first
	// Comparisons is the pairs Holm corrects over, K(K−1)/2.
	Comparisons int          `json:"comparisons"`
	Pairs       []BoardPair  `json:"pairs"` // every pair, in leaderboard order
	Groups      []BoardGroup `json:"groups"`
	// CategoryField names the categories; Categories has one leaderboard
	// per category with two or more questions, in the order they first
	// appear; CategoryComparisons is the pairs of all of them, the family
	// their Holm (and BH) values are corrected over. Empty without
	// categories.
	CategoryField       string          `json:"category_field,omitempty"`
	Categories          []BoardCategory `json:"categories"`
	CategoryComparisons int             `json:"category_comparisons"`
	Warnings            []string        `json:"warnings"`
	// Link is the address of the view that reproduces this result; empty
	// without a site.
	Link     string `json:"link,omitempty"`
	LinkNote string `json:"link_note,omitempty"`
}

// Leaderboard ranks models on the questions they all have: each model's
// accuracy and interval, every pair's paired test (as Compare's) with Holm's
// adjustment over all pairs, the tied groups and the simultaneous rank
// intervals, and the same per category when opt.Categories is given.
func Leaderboard(models []Model, opt BoardOptions) (*Board, error) {
	if err := checkBoard(models, opt); err != nil {
		return nil, err
	}
	b := &Board{Level: opt.Level, Warnings: []string{}, Categories: []BoardCategory{}}
	rows, warns := shared(models)
	b.Warnings = append(b.Warnings, warns...)
	n := len(rows)
	b.Questions = n
	if n < 2 {
		return nil, &core.Error{Kind: core.Unusable, Msg: fmt.Sprintf("the models have %s in common; a leaderboard needs 2 or more, paired by id (%s)", core.Nouns(n, "question"), firstIDs(models))}
	}
	k := len(models)
	b.Comparisons = k * (k - 1) / 2
	cats, order, warns := categorize(rows, opt)
	b.Warnings = append(b.Warnings, warns...)
	if len(order) > MaxBoardCategories {
		return nil, &core.Error{Kind: core.TooLarge, Field: "category", Msg: fmt.Sprintf("has %d categories; a leaderboard splits into at most %d", len(order), MaxBoardCategories)}
	}
	if work := int64(b.Comparisons) * int64(2*n); work > MaxBoardWork {
		return nil, &core.Error{Kind: core.TooLarge, Msg: fmt.Sprintf("%d models on %s make %d paired answers to test; the limit is %d (fewer models or questions)", k, core.Nouns(n, "question"), work, MaxBoardWork)}
	}
	all := make([]int, n)
	for i := range all {
		all[i] = i
	}
	b.Models, b.Pairs = board(models, rows, all, opt.Level)
	adjust(b.Pairs, opt.BH)
	b.Groups = rankAndGroup(b.Models, b.Pairs, 1-b.Level)
	if opt.Categories != nil {
		b.CategoryField = opt.CategoryField
		var family []*BoardPair
		for _, c := range order {
			ms, ps := board(models, rows, cats[c], opt.Level)
			b.Categories = append(b.Categories, BoardCategory{Name: c, Questions: len(cats[c]), Models: ms, Pairs: ps})
		}
		for i := range b.Categories {
			for j := range b.Categories[i].Pairs {
				family = append(family, &b.Categories[i].Pairs[j])
			}
		}
		adjustAll(family, opt.BH)
		b.CategoryComparisons = len(family)
		for i := range b.Categories {
			c := &b.Categories[i]
			c.Groups = rankAndGroup(c.Models, c.Pairs, 1-b.Level)
		}
	}
	if n < 30 {
		b.Warnings = append(b.Warnings, fmt.Sprintf("only %s in common: the paired t-tests lean on the t distribution's assumption of normal differences", core.Nouns(n, "question")))
	}
	return b, nil
}

func checkBoard(models []Model, opt BoardOptions) error {
	if !(opt.Level > 0 && opt.Level < 1) {
		return core.FieldErrorf("level", "must be between 0 and 1, got %v", opt.Level)
	}
	switch k := len(models); {
	case k < 2:
		return &core.Error{Kind: core.Invalid, Field: "models", Msg: fmt.Sprintf("a leaderboard needs 2 or more models, got %d", k)}
	case k > MaxBoardModels:
		return &core.Error{Kind: core.TooLarge, Field: "models", Msg: fmt.Sprintf("a leaderboard ranks at most %d models, got %d", MaxBoardModels, k)}
	}
	seen := map[string]bool{}
	for i, m := range models {
		switch {
		case m.Name == "" || !utf8.ValidString(m.Name) || utf8.RuneCountInString(m.Name) > 200:
			return core.FieldErrorf(fmt.Sprintf("models[%d]", i), "a model's name must be 1 to 200 characters of UTF-8")
		case seen[m.Name]:
			return core.FieldErrorf(m.Name, "names two models; give each model its own name")
		}
		seen[m.Name] = true
		if err := checkSide(m.Name, m.Side); err != nil {
			return err
		}
	}
	return nil
}

// shared is the questions every model has, in the first model's order:
// row q holds each model's tally on question q.
func shared(models []Model) (rows [][]aa.Tally, warns []string) {
	index := make([]map[string]int, len(models))
	for i, m := range models {
		index[i] = make(map[string]int, len(m.Side.Scenarios))
		for j, t := range m.Side.Scenarios {
			index[i][t.ID] = j
		}
	}
	for _, t := range models[0].Side.Scenarios {
		row := make([]aa.Tally, len(models))
		ok := true
		for i, m := range models {
			j, has := index[i][t.ID]
			if !has {
				ok = false
				break
			}
			row[i] = m.Side.Scenarios[j]
		}
		if ok {
			rows = append(rows, row)
		}
	}
	for _, m := range models {
		if left := len(m.Side.Scenarios) - len(rows); left > 0 {
			warns = append(warns, fmt.Sprintf("%s has %s that some other model lacks, left out of the leaderboard", m.Name, core.Nouns(left, "question")))
		}
	}
	return rows, warns
}

// categorize groups the rows by category, in the order categories first
// appear; questions without one are left out of the per-category rows.
func categorize(rows [][]aa.Tally, opt BoardOptions) (cats map[string][]int, order []string, warns []string) {
	if opt.Categories == nil {
		return nil, nil, nil
	}
	cats = map[string][]int{}
	var none []string
	for q, row := range rows {
		c, ok := opt.Categories[row[0].ID]
		if !ok {
			none = append(none, row[0].ID)
			continue
		}
		if _, seen := cats[c]; !seen {
			order = append(order, c)
		}
		cats[c] = append(cats[c], q)
	}
	if len(none) > 0 {
		warns = append(warns, fmt.Sprintf("%s without a %s, left out of the per-category rows: %s", core.Nouns(len(none), "question"), opt.CategoryField, core.ListNames(none)))
	}
	kept := order[:0]
	for _, c := range order {
		if len(cats[c]) < 2 {
			warns = append(warns, fmt.Sprintf("%s %q has one question; a category needs 2 or more to compare, so it has no rows", opt.CategoryField, c))
			continue
		}
		kept = append(kept, c)
	}
	return cats, kept, warns
}

// board is the models' rows, by accuracy on the questions qs, and every
// pair's test, unadjusted.
func board(models []Model, rows [][]aa.Tally, qs []int, level float64) ([]BoardModel, []BoardPair) {
	k, n := len(models), len(qs)
	out := make([]BoardModel, k)
	rates := make([]float64, n)
	for i, m := range models {
		same := true
		for j, q := range qs {
			rates[j] = rate(rows[q][i])
			same = same && cmpRates(rows[q][i], rows[qs[0]][i]) == 0
		}
		acc := stat.Fmean(rates)
		se := 0.0
		if !same {
			se = math.Sqrt(stat.SampleVariance(rates) / float64(n))
		}
		low, high, _, _ := tInterval(acc, se, float64(n-1), level)
		out[i] = BoardModel{Name: m.Name, Accuracy: acc, Low: max(0, low), High: min(1, high), Tied: []string{}}
	}
	place := make([]int, k) // place[r] is the model at row r
	for i := range place {
		place[i] = i
	}
	slices.SortStableFunc(place, func(x, y int) int { return cmp.Compare(out[y].Accuracy, out[x].Accuracy) })
	sorted := make([]BoardModel, k)
	for r, i := range place {
		sorted[r] = out[i]
		sorted[r].Place = r + 1
	}
	var pairs []BoardPair
	ps := make([]pair, n)
	for r := range k {
		for s := r + 1; s < k; s++ {
			hi, lo := place[r], place[s]
			for j, q := range qs {
				ps[j] = pair{id: rows[q][0].ID, a: rows[q][lo], b: rows[q][hi]}
			}
			pairs = append(pairs, pairTest(models[hi].Name, models[lo].Name, ps, level))
		}
	}
	return sorted, pairs
}

// pairTest is Compare's test of b against a on the paired questions: its
// difference, interval and the p-value its answer reports first.
func pairTest(higher, lower string, ps []pair, level float64) BoardPair {
	d := make([]float64, len(ps))
	for i, p := range ps {
		d[i] = p.d()
	}
	pt := pairedT(d, level, equalDiffs(ps))
	out := BoardPair{Higher: higher, Lower: lower, Diff: pt.mean, Low: pt.low, High: pt.high, Test: TestPairedT, PValue: pt.p}
	if m := mcnemarOf(ps); m != nil {
		out.Test, out.PValue = TestMcNemar, m.PValue
	}
	return out
}

// adjust sets the Holm (and BH) values of one family of pairs.
func adjust(pairs []BoardPair, bh bool) {
	family := make([]*BoardPair, len(pairs))
	for i := range pairs {
		family[i] = &pairs[i]
	}
	adjustAll(family, bh)
}

func adjustAll(family []*BoardPair, bh bool) {
	ps := make([]float64, len(family))
	for i, p := range family {
		ps[i] = p.PValue
	}
	holm := Holm(ps)
	var fdr []float64
	if bh {
		fdr = BH(ps)
	}
	for i, p := range family {
		p.Holm = holm[i]
		if bh {
			v := fdr[i]
			p.BH = &v
		}
	}
}

// rankAndGroup marks the significant pairs (Holm < alpha) and sets each
// model's rank interval, tied models and group letters, and returns the
// groups. models is in leaderboard order and pairs in board's order.
func rankAndGroup(models []BoardModel, pairs []BoardPair, alpha float64) []BoardGroup {
	k := len(models)
	sig := make([][]bool, k)
	for i := range sig {
		sig[i] = make([]bool, k)
	}
	p := 0
	for r := range k {
		models[r].RankLow, models[r].RankHigh = 1, k
		models[r].Tied = []string{}
	}
	for r := range k {
		for s := r + 1; s < k; s++ {
			pr := &pairs[p]
			p++
			pr.Significant = pr.Holm < alpha
			if !pr.Significant {
				continue
			}
			sig[r][s], sig[s][r] = true, true
			if pr.Diff > 0 { // r is better than s
				models[s].RankLow++
				models[r].RankHigh--
			} else if pr.Diff < 0 {
				models[r].RankLow++
				models[s].RankHigh--
			}
		}
	}
	for r := range k {
		for s := range k {
			if s != r && !sig[r][s] {
				models[r].Tied = append(models[r].Tied, models[s].Name)
			}
		}
	}
	// end[r] is the last row of the longest run from r with no
	// significant pair; a run is a group unless the run before reaches as
	// far.
	var groups []BoardGroup
	prev := -1
	for r := range k {
		e := r
	extend:
		for e+1 < k {
			for x := r; x <= e; x++ {
				if sig[x][e+1] {
					break extend
				}
			}
			e++
		}
		if e <= prev {
			continue
		}
		prev = e
		g := BoardGroup{Letter: letter(len(groups))}
		for x := r; x <= e; x++ {
			g.Models = append(g.Models, models[x].Name)
			models[x].Groups += g.Letter
		}
		groups = append(groups, g)
	}
	return groups
}

// letter names group i: a to z, then A to Z (K <= 50 rows make at most 50
// groups).
func letter(i int) string {
	if i < 26 {
		return string(rune('a' + i))
	}
	return string(rune('A' + i - 26))
}

// firstIDs names each model's first question ids, for an error saying
// the models share too few: "a's ids: q1, q2, q3; b's ids: x1, x2", the
// first four models'.
func firstIDs(models []Model) string {
	parts := make([]string, min(4, len(models)))
	for i, m := range models[:len(parts)] {
		parts[i] = fmt.Sprintf("%s's ids: %s", m.Name, core.ListNames(ids(m.Side)[:min(3, len(m.Side.Scenarios))]))
	}
	return strings.Join(parts, "; ")
}
