package compare

import (
	"bytes"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/flakegate/flakegate/core"
	"github.com/flakegate/flakegate/core/aa"
	"github.com/flakegate/flakegate/internal/testfile"
)

// abilityModels draws k models answering n questions `epochs` times each:
// model m passes question q with chance logistic(ability[m] − difficulty_q),
// the difficulties drawn once and shared, so that a higher ability is a
// higher true accuracy and equal abilities equal ones.
func abilityModels(r *rand.Rand, ability []float64, n, epochs int) []Model {
	diff := make([]float64, n)
	for q := range diff {
		diff[q] = r.NormFloat64() * 1.5
	}
	out := make([]Model, len(ability))
	for m, a := range ability {
		s := &aa.Side{}
		for q := range n {
			p := 1 / (1 + math.Exp(diff[q]-a))
			s.Scenarios = append(s.Scenarios, draw(r, fmt.Sprintf("q%d", q), p, epochs))
		}
		out[m] = Model{Name: fmt.Sprintf("m%d", m), Side: s}
	}
	return out
}

// TestBoardPairsAreCompare checks that every pair's row is `compare Lower
// Higher`'s figures on the same questions, bit for bit: the difference,
// its interval and the p-value the comparison's answer reports (McNemar's
// with one answer a question, the paired t-test's otherwise).
func TestBoardPairsAreCompare(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 3))
	for trial := range 40 {
		epochs := 1 + trial%3
		models := abilityModels(r, []float64{0, 0.2, 0.2, 0.5, -0.3}[:3+trial%3], 40+r.IntN(200), epochs)
		b, err := Leaderboard(models, BoardOptions{Level: 0.9, BH: true})
		if err != nil {
			t.Fatal(err)
		}
		byName := map[string]*aa.Side{}
		for _, m := range models {
			byName[m.Name] = m.Side
		}
		for _, p := range b.Pairs {
			c, err := Compare(byName[p.Lower], byName[p.Higher], Options{Level: 0.9, Power: 0.8, Effect: 0.02, MaxListed: 1})
			if err != nil {
				t.Fatal(err)
			}
			wantP, wantTest := c.PValue, TestPairedT
			if c.McNemar != nil {
				wantP, wantTest = c.McNemar.PValue, TestMcNemar
			}
			if p.Diff != c.Diff || p.Low != c.Low || p.High != c.High || p.PValue != wantP || p.Test != wantTest {
				t.Fatalf("pair %s over %s: %+v; compare gives diff %v [%v, %v] %s p %v", p.Higher, p.Lower, p, c.Diff, c.Low, c.High, wantTest, wantP)
			}
			if (epochs == 1) != (p.Test == TestMcNemar) {
				t.Fatalf("%d epochs tested by %s", epochs, p.Test)
			}
		}
		for i := 1; i < len(b.Models); i++ {
			if b.Models[i].Accuracy > b.Models[i-1].Accuracy {
				t.Fatalf("rows out of order: %+v", b.Models)
			}
		}
	}
}

