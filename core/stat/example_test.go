package stat_test

import (
	"fmt"

	"github.com/flakegate/flakegate/core/stat"
)

func ExampleWilson() {
	lo, hi := stat.Wilson(4, 120, stat.Z(0.95))
	fmt.Printf("4/120: [%.5f, %.5f]\n", lo, hi)
	// Output: 4/120: [0.01304, 0.08258]
}
