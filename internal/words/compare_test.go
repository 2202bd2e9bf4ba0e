package words

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/flakegate/flakegate/core/aa"
	"github.com/flakegate/flakegate/core/compare"
)

var updateWords = flag.Bool("update", false, "rewrite the golden summaries in testdata/compare")

// evalSides is an eval of n questions answered once a side: A right on
// right of them; then up questions A got wrong go right and down that A
// got right go wrong.
func evalSides(n, right, up, down int) (a, b *aa.Side) {
	a, b = &aa.Side{}, &aa.Side{}
	for i := range n {
		id := fmt.Sprintf("mmlu-%04d", i)
		pa := int64(0)
		if i < right {
			pa = 1
		}
		pb := pa
		if i < down || i >= right && i < right+up {
			pb = 1 - pa
		}
		a.Scenarios = append(a.Scenarios, aa.Tally{ID: id, Passed: pa, Total: 1})
		b.Scenarios = append(b.Scenarios, aa.Tally{ID: id, Passed: pb, Total: 1})
	}
	return a, b
}

// TestCompareAnswer holds the sentence a reviewer pastes. 710 questions, A
// right on 440; 41 go from wrong to right and 19 from right to wrong. By
// hand (python3, math.comb and statistics): B − A = 22/710 = 3.099 points;
// sd of the differences 0.289249, SE 1.0855 points, t_.975,709 = 1.96334,
// interval 0.97 to 5.23; McNemar 2·Σ_{k<=19} C(60,k)/2⁶⁰ = 0.0062.
func TestCompareAnswer(t *testing.T) {
	a, b := evalSides(710, 440, 41, 19)
	r, err := compare.Compare(a, b, compare.DefaultOptions)
	if err != nil {
		t.Fatal(err)
	}
	want := "B answers 3.1 points more questions right (95% interval 1.0 to 5.2); 41 questions went from wrong to right and 19 from right to wrong; McNemar p = 0.0062."
	if got := CompareAnswer(r); got != want {
		t.Errorf("answer\n got %s\nwant %s", got, want)
	}
	a, b = evalSides(710, 440, 10, 30)
	r, _ = compare.Compare(a, b, compare.DefaultOptions)
	if got := CompareAnswer(r); !strings.HasPrefix(got, "B answers 2.8 points fewer questions right (95% interval "+Minus) {
		t.Errorf("a loss reads %q", got)
	}
	if got := CompareMeaning(r); !strings.Contains(got, "below zero, so B is worse") {
		t.Errorf("a loss means %q", got)
	}
}

// TestCompareMarkdownGolden holds the summaries of three comparisons to
// testdata/compare/*.md: one answer a side (the answer above), three
// epochs with passages as clusters, and a tie (go test -update rewrites).
func TestCompareMarkdownGolden(t *testing.T) {
	// 120 reading-comprehension questions, 6 to a passage, answered 3
	// times a side; a passage's difficulty and B's gain on it are shared
	// by its questions, so the clusters inflate the variance.
	epochs := func() (*aa.Side, *aa.Side, compare.Options) {
		r := rand.New(rand.NewPCG(28, 9))
		a, b := &aa.Side{}, &aa.Side{}
		opt := compare.DefaultOptions
		opt.ClusterField, opt.Clusters = "passage", map[string]string{}
		var base, gain float64
		for i := range 120 {
			if i%6 == 0 {
				base, gain = 0.2+0.6*r.Float64(), 0.04+0.25*r.NormFloat64()
			}
			pa := min(1, max(0, base+0.1*r.NormFloat64()))
			pb := min(1, max(0, pa+gain))
			id := fmt.Sprintf("race-%03d", i)
			ta, tb := aa.Tally{ID: id, Total: 3}, aa.Tally{ID: id, Total: 3}
			for range 3 {
				if r.Float64() < pa {
					ta.Passed++
				}
				if r.Float64() < pb {
					tb.Passed++
				}
			}
			a.Scenarios, b.Scenarios = append(a.Scenarios, ta), append(b.Scenarios, tb)
			opt.Clusters[id] = fmt.Sprintf("passage %d", i/6)
		}
		return a, b, opt
	}
	for _, tc := range []struct {
		name string
		make func() (*aa.Side, *aa.Side, compare.Options)
	}{
		{"one-run", func() (*aa.Side, *aa.Side, compare.Options) {
			a, b := evalSides(710, 440, 41, 19)
			return a, b, compare.DefaultOptions
		}},
		{"epochs-clustered", epochs},
		{"tie", func() (*aa.Side, *aa.Side, compare.Options) {
			a, b := evalSides(200, 120, 5, 5)
			return a, b, compare.DefaultOptions
		}},
	} {
		a, b, opt := tc.make()
		r, err := compare.Compare(a, b, opt)
		if err != nil {
			t.Fatal(err)
		}
		got := CompareMarkdown(r, Link{})
		path := filepath.Join("testdata", "compare", tc.name+".md")
		if *updateWords {
			if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		want, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if got != string(want) {
			t.Errorf("%s: summary differs from %s:\n%s", tc.name, path, got)
		}
	}
}

// TestCompareAnswerBounds: three questions give a t interval (2 degrees of
// freedom, ±4.30 standard errors) past ±100 points; the answer says the
// questions are too few instead of quoting it, and an exact zero is said
// as exactly the same, not "within 0.05 points".
func TestCompareAnswerBounds(t *testing.T) {
	side := func(passed ...int64) *aa.Side {
		s := &aa.Side{}
		for i, p := range passed {
			s.Scenarios = append(s.Scenarios, aa.Tally{ID: string(rune('a' + i)), Passed: p, Total: 1})
		}
		return s
	}
	r, err := compare.Compare(side(1, 0, 1), side(0, 0, 1), compare.DefaultOptions)
	if err != nil {
		t.Fatal(err)
	}
	got := CompareAnswer(r)
	if want := "3 questions are too few to say whether B or A is better: B − A is −33.3 points, and the 95% interval covers every difference accuracy can take (−100 to 100 points)"; !strings.HasPrefix(got, want) {
		t.Errorf("got %q\nwant it to start %q", got, want)
	}
	r, err = compare.Compare(side(1, 0, 1, 0, 1, 1, 0, 1, 1, 1), side(0, 1, 1, 0, 1, 1, 0, 1, 1, 1), compare.DefaultOptions)
	if err != nil {
		t.Fatal(err)
	}
	got = CompareAnswer(r)
	if want := "B and A answer exactly the same share of questions right (95% interval"; !strings.HasPrefix(got, want) || strings.Contains(got, "within") {
		t.Errorf("got %q\nwant it to start %q", got, want)
	}
}