// TestBoardHand checks a leaderboard worked by hand. Four models answer 40
// questions once: top is right on all 40, mid1 on 36, mid2 on 35 and low
// on 10, each one's wrong answers a subset of the next lower one's. So the
// discordant pairs of any two are only one way, and McNemar's exact p for
// d of them is 2·2^−d: top–mid1 d=4, p = 0.125; top–mid2 d=5, p = 0.0625;
// mid1–mid2 d=1, p = 1; every pair with low has d >= 25, p <= 6e-8.
// Holm over 6: the three pairs with low are below 1e-6, then 3·0.0625 =
// 0.1875, 2·0.125 = 0.25, 1. So at α = 0.05 only low is told apart: one
// group {top, mid1, mid2} and one {low}; ranks [1,3] for the three and
// [4,4] for low.
func TestBoardHand(t *testing.T) {
	model := func(name string, right int) Model { return ladder(name, 40, right) }
	b, err := Leaderboard([]Model{model("mid2", 35), model("low", 10), model("top", 40), model("mid1", 36)}, DefaultBoardOptions)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, m := range b.Models {
		got = append(got, fmt.Sprintf("%d %s %.3f [%d,%d] %s %v", m.Place, m.Name, m.Accuracy, m.RankLow, m.RankHigh, m.Groups, m.Tied))
	}
	want := []string{
		"1 top 1.000 [1,3] a [mid1 mid2]",
		"2 mid1 0.900 [1,3] a [top mid2]",
		"3 mid2 0.875 [1,3] a [top mid1]",
		"4 low 0.250 [4,4] b []",
	}
	if !slices.Equal(got, want) {
		t.Fatalf("rows:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	holm := map[string]float64{"top/mid1": 0.25, "top/mid2": 0.1875, "mid1/mid2": 1}
	for _, p := range b.Pairs {
		if h, ok := holm[p.Higher+"/"+p.Lower]; ok && math.Abs(p.Holm-h) > 1e-15 {
			t.Errorf("%s/%s: Holm %v, want %v", p.Higher, p.Lower, p.Holm, h)
		}
		if want := p.Lower == "low"; p.Significant != want {
			t.Errorf("%s/%s significant %v", p.Higher, p.Lower, p.Significant)
		}
	}
	if b.Comparisons != 6 || len(b.Groups) != 2 || b.Pairs[0].BH != nil {
		t.Fatalf("comparisons %d, groups %+v, BH %v", b.Comparisons, b.Groups, b.Pairs[0].BH)
	}
}

// TestBoardGroupsOverlap checks groups that share a model: a chain a > b >
// c where a and c differ but neither differs from b makes two groups, ab
// and bc, and b's letters are "ab". Each model answers 200 questions; a's
// wrong answers are a subset of b's, and b's of c's, 5 apart each: a–b
// and b–c have 5 discordant pairs, p = 2·2^−5 = 0.0625 (Holm 0.125), a–c
// has 10, p = 2·2^−10 = 0.00195 (Holm 3·0.00195 = 0.0059 < 0.05).
func TestBoardGroupsOverlap(t *testing.T) {
	model := func(name string, right int) Model { return ladder(name, 200, right) }
	b, err := Leaderboard([]Model{model("a", 150), model("b", 145), model("c", 140)}, DefaultBoardOptions)
	if err != nil {
		t.Fatal(err)
	}
	var groups []string
	for _, g := range b.Groups {
		groups = append(groups, g.Letter+":"+strings.Join(g.Models, ","))
	}
	if strings.Join(groups, " ") != "a:a,b b:b,c" || b.Models[1].Groups != "ab" {
		t.Fatalf("groups %v, b's letters %q", groups, b.Models[1].Groups)
	}
	if m := b.Models; m[0].RankLow != 1 || m[0].RankHigh != 2 || m[1].RankLow != 1 || m[1].RankHigh != 3 || m[2].RankLow != 2 || m[2].RankHigh != 3 {
		t.Fatalf("ranks %+v", m)
	}
}

// TestBoardRankCoverage is the seeded simulation of the rank intervals'
// coverage: in each replicate the true ranks (1 + the models truly better,
// K − those truly worse; equal abilities share them) must all fall inside
// the intervals, in at least Level of the replicates. Four settings at
// Level 0.95: all models equal (every pair a true null: coverage is one
// minus Holm's family-wise error), two ties among spread models, close
// models, and three epochs a question (the paired t-test). It also reports
// how often a rank is pinned down exactly, so that intervals [1, K] (which
// always cover) cannot pass unnoticed.
func TestBoardRankCoverage(t *testing.T) {
	// With -short (WebAssembly, and arm64 under emulation) a quarter of the
	// replicates: enough to show the same bits there, while the full size
	// runs natively. The bar is then 0.95 less two standard errors of a
	// coverage of exactly 0.95 at that size, so the smaller run still
	// fails a rule that covers less.
	reps, bar := 1000, 0.95
	if testing.Short() {
		reps = 250
		bar -= 2 * math.Sqrt(0.95*0.05/float64(reps))
	}
	for _, c := range []struct {
		name          string
		ability       []float64
		n, epochs     int
		minExactShare float64 // of the rows whose rank interval is one rank
	}{
		{"all equal", []float64{0.3, 0.3, 0.3, 0.3, 0.3, 0.3}, 300, 1, 0},
		{"ties among spread", []float64{-1, 0, 0, 1, 1, 2}, 300, 1, 0.2},
		{"close", []float64{0, 0.1, 0.2, 0.3, 0.4}, 400, 1, 0},
		{"epochs", []float64{-0.5, 0, 0, 0.5, 1}, 200, 3, 0.2},
	} {
		r := rand.New(rand.NewPCG(2026, uint64(len(c.name))))
		covered, exact, rows := 0, 0, 0
		for range reps {
			models := abilityModels(r, c.ability, c.n, c.epochs)
			b, err := Leaderboard(models, DefaultBoardOptions)
			if err != nil {
				t.Fatal(err)
			}
			ok := true
			for _, m := range b.Models {
				i, _ := strconv.Atoi(m.Name[1:])
				better, worse := 0, 0
				for _, a := range c.ability {
					if a > c.ability[i] {
						better++
					} else if a < c.ability[i] {
						worse++
					}
				}
				if m.RankLow > 1+better || m.RankHigh < len(c.ability)-worse {
					ok = false
				}
				if m.RankLow == m.RankHigh {
					exact++
				}
				rows++
			}
			if ok {
				covered++
			}
		}
		share := float64(covered) / float64(reps)
		exactShare := float64(exact) / float64(rows)
		t.Logf("%s: all true ranks inside in %d of %d replicates (%.3f); %.3f of rows ranked exactly", c.name, covered, reps, share, exactShare)
		if share < bar {
			t.Errorf("%s: coverage %.3f below %.3f", c.name, share, bar)
		}
		if exactShare < c.minExactShare {
			t.Errorf("%s: only %.3f of rows ranked exactly, want %.2f or more", c.name, exactShare, c.minExactShare)
		}
	}
}

// TestBoardCategories checks the per-category rows: each category's pairs
// are tested on its questions alone, and their Holm values are corrected
// over every pair of every category together, the multiplicity stated.
func TestBoardCategories(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 5))
	models := abilityModels(r, []float64{0, 0.4, 0.8}, 90, 1)
	cats := map[string]string{}
	for q := range 89 { // q89 has no category
		cats[fmt.Sprintf("q%d", q)] = []string{"math", "code", "prose"}[q%3]
	}
	cats["q0"] = "lonely" // a category of one question: no rows
	b, err := Leaderboard(models, BoardOptions{Level: 0.95, BH: true, Categories: cats, CategoryField: "task"})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	var ps []float64
	for _, c := range b.Categories {
		names = append(names, fmt.Sprintf("%s:%d", c.Name, c.Questions))
		for _, p := range c.Pairs {
			ps = append(ps, p.PValue)
		}
	}
	if strings.Join(names, " ") != "code:30 prose:29 math:29" || b.CategoryComparisons != 9 || b.CategoryField != "task" {
		t.Fatalf("categories %v, comparisons %d", names, b.CategoryComparisons)
	}
	holm, bh := Holm(ps), BH(ps)
	i := 0
	for _, c := range b.Categories {
		sub := make([]Model, len(models))
		for m, mod := range models {
			s := &aa.Side{}
			for _, sc := range mod.Side.Scenarios {
				if cats[sc.ID] == c.Name {
					s.Scenarios = append(s.Scenarios, sc)
				}
			}
			sub[m] = Model{Name: mod.Name, Side: s}
		}
		alone, err := Leaderboard(sub, DefaultBoardOptions)
		if err != nil {
			t.Fatal(err)
		}
		for j, p := range c.Pairs {
			if p.PValue != alone.Pairs[j].PValue || p.Diff != alone.Pairs[j].Diff || p.Holm != holm[i] || *p.BH != bh[i] {
				t.Fatalf("%s pair %d: %+v; alone %+v, family Holm %v", c.Name, j, p, alone.Pairs[j], holm[i])
			}
			i++
		}
	}
	if !hasBoardWarning(b, "q89") || !hasBoardWarning(b, `"lonely" has one question`) {
		t.Fatalf("warnings %q", b.Warnings)
	}
}

