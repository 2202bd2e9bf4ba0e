//go:build calculator

package aa

import (
	"github.com/flakegate/flakegate/core"
	"github.com/flakegate/flakegate/core/aa/sim"
)

// Simulate is left out of the calculator's build (-tags calculator,
// mk/web.mk): the page clears Options.Simulate before it checks, so it
// never gets here; the CLI and the API run the simulation (simulate.go).
func Simulate(base *Side, opt sim.Options) (*sim.Result, error) {
	return nil, &core.Error{Kind: core.Unusable, Field: "simulate", Msg: "the calculator does not run the simulation: use flakegate aa -simulate or the API"}
}
