package runner_test

import (
	"fmt"
	"strings"

	"github.com/flakegate/flakegate/core/ledger"
	"github.com/flakegate/flakegate/internal/runner"
)

// The order of four runs per arm: interleaved, and each pair in a seeded
// random order.
func ExampleOrder() {
	arms := []string{ledger.ArmBaseline, ledger.ArmPatched}
	for _, order := range []string{runner.OrderInterleave, runner.OrderRandom} {
		slots, _ := runner.Order(arms, 4, order, 1)
		ids := make([]string, len(slots))
		for i, s := range slots {
			ids[i] = s.ID()
		}
		fmt.Printf("%-10s %s\n", order, strings.Join(ids, " "))
	}
	// Output:
	// interleave b1 p1 b2 p2 b3 p3 b4 p4
	// random     p1 b1 p2 b2 p3 b3 b4 p4
}
