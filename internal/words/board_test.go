package words

import (
	"fmt"
	"strings"
	"testing"

	"github.com/flakegate/flakegate/core/aa"
	"github.com/flakegate/flakegate/core/compare"
)

// boardOf is a leaderboard of models answering 40 questions, right on the
// first `right` of them, `epochs` times each (all passes or all fails).
func boardOf(t *testing.T, right, epochs []int) *compare.Board {
	var models []compare.Model
	for m, r := range right {
		s := &aa.Side{}
		for q := range 40 {
			p := int64(0)
			if q < r {
				p = int64(epochs[m])
			}
			s.Scenarios = append(s.Scenarios, aa.Tally{ID: fmt.Sprint(q), Passed: p, Total: int64(epochs[m])})
		}
		models = append(models, compare.Model{Name: fmt.Sprint("m", m), Side: s})
	}
	b, err := compare.Leaderboard(models, compare.DefaultBoardOptions)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestBoardWords: the answer names the leader and whom the eval cannot
// tell from it, with Holm's p (core/compare's TestBoardHand works these
// models' figures by hand: 0.25 and 0.1875 for 36 and 35 right against
// 40), or says it is told apart from all; the story names the test each
// pair had.
func TestBoardWords(t *testing.T) {
	for _, c := range []struct {
		right, epochs []int
		answer, test  string
	}{
		{[]int{35, 10, 40, 36}, []int{1, 1, 1, 1},
			"m2 leads with 100.0% (95% interval 100.0% to 100.0%); the eval cannot tell m2 from m3 (p = 0.25 after Holm) or m0 (p = 0.19 after Holm); 4 models fall in 2 tied groups, 3 of 6 pairs told apart.",
			"by McNemar's exact test on the questions one got right and the other wrong"},
		{[]int{40, 10, 5}, []int{1, 1, 1},
			"m0 leads with 100.0% (95% interval 100.0% to 100.0%); the eval tells it apart from every other model (p < 0.0001 after Holm); 3 models fall in 2 tied groups, 2 of 3 pairs told apart.",
			"by McNemar's exact test on the questions one got right and the other wrong"},
		{[]int{40, 10, 5}, []int{2, 1, 1},
			"the eval tells it apart from every other model",
			"McNemar's exact test where both answered each question once, else the paired t-test"},
	} {
		b := boardOf(t, c.right, c.epochs)
		if got := BoardAnswer(b); !strings.Contains(got, c.answer) {
			t.Errorf("answer %q\nwant %q", got, c.answer)
		}
		if got := BoardStory(b)[0]; !strings.Contains(got, c.test) {
			t.Errorf("story %q\nwant %q", got, c.test)
		}
	}
}
