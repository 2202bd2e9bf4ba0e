package share

import (
	"errors"
	"fmt"
	"slices"

	"github.com/flakegate/flakegate/core/aa"
	"github.com/flakegate/flakegate/core/compare"
	"github.com/flakegate/flakegate/core/param"
)

// ComparePath is the comparison's view.
const ComparePath = "/compare"

// LeftComparison: a comparison's questions are past MaxFragment; there is
// no link, the logs go to the view instead.
const LeftComparison = "comparison"

// CompareVersion is the version of the comparison state StateOf writes.
// Version 2 holds every option of param.Compare as its text (Options);
// version 1 held Level, Power, Effect and ClusterField, each only when it
// was not the default of the time (compareFirstFormat), and no MaxListed.
const CompareVersion = 2

// compareFirstFormat are the options a version-1 comparison state left
// out, as compare.DefaultOptions were when that format was written. They
// are that format's, frozen: such a link opens with them whatever the
// defaults are today.
var compareFirstFormat = compare.Options{Level: 0.95, Power: 0.8, Effect: 0.02, MaxListed: 100}

// CompareState is the shareable state of a comparison: each side's
// questions (passes of trials, runs and rows left out), the clusters read
// from the logs and the options. A link carries it as "compare=" +
// Pack(it).
type CompareState struct {
	Version int        `json:"v"` // format version, 1 or CompareVersion
	A       []aa.Tally `json:"a"`
	B       []aa.Tally `json:"b"`
	// Options is each param.Compare field's text, every one of them
	// (version 2; nil in version 1).
	Options map[string]string `json:"options,omitempty"`
	// Level, Power, Effect and ClusterField are version 1's options: 0
	// or "" for the first format's default.
	Level        float64           `json:"level,omitempty"`
	Power        float64           `json:"power,omitempty"`
	Effect       float64           `json:"effect,omitempty"`
	ClusterField string            `json:"cluster_field,omitempty"`
	Clusters     map[string]string `json:"clusters,omitempty"`
}

// StateOf is the comparison of a and b with opt as a CompareState of
// CompareVersion.
func StateOf(a, b *aa.Side, opt compare.Options) CompareState {
	return CompareState{Version: CompareVersion, A: a.Scenarios, B: b.Scenarios,
		Options: param.Compare.Text(opt), Clusters: opt.Clusters}
}

// Check reports whether s is a state Sides can open: of a known version,
// and, in version 2, with the text of every option and of no other, each
// read by the one grammar.
func (s CompareState) Check() error {
	_, err := s.options()
	return err
}

// Sides and Options are the comparison a CompareState holds: the
// options the state writes, and for version 1 the first format's defaults
// for those it left out. s must pass Check; otherwise the options are
// today's defaults.
func (s CompareState) Sides() (a, b *aa.Side, opt compare.Options) {
	opt, err := s.options()
	if err != nil {
		opt = compare.DefaultOptions
	}
	opt.Clusters = s.Clusters
	return &aa.Side{Scenarios: s.A}, &aa.Side{Scenarios: s.B}, opt
}

// options are the state's options, without the clusters.
func (s CompareState) options() (compare.Options, error) {
	switch s.Version {
	case 1:
		opt := compareFirstFormat
		if s.Options != nil {
			return opt, errors.New("share data: a version 1 state has no options")
		}
		if s.Level != 0 {
			opt.Level = s.Level
		}
		if s.Power != 0 {
			opt.Power = s.Power
		}
		if s.Effect != 0 {
			opt.Effect = s.Effect
		}
		opt.ClusterField = s.ClusterField
		return opt, nil
	case CompareVersion:
		if s.Level != 0 || s.Power != 0 || s.Effect != 0 || s.ClusterField != "" {
			return compare.Options{}, errors.New("share data: a version 2 state has its options in options")
		}
		return readOptions(param.Compare, s.Options)
	}
	return compare.Options{}, fmt.Errorf("share data: unknown version %d", s.Version)
}

// readOptions reads the options a versioned state holds: the text of
// every field of the schema but those optional, and of no other (a link
// that names an option this build does not know would not show what it
// meant).
func readOptions[T any](s *param.Schema[T], text map[string]string, optional ...string) (T, error) {
	full := make(map[string]string, len(s.Fields))
	for _, f := range s.Fields {
		t, ok := text[f.Key]
		if !ok && slices.Contains(optional, f.Key) {
			continue
		}
		if !ok {
			return s.Default(), fmt.Errorf("share data: options: no %s", f.Key)
		}
		full[f.Key] = t
	}
	keys := make([]string, 0, len(text))
	for k := range text {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		if _, ok := s.Field(k); !ok {
			return s.Default(), fmt.Errorf("share data: options: unknown option %q", k)
		}
	}
	in, err := s.Parse(full)
	if err != nil {
		return in, fmt.Errorf("share data: options: %w", param.First(err))
	}
	return in, nil
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
	return packedView(ComparePath, "compare", enc, LeftComparison), nil
}
