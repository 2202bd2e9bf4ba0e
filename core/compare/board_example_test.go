package compare_test

import (
	"fmt"

	"github.com/flakegate/flakegate/core/aa"
	"github.com/flakegate/flakegate/core/compare"
)

// Three models answer 40 questions once; each one's wrong answers include
// the next better one's. So a pair's discordant questions all go one way
// and McNemar's exact p for d of them is 2·2^−d: top–mid d = 4, p =
// 0.125; top–low d = 30 and mid–low d = 26, p below 1e-7. Holm over the 3
// pairs: 3·(2·2^−30), 2·(2·2^−26), 1·0.125. Only the pairs with low are
// told apart: top and mid share group a and ranks 1–2; low is 3rd.
func ExampleLeaderboard() {
	model := func(name string, right int) compare.Model {
		s := &aa.Side{}
		for q := range 40 {
			s.Scenarios = append(s.Scenarios, aa.Tally{ID: fmt.Sprint(q), Passed: int64(min(1, max(0, right-q))), Total: 1})
		}
		return compare.Model{Name: name, Side: s}
	}
	b, err := compare.Leaderboard([]compare.Model{model("low", 10), model("top", 40), model("mid", 36)}, compare.DefaultBoardOptions)
	if err != nil {
		panic(err)
	}
	for _, m := range b.Models {
		fmt.Printf("%d %s %.3f ranks %d-%d group %s\n", m.Place, m.Name, m.Accuracy, m.RankLow, m.RankHigh, m.Groups)
	}
	for _, p := range b.Pairs {
		fmt.Printf("%s over %s: %s p = %.3g, Holm %.3g, told apart %v\n", p.Higher, p.Lower, p.Test, p.PValue, p.Holm, p.Significant)
	}
	// Output:
	// 1 top 1.000 ranks 1-2 group a
	// 2 mid 0.900 ranks 1-2 group a
	// 3 low 0.250 ranks 3-3 group b
	// top over mid: mcnemar-exact p = 0.125, Holm 0.125, told apart false
	// top over low: mcnemar-exact p = 1.86e-09, Holm 5.59e-09, told apart true
	// mid over low: mcnemar-exact p = 2.98e-08, Holm 5.96e-08, told apart true
}
