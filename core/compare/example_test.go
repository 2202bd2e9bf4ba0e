package compare_test

import (
	"fmt"

	"github.com/flakegate/flakegate/core/aa"
	"github.com/flakegate/flakegate/core/compare"
)

// Ten questions answered once by each model: B gets q2, q3, q5 and q7
// right that A got wrong, and loses q8. By hand: the differences are four
// 1s, one -1 and five 0s, mean 0.3, s² = (5 − 10·0.3²)/9 = 0.4556, SE =
// 0.2134, t = 1.406 on 9 df, t_.975 = 2.262, so 0.3 ± 0.483; McNemar with
// 4 and 1 discordant: p = 2·(1+5)/2⁵ = 0.375, mid-p = (6+1)/32 = 0.219.
func ExampleCompare() {
	side := func(passed string) *aa.Side {
		s := &aa.Side{}
		for i, c := range passed {
			p := int64(0)
			if c == '1' {
				p = 1
			}
			s.Scenarios = append(s.Scenarios, aa.Tally{ID: fmt.Sprintf("q%d", i), Passed: p, Total: 1})
		}
		return s
	}
	res, err := compare.Compare(side("1100101011"), side("1111111101"), compare.DefaultOptions)
	if err != nil {
		panic(err)
	}
	fmt.Printf("B - A = %+.2f, 95%% interval %.3f to %.3f, paired t p = %.3f\n", res.Diff, res.Low, res.High, res.PValue)
	fmt.Printf("wrong to right %d, right to wrong %d, McNemar p = %.3f, mid-p = %.3f\n",
		res.McNemar.WrongToRight, res.McNemar.RightToWrong, res.McNemar.PValue, res.McNemar.MidP)
	for _, f := range res.Flips {
		fmt.Printf("%s %v -> %v\n", f.ID, f.A, f.B)
	}
	// Output:
	// B - A = +0.30, 95% interval -0.183 to 0.783, paired t p = 0.193
	// wrong to right 4, right to wrong 1, McNemar p = 0.375, mid-p = 0.219
	// q2 0 -> 1
	// q3 0 -> 1
	// q5 0 -> 1
	// q7 0 -> 1
	// q8 1 -> 0
}