func hasBoardWarning(b *Board, part string) bool {
	for _, w := range b.Warnings {
		if strings.Contains(w, part) {
			return true
		}
	}
	return false
}

// TestBoardErrors checks the input a leaderboard refuses, and its words.
func TestBoardErrors(t *testing.T) {
	one := sides("q1:1/1 q2:0/1 q3:1/1")
	many := make([]Model, MaxBoardModels+1)
	for i := range many {
		many[i] = Model{Name: fmt.Sprint(i), Side: one}
	}
	// 42 questions in 21 categories of 2; 50 models of 27,395 questions:
	// 1,225 pairs · 2 · 27,395 = 67,117,750 > 2^26.
	wide, manyCats := &aa.Side{}, map[string]string{}
	for q := range 42 {
		id := fmt.Sprint("q", q)
		wide.Scenarios = append(wide.Scenarios, aa.Tally{ID: id, Passed: int64(q % 2), Total: 1})
		manyCats[id] = fmt.Sprint("t", q/2)
	}
	bigBoard := make([]Model, MaxBoardModels)
	big := ladder("", 27395, 100).Side
	for i := range bigBoard {
		bigBoard[i] = Model{Name: fmt.Sprint(i), Side: big}
	}
	for _, c := range []struct {
		name   string
		models []Model
		opt    BoardOptions
		kind   core.Kind
		words  string
	}{
		{"one model", []Model{{"a", one}}, DefaultBoardOptions, core.Invalid, "2 or more models, got 1"},
		{"too many", many, DefaultBoardOptions, core.TooLarge, "at most 50 models, got 51"},
		{"same name", []Model{{"a", one}, {"a", one}}, DefaultBoardOptions, core.Invalid, "names two models"},
		{"no name", []Model{{"a", one}, {"", one}}, DefaultBoardOptions, core.Invalid, "models[1]"},
		{"level", []Model{{"a", one}, {"b", one}}, BoardOptions{Level: 1}, core.Invalid, "level"},
		{"empty side", []Model{{"a", one}, {"b", &aa.Side{}}}, DefaultBoardOptions, core.Unusable, "b: has no questions"},
		{"nothing shared", []Model{{"a", one}, {"b", sides("x:1/1 y:1/1")}}, DefaultBoardOptions, core.Unusable, "0 questions in common; a leaderboard needs 2 or more, paired by id (a's ids: q1, q2, q3; b's ids: x, y)"},
		{"many categories", []Model{{"a", wide}, {"b", wide}}, BoardOptions{Level: 0.95, Categories: manyCats, CategoryField: "task"}, core.TooLarge, "category: has 21 categories; a leaderboard splits into at most 20"},
		{"work", bigBoard, DefaultBoardOptions, core.TooLarge, "50 models on 27395 questions make 67117750 paired answers to test; the limit is 67108864"},
		{"bad tally", []Model{{"a", one}, {"b", sides("q1:2/1")}}, DefaultBoardOptions, core.Invalid, "out of range"},
	} {
		_, err := Leaderboard(c.models, c.opt)
		if core.ErrorKind(err) != c.kind || !strings.Contains(fmt.Sprint(err), c.words) {
			t.Errorf("%s: got %v (%s), want %s with %q", c.name, err, core.ErrorKind(err), c.kind, c.words)
		}
	}
}

