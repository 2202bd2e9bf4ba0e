package quarantine

import (
	"github.com/flakegate/flakegate/core/gate"
)

// Version is the registry format this package reads and writes. A file of
// a later version is refused with a message to upgrade, never half read.
const Version = 1

// Limits of a registry, checked before any work is done on it.
const (
	MaxBytes     = 4 << 20 // bytes of a registry file
	MaxTests     = 10_000  // entries of a registry
	MaxIDBytes   = 4096    // bytes of a test id
	MaxTextBytes = 1000    // bytes of an owner or a reason
	// MaxCounted is the most run identities a registry remembers as
	// counted; past it the oldest are forgotten (a report older than
	// MaxCounted runs could then be counted again).
	MaxCounted = 5000
	// MaxRunIDBytes is the longest run identity: RunID writes 32.
	MaxRunIDBytes = 64
)

// Registry is the list of quarantined tests a team keeps in its repository:
// one Entry per test, sorted by test id when written, so that a change to
// one test is a change to a few lines.
type Registry struct {
	Version int     `json:"version"` // the format, Version
	Tests   []Entry `json:"tests"`   // at most MaxTests, ids unique
	// Counted are the runs a writing check has counted, by identity
	// (RunID): a run given again is never counted again. At most
	// MaxCounted, the newest kept; omitted when empty.
	Counted []CountedRun `json:"counted,omitempty"`
}

// CountedRun is a run a writing check counted: its identity and the day.
type CountedRun struct {
	Run  string `json:"run"`  // the run's identity, RunID: 1 to MaxRunIDBytes letters and digits, unique
	Date string `json:"date"` // the day of the check that counted it, YYYY-MM-DD, not after today
}

// Entry is one quarantined test: who owns it and why, until when, the
// frozen claim of its pass rate, and what it must prove to leave.
type Entry struct {
	// Test is the test's id as its reports name it: "pkg.TestName" or
	// "pkg.TestName/subtest" for go test -json, "classname.name" for JUnit.
	Test    string `json:"test"`
	Owner   string `json:"owner"`   // who answers for the test: a person or a team, not empty
	Reason  string `json:"reason"`  // why it is quarantined, in a sentence, not empty
	Opened  string `json:"opened"`  // the day it was quarantined, YYYY-MM-DD, not after today
	Expires string `json:"expires"` // the last day of the quarantine, YYYY-MM-DD, not before Opened
	// Claim is the frozen pass rate: passed of trials measured on its date,
	// with its Wilson interval at its confidence. The reader checks that the
	// rate and the interval match the counts.
	Claim   gate.Claim `json:"claim"`
	Release Release    `json:"release"`
	Since   Since      `json:"since"`
}

// Release is what a test must prove to leave quarantine, that its failure
// rate is below Below at Confidence, and the runs counted toward it. The
// proof holds however often the registry is checked (ReleaseProven): every
// run since the count started counts, failures included, and the count is
// never restarted, by a failure or by a replaced claim.
type Release struct {
	Below      float64 `json:"below"`      // failure rate to prove the test below, in (0,1)
	Confidence float64 `json:"confidence"` // confidence of the proof, in (0,1)
	// Runs is the runs of the test counted toward the release since the
	// count started (the quarantine, or for an entry written before runs
	// were counted, the first check that counted them), >= 0; omitted
	// while 0.
	Runs int64 `json:"runs,omitempty"`
	// Failed is the runs of Runs with a failure, in [0, Runs]; omitted
	// while 0.
	Failed int64 `json:"failed,omitempty"`
}

// Since is the evidence gathered after the claim: the trials of the test in
// every run checked since its date, those runs, and its clean runs in a
// row. The unit of evidence for a release is the independent run (a report
// file, or a run of a ledger): the executions of a test inside one run
// (go test -count=14) share its process and machine, so they are one run,
// clean only when every one of them passed.
type Since struct {
	Passed int64 `json:"passed"` // passing trials since the claim, in [0, Trials]
	Trials int64 `json:"trials"` // trials since the claim, >= Runs
	// Runs is the number of runs since the claim the test ran in, each of
	// at least one trial: in [0, Trials]. Omitted by registries written
	// before runs were counted, which read as 0.
	Runs int64 `json:"runs"`
	// Clean is the number of clean runs in a row at the end of the record
	// (runs in which every execution of the test passed): it restarts at 0
	// with every run that saw a failure since the test was quarantined. A
	// replaced claim does not restart it, so it is at most Runs plus the
	// claim's passes (the clean runs a replaced claim carries are among
	// them).
	Clean int64 `json:"clean"`
	// Checked is the day of the last check that counted trials,
	// YYYY-MM-DD, not after today; omitted before the first.
	Checked string `json:"checked,omitempty"`
}
