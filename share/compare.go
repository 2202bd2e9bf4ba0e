package share

import (
	"errors"

	"github.com/flakegate/flakegate/core/aa"
	"github.com/flakegate/flakegate/core/compare"
)

// ComparePath is the comparison's view.
const ComparePath = "/compare"

// LeftComparison: a comparison's questions are past MaxFragment; there is
// no link, the logs go to the view instead.
const LeftComparison = "comparison"

// CompareState is the shareable state of a comparison: each side's
// questions (passes of trials, runs and rows left out) and the settings
// that are not the defaults. A link carries it as "compare=" + Pack(it).
type CompareState struct {
	Version      int               `json:"v"` // format version, 1
	A            []aa.Tally        `json:"a"`
	B            []aa.Tally        `json:"b"`
	Level        float64           `json:"level,omitempty"`  // 0 for compare.DefaultOptions'
	Power        float64           `json:"power,omitempty"`  // 0 for the default
	Effect       float64           `json:"effect,omitempty"` // 0 for the default
	ClusterField string            `json:"cluster_field,omitempty"`
	Clusters     map[string]string `json:"clusters,omitempty"`
}

// StateOf is the comparison of a and b with opt as a CompareState.
func StateOf(a, b *aa.Side, opt compare.Options) CompareState {
	s := CompareState{Version: 1, A: a.Scenarios, B: b.Scenarios, ClusterField: opt.ClusterField, Clusters: opt.Clusters}
	d := compare.DefaultOptions
	if opt.Level != d.Level {
		s.Level = opt.Level
	}
	if opt.Power != d.Power {
		s.Power = opt.Power
	}
	if opt.Effect != d.Effect {
		s.Effect = opt.Effect
	}
	return s
}

// Sides and Options are the comparison a CompareState holds.
func (s CompareState) Sides() (a, b *aa.Side, opt compare.Options) {
	opt = compare.DefaultOptions
	if s.Level != 0 {
		opt.Level = s.Level
	}
	if s.Power != 0 {
		opt.Power = s.Power
	}
	if s.Effect != 0 {
		opt.Effect = s.Effect
	}
	opt.ClusterField, opt.Clusters = s.ClusterField, s.Clusters
	return &aa.Side{Scenarios: s.A}, &aa.Side{Scenarios: s.B}, opt
}

// Compare is the comparison's view. Past MaxFragment the view has no link
// (LeftComparison).
func Compare(a, b *aa.Side, opt compare.Options) (View, error) {
	if a == nil || b == nil {
		return View{}, errors.New("share: a comparison needs both sides")
	}
	enc, err := Pack(StateOf(a, b, opt))
	if err != nil {
		return View{}, err
	}
	v := View{Path: ComparePath}
	if n := len(enc) + len("compare="); n > MaxFragment {
		v.Left, v.LeftBytes = LeftComparison, n
		return v, nil
	}
	v.Fragment = "compare=" + enc
	return v, nil
}
