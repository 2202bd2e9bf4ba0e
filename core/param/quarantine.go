package param

import (
	"github.com/flakegate/flakegate/core"
	"github.com/flakegate/flakegate/core/quarantine"
)

// QuarantineCheck is the schema of a quarantine check's options
// (quarantine.Options): its date, and the settings of the staleness test
// and of the rerun budget shown for each claim. Today has no default
// here: the surfaces give the clock's date (the CLI, the machine's; the
// API, the server's in UTC) when it is not given.
var QuarantineCheck = &Schema[quarantine.Options]{
	Name: "quarantine check",
	Fields: []Field{
		{Key: "today", Kind: Date,
			Doc: "the date of the check, YYYY-MM-DD: tests expire by it and no date in the registry may be after it; default: the clock's date"},
		{Key: "comparable", Kind: Fraction, Unit: "ratio",
			Doc: "least ratio of the trials since a claim to its trials that can make it stale, in (0,1]"},
		{Key: "target", Kind: Fraction, Unit: "fraction", Doc: "detection power of the rerun budget shown for each claim, in (0,1)"},
		{Key: "cap", Kind: Integer, Unit: "reruns", Doc: "reruns the gate allows today, for the rerun budget, >= 0"},
	},
	def: func() quarantine.Options { return quarantine.DefaultOptions },
	bind: func(o *quarantine.Options) map[string]any {
		return map[string]any{"today": &o.Today, "comparable": &o.Comparable,
			"target": &o.Budget.Target, "cap": &o.Budget.Cap}
	},
}

// releaseFields are the release rule's inputs: the rate to prove a test
// below, and the proof's confidence (its key given, for the add verb's
// claim has a confidence of its own).
func releaseFields(confidenceKey string) []Field {
	return []Field{
		{Key: "below", Kind: Fraction, Unit: "fraction", Doc: "the failure rate a test must be proven below to leave quarantine, in (0,1)"},
		{Key: confidenceKey, Kind: Fraction, Unit: "fraction", Doc: "the confidence of that proof, in (0,1)"},
	}
}

// QuarantineRelease is the schema of the release rule
// (quarantine.Release): the clean runs that prove a failure rate below
// a target.
var QuarantineRelease = &Schema[quarantine.Release]{
	Name:   "quarantine release",
	Fields: releaseFields("confidence"),
	def:    func() quarantine.Release { return quarantine.DefaultRelease },
	bind: func(r *quarantine.Release) map[string]any {
		return map[string]any{"below": &r.Below, "confidence": &r.Confidence}
	},
}

// QuarantineAddInput is the numbers of a quarantine: its release rule, and
// the confidence of the claim's Wilson interval.
type QuarantineAddInput struct {
	Release    quarantine.Release
	Confidence float64 // in (0,1)
}

// QuarantineAdd is the schema of the numbers a test is quarantined with.
var QuarantineAdd = &Schema[QuarantineAddInput]{
	Name:   "quarantine add",
	Fields: append(releaseFields("release_confidence"), withDoc(confidence, "the confidence of the claim's Wilson interval, in (0,1)")),
	def: func() QuarantineAddInput {
		return QuarantineAddInput{Release: quarantine.DefaultRelease, Confidence: core.DefaultConfidence}
	},
	bind: func(in *QuarantineAddInput) map[string]any {
		return map[string]any{"below": &in.Release.Below, "release_confidence": &in.Release.Confidence,
			"confidence": &in.Confidence}
	},
}
