package share

import (
	"net/url"

	"github.com/flakegate/flakegate/core/param"
	"github.com/flakegate/flakegate/core/quarantine"
)

// QuarantinePath is the quarantine view: the clean runs a release rule
// needs, and the check of a registry of quarantined tests.
const QuarantinePath = "/quarantine"

// QuarantineFields are the quarantine view's inputs, in the form's order:
// the release rule of the clean-runs calculator and the date of the
// registry's check ("" for the day the page is opened).
var QuarantineFields = []Field{
	{"below", "0.01"}, {"confidence", "0.95"}, {"today", ""},
}

// LeftRegistry: the registry's check is past MaxFragment; the link holds
// the release rule and the date only, and the registry file must be shared
// with it.
const LeftRegistry = "registry"

// QuarantineState is the shareable state of a registry's check: the
// registry as it was checked, what the new reports said of its tests (nil
// when there were none) and the check's settings. quarantine.Check on
// these, with the view's date, gives every figure of the check exactly; a
// quarantine link carries it as "registry=" + Pack(state).
type QuarantineState struct {
	Version  int                  `json:"v"` // format version, 1
	Registry *quarantine.Registry `json:"registry"`
	Reports  *quarantine.Reports  `json:"reports,omitempty"`
	// Renames, Comparable, Target and Cap are the check's Options
	// (Renames, Comparable, Budget.Target, Budget.Cap).
	Renames    map[string]string `json:"renames,omitempty"`
	Comparable float64           `json:"comparable"`
	Target     float64           `json:"target"`
	Cap        int64             `json:"cap"`
}

// NewQuarantineState is the state of a check of reg against rep (nil for
// none) with opt, version 1, the registry in its canonical form.
func NewQuarantineState(reg *quarantine.Registry, rep *quarantine.Reports, opt quarantine.Options) QuarantineState {
	return QuarantineState{Version: 1, Registry: quarantine.Canonical(reg), Reports: rep, Renames: opt.Renames,
		Comparable: opt.Comparable, Target: opt.Budget.Target, Cap: opt.Budget.Cap}
}

// Options are the check's settings the state holds, on top of
// quarantine.DefaultOptions, for the date today.
func (s QuarantineState) Options(today string) quarantine.Options {
	opt := quarantine.DefaultOptions
	opt.Today, opt.Renames, opt.Comparable = today, s.Renames, s.Comparable
	opt.Budget.Target, opt.Budget.Cap = s.Target, s.Cap
	return opt
}

// EncodeQuarantine is the fragment value ("registry=" + it) of s.
func EncodeQuarantine(s QuarantineState) (string, error) {
	s.Version = 1
	return Pack(s)
}

// CleanRunsOf is the quarantine view of a release rule's answer.
func CleanRunsOf(r *quarantine.CleanRunsResult) View {
	return View{Path: QuarantinePath, Fragment: Form(QuarantineFields, map[string]string{
		"below": exact(r.Below), "confidence": exact(r.Confidence)})}
}

// Quarantine is the quarantine view of a registry's check on today with
// the state s (which holds every option of param.QuarantineCheck but the
// date, given here): the default release rule beside it. A state past
// MaxFragment is left out (LeftRegistry): the link then holds the date.
func Quarantine(today string, s QuarantineState) (View, error) {
	// The release rule at today's defaults, written out: the link keeps
	// them when they change.
	text := param.QuarantineRelease.Defaults()
	text["today"] = today
	v := View{Path: QuarantinePath, Fragment: Form(QuarantineFields, text)}
	enc, err := EncodeQuarantine(s)
	if err != nil {
		return v, err
	}
	if n := len(enc) + len("registry="); len(v.Fragment)+1+n > MaxFragment {
		v.Left, v.LeftBytes = LeftRegistry, n
		return v, nil
	}
	q, _ := url.ParseQuery(v.Fragment)
	q.Set("registry", enc)
	v.Fragment = q.Encode()
	return v, nil
}
