package compare

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/flakegate/flakegate/core"
)

// FuzzLeaderboard: models decoded from any text (models split by "|",
// each "id:passed/total" items; categories from each question id's first
// letter) give a leaderboard or a *core.Error, never a panic or a NaN,
// and the leaderboard keeps its invariants: rows by accuracy, each rank
// interval within [1, K], Holm at or above each p and at most 1, BH at
// or below Holm.
func FuzzLeaderboard(f *testing.F) {
	f.Add("a1:1/1 a2:0/1 b3:1/1|a1:0/1 a2:1/1 b3:1/1|a1:1/1 a2:1/1 b3:0/1", true)
	f.Add("a1:2/3 a2:0/3|a1:3/3 a2:1/3|a1:0/3 a2:0/3", false)
	f.Add("a1:1/1|a1:1/1", true)
	f.Fuzz(func(t *testing.T, text string, bh bool) {
		var models []Model
		cats := map[string]string{}
		for i, spec := range strings.Split(text, "|") {
			s := sides(spec)
			models = append(models, Model{Name: fmt.Sprint("m", i), Side: s})
			for _, sc := range s.Scenarios {
				if sc.ID != "" {
					cats[sc.ID] = sc.ID[:1]
				}
			}
		}
		b, err := Leaderboard(models, BoardOptions{Level: 0.95, BH: bh, Categories: cats, CategoryField: "letter"})
		if err != nil {
			var ce *core.Error
			if !errors.As(err, &ce) {
				t.Fatalf("error %T %v is not a *core.Error", err, err)
			}
			return
		}
		k := len(models)
		for i, m := range b.Models {
			if m.Accuracy != m.Accuracy || m.Low != m.Low || m.High != m.High || m.RankLow < 1 || m.RankHigh > k || m.RankLow > m.RankHigh {
				t.Fatalf("row %+v", m)
			}
			if i > 0 && m.Accuracy > b.Models[i-1].Accuracy {
				t.Fatalf("rows out of order: %+v", b.Models)
			}
		}
		pairs := b.Pairs
		for _, c := range b.Categories {
			pairs = append(pairs, c.Pairs...)
		}
		for _, p := range pairs {
			if p.PValue != p.PValue || p.Diff != p.Diff || p.Holm < p.PValue || p.Holm > 1 || bh && *p.BH > p.Holm*(1+1e-15) {
				t.Fatalf("pair %+v", p)
			}
		}
	})
}
