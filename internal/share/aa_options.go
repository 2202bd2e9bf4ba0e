package share

import (
	"errors"
	"fmt"

	"github.com/flakegate/flakegate/core/aa"
	"github.com/flakegate/flakegate/core/aa/sim"
	"github.com/flakegate/flakegate/core/param"
)

// AAVersion is the version of the A/A states EncodeAA writes. Version 2
// holds the check's options (AAState.Options); version 1 held none, and
// its links were opened with the defaults of the time, aaFirstFormat.
const AAVersion = 2

// aaFirstFormat are the options a version-1 A/A state is opened with:
// aa.DefaultOptions as they were when that format was written. They are
// that format's, frozen: such a link opens with them whatever the
// defaults are today.
func aaFirstFormat() param.AAInput {
	o := aa.DefaultOptions
	o.Ks, o.Drops = []int{1, 2, 4, 8}, []float64{0.02, 0.03, 0.05}
	o.Depth.Drop, o.Depth.Seed, o.Simulate = 0.02, 1, nil
	return param.AAInput{Options: o, Seed: 1}
}

// simKeys are param.AA's simulation settings: written, and read, only
// when the state asks for the simulation (they mean nothing without it).
var simKeys = []string{"sets", "sim_k", "sim_drop", "broken"}

// AAInputOf is the schema's input of the check's options opt.
func AAInputOf(opt aa.Options) param.AAInput {
	in := param.AAInput{Options: opt, Seed: int64(opt.Depth.Seed), Sim: sim.DefaultOptions}
	if opt.Simulate != nil {
		in.Simulate, in.Sim = true, *opt.Simulate
	}
	return in
}

// AAOptionsText is the text of in an A/A state holds: every param.AA
// field's, the simulation's settings only with the simulation.
func AAOptionsText(in param.AAInput) map[string]string {
	t := param.AA.Text(in)
	if !in.Simulate {
		for _, k := range simKeys {
			delete(t, k)
		}
	}
	return t
}

// Input is the check's options the state holds: in version 2 its
// Options, each read by the one grammar (every field of param.AA must be
// there, the simulation's only with the simulation, and no other); in
// version 1 the first format's (aaFirstFormat).
func (s AAState) Input() (param.AAInput, error) {
	switch s.Version {
	case 1:
		if s.Options != nil {
			return param.AAInput{}, errors.New("share data: a version 1 state has no options")
		}
		return aaFirstFormat(), nil
	case AAVersion:
		if s.Options == nil {
			return param.AAInput{}, errors.New("share data: no options")
		}
		// Without the simulation its settings are not written (the
		// schema's check refuses them then).
		var optional []string
		if s.Options["simulate"] != "true" {
			optional = simKeys
		}
		return readOptions(param.AA, s.Options, optional...)
	}
	return param.AAInput{}, fmt.Errorf("share data: unknown version %d", s.Version)
}