// TestHolmGolden keeps testdata/board-holm.golden: 40 seeded p-value
// vectors and their Holm and BH values as statsmodelsMultipletests (the
// transcription of statsmodels' multipletests above) computes them, each
// value with 17 significant digits (go test -run HolmGolden -update writes
// it again from that reference). Holm and BH must give the same numbers.
func TestHolmGolden(t *testing.T) {
	r := rand.New(rand.NewPCG(40, 1))
	var buf bytes.Buffer
	buf.WriteString("# p-values | holm | fdr_bh, from a transcription of statsmodels' multipletests\n")
	num := func(xs []float64) string {
		s := make([]string, len(xs))
		for i, x := range xs {
			s[i] = strconv.FormatFloat(x, 'g', 17, 64)
		}
		return strings.Join(s, " ")
	}
	for range 40 {
		ps := make([]float64, 1+r.IntN(12))
		for i := range ps {
			ps[i] = math.Round(r.Float64()*r.Float64()*1e4) / 1e4
		}
		fmt.Fprintf(&buf, "%s | %s | %s\n", num(ps), num(statsmodelsMultipletests(ps, "holm")), num(statsmodelsMultipletests(ps, "fdr_bh")))
		if *update {
			continue
		}
		if want := fmt.Sprintf("%s | %s | %s\n", num(ps), num(Holm(ps)), num(BH(ps))); !strings.HasSuffix(buf.String(), want) {
			t.Fatalf("Holm and BH of %v differ from the reference: %s", ps, want)
		}
	}
	testfile.Golden(t, "testdata/board-holm.golden", buf.Bytes(), *update, "-update")
}

// ladder is a model answering n questions once, right on the first `right`
// of them.
func ladder(name string, n, right int) Model {
	s := &aa.Side{}
	for q := range n {
		p := int64(0)
		if q < right {
			p = 1
		}
		s.Scenarios = append(s.Scenarios, aa.Tally{ID: fmt.Sprintf("q%03d", q), Passed: p, Total: 1})
	}
	return Model{Name: name, Side: s}
}
