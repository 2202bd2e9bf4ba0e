package core_test

import (
	"fmt"

	"github.com/flakegate/flakegate/core"
)

func ExampleParseCount() {
	c, err := core.ParseCount("baseline", " 17 / 20 ")
	fmt.Println(c.Passed, c.Trials, err)
	_, err = core.ParseCount("baseline", "21/20")
	fmt.Println(err)
	// Output:
	// 17 20 <nil>
	// baseline: 21 is more than the 20 trials
}

func ExampleParseRates() {
	rs, _ := core.ParseRates("rates", "0.05, 0.02,0.01")
	fmt.Println(rs)
	// Output: [0.05 0.02 0.01]
}
