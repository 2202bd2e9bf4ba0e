package compare

import (
	"fmt"
	"math"
	"math/big"
	"strings"

	"github.com/flakegate/flakegate/core/aa"
	"github.com/flakegate/flakegate/core/stat"
)

// sep joins the parts of a scenario name that a reader builds from several
// fields (promptfoo: the test, the provider, the prompt).
const sep = " · "

// pairUp pairs the questions of a and b by id, in a's order, and lists
// the ids only one side has. When no id matches and every name on both
// sides is made of the same number of " · " parts, one of which is the
// same throughout a side but differs between the sides (promptfoo names a
// test after its provider: the model being compared), the questions are
// paired without that part, and note says so.
func pairUp(a, b *aa.Side) (pairs []pair, onlyA, onlyB []string, note string) {
	keyA, keyB := ids(a), ids(b)
	if !anyCommon(keyA, keyB) {
		if part, ka, kb, va, vb := dropModelPart(keyA, keyB); part >= 0 {
			keyA, keyB = ka, kb
			note = fmt.Sprintf("no question id is on both sides; questions are paired without the part of their names that names the model (%q on side A, %q on side B)", va, vb)
		}
	}
	inB := make(map[string]int, len(keyB))
	for i, k := range keyB {
		inB[k] = i
	}
	used := make([]bool, len(keyB))
	for i, k := range keyA {
		j, ok := inB[k]
		if !ok || used[j] {
			onlyA = append(onlyA, a.Scenarios[i].ID)
			continue
		}
		used[j] = true
		pairs = append(pairs, pair{id: a.Scenarios[i].ID, a: a.Scenarios[i], b: b.Scenarios[j]})
	}
	for j, u := range used {
		if !u {
			onlyB = append(onlyB, b.Scenarios[j].ID)
		}
	}
	return pairs, onlyA, onlyB, note
}

func ids(s *aa.Side) []string {
	out := make([]string, len(s.Scenarios))
	for i, t := range s.Scenarios {
		out[i] = t.ID
	}
	return out
}

func anyCommon(a, b []string) bool {
	set := make(map[string]bool, len(a))
	for _, k := range a {
		set[k] = true
	}
	for _, k := range b {
		if set[k] {
			return true
		}
	}
	return false
}

// dropModelPart finds the first " · " part that is constant within each
// side and differs between them, and returns the names without it (and
// its values); part is -1 when there is none.
func dropModelPart(a, b []string) (part int, ka, kb []string, va, vb string) {
	split := func(names []string) [][]string {
		out := make([][]string, len(names))
		for i, n := range names {
			out[i] = strings.Split(n, sep)
		}
		return out
	}
	pa, pb := split(a), split(b)
	parts := len(pa[0])
	for _, ps := range append(append([][]string{}, pa...), pb...) {
		if len(ps) != parts {
			return -1, nil, nil, "", ""
		}
	}
	constant := func(ps [][]string, j int) bool {
		for _, p := range ps {
			if p[j] != ps[0][j] {
				return false
			}
		}
		return true
	}
	for j := 0; j < parts && parts > 1; j++ {
		if constant(pa, j) && constant(pb, j) && pa[0][j] != pb[0][j] {
			without := func(ps [][]string) []string {
				out := make([]string, len(ps))
				for i, p := range ps {
					out[i] = strings.Join(append(append([]string{}, p[:j]...), p[j+1:]...), sep)
				}
				return out
			}
			return j, without(pa), without(pb), pa[0][j], pb[0][j]
		}
	}
	return -1, nil, nil, "", ""
}

func fmean(xs []float64) float64 { return stat.Fmean(xs) }

// equalDiffs reports whether every paired question's difference b_i − a_i
// is the same in exact arithmetic. Each float difference is within 4e-16
// of its exact value, so differences more than 1e-12 apart differ; only
// when none are does it compare the fractions exactly.
func equalDiffs(pairs []pair) bool {
	d0 := pairs[0].d()
	for _, p := range pairs[1:] {
		if math.Abs(p.d()-d0) > 1e-12 {
			return false
		}
	}
	exact := func(p pair) *big.Rat {
		return new(big.Rat).Sub(big.NewRat(p.b.Passed, p.b.Total), big.NewRat(p.a.Passed, p.a.Total))
	}
	first := exact(pairs[0])
	for _, p := range pairs[1:] {
		if exact(p).Cmp(first) != 0 {
			return false
		}
	}
	return true
}
