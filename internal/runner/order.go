package runner

import (
	"fmt"
	"math/rand/v2"
	"strconv"

	"github.com/flakegate/flakegate/core/ledger"
)

// Orders of the runs.
const (
	// OrderInterleave alternates the arms: b1 p1 b2 p2 ...
	OrderInterleave = "interleave"
	// OrderRandom runs the same pairs (b1 with p1, b2 with p2, ...), each
	// pair's two runs in an order drawn from the seed.
	OrderRandom = "random"
)

// Slot is one planned run: the i-th run (from 1) of an arm.
type Slot struct {
	Arm   string // ledger.ArmBaseline or ledger.ArmPatched
	Index int    // >= 1
}

// ID is the run's id in the ledger and in FLAKEGATE_RUN: b1, b2, ... for the
// baseline and p1, p2, ... for the patched arm, as the ledger names them.
func (s Slot) ID() string { return armPrefix(s.Arm) + strconv.Itoa(s.Index) }

func armPrefix(arm string) string {
	if arm == ledger.ArmBaseline {
		return "b"
	}
	return "p"
}

// Order returns the runs of arms (one or two arm names, baseline first) for
// runs 1..n of each, in the order they are run. The order of a pair depends
// only on the seed and the pair's index, so raising n on a later start keeps
// the order of the runs already planned.
func Order(arms []string, n int, order string, seed uint64) ([]Slot, error) {
	if order != OrderInterleave && order != OrderRandom {
		return nil, fmt.Errorf("order must be %s or %s, got %q", OrderInterleave, OrderRandom, order)
	}
	out := make([]Slot, 0, n*len(arms))
	for i := 1; i <= n; i++ {
		first := 0
		if order == OrderRandom && len(arms) == 2 {
			first = int(rand.New(rand.NewPCG(seed, uint64(i))).Uint64() >> 63)
		}
		for j := range arms {
			out = append(out, Slot{Arm: arms[(first+j)%len(arms)], Index: i})
		}
	}
	return out, nil
}
